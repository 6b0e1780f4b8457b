/*
 * legacy_decode: arbitrary bytes as a legacy-frame stream (lz4 -l, the
 * kernel's compressed initramfs), decoded by the subject's unlz4()
 * (lib/decompress_unlz4.c) and by ref's frame decoder restricted to legacy
 * frames. Verdict: ref's one rule (harness/runners/common/judge.h) on
 * the stream unlz4 reads: its failure is a finding only where ref's strict
 * profile decodes the stream, its success only where ref's compatible
 * profile rejects it or decodes other bytes (offset 0, which the kernel's
 * decoder rejects and liblz4 accepts, is neither).
 *
 * unlz4 runs in fill mode (input handed out by a fill callback, which
 * returns less than asked only at the end, as the kernel's callers do) on
 * the whole stream, and in buffer mode on the prefix it decodes: buffer
 * mode stops at a zero word (padding the caller skips, KLZ4-UNLZ4-PAD) or
 * when fewer than 4 bytes are left; it is run only when every chunk fits
 * in the input (the latitude UNLZ4_TRUSTED_CHUNK_SIZES, KLZ4-UNLZ4-CHUNK).
 * Output goes to a flush callback.
 *
 * Input: [8-byte header][stream]; a shorter input is all payload, its
 * header drawn from a hash of its bytes (params.h, fp_init_block). Header
 * (params.h):
 *   u8      flags: bit 0 skip buffer mode, bit 1 skip fill mode; bit 2 the
 *           stream is a legacy frame ref makes of data fz_synth makes from
 *           the payload as description (synth.h), else the payload itself;
 *           a made stream runs one mode (bit 3: buffer, else fill) when
 *           bits 0-1 ask for both (each unlz4 call allocates 16 MiB)
 *   u8+u32  made frame: data size fz_synth_size(sel, value, 4 KiB, 1 MiB)
 *   u16     made frame: damage: (v & 3) == 0 none, else the byte at
 *           (v >> 2) % size XORed with 0x80 (a valid frame with one wrong
 *           byte: from an empty corpus, streams that reach unlz4's chunk
 *           loop and its flushes within seconds)
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "subject.h"
#include "params.h"
#include "lz4frame_ref.h"
#include "synth.h"
#include "judge.h"

FZ_TARGET("legacy_decode");
FZ_NEEDS(CAP_UNLZ4);

#define MAX_MADE ((size_t)1 << 20)

/* A legacy frame of fz_synth data (header bytes 1..7), maybe damaged; its
 * length in *n. Valid until the next call. */
static const uint8_t *made_stream(fuzz_params *fp, size_t *n)
{
    uint8_t sel = fp_u8(fp), *data, *frame;
    uint32_t size_v = fp_u32(fp);
    unsigned damage = fp_u16(fp);
    size_t len = fz_synth_size(sel, size_v, 4096, MAX_MADE), cap = ref_legacy_bound(len);
    data = fz_scratch(3, len + 1);
    fz_synth(data, len, fp->payload, fp->payload_len, size_v);
    frame = fz_scratch(4, cap + 1);
    *n = ref_legacy_encode(data, len, frame, cap, 1);
    if (*n == 0)
        fz_fail("ref_legacy_encode failed (%zu bytes)", len);
    if (damage & 3)
        frame[(damage >> 2) % *n] ^= 0x80;
    return frame;
}

#define HEADER 8
#define MAX_OUT ((size_t)48 << 20)

static uint8_t *out_buf;
static size_t out_len, fill_left;
static const uint8_t *fill_src;
static int out_overflow;

static long collect(void *buf, unsigned long size)
{
    if (size > MAX_OUT - out_len) {
        out_overflow = 1;
        return -1;
    }
    memcpy(out_buf + out_len, buf, size);
    out_len += size;
    return (long)size;
}

static long serve(void *buf, unsigned long size)
{
    size_t n = size < fill_left ? size : fill_left;   /* short only at the end */
    memcpy(buf, fill_src, n);
    fill_src += n;
    fill_left -= n;
    return (long)n;
}

static void quiet_error(char *msg) { (void)msg; }

/* Buffer mode (in_len known) ends successfully where fewer than 4 bytes
 * are left at a word boundary, or at a zero chunk-size word (the padding
 * the caller skips, KLZ4-UNLZ4-PAD); it reads each word and chunk without
 * checking in_len first (KLZ4-UNLZ4-CHUNK). Returns the length of the
 * prefix it decodes, or 0 when a chunk would reach past the input (not
 * compared: UNLZ4_TRUSTED_CHUNK_SIZES). */
static size_t buffer_mode_prefix(const uint8_t *p, size_t n)
{
    size_t at = 4;
    if (n < 4)
        return 0;
    while (n - at >= 4) {
        uint32_t v = (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 |
                     (uint32_t)p[at + 3] << 24;
        if (v == 0)
            break;
        at += 4;
        if (v == REF_LEGACY_MAGIC)
            continue;
        if (v > n - at)
            return 0;
        at += v;
    }
    return at;
}

static void judge(const char *mode, int r, const judge_ref *view, const ref_frame_result *ref,
                  size_t n)
{
    const char *entry = !strcmp(mode, "fill") ? "unlz4(fill)" : "unlz4(buffer)";
    if (out_overflow)
        return;   /* more than MAX_OUT: not compared */
    switch (judge_output(view, r == 0, out_buf, out_len)) {
    case JUDGE_PASS:
        fz_consume(out_buf, out_len);
        break;
    case JUDGE_WRONG_OUTPUT:
        fz_finding(FAIL_WRONG_OUTPUT, entry, "%zu-byte stream: ref decodes %zu bytes, unlz4 "
                   "flushed %zu%s", n, ref->written, out_len,
                   out_len == ref->written ? " different bytes" : "");
        fz_consume(out_buf, out_len);
        break;
    case JUDGE_REJECTS_VALID:
        fz_finding(FAIL_REJECTS_VALID, entry, "%zu-byte stream: ref (strict) decodes %zu bytes "
                   "(%u members); unlz4 returned %d after flushing %zu", n, ref->written,
                   ref->frames, r, out_len);
        break;
    case JUDGE_ACCEPTS_INVALID:
    case JUDGE_OTHER_OUTPUT:
        fz_finding(FAIL_ACCEPTS_INVALID, entry, "%zu-byte stream: ref rejects it with %s "
                   "(check %s) at byte %llu; unlz4 returned 0 and flushed %zu bytes", n,
                   ref_frame_status_name(ref->status), ref_frame_check_name(ref->failed_check),
                   (unsigned long long)ref->consumed, out_len);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    uint8_t flags, *stream, *want;
    size_t n, prefix;
    ref_frame_options o;
    ref_frame_result ref;
    judge_ref view;
    long pos;
    int r;

    fz_input(data, size);
    if (!(s->caps & CAP_UNLZ4))
        return 0;
    (void)fz_latitude("UNLZ4_TRUSTED_CHUNK_SIZES");
    fp_init_block(&fp, data, size, HEADER);
    flags = fp_u8(&fp);
    if (flags & 4) {
        const uint8_t *f = made_stream(&fp, &n);
        stream = fz_dup(f, n);
        if (!(flags & 3))
            flags |= (flags & 8) ? 2 : 1;
    } else {
        n = fp.payload_len;
        if (n > INT_MAX)
            return 0;
        stream = fz_dup(fp.payload, n);
    }
    out_buf = fz_scratch(0, MAX_OUT);
    ref.status = REF_FRAME_OK;

    /* Fill mode reads the whole stream: ref on all of it (legacy frames
     * only, no padding: a zero word is a chunk size, and an error). */
    ref_frame_options_default(&o);
    o.formats = REF_FORMAT_LEGACY;
    want = fz_scratch(1, MAX_OUT);
    if (!(flags & 2) && !fz_skip("unlz4(fill)")) {
        view = judge_ref_frames(&o, stream, n, want, MAX_OUT, &ref);
        if (ref.status != REF_FRAME_ERR_OUTPUT_FULL && n) {
            fill_src = stream;
            fill_left = n;
            out_len = 0;
            out_overflow = 0;
            pos = 0;
            r = s->unlz4(NULL, 0, serve, collect, NULL, &pos, quiet_error);
            judge("fill", r, &view, &ref, n);
        }
    }
    /* Buffer mode: ref on the prefix unlz4 decodes. */
    if (!(flags & 1) && !fz_skip("unlz4(buffer)") && (prefix = buffer_mode_prefix(stream, n))) {
        view = judge_ref_frames(&o, stream, prefix, want, MAX_OUT, &ref);
        if (ref.status != REF_FRAME_ERR_OUTPUT_FULL) {
            out_len = 0;
            out_overflow = 0;
            pos = 0;
            r = s->unlz4(stream, (long)n, NULL, collect, NULL, &pos, quiet_error);
            judge("buffer", r, &view, &ref, prefix);
        }
    }
    free(stream);
    return 0;
}
