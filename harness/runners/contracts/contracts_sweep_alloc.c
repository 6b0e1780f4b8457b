/*
 * Boundary sweep of allocation failures (issue 25, "Find one-line bugs
 * without luck"): every allocation index of the HC and frame entry points
 * made to fail in turn (subject.h alloc_fail_at: the N-th allocation of the
 * subject's own code fails, N = 1, 2, ... until a run makes fewer than N),
 * and each failure followed by reuse of the same context.
 *
 * The verdict, for every N:
 *   - a call may report an error (0 from LZ4_compress_HC, NULL from a
 *     constructor, an LZ4F error) only when the failing allocation happened
 *     during it;
 *   - whatever it produced without an error must be right: ref (strict
 *     profile) decodes it to the input;
 *   - the calls after it, on the same context with nothing failing, must
 *     work as on a new context. A context that keeps the record of a state
 *     it freed and could not reallocate crashes there: lz4 1.8.0 to 1.10.0
 *     do (ULZ4-LZ4F-ALLOCFAIL-REUSE, a known finding of lz4 1.9.4).
 *
 * Checks (each n/a where the subject lacks the entry point or cannot make
 * its allocations fail, CAP_ALLOC_FAIL):
 *   sweep.alloc.compress_hc[level=L]           LZ4_compress_HC, L = 1, 9, 12
 *   sweep.alloc.frame_compress[level=L]        LZ4F_compressFrame, L = 1, 9
 *   sweep.alloc.frame_stream[levels=A,B]       one cctx, four frames at
 *       levels A, B, A, B (Begin, Update in pieces, End), the allocation
 *       failing in any of them; the context is created with it armed
 *   sweep.alloc.frame_mem_stream[levels=A,B]   the same with a custom memory
 *       manager and a dictionary (a CDict per Begin)
 *   sweep.alloc.frame_decompress               a dctx decodes ref's frame in
 *       pieces (so it needs its buffers); then, reset, decodes it again
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contracts.h"
#include "frame_driver.h"
#include "frame_make.h"
#include "isolate.h"
#include "lz4ref.h"
#include "testdata.h"

static const struct lz4_subject *subject;

#define DATA_LEN 70000u       /* two 64 KiB blocks: a frame's second block links */
#define CHUNK 30000u          /* Update's piece: blocks are buffered across calls */
#define DICT_LEN 8192u
#define FRAMES 4
/* A runaway bound: lz4 1.9.4 makes at most a dozen allocations here. */
#define MAX_INDEX 400ul

enum alloc_form { FORM_HC, FORM_FRAME, FORM_STREAM, FORM_MEM_STREAM, FORM_DECOMPRESS };

/* Whether the failing allocation (index n) happened between two readings
 * of the counter. */
static int failed_between(unsigned long before, unsigned long after, unsigned long n)
{
    return before < n && n <= after;
}

/* LZ4_compress_HC at level L with allocation n failing; a finding's
 * class. */
static check_result hc_once(int level, const unsigned char *data, unsigned long n, char *msg,
                            unsigned cap)
{
    int bound = (int)ref_compress_bound(DATA_LEN), r;
    char *dst = malloc((size_t)bound), why[200];
    check_result res = CHECK_PASS;
    if (!dst)
        return CHECK_PASS;
    subject->alloc_fail_at(n);
    r = subject->compress_hc((const char *)data, dst, DATA_LEN, bound, level);
    if (r < 0 || r > bound || (r == 0 && !failed_between(0, subject->alloc_calls(), n))) {
        /* a size past the bound; a negative result (failure is 0); 0 with
         * no allocation failing, into the bound */
        res = check_fail(msg, cap, r > bound ? FAIL_RETURN_ABOVE_CAPACITY
                                   : r < 0 ? FAIL_NEGATIVE_RETURN : FAIL_FAILS_WITHIN_BOUND,
                         "level %d, allocation %lu failing (%lu made): returned %d "
                         "(capacity %d)", level, n, subject->alloc_calls(), r, bound);
    } else if (r > 0 && check_failed(res = contract_ref_decodes_to((unsigned char *)dst,
                                                                   (size_t)r, data, DATA_LEN,
                                                                   NULL, 0, why, sizeof why))) {
        snprintf(msg, cap, "level %d, allocation %lu failing: %s", level, n, why);
    }
    free(dst);
    return res;
}

static void prefs_at(struct subject_frame_prefs *p, int level)
{
    memset(p, 0, sizeof *p);
    p->block_size_id = 4;
    p->content_checksum = 1;
    p->level = level;
}

/* LZ4F_compressFrame at level L with allocation n failing. */
static check_result frame_once(int level, const unsigned char *data, unsigned long n, char *msg,
                               unsigned cap)
{
    struct subject_frame_prefs p;
    size_t bound;
    unsigned char *dst;
    long long r;
    check_result res = CHECK_PASS;
    prefs_at(&p, level);
    bound = subject->frame_compress_bound(DATA_LEN, &p);
    if (!(dst = malloc(bound)))
        return CHECK_PASS;
    subject->alloc_fail_at(n);
    r = subject->frame_compress(data, DATA_LEN, dst, bound, &p);
    if (r > (long long)bound || (r < 0 && !failed_between(0, subject->alloc_calls(), n))) {
        /* a size past the bound, or an error into the bound with no
         * allocation failing */
        res = check_fail(msg, cap, r < 0 ? FAIL_FAILS_WITHIN_BOUND : FAIL_RETURN_ABOVE_CAPACITY,
                         "level %d, allocation %lu failing (%lu made): returned %lld "
                         "(%s, capacity %zu)", level, n, subject->alloc_calls(), r,
                         r < 0 ? subject->frame_error_name(r) : "size", bound);
    } else if (r >= 0) {
        res = contract_frame_decodes_to(dst, (size_t)r, data, DATA_LEN, NULL, 0, "the frame",
                                        msg, cap);
    }
    free(dst);
    return res;
}

/* Four frames on one cctx (custom memory: mem) at levels a, b, a, b, with
 * allocation n failing in whichever call makes it. */
static check_result stream_once(int mem, int a, int b, const unsigned char *data,
                                const unsigned char *dict, unsigned long n, char *msg,
                                unsigned cap)
{
    struct lz4_subject m = *subject;
    struct subject_frame_prefs p;
    void *cctx;
    int f;
    check_result res = CHECK_PASS;
    size_t dict_len = mem ? DICT_LEN : 0;
    if (mem) {   /* frame_compress_chunked calls the frame_compress_* slots */
        m.frame_compress_begin = subject->frame_mem_compress_begin;
        m.frame_compress_update = subject->frame_mem_compress_update;
        m.frame_compress_end = subject->frame_mem_compress_end;
    }
    subject->alloc_fail_at(n);
    cctx = mem ? subject->frame_mem_cctx_create(1) : subject->frame_cctx_create();
    if (!cctx) {
        if (failed_between(0, subject->alloc_calls(), n))
            return CHECK_PASS;   /* a clean error: the context's own allocation failed */
        return check_fail(msg, cap, FAIL_CREATE_FAILED, "allocation %lu failing: no context, "
                          "and no allocation failed (%lu made)", n, subject->alloc_calls());
    }
    for (f = 0; f < FRAMES && !check_failed(res); f++) {
        unsigned long before = subject->alloc_calls();
        unsigned char *frame = NULL;
        long long r;
        char why[200];
        prefs_at(&p, f & 1 ? b : a);
        r = frame_compress_chunked(&m, cctx, &p, mem ? dict : NULL, dict_len, data, DATA_LEN,
                                   CHUNK, &frame);
        if (r < 0 && !failed_between(before, subject->alloc_calls(), n)) {
            res = check_fail(msg, cap, FAIL_FRAME_ERROR, "allocation %lu failing: frame %d "
                             "(level %d) on the same context failed (%s) with no allocation "
                             "failing in it", n, f + 1, p.level, subject->frame_error_name(r));
        } else if (r >= 0 &&
                   check_failed(res = contract_frame_decodes_to(frame, (size_t)r, data, DATA_LEN,
                                                                mem ? dict : NULL, dict_len,
                                                                "the frame", why,
                                                                sizeof why))) {
            snprintf(msg, cap, "allocation %lu failing: frame %d (level %d): %s", n, f + 1,
                     p.level, why);
        }
        free(frame);
    }
    if (mem)
        subject->frame_mem_cctx_free(cctx);
    else
        subject->frame_cctx_free(cctx);
    return res;
}

/* A dctx made with allocation n armed decodes ref's frame in pieces; then,
 * reset, decodes it again with nothing failing. */
static check_result decompress_once(const unsigned char *data, const unsigned char *frame,
                                    size_t len, unsigned long n, char *msg, unsigned cap)
{
    unsigned char *out = malloc(DATA_LEN + 1);
    void *dctx;
    frame_drive r;
    int round;
    check_result res = CHECK_PASS;
    if (!out)
        return CHECK_PASS;
    subject->alloc_fail_at(n);
    dctx = subject->frame_dctx_create();
    if (!dctx) {
        free(out);
        if (failed_between(0, subject->alloc_calls(), n))
            return CHECK_PASS;
        return check_fail(msg, cap, FAIL_CREATE_FAILED,
                          "allocation %lu failing: no dctx, and no allocation failed", n);
    }
    for (round = 0; round < 2 && !check_failed(res); round++) {
        unsigned long before = subject->alloc_calls();
        /* small pieces of input and of output room: the dctx buffers a
         * block (its tmpIn and tmpOut allocations) */
        r = frame_drive_decode(subject, dctx, frame, len, 1000, 4096, NULL, 0, out,
                               DATA_LEN + 1);
        if (r.outcome == FRAME_DRIVE_ERROR && round == 0 &&
            failed_between(before, subject->alloc_calls(), n)) {
            if (!(subject->caps & CAP_FRAME_RESET))
                break;   /* a dctx after an error is reusable only once reset */
            subject->frame_dctx_reset(dctx);
            continue;
        }
        if (r.outcome != FRAME_DRIVE_COMPLETE || r.written != DATA_LEN ||
            memcmp(out, data, DATA_LEN) != 0) {
            enum fail_class cls = r.outcome != FRAME_DRIVE_COMPLETE
                                      ? contract_incomplete_class(r.outcome)
                                  : r.written != DATA_LEN ? FAIL_WRONG_LENGTH : FAIL_WRONG_OUTPUT;
            res = check_fail(msg, cap, cls, "allocation %lu failing: %s decode of ref's "
                             "%zu-byte frame: %s%s%s, %zu bytes out", n,
                             round ? "the second" : "the first", len,
                             frame_drive_outcome_name(r.outcome),
                             r.outcome == FRAME_DRIVE_ERROR ? " " : "",
                             r.outcome == FRAME_DRIVE_ERROR ? subject->frame_error_name(r.error)
                                                            : "",
                             r.written);
        }
    }
    subject->frame_dctx_free(dctx);
    free(out);
    return res;
}

static check_result chk_alloc(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    unsigned char *data = testdata_make("text", DATA_LEN, 71);
    unsigned char *dict = testdata_make("text", DICT_LEN, 72);
    unsigned char *frame = NULL;
    size_t len = 0;
    unsigned long n;
    int a = c->accel_or_level >> 8, b = c->accel_or_level & 0xFF;
    check_result res = CHECK_PASS;
    if (c->variant == FORM_DECOMPRESS) {
        ref_frame_prefs p;
        ref_frame_prefs_default(&p);
        p.block_max = 4;
        p.content_checksum = 1;
        len = frame_make(&p, data, DATA_LEN, &frame);
    }
    /* n runs until a run makes fewer than n allocations: that run had
     * none failing, and was judged as such. */
    for (n = 1; n <= MAX_INDEX && !check_failed(res); n++) {
        /* a crash's record then names the failing allocation */
        isolate_step("allocation %lu failing", n);
        switch (c->variant) {
        case FORM_HC:
            res = hc_once(c->accel_or_level, data, n, msg, cap);
            break;
        case FORM_FRAME:
            res = frame_once(c->accel_or_level, data, n, msg, cap);
            break;
        case FORM_STREAM:
        case FORM_MEM_STREAM:
            res = stream_once(c->variant == FORM_MEM_STREAM, a, b, data, dict, n, msg, cap);
            break;
        default:
            res = decompress_once(data, frame, len, n, msg, cap);
        }
        if (subject->alloc_calls() < n)
            break;
    }
    subject->alloc_fail_at(0);
    if (!check_failed(res) && n > MAX_INDEX)
        res = check_fail(msg, cap, FAIL_TOO_MANY_ALLOCATIONS,
                         "more than %lu allocations: the sweep stopped (lz4gate's bound)",
                         MAX_INDEX);
    free(frame);
    free(dict);
    free(data);
    return res;
}

void contracts_add_sweep_alloc(const struct lz4_subject *tested, contract_add_fn add)
{
    static const int hc_levels[] = { 1, 9, 12 }, frame_levels[] = { 1, 9 };
    /* level pairs: fast then HC and back, so that each frame's state is
     * reallocated after the one before (ULZ4-LZ4F-ALLOCFAIL-REUSE) */
    static const int pairs[][2] = { { 1, 9 }, { 9, 1 } };
    const unsigned fail = CAP_ALLOC_FAIL;
    char id[96];
    size_t i;
    subject = tested;
    for (i = 0; i < sizeof hc_levels / sizeof *hc_levels; i++) {
        snprintf(id, sizeof id, "sweep.alloc.compress_hc[level=%d]", hc_levels[i]);
        add(id, CAP_COMPRESS_HC | fail, chk_alloc, FORM_HC, hc_levels[i]);
    }
    for (i = 0; i < sizeof frame_levels / sizeof *frame_levels; i++) {
        snprintf(id, sizeof id, "sweep.alloc.frame_compress[level=%d]", frame_levels[i]);
        add(id, CAP_FRAME_COMPRESS | fail, chk_alloc, FORM_FRAME, frame_levels[i]);
    }
    for (i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        int both = pairs[i][0] << 8 | pairs[i][1];
        snprintf(id, sizeof id, "sweep.alloc.frame_stream[levels=%d,%d]", pairs[i][0],
                 pairs[i][1]);
        add(id, CAP_FRAME_COMPRESS_STREAM | fail, chk_alloc, FORM_STREAM, both);
        snprintf(id, sizeof id, "sweep.alloc.frame_mem_stream[levels=%d,%d]", pairs[i][0],
                 pairs[i][1]);
        add(id, CAP_FRAME_CUSTOM_MEM | CAP_FRAME_COMPRESS_CDICT | fail, chk_alloc,
            FORM_MEM_STREAM, both);
    }
    add("sweep.alloc.frame_decompress", CAP_FRAME_DECOMPRESS | fail, chk_alloc,
        FORM_DECOMPRESS, 0);
}
