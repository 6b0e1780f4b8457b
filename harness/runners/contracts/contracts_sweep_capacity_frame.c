/*
 * Boundary sweep, capacities, of the frame calls (issue 25; the block calls
 * and what the sweep is: contracts_sweep_capacity.c): LZ4F_compressFrame,
 * LZ4F_compressBound with data already buffered, Update and End at every
 * room from exact-32 to exact+32, and LZ4F_decompress's first call at
 * every room around the content size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "contracts_sweep_capacity.h"
#include "frame_driver.h"
#include "frame_make.h"
#include "guard.h"
#include "lz4frame_ref.h"
#include "testdata.h"

static const struct lz4_subject *subject;

/* ---- LZ4F_compressFrame -------------------------------------------------------- */

/* The frame sweeps' preferences: 64 KiB blocks, each flag on and off. */
static struct subject_frame_prefs stream_prefs(int which)
{
    struct subject_frame_prefs p;
    memset(&p, 0, sizeof p);
    p.block_size_id = 4;
    p.block_checksum = which != 1;
    p.block_independent = p.content_checksum = p.auto_flush = which == 1;
    p.content_checksum |= which == 2;
    return p;
}

/* One frame per preferences and data (two blocks of 64 KiB for the zeros):
 * around the subject's own frame at the bound and around the bound, an
 * error or a frame within the capacity that decodes to the input; from
 * LZ4F_compressFrameBound on, a frame. */
static check_result chk_frame_compress(const void *arg, char *msg, unsigned cap)
{
    /* 1 and 64 KiB + 1 bytes: a last block of one byte, which a bound that
     * counts only blocks of more than one byte leaves out (make mutate:
     * lz4 1.10.0's LZ4F_compressBound_internal, `lastBlockSize>1`). */
    static const struct { const char *kind; size_t n; } data_set[] = {
        { "text", 3000 }, { "random", 500 }, { "random", 1 }, { "zeros", BLOCK_64K + 200 },
        { "random", BLOCK_64K + 1 },
    };
    size_t i;
    int w;
    check_result res = CHECK_PASS;
    (void)arg;
    for (w = 0; w < 3 && !check_failed(res); w++) {
        for (i = 0; i < (w ? 3u : 5u) && !check_failed(res); i++) {   /* the two blocks once */
            size_t n = data_set[i].n, bound, exact, k;
            struct subject_frame_prefs p = stream_prefs(w);
            unsigned char *data = testdata_make(data_set[i].kind, n, 60 + i);
            guard_buf full;
            long long r;
            /* the content size with both checksums (w 2): the header's 8
             * bytes of it leave the bound's header allowance no slack */
            p.content_size = w >= 1 ? n : 0;
            p.level = w == 2 ? 9 : 0;     /* HC */
            bound = subject->frame_compress_bound(n, &p);
            full = guard_alloc(bound + BOUND_SPAN, 0xA5);
            r = subject->frame_compress(data, n, room_at_end(&full, bound), bound, &p);
            if (r < 0 || (size_t)r > bound)
                res = check_fail(msg, cap, r < 0 ? FAIL_FAILS_WITHIN_BOUND
                                                 : FAIL_RETURN_ABOVE_CAPACITY,
                                 "prefs #%d, %zu %s bytes into the bound %zu: returned %lld", w,
                                 n, data_set[i].kind, bound, r);
            exact = r > 0 ? (size_t)r : 0;
            for (k = sweep_from(exact); k <= bound + BOUND_SPAN && !check_failed(res); k++) {
                unsigned char *out;
                char what[160];
                if (k > exact + SPAN && k < bound - BOUND_SPAN)
                    k = bound - BOUND_SPAN;
                out = room_at_end(&full, k);
                r = subject->frame_compress(data, n, out, k, &p);
                snprintf(what, sizeof what, "prefs #%d, %zu %s bytes (exact %zu, bound %zu), "
                         "capacity %zu", w, n, data_set[i].kind, exact, bound, k);
                if (r > (long long)k || (r < 0 && k >= bound)) {
                    res = check_fail(msg, cap, r < 0 ? FAIL_FAILS_WITHIN_BOUND
                                                     : FAIL_RETURN_ABOVE_CAPACITY,
                                     "%s: returned %lld%s%s", what, r, r < 0 ? " " : "",
                                     r < 0 ? subject->frame_error_name(r) : "");
                } else if (r >= 0) {
                    res = contract_frame_decodes_to(out, (size_t)r, data, n, NULL, 0, what, msg,
                                                    cap);
                }
            }
            guard_free(&full);
            free(data);
        }
    }
    return res;
}

/* ---- LZ4F streaming compression ------------------------------------------------- */

/* A frame made through the subject's compression context, piece by piece. */
typedef struct stream_run {
    void *cctx;
    unsigned char *frame;
    size_t len, cap;
    guard_buf scratch;   /* every call's room, at its end */
} stream_run;

enum stream_call { CALL_BEGIN, CALL_UPDATE, CALL_END };

/* One call writing into exactly `room` bytes before a guard page; what it
 * wrote is appended to the frame when it succeeds within the room. */
static long long stream_call(stream_run *s, enum stream_call which, size_t room,
                             const struct subject_frame_prefs *p, const unsigned char *src,
                             size_t n)
{
    unsigned char *out = room_at_end(&s->scratch, room);
    long long r = which == CALL_BEGIN ? subject->frame_compress_begin(s->cctx, out, room, p,
                                                                      NULL, 0)
                  : which == CALL_UPDATE ? subject->frame_compress_update(s->cctx, out, room, src,
                                                                          n)
                  : subject->frame_compress_end(s->cctx, out, room);
    if (r > 0 && (size_t)r <= room) {
        if (s->len + (size_t)r > s->cap) {
            s->cap = s->len + (size_t)r + BLOCK_64K;
            s->frame = xrealloc(s->frame, s->cap);
        }
        memcpy(s->frame + s->len, out, (size_t)r);
        s->len += (size_t)r;
    }
    return r;
}

#define HEADER_SIZE_MAX 19   /* lz4frame.h LZ4F_HEADER_SIZE_MAX: Begin's room */
#define AT_BOUND ((size_t)-1)

/* Begin, Updates of data[0..pre) and of the next n bytes (none of 0), End,
 * on a new context, each with the room LZ4F_compressBound(its size) gives
 * (lz4frame.h: it covers what earlier Updates left buffered), but the swept
 * call (End when sweep_end, else the second Update) gets `room` and
 * returns *swept. CHECK_PASS, with *below 0: all succeeded and ref decodes
 * the frame to the input; *below 1: the swept call failed below the bound;
 * a failure: a contract is broken (msg). */
static check_result run_stream(const struct subject_frame_prefs *p, const unsigned char *data,
                               size_t pre, size_t n, int sweep_end, size_t room, long long *swept,
                               int *below, char *msg, unsigned cap)
{
    static const char *const names[] = { "Begin", "Update", "End" };
    size_t most = HEADER_SIZE_MAX + subject->frame_compress_update_bound(pre, p) +
                  subject->frame_compress_update_bound(n, p) +
                  subject->frame_compress_update_bound(0, p) + (room != AT_BOUND ? room : 0);
    stream_run s = { subject->frame_cctx_create(), NULL, 0, 0, guard_alloc(most, 0xA5) };
    int step;
    check_result res = CHECK_PASS;
    char what[96];
    *below = 0;
    for (step = 0; step < 4 && !check_failed(res) && !*below; step++) {
        enum stream_call which = step == 0 ? CALL_BEGIN : step == 3 ? CALL_END : CALL_UPDATE;
        size_t size = step == 1 ? pre : step == 2 ? n : 0;
        size_t bound = which == CALL_BEGIN ? HEADER_SIZE_MAX
                                           : subject->frame_compress_update_bound(size, p);
        int is_swept = sweep_end ? which == CALL_END : step == 2;
        size_t give = is_swept && room != AT_BOUND ? room : bound;
        long long r;
        if (which == CALL_UPDATE && size == 0)
            continue;
        r = stream_call(&s, which, give, p, data + (step == 2 ? pre : 0), size);
        if (is_swept)
            *swept = r;
        if (r > (long long)give || (r < 0 && give >= bound))
            res = check_fail(msg, cap, r < 0 ? FAIL_FAILS_WITHIN_BOUND
                                             : FAIL_RETURN_ABOVE_CAPACITY,
                             "%s of %zu bytes after %zu (64 KiB %s blocks, block checksum %d, "
                             "content checksum %d, auto flush %d, level %d), room %zu (bound "
                             "%zu): returned %lld %s", names[which], size,
                             step == 2 ? pre : step == 3 ? pre + n : 0,
                             p->block_independent ? "independent" : "linked", p->block_checksum,
                             p->content_checksum, p->auto_flush, p->level, give, bound, r,
                             r < 0 ? subject->frame_error_name(r) : "(beyond the room)");
        else
            *below = r < 0;
    }
    snprintf(what, sizeof what, "Updates of %zu and %zu bytes, swept room %zu", pre, n, room);
    if (!check_failed(res) && !*below)
        res = contract_frame_decodes_to(s.frame, s.len, data, pre + n, NULL, 0, what, msg, cap);
    subject->frame_cctx_free(s.cctx);
    guard_free(&s.scratch);
    free(s.frame);
    return res;
}

/* LZ4F_compressBound is enough for an Update after 0, 1 or 65535 bytes
 * already buffered that completes 0 to 3 blocks, and for End, on
 * incompressible data (blocks stored raw: the most a frame can take). */
static check_result chk_update_bound(const void *arg, char *msg, unsigned cap)
{
    static const size_t pres[] = { 0, 1, BLOCK_64K - 1 };
    unsigned char *data = testdata_make("random", 3 * BLOCK_64K + 1, 70);
    int w;
    check_result res = CHECK_PASS;
    size_t i, j;
    (void)arg;
    for (w = 0; w < 3 && !check_failed(res); w++) {
        for (i = 0; i < 3 && !check_failed(res); i++) {
            size_t pre = pres[i];
            size_t ns[] = { 1, BLOCK_64K - pre - 1, BLOCK_64K - pre, 3 * BLOCK_64K - pre };
            for (j = 0; j < 4 && !check_failed(res); j++) {
                struct subject_frame_prefs p = stream_prefs(w);
                long long swept;
                int below;   /* every call gets its bound: never set */
                if (ns[j] != 0 && (j == 0 || ns[j] != ns[j - 1]))
                    res = run_stream(&p, data, pre, ns[j], 0, AT_BOUND, &swept, &below, msg,
                                     cap);
            }
        }
    }
    free(data);
    return res;
}

/* Update and End at every room around what they write (exact: the bytes
 * they write at the bound): an error, or success within the room and a
 * frame that decodes to the input. */
static check_result chk_update_end(const void *arg, char *msg, unsigned cap)
{
    static const struct { int prefs; const char *kind; size_t pre, n; int sweep_end; } runs[] = {
        { 0, "random", 1000, BLOCK_64K, 0 },   /* a raw block and a buffered rest */
        { 1, "text", 0, 3000, 0 },             /* auto flush: the Update writes a block */
        { 2, "text", 3000, 0, 1 },             /* End flushes a block, then the checksum */
        { 0, "random", 500, 0, 1 },
    };
    size_t i, k;
    check_result res = CHECK_PASS;
    (void)arg;
    for (i = 0; i < sizeof runs / sizeof runs[0] && !check_failed(res); i++) {
        struct subject_frame_prefs p = stream_prefs(runs[i].prefs);
        unsigned char *data = testdata_make(runs[i].kind, runs[i].pre + runs[i].n, 80 + i);
        long long swept = -1;
        size_t exact;
        int below;   /* a failure below the bound is allowed */
        res = run_stream(&p, data, runs[i].pre, runs[i].n, runs[i].sweep_end, AT_BOUND, &swept,
                         &below, msg, cap);
        exact = swept > 0 ? (size_t)swept : 0;
        for (k = sweep_from(exact); k <= exact + SPAN && !check_failed(res); k++)
            res = run_stream(&p, data, runs[i].pre, runs[i].n, runs[i].sweep_end, k, &swept,
                             &below, msg, cap);
        free(data);
    }
    return res;
}

/* ---- LZ4F_decompress ---------------------------------------------------------- */

/* A frame made by ref, offered whole with room for k bytes, k around the
 * content size, then the rest with room for everything: no call writes
 * past its room, and the content comes out. */
static check_result chk_frame_decompress(const void *arg, char *msg, unsigned cap)
{
    static const struct { const char *kind; size_t n; int linked; } frames[] = {
        { "text", 3000, 1 }, { "zeros", BLOCK_64K + 300, 0 },
    };
    size_t i, k;
    check_result res = CHECK_PASS;
    (void)arg;
    for (i = 0; i < 2 && !check_failed(res); i++) {
        size_t n = frames[i].n, len;
        unsigned char *data = testdata_make(frames[i].kind, n, 90 + i), *frame;
        unsigned char *out = xmalloc(n + 1);
        ref_frame_prefs rp;
        guard_buf in, rooms;
        ref_frame_prefs_default(&rp);
        rp.block_max = 4; rp.linked_blocks = frames[i].linked;
        rp.block_checksum = rp.content_checksum = rp.content_size = frames[i].linked;
        len = frame_make(&rp, data, n, &frame);
        in = guard_dup(frame, len);
        rooms = guard_alloc(n + SPAN, 0xA5);
        for (k = sweep_from(n); k <= n + SPAN && !check_failed(res); k++) {
            void *dctx = subject->frame_dctx_create();
            unsigned char *room = room_at_end(&rooms, k);
            size_t took = len, wrote = k;
            long long r = subject->frame_decompress(dctx, room, &wrote, in.data, &took, NULL, 0);
            frame_drive d;
            /* the first call: sizes beyond what it was offered, more than
             * the content, an error (a one-shot decoder, subject.h, cannot
             * stop at a short room: an error there is its way) */
            enum fail_class cls = took > len || wrote > k ? FAIL_SIZE_BEYOND_OFFERED
                                  : wrote > n ? FAIL_OUTPUT_FULL
                                  : r < 0 && !(k < n && (subject->flags & SUBJECT_FRAME_ONE_SHOT))
                                      ? FAIL_FRAME_ERROR : FAIL_NONE;
            memset(&d, 0, sizeof d);
            if (r < 0 && cls == FAIL_NONE) {
                subject->frame_dctx_free(dctx);
                continue;
            }
            if (cls == FAIL_NONE) {
                memcpy(out, room, wrote);
                if (r != 0 || took != len)   /* the rest */
                    d = frame_drive_decode(subject, dctx, frame + took, len - took, 0, 0, NULL, 0,
                                           out + wrote, n + 1 - wrote);
                /* then the rest: a drive that did not complete (one waiting
                 * for more input refused the frame's end), another size,
                 * other bytes */
                cls = d.outcome != FRAME_DRIVE_COMPLETE ? contract_incomplete_class(d.outcome)
                      : wrote + d.written != n ? FAIL_WRONG_LENGTH
                      : memcmp(out, data, n) != 0 ? FAIL_WRONG_OUTPUT : FAIL_NONE;
            }
            if (cls != FAIL_NONE)
                res = check_fail(msg, cap, cls, "%zu %s bytes (%zu-byte frame), first call with "
                                 "room %zu: returned %lld, took %zu, wrote %zu; then %s, %zu more "
                                 "bytes", n, frames[i].kind, len, k, r, took, wrote,
                                 frame_drive_outcome_name(d.outcome), d.written);
            subject->frame_dctx_free(dctx);
        }
        guard_free(&in);
        guard_free(&rooms);
        free(frame);
        free(data);
        free(out);
    }
    return res;
}

/* ---- registration -------------------------------------------------------------- */

void contracts_add_sweep_capacity_frame(const struct lz4_subject *tested, contract_add_fn add)
{
    static const struct { const char *id; subject_caps caps; check_fn fn; } t[] = {
        { "frame_compress", CAP_FRAME_COMPRESS, chk_frame_compress },
        { "frame_update_bound", CAP_FRAME_COMPRESS_STREAM, chk_update_bound },
        { "frame_update_end", CAP_FRAME_COMPRESS_STREAM, chk_update_end },
        { "frame_decompress", CAP_FRAME_DECOMPRESS, chk_frame_decompress },
    };
    size_t i;
    subject = tested;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        char id[96];
        snprintf(id, sizeof id, "sweep.capacity.%s", t[i].id);
        add(id, t[i].caps, t[i].fn, 0, 0);
    }
}
