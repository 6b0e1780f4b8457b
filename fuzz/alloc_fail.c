/*
 * alloc_fail: the subject's N-th own allocation fails (subject.h
 * alloc_fail_at; N drawn, 0: none fails) during one drawn operation. The
 * subject must not crash (ASan/UBSan, guard pages), must report a clean
 * error (0 from a compressor, NULL from a constructor, an LZ4F error, -1
 * from unlz4), and what it produced without an error must be right (ref
 * decodes it to the input). With N = 0 nothing may fail at all.
 *
 * Operations (op % 5; skipped when the subject lacks the entry point):
 *   0 LZ4_compress_HC: the HEAPMODE state (ULZ4-2021-HCNULL) and, at 10+,
 *     the optimal parser's table
 *   1 a streaming compression (stream_driver.h: LZ4_createStream(HC), the
 *     dictionary stream of an attach), then LZ4_createStreamDecode and the
 *     subject decodes its own stream
 *   2 LZ4F: compressFrame (its context on the heap), then a decompression
 *     context and its buffers (LZ4F_createDecompressionContext, dstage_init)
 *   3 LZ4F with a custom memory manager (CAP_FRAME_CUSTOM_MEM,
 *     ULZ4-2025-62813): one cctx for 1-4 frames, each Begin (with a CDict
 *     from LZ4F_createCDict_advanced) / Update / End, the context reused
 *     after a failed Begin; then a custom-memory dctx decodes ref's frame.
 *     A frame on a context an earlier frame of which failed is compressed
 *     with faults near NULL caught: such a fault is the finding
 *     null_state_reuse@frame_compress_stream (ULZ4-LZ4F-ALLOCFAIL-REUSE:
 *     lz4 1.8.0 to 1.10.0 and dev keep the record of a state they freed
 *     and could not reallocate, and use the NULL pointer in the next
 *     fast-level frame), recorded like any oracle finding (counted,
 *     listed, known only where documented) so that a campaign keeps
 *     going. Any other fault goes to the sanitizer's handler as usual.
 *   4 unlz4 (kernel lib/decompress_unlz4.c): its vmalloc'd buffers in fill
 *     and flush mode
 *
 * Input: [20-byte header][data]. Header, in draw order (params.h):
 *   u8 op; u32 fail_at (v % 25); u8 level (i8: HC level / LZ4F level /
 *   acceleration); u8 flags (bit 0 customCalloc given, bit 1 dictionary,
 *   bit 2 independent blocks, bit 3 content checksum, bits 4-5 block size
 *   id 4 + v, bit 6 HC stream, bit 7 attach); u8 frames (1 + v % 4);
 *   u32 dictionary size (v % 70000, fz_fill_dict(seed)); u64 seed.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame_driver.h"
#include "frame_make.h"
#include "lz4frame_ref.h"
#include "lz4ref.h"
#include "oracle.h"
#include "params.h"
#include "stream_driver.h"
#include "subject.h"
#include "judge.h"

FZ_TARGET("alloc_fail");
FZ_NEEDS(CAP_ALLOC_FAIL);

#define HEADER 20
#define MAX_DATA (256u * 1024u)

typedef struct draw {
    unsigned op;
    unsigned long fail_at;
    int level;
    unsigned flags, frames;
    const uint8_t *dict;
    size_t dict_len;
    const uint8_t *data;
    size_t n;
} draw;

/* A failure the subject reported where none was made to happen. */
static int armed(const draw *d) { return d->fail_at != 0; }

/* Whether ref decodes block[0..len) to want[0..n) (strict). */
static int ref_block_ok(const uint8_t *block, size_t len, const uint8_t *want, size_t n)
{
    uint8_t *out = fz_scratch(0, n + 1);
    ref_decode_params q;
    ref_decode_result r;
    memset(&q, 0, sizeof q);
    q.src = block;
    q.src_len = len;
    q.dst = out;
    q.dst_cap = n;
    q.profile = REF_PROFILE_STRICT;
    r = ref_decode(&q);
    return r.status == REF_OK && r.written == n && memcmp(out, want, n) == 0;
}

static void op_hc(const struct lz4_subject *s, const draw *d)
{
    int cap = (int)ref_compress_bound(d->n), r;
    uint8_t *dst;
    if (!(s->caps & CAP_COMPRESS_HC) || fz_skip("compress_hc"))
        return;
    dst = fz_scratch(1, (size_t)cap);
    r = s->compress_hc((const char *)d->data, (char *)dst, (int)d->n, cap, d->level);
    if (r < 0 || r > cap || (r == 0 && !armed(d)))
        fz_finding(r == 0 ? FAIL_FAILS_WITHIN_BOUND : FAIL_RETURN_ABOVE_CAPACITY, "compress_hc",
                   "%zu bytes, level %d, allocation %lu fails: returned %d (capacity %d)",
                   d->n, d->level, d->fail_at, r, cap);
    else if (r > 0 && !ref_block_ok(dst, (size_t)r, d->data, d->n))
        fz_finding(FAIL_BAD_BLOCK, "compress_hc", "%zu bytes, level %d, allocation %lu fails: "
                   "the %d-byte block does not decode to the input", d->n, d->level,
                   d->fail_at, r);
}

/* What a stream run reports that is a clean error when an allocation was
 * made to fail: a constructor's NULL, or a compressor's 0 (LZ4HC levels 10+
 * allocate the optimal parser's table in every call, LZ4HC_HEAPMODE, and
 * return 0 when it fails; lz4.h: 0 is the compressors' failure). */
static int clean_stream_error(const stream_result *res, const draw *d)
{
    return armed(d) && (res->cls == FAIL_CREATE_FAILED || res->cls == FAIL_FAILS_WITHIN_BOUND);
}

/* A stream of 2-4 blocks over the data. */
static void op_stream(const struct lz4_subject *s, const draw *d)
{
    stream_plan p;
    stream_blocks b;
    stream_result res;
    size_t i, at = 0, k;
    memset(&p, 0, sizeof p);
    p.hc = (d->flags >> 6) & 1;
    p.param = p.hc ? d->level % 13 : 1 + abs(d->level) % 8;
    p.mode = SM_PREFIX;
    p.dict[0] = d->dict;
    p.dict_len[0] = d->dict_len;
    p.nsteps = 2 + d->frames % 3;
    for (i = 0; i < p.nsteps; i++) {
        k = i + 1 == p.nsteps ? d->n - at : d->n / p.nsteps;
        p.step[i].size = k;
        p.step[i].event = i ? SE_NONE : d->dict ? ((d->flags & 128) ? SE_ATTACH : SE_LOAD_DICT)
                                                : SE_RESET;
        p.step[i].cap_delta = 16;
        at += k;
    }
    if (!stream_plan_fit(s, &p) ||
        fz_skip(p.hc ? "stream_compress_hc" : "stream_compress"))
        return;
    res = stream_subject_compress(s, &p, d->data, &b);
    if (res.block >= 0 && !clean_stream_error(&res, d))
        fz_finding(res.cls, p.hc ? "stream_compress_hc" : "stream_compress",
                   "allocation %lu fails: %s", d->fail_at, res.msg);
    if (res.block < 0) {
        res = stream_ref_decode(&p, &b);
        if (res.block >= 0)
            fz_finding(res.cls, "stream_compress", "allocation %lu fails: %s", d->fail_at,
                       res.msg);
        if (res.block < 0 && (s->caps & CAP_STREAM_DECOMPRESS) && !fz_skip("stream_decompress")) {
            res = stream_subject_decode(s, &p, &b, DM_PREFIX, 0, -1, 0, 0);
            if (res.block >= 0 && !clean_stream_error(&res, d))
                fz_finding(res.cls, "stream_decompress", "allocation %lu fails: %s",
                           d->fail_at, res.msg);
        }
    }
    stream_blocks_free(&b);
}

static void prefs_of(const draw *d, struct subject_frame_prefs *p)
{
    memset(p, 0, sizeof *p);
    p->block_size_id = 4 + (int)((d->flags >> 4) & 3);
    p->block_independent = (d->flags >> 2) & 1;
    p->content_checksum = (d->flags >> 3) & 1;
    p->level = d->level;
}

/* ref's frame of the data, for the decoders (malloc'd; *len its size). */
static uint8_t *ref_frame_of(const draw *d, size_t *len)
{
    ref_frame_prefs rp;
    size_t cap;
    uint8_t *frame;
    memset(&rp, 0, sizeof rp);
    rp.block_max = 4 + (int)((d->flags >> 4) & 3);
    rp.linked_blocks = !((d->flags >> 2) & 1);
    rp.content_checksum = (d->flags >> 3) & 1;
    cap = ref_frame_bound(d->n, &rp);
    frame = fz_alloc(cap ? cap : 1);
    *len = ref_frame_encode(&rp, d->data, d->n, frame, cap);
    if (!*len)
        fz_fail("ref_frame_encode failed on %zu bytes", d->n);
    return frame;
}

/* The subject decodes ref's frame with dctx (made while failures are armed). */
static void frame_decode_check(const struct lz4_subject *s, const draw *d, void *dctx,
                               const char *entry)
{
    size_t len;
    uint8_t *frame = ref_frame_of(d, &len), *out = fz_scratch(2, d->n + 1);
    frame_drive r;
    judgement v;
    r = frame_drive_decode(s, dctx, frame, len, 0, d->n + 64, NULL, 0, out, d->n + 1);
    /* ref's frame is valid, strict (ref's encoder): ref's one verdict
     * (judge.h) leaves the subject no other result than the data. */
    v = judge_decode(r.outcome == FRAME_DRIVE_COMPLETE,
                   r.written == d->n && (d->n == 0 || memcmp(out, d->data, d->n) == 0), 1, 1);
    if (r.outcome == FRAME_DRIVE_ERROR && armed(d))
        ;   /* a clean error: the allocation failed */
    else if (v != JUDGE_PASS)
        fz_finding(judgement_class(v), entry,
                   "ref's %zu-byte frame of %zu bytes, allocation %lu fails: %s%s%s",
                   len, d->n, d->fail_at, frame_drive_outcome_name(r.outcome),
                   r.outcome == FRAME_DRIVE_ERROR ? " " : "",
                   r.outcome == FRAME_DRIVE_ERROR ? s->frame_error_name(r.error) : "");
    free(frame);
}

static void op_frame(const struct lz4_subject *s, const draw *d)
{
    struct subject_frame_prefs p;
    void *dctx;
    prefs_of(d, &p);
    if ((s->caps & CAP_FRAME_COMPRESS) && !fz_skip("frame_compress")) {
        size_t cap = s->frame_compress_bound(d->n, &p);
        uint8_t *dst = fz_scratch(1, cap ? cap : 1);
        long long r;
        r = s->frame_compress(d->data, d->n, dst, cap, &p);
        if ((r < 0 && !armed(d)) || r > (long long)cap)
            fz_finding(FAIL_FRAME_ERROR, "frame_compress", "%zu bytes, level %d, allocation %lu "
                       "fails: %lld (capacity %zu)", d->n, p.level, d->fail_at, r, cap);
        else if (r >= 0 && !frame_ref_decodes_to(dst, (size_t)r, d->data, d->n, NULL, 0,
                                                 "frame_compress", NULL, 0))
            fz_finding(FAIL_BAD_FRAME, "frame_compress", "%zu bytes, allocation %lu fails: the "
                       "frame does not decode to the input", d->n, d->fail_at);
    }
    if (!(s->caps & CAP_FRAME_DECOMPRESS) || fz_skip("frame_decompress"))
        return;
    dctx = s->frame_dctx_create();
    if (!dctx) {
        if (!armed(d))
            fz_finding(FAIL_CREATE_FAILED, "frame_decompress", "no context, no failure made");
        return;
    }
    frame_decode_check(s, d, dctx, "frame_decompress");
    s->frame_dctx_free(dctx);
}

/* A fault below this address is a NULL-based state: every field of
 * LZ4_stream_t (16 KiB) and LZ4_streamHC_t (256 KiB) lies within it, and
 * Linux maps nothing there (vm.mmap_min_addr, 64 KiB, then the binary). */
#define NULL_SPAN ((uintptr_t)1 << 20)

static sigjmp_buf reuse_jump;
static volatile sig_atomic_t reuse_guarded;
static void *volatile reuse_addr;
static struct sigaction reuse_saved;
static uint8_t *reuse_frame;   /* static: still known after the jump */

static void reuse_fault(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    if (reuse_guarded && (uintptr_t)si->si_addr < NULL_SPAN) {
        reuse_addr = si->si_addr;
        siglongjmp(reuse_jump, 1);
    }
    /* Anything else: back to the handler there was (the sanitizer's); the
     * faulting instruction runs again and is reported there. */
    sigaction(SIGSEGV, &reuse_saved, NULL);
}

/* frame_compress_chunked on a context an earlier frame of which failed
 * (ULZ4-LZ4F-ALLOCFAIL-REUSE); 1 when it faulted near NULL. */
static int reuse_frame_faults(const struct lz4_subject *m, void *cctx,
                              const struct subject_frame_prefs *p, const draw *d, long long *r)
{
    struct sigaction sa;
    int faulted = 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = reuse_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &reuse_saved);
    if (sigsetjmp(reuse_jump, 1) == 0) {
        reuse_guarded = 1;
        *r = frame_compress_chunked(m, cctx, p, d->dict, d->dict_len, d->data, d->n,
                                    d->n / 2 + 1, &reuse_frame);
    } else {
        faulted = 1;
    }
    reuse_guarded = 0;
    sigaction(SIGSEGV, &reuse_saved, NULL);
    return faulted;
}

/* op 3: the frame_mem_* slots through frame_compress_chunked (a table
 * whose stream compressor slots are the custom-memory ones). */
static void op_frame_mem(const struct lz4_subject *s, const draw *d)
{
    struct lz4_subject m;
    struct subject_frame_prefs p;
    void *cctx, *dctx;
    unsigned f;
    int failed_at = -1, failed_level = 0;   /* the first frame that failed */
    if (!(s->caps & CAP_FRAME_CUSTOM_MEM) || fz_skip("frame_compress_stream"))
        return;
    m = *s;
    m.frame_compress_begin = s->frame_mem_compress_begin;
    m.frame_compress_update = s->frame_mem_compress_update;
    m.frame_compress_end = s->frame_mem_compress_end;
    prefs_of(d, &p);
    cctx = s->frame_mem_cctx_create(d->flags & 1);
    if (!cctx && !armed(d))
        fz_finding(FAIL_CREATE_FAILED, "frame_compress_stream", "no custom-memory cctx, no "
                   "failure made");
    for (f = 0; cctx && f < d->frames; f++) {
        long long r = 0;
        /* A later frame alternates the level, so that the context's
         * state is reallocated (fast <-> HC) after an earlier failure. */
        p.level = (f & 1) ? (d->level >= 3 ? 0 : 9) : d->level;
        reuse_frame = NULL;
        if (failed_at < 0) {
            r = frame_compress_chunked(&m, cctx, &p, d->dict, d->dict_len, d->data, d->n,
                                       d->n / 2 + 1, &reuse_frame);
        } else if (reuse_frame_faults(&m, cctx, &p, d, &r)) {
            fz_finding(FAIL_NULL_STATE_REUSE, "frame_compress_stream", "frame %u, level %d: "
                       "a fault at %p after frame %d (level %d) failed, allocation %lu "
                       "failing: the context uses a state it could not allocate", f, p.level,
                       reuse_addr, failed_at, failed_level, d->fail_at);
            free(reuse_frame);
            break;   /* the context is unusable; it can still be freed */
        }
        if (r < 0 && failed_at < 0) {
            failed_at = (int)f;
            failed_level = p.level;
        }
        if (r < 0 && !armed(d))
            fz_finding(FAIL_FRAME_ERROR, "frame_compress_stream", "frame %u, level %d: %s", f,
                       p.level, s->frame_error_name(r));
        else if (r >= 0 && !frame_ref_decodes_to(reuse_frame, (size_t)r, d->data, d->n,
                                                 d->dict, d->dict_len, "frame_compress_stream",
                                                 NULL, 0))
            fz_finding(FAIL_BAD_FRAME, "frame_compress_stream", "frame %u, level %d, allocation "
                       "%lu fails: the frame does not decode to the input", f, p.level,
                       d->fail_at);
        free(reuse_frame);
    }
    if (cctx)
        s->frame_mem_cctx_free(cctx);
    if (!(s->caps & CAP_FRAME_DECOMPRESS) || !s->frame_mem_dctx_create ||
        fz_skip("frame_decompress"))
        return;
    dctx = s->frame_mem_dctx_create(d->flags & 1);
    if (!dctx) {
        if (!armed(d))
            fz_finding(FAIL_CREATE_FAILED, "frame_decompress", "no custom-memory dctx, no "
                       "failure made");
        return;
    }
    frame_decode_check(s, d, dctx, "frame_decompress");
    s->frame_dctx_free(dctx);
}

/* ---- op 4: unlz4 ---------------------------------------------------------- */

static const uint8_t *fill_src;
static size_t fill_left, out_len, out_cap;
static uint8_t *out_buf;

static long fill(void *buf, unsigned long size)
{
    size_t k = fz_min(size, fill_left);
    memcpy(buf, fill_src, k);
    fill_src += k;
    fill_left -= k;
    return (long)k;
}

static long flush(void *buf, unsigned long size)
{
    if (size > out_cap - out_len)
        return -1;
    memcpy(out_buf + out_len, buf, size);
    out_len += size;
    return (long)size;
}

static void quiet(char *msg) { (void)msg; }

static void op_unlz4(const struct lz4_subject *s, const draw *d)
{
    size_t len;
    uint8_t *frame;
    long pos = 0;
    int r, mode;
    judgement v;
    if (!(s->caps & CAP_UNLZ4) || fz_skip("unlz4"))
        return;
    len = frame_make(NULL, d->data, d->n, &frame);
    for (mode = 0; mode < 2; mode++) {
        out_buf = fz_scratch(3, d->n + 1);
        out_len = 0;
        out_cap = d->n;
        fill_src = frame;
        fill_left = len;
        r = mode ? s->unlz4(frame, (long)len, NULL, flush, NULL, &pos, quiet)
                 : s->unlz4(NULL, 0, fill, flush, NULL, &pos, quiet);
        if (r != 0 && armed(d))
            continue;   /* a clean error */
        /* ref's legacy frame is valid, strict: ref's one verdict (judge.h) */
        v = judge_decode(r == 0, out_len == d->n && (d->n == 0 ||
                                                  memcmp(out_buf, d->data, d->n) == 0), 1, 1);
        if (v != JUDGE_PASS)
            fz_finding(judgement_class(v), "unlz4",
                       "%s mode, ref's %zu-byte legacy frame of %zu bytes, allocation %lu "
                       "fails: returned %d, %zu bytes out", mode ? "buffer" : "fill", len,
                       d->n, d->fail_at, r, out_len);
    }
    free(frame);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    draw d;
    uint64_t seed;
    uint8_t *dict = NULL;
    fz_input(data, size);
    if (!(s->caps & CAP_ALLOC_FAIL))
        return 0;
    fp_init(&fp, data, size, HEADER);
    memset(&d, 0, sizeof d);
    d.op = fp_u8(&fp) % 5;
    d.fail_at = fp_u32(&fp) % 25;
    d.level = (int8_t)fp_u8(&fp);
    d.flags = fp_u8(&fp);
    d.frames = 1 + fp_u8(&fp) % 4;
    d.dict_len = (d.flags & 2) ? fp_u32(&fp) % 70000 : (fp_u32(&fp), 0);
    seed = fp_u64(&fp);
    if (d.dict_len) {
        dict = fz_alloc(d.dict_len);   /* exactly sized */
        fz_fill_dict(dict, d.dict_len, seed);
        d.dict = dict;
    }
    d.data = fp.payload;
    d.n = fz_min(fp.payload_len, MAX_DATA);
    /* One count for the whole operation (the oracle's own memory is not
     * counted): the N-th allocation of the sequence fails, wherever it is. */
    s->alloc_fail_at(d.fail_at);
    switch (d.op) {
    case 0: op_hc(s, &d); break;
    case 1: op_stream(s, &d); break;
    case 2: op_frame(s, &d); break;
    case 3: op_frame_mem(s, &d); break;
    default: op_unlz4(s, &d); break;
    }
    s->alloc_fail_at(0);
    free(dict);
    return 0;
}
