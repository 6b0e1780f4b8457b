/*
 * frame_decode: arbitrary bytes as an LZ4 frame stream, decoded by the
 * subject's streaming frame decoder (LZ4F_decompress, fed in drawn input
 * chunks with drawn output room: harness/frame_driver.h) and by ref's
 * one-shot frame decoder restricted to the formats LZ4F knows (LZ4 and
 * skippable frames). Verdict: ref's one rule
 * (harness/runners/common/judge.h) on the whole stream, completing being
 * accepting:
 *   - not completing (an error, or input ended inside a frame) is a finding
 *     only where ref's strict profile decodes the stream (a block with 3
 *     final literals or an offset-0 match breaks a strict rule, and lz4
 *     1.9.4 rejects it as the block format allows: issue 23);
 *   - completing is a finding where ref's compatible profile rejects the
 *     stream, unless a row of ref's latitude table allows it
 *     (DICT_ID_WITHOUT_DICTIONARY), or where the bytes are not ref's;
 *   - never: a stall, an output size or consumed size above what was
 *     offered, more output than ref's capacity (FRAME_DRIVE_* outcomes).
 *
 * Input: [32-byte header][stream]; a shorter input is all payload, its
 * header drawn from a hash of its bytes (params.h, fp_init_block). Header,
 * in draw order (params.h):
 *   u8   flags: bit 0 decode with a dictionary (for Dict-ID frames and
 *        frames compressed on one); bits 1 and 7 both set: the stream is
 *        a frame ref makes (below) of data fz_synth makes from the payload
 *        as description, else the payload itself (a made frame costs ten
 *        decodes of arbitrary bytes: one input in four); bit 2 input fed
 *        FRAME_FEED_REFILL (each chunk used up before the next), else
 *        FRAME_FEED_SLIDE (topped up every call: frame_driver.h)
 *   u32  input chunk: 0 = all at once, else 1 + value % stream size
 *   u32  output room per call: 0 = room for all of ref's output (LZ4F then
 *        decodes straight into dst), else 1 + value % 64 KiB (its buffered
 *        path)
 *   u8+u32  dictionary size (fp_dict_len)  (with flag bit 0)
 *   u64  dictionary seed                    (with flag bit 0)
 * and at bytes 22..31, for a made frame (flag bit 1):
 *   u8   frame options: bit 0 block checksums, bit 1 content checksum, bit 2
 *        content size, bit 3 linked blocks, bit 4 uncompressed blocks, bits
 *        5-6 block maximum 64 KiB .. 4 MiB (BD 4 + v) when bit 7 is set,
 *        else 64 KiB (LZ4F's decoder allocates a buffer of the block
 *        maximum per context: 4 MiB on every input was most of its time)
 *   u8+u32  data size: fz_synth_size(sel, value, 4 KiB, 1 MiB) (synth.h);
 *        its large classes (sel >= FZ_SYNTH_SEL_LARGE: up to 1 MiB) only for
 *        1 input in 16, by a hash of the whole input (large_allowed), so
 *        that libFuzzer's mutations of a large input are mostly small
 *        again (issue 15: a 1 MiB frame decoded 256 bytes per call, input
 *        fed SLIDE, took 53 s)
 *   u32  damage: (v & 3) == 0 none, else the byte at (v >> 2) % size is
 *        XORed with (v >> 24) | 1: a valid frame with one wrong byte, the
 *        input that reaches each check of a frame (checksums, sizes, flags)
 *        from an empty corpus within seconds
 */
#include <stdlib.h>
#include <string.h>

#include "frame_driver.h"
#include "oracle.h"
#include "subject.h"
#include "params.h"
#include "lz4frame_ref.h"
#include "synth.h"
#include "judge.h"

FZ_TARGET("frame_decode");
FZ_NEEDS(CAP_FRAME_DECOMPRESS);

#define HEADER 32
#define MADE_AT 22
#define MAX_MADE ((size_t)1 << 20)

/* Large made frames (header): the top 4 bits of a hash of the input are 0.
 * Not instrumented: comparisons libFuzzer traces would be solved for. */
static FZ_NO_COVERAGE int large_allowed(const uint8_t *data, size_t size)
{
    return fp_hash_tier(data, size, 1) == 1;
}

/* A frame of fz_synth data (header bytes MADE_AT..), maybe damaged; its
 * length in *n (0: none). Valid until the next call. */
static const uint8_t *made_frame(fuzz_params *fp, const uint8_t *dict, size_t dict_len,
                                 int large_ok, size_t *n)
{
    ref_frame_prefs p;
    uint8_t opt, sel, *data, *frame;
    uint32_t size_v, damage;
    size_t len, cap;
    fp->pos = MADE_AT;
    opt = fp_u8(fp);
    sel = fp_u8(fp);
    size_v = fp_u32(fp);
    damage = fp_u32(fp);
    if (sel >= FZ_SYNTH_SEL_LARGE && !large_ok)
        sel = 0;
    len = fz_synth_size(sel, size_v, 4096, MAX_MADE);
    data = fz_scratch(2, len + 1);
    fz_synth(data, len, fp->payload, fp->payload_len, size_v ^ (uint64_t)damage << 32);
    ref_frame_prefs_default(&p);
    p.block_checksum = opt & 1;
    p.content_checksum = (opt >> 1) & 1;
    p.content_size = (opt >> 2) & 1;
    p.linked_blocks = (opt >> 3) & 1;
    p.uncompressed = (opt >> 4) & 1;
    p.block_max = (opt & 128) ? 4 + ((opt >> 5) & 3) : 4;
    p.dict = dict;
    p.dict_len = dict_len;
    cap = ref_frame_bound(len, &p);
    frame = fz_scratch(3, cap + 1);
    *n = cap ? ref_frame_encode(&p, data, len, frame, cap) : 0;
    if (*n == 0)
        fz_fail("ref_frame_encode failed (%zu bytes, options 0x%02x)", len, opt);
    if (damage & 3)
        frame[(damage >> 2) % *n] ^= (uint8_t)((damage >> 24) | 1);
    return frame;
}
#define MAX_OUT ((size_t)32 << 20)   /* streams that decode to more are skipped */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    uint8_t flags, *stream, *want, *got;
    uint32_t in_raw, out_raw;
    size_t n, dict_len = 0, in_chunk, out_chunk;
    const uint8_t *dict = NULL;
    ref_frame_options o;
    ref_frame_result ref;
    judge_ref view;
    frame_drive d;
    void *dctx;

    fz_input(data, size);
    if (!(s->caps & CAP_FRAME_DECOMPRESS) || fz_skip("frame_decompress"))
        return 0;
    fp_init_block(&fp, data, size, HEADER);
    flags = fp_u8(&fp);
    in_raw = fp_u32(&fp);
    out_raw = fp_u32(&fp);
    if (flags & 1) {
        dict_len = fp_dict_len(&fp);
        dict = fz_dict(dict_len, fp_u64(&fp));
        if (!(s->caps & CAP_FRAME_DECOMPRESS_DICT))
            return 0;
    }
    if ((flags & 0x82) == 0x82) {
        const uint8_t *f = made_frame(&fp, dict, dict_len, large_allowed(data, size), &n);
        stream = fz_dup(f, n);
    } else {
        n = fp.payload_len;
        if (n == 0)
            return 0;   /* LZ4F waits for a magic number; ref: no frame, nothing to compare */
        stream = fz_dup(fp.payload, n);
    }
    in_chunk = in_raw ? 1 + in_raw % n : 0;
    out_chunk = out_raw ? 1 + out_raw % 65536 : 0;

    ref_frame_options_default(&o);
    o.formats = REF_FORMAT_LZ4 | REF_FORMAT_SKIPPABLE;   /* what LZ4F decodes */
    o.dict = dict;
    o.dict_len = dict_len;
    want = fz_scratch(0, MAX_OUT);
    view = judge_ref_frames(&o, stream, n, want, MAX_OUT, &ref);
    if (ref.status == REF_FRAME_ERR_OUTPUT_FULL) {
        free(stream);
        return 0;
    }

    got = fz_scratch(1, MAX_OUT + 1);
    dctx = s->frame_dctx_create();
    if (!dctx)
        fz_fail("the subject could not create a decompression context");
    if (!out_chunk)   /* all of ref's output, and some (or a little, if ref rejects) */
        out_chunk = ref.written + 64;
    d = frame_drive_decode_fed(s, dctx, stream, n, in_chunk, out_chunk, dict, dict_len, got,
                               MAX_OUT + 1, (flags & 4) ? FRAME_FEED_REFILL : FRAME_FEED_SLIDE);
    s->frame_dctx_free(dctx);

    if (d.outcome == FRAME_DRIVE_STALLED || d.outcome == FRAME_DRIVE_CONTRACT ||
        d.outcome == FRAME_DRIVE_OUTPUT_FULL)
        fz_finding(frame_drive_outcome_class(d.outcome), "frame_decompress",
                   "%zu-byte stream, input chunks %zu, output room %zu: %s after %zu bytes in, "
                   "%zu out; ref: %s", n, in_chunk, out_chunk,
                   frame_drive_outcome_name(d.outcome), d.consumed, d.written,
                   ref_frame_status_name(ref.status));
    switch (judge_output(&view, d.outcome == FRAME_DRIVE_COMPLETE, got, d.written)) {
    case JUDGE_PASS:
        fz_consume(got, d.written);
        break;
    case JUDGE_REJECTS_VALID:
        fz_finding(FAIL_REJECTS_VALID, "frame_decompress",
                   "ref (strict) decodes the %zu-byte stream to %zu bytes (%u frames); the "
                   "subject: %s%s%s after %zu bytes in, %zu out", n, ref.written, ref.frames,
                   frame_drive_outcome_name(d.outcome),
                   d.outcome == FRAME_DRIVE_ERROR ? " " : "",
                   d.outcome == FRAME_DRIVE_ERROR ? s->frame_error_name(d.error) : "",
                   d.consumed, d.written);
        break;
    case JUDGE_WRONG_OUTPUT:
        fz_finding(FAIL_WRONG_OUTPUT, "frame_decompress",
                   "ref decodes %zu bytes, the subject returned %zu%s", ref.written,
                   d.written, d.written == ref.written ? " different bytes" : "");
        break;
    case JUDGE_ACCEPTS_INVALID:
    case JUDGE_OTHER_OUTPUT:
        if (ref.status == REF_FRAME_ERR_DICT_MISSING && !dict)
            (void)fz_latitude("DICT_ID_WITHOUT_DICTIONARY");
        else
            fz_finding(FAIL_ACCEPTS_INVALID, "frame_decompress",
                       "ref rejects the %zu-byte stream with %s (check %s) at byte %llu; the "
                       "subject decoded it completely to %zu bytes", n,
                       ref_frame_status_name(ref.status), ref_frame_check_name(ref.failed_check),
                       (unsigned long long)ref.consumed, d.written);
        break;
    }
    free(stream);
    return 0;
}
