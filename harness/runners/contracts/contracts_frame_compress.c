/*
 * Contract checks of the LZ4 frame API's compressors (lz4frame.h; subject.h
 * frame slots), with the reference frame decoder (ref/lz4frame_ref.h) as
 * the oracle: every frame a subject makes with the drawn preferences,
 * one-shot or streamed, decodes with ref to exactly the input; small
 * capacities give an error, never a write past the capacity (guard pages);
 * a context reused across levels with a dictionary stays in bounds
 * (ULZ4-2021-974).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contracts.h"
#include "frame_driver.h"
#include "guard.h"
#include "testdata.h"

static const struct lz4_subject *subject;

/* ---- compression ----------------------------------------------------------- */

enum { PREFS = 8 };

static struct subject_frame_prefs prefs_set(int i, size_t n)
{
    struct subject_frame_prefs p;
    memset(&p, 0, sizeof p);
    switch (i) {
    case 0: break;                                       /* all defaults */
    case 1: p.block_size_id = 4; p.block_independent = 1; p.block_checksum = 1; break;
    case 2: p.block_size_id = 5; p.content_checksum = 1; p.content_size = n; break;
    case 3: p.block_size_id = 6; p.level = 9; p.block_checksum = 1; break;
    case 4: p.block_size_id = 7; p.level = -10; p.block_independent = 1; break;
    case 5: p.block_size_id = 4; p.level = 12; p.content_checksum = 1; break;
    case 6: p.block_size_id = 4; p.auto_flush = 1; p.content_size = n; break;
    /* favorDecSpeed: the optimal parser (levels 10-12) then skips matches
     * closer than 8 bytes; a choice of the encoder, the frame stays valid */
    default: p.block_size_id = 5; p.level = 11; p.favor_dec_speed = 1; break;
    }
    return p;   /* content_size 0 (n = 0) means "no field", as in LZ4F */
}

static check_result chk_compress_frame(const void *arg, char *msg, unsigned cap)
{
    static const size_t sizes[] = { 0, 1, 65537, 300000 };
    static const char *const kinds[] = { "mixed", "random", "zeros", "text" };
    int i;
    size_t k;
    (void)arg;
    for (i = 0; i < PREFS; i++) {
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            struct subject_frame_prefs p = prefs_set(i, n);
            unsigned char *data = testdata_make(kinds[(size_t)i % 4], n, (uint64_t)(i + 10));
            size_t bound = subject->frame_compress_bound(n, &p);
            guard_buf in = guard_dup(data, n), out = guard_alloc(bound, 0xA5);
            long long r = subject->frame_compress(in.data, n, out.data, bound, &p);
            char what[160];
            check_result res;
            snprintf(what, sizeof what, "prefs #%d (block %d, %s, level %d), %zu %s bytes into "
                     "the bound %zu", i, p.block_size_id,
                     p.block_independent ? "independent" : "linked", p.level, n,
                     kinds[(size_t)i % 4], bound);
            if (r < 0 || (size_t)r > bound) {
                res = check_fail(msg, cap, r < 0 ? FAIL_FAILS_WITHIN_BOUND
                                                 : FAIL_RETURN_ABOVE_CAPACITY,
                                 "%s: returned %lld (%s)", what, r,
                                 r < 0 ? subject->frame_error_name(r) : "above the capacity");
            } else {
                res = contract_frame_decodes_to(out.data, (size_t)r, data, n, NULL, 0, what,
                                                msg, cap);
            }
            guard_free(&in);
            guard_free(&out);
            free(data);
            if (check_failed(res))
                return res;
        }
    }
    return CHECK_PASS;
}

/* Capacities below the bound: an error or a frame that decodes, never a
 * write past the capacity (guard page). */
static check_result chk_compress_frame_small(const void *arg, char *msg, unsigned cap)
{
    size_t n = 1000, c;
    unsigned char *data = testdata_make("text", n, 11);
    struct subject_frame_prefs p = prefs_set(2, n);
    size_t bound = subject->frame_compress_bound(n, &p);
    (void)arg;
    for (c = 0; c < bound; c += c < 40 ? 1 : 97) {
        guard_buf in = guard_dup(data, n), out = guard_alloc(c, 0xA5);
        long long r = subject->frame_compress(in.data, n, out.data, c, &p);
        check_result res = CHECK_PASS;
        if (r > (long long)c) {
            res = check_fail(msg, cap, FAIL_RETURN_ABOVE_CAPACITY, "capacity %zu: returned %lld",
                             c, r);
        } else if (r >= 0) {
            char what[64];
            snprintf(what, sizeof what, "capacity %zu", c);
            res = contract_frame_decodes_to(out.data, (size_t)r, data, n, NULL, 0, what, msg,
                                            cap);
        }
        guard_free(&in);
        guard_free(&out);
        if (check_failed(res)) {
            free(data);
            return res;
        }
    }
    free(data);
    return CHECK_PASS;
}

static check_result chk_compress_stream(const void *arg, char *msg, unsigned cap)
{
    static const size_t chunks[] = { 1, 4096, 100000 };
    size_t n = 250000, k;
    unsigned char *data = testdata_make("mixed", n, 12);
    void *cctx = subject->frame_cctx_create();
    int i;
    check_result res = CHECK_PASS;
    (void)arg;
    for (i = 0; i < PREFS && !check_failed(res); i++) {
        for (k = 0; k < 3 && !check_failed(res); k++) {
            struct subject_frame_prefs p = prefs_set(i, n);
            unsigned char *frame;
            size_t len_n = chunks[k] == 1 ? 5000 : n;   /* byte-wise: a shorter input */
            long long r;
            char what[128];
            p.content_size = p.content_size ? len_n : 0;
            r = frame_compress_chunked(subject, cctx, &p, NULL, 0, data, len_n, chunks[k], &frame);
            snprintf(what, sizeof what, "prefs #%d, %zu bytes in updates of %zu", i, len_n,
                     chunks[k]);
            if (r < 0)
                res = check_fail(msg, cap, FAIL_FRAME_ERROR, "%s: %s", what,
                                 subject->frame_error_name(r));
            else
                res = contract_frame_decodes_to(frame, (size_t)r, data, len_n, NULL, 0, what,
                                                msg, cap);
            free(frame);
        }
    }
    subject->frame_cctx_free(cctx);
    free(data);
    return res;
}

/* ULZ4-2021-974: one context, frames with a dictionary at level 1, 9, 12
 * and 1 again: every state the context keeps must fit the next level. */
static check_result chk_compress_cdict_reuse(const void *arg, char *msg, unsigned cap)
{
    static const int levels[] = { 1, 9, 12, 1, -5, 3 };
    size_t dict_len, n = 100000, i;
    unsigned char *dict = contract_dictionary(&dict_len);
    unsigned char *data = testdata_make("text", n, 13);
    void *cctx = subject->frame_cctx_create();
    check_result res = CHECK_PASS;
    (void)arg;
    for (i = 0; i < sizeof levels / sizeof levels[0] && !check_failed(res); i++) {
        struct subject_frame_prefs p;
        unsigned char *frame;
        long long r;
        char what[64];
        memset(&p, 0, sizeof p);
        p.level = levels[i];
        p.block_size_id = 4;
        r = frame_compress_chunked(subject, cctx, &p, dict, dict_len, data, n, 30000, &frame);
        snprintf(what, sizeof what, "frame %zu (level %d, dictionary)", i + 1, levels[i]);
        if (r < 0)
            res = check_fail(msg, cap, FAIL_FRAME_ERROR, "%s: %s", what,
                             subject->frame_error_name(r));
        else
            res = contract_frame_decodes_to(frame, (size_t)r, data, n, dict, dict_len, what,
                                            msg, cap);
        free(frame);
    }
    subject->frame_cctx_free(cctx);
    free(dict);
    free(data);
    return res;
}

/* One call's output into a guard buffer of exactly room bytes, then
 * appended to frame[*len..); the call's result, or FLUSH_STEP_OVER_ROOM
 * when it says it wrote more than the room. */
enum flush_call { FC_UPDATE, FC_FLUSH, FC_END };
/* flush_step's result for a call that says it wrote more than its room */
#define FLUSH_STEP_OVER_ROOM (-1000000LL)

/* What a failing flush_step said. */
static const char *flush_step_error(long long r)
{
    return r == FLUSH_STEP_OVER_ROOM ? "returned more bytes than its room"
                                     : subject->frame_error_name(r);
}

/* Its class: a size past the room, or an error with the room lz4frame.h
 * promises is enough (LZ4F_compressBound). */
static enum fail_class flush_step_class(long long r)
{
    return r == FLUSH_STEP_OVER_ROOM ? FAIL_RETURN_ABOVE_CAPACITY : FAIL_FAILS_WITHIN_BOUND;
}

static long long flush_step(void *cctx, enum flush_call which, const unsigned char *src,
                            size_t n, size_t room, unsigned char *frame, size_t *len)
{
    guard_buf out = guard_alloc(room, 0xA5);
    long long r;
    guard_label(&out, which == FC_UPDATE ? "update output" : "flush/end output");
    if (which == FC_UPDATE)
        r = subject->frame_compress_update(cctx, out.data, room, src, n);
    else if (which == FC_FLUSH)
        r = subject->frame_compress_flush(cctx, out.data, room);
    else
        r = subject->frame_compress_end(cctx, out.data, room);
    if (r > 0 && (size_t)r <= room) {
        memcpy(frame + *len, out.data, (size_t)r);
        *len += (size_t)r;
    }
    guard_free(&out);
    return r > 0 && (size_t)r > room ? FLUSH_STEP_OVER_ROOM : r;
}

/* LZ4F_flush after every Update: each buffered partial block goes out as a
 * block of its own. With linked blocks the context's input buffer (a block
 * and 128 KiB of history) fills up with these short blocks and must wrap,
 * keeping the last 64 KiB as history: 300 updates of 1000 bytes is past it.
 * Every call writes into a guard buffer of exactly the room lz4frame.h
 * promises is enough (LZ4F_compressBound(n), and (0) for LZ4F_flush and
 * LZ4F_compressEnd); ref decodes the frame to the input. variant: 1 for
 * independent blocks; accel_or_level: the level. */
static check_result chk_compress_flush(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    const size_t piece = 1000, n = 300 * 1000;
    unsigned char *data = testdata_make("text", n, 17);
    unsigned char *frame = malloc(2 * n + 4096);
    void *cctx = subject->frame_cctx_create();
    struct subject_frame_prefs p;
    size_t len = 0, off;
    long long r = -1;
    char what[96];
    check_result res = CHECK_PASS;
    memset(&p, 0, sizeof p);
    p.block_size_id = 4;
    p.block_independent = c->variant;
    p.content_checksum = 1;
    p.level = c->accel_or_level;
    if (!cctx || !frame) {
        /* no memory for lz4gate's own buffer: the check could not run */
        res = check_fail(msg, cap, !cctx ? FAIL_CREATE_FAILED : FAIL_CHECK_INCOMPLETE,
                         "frame_cctx_create or malloc returned NULL");
    } else if ((r = subject->frame_compress_begin(cctx, frame, 64, &p, NULL, 0)) < 0) {
        res = check_fail(msg, cap, FAIL_FRAME_ERROR, "compressBegin: %s",
                         subject->frame_error_name(r));
    } else {
        len = (size_t)r;
    }
    for (off = 0; off < n && !check_failed(res); off += piece) {
        snprintf(what, sizeof what, "update %zu of %zu bytes", off / piece + 1, piece);
        r = flush_step(cctx, FC_UPDATE, data + off, piece,
                       subject->frame_compress_update_bound(piece, &p), frame, &len);
        if (r >= 0) {
            snprintf(what, sizeof what, "the flush after update %zu", off / piece + 1);
            r = flush_step(cctx, FC_FLUSH, NULL, 0, subject->frame_compress_update_bound(0, &p),
                           frame, &len);
        }
        if (r < 0)
            res = check_fail(msg, cap, flush_step_class(r), "%s: %s", what, flush_step_error(r));
    }
    if (!check_failed(res) &&
        (r = flush_step(cctx, FC_END, NULL, 0, subject->frame_compress_update_bound(0, &p),
                        frame, &len)) < 0)
        res = check_fail(msg, cap, flush_step_class(r), "compressEnd: %s", flush_step_error(r));
    if (!check_failed(res)) {
        snprintf(what, sizeof what, "%zu updates of %zu bytes, each flushed", n / piece, piece);
        res = contract_frame_decodes_to(frame, len, data, n, NULL, 0, what, msg, cap);
    }
    if (cctx)
        subject->frame_cctx_free(cctx);
    free(frame);
    free(data);
    return res;
}

void contracts_add_frame_compress(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    add("frame_compress.roundtrip_into_bound", CAP_FRAME_COMPRESS, chk_compress_frame, 0, 0);
    add("frame_compress.small_capacity", CAP_FRAME_COMPRESS, chk_compress_frame_small, 0, 0);
    add("frame_compress_stream.roundtrip", CAP_FRAME_COMPRESS_STREAM, chk_compress_stream, 0, 0);
    add("frame_compress_stream.cdict_reuse_across_levels",
        CAP_FRAME_COMPRESS_STREAM | CAP_FRAME_COMPRESS_CDICT, chk_compress_cdict_reuse, 0, 0);
    add("frame_compress_stream.flush_each_update[linked]",
        CAP_FRAME_COMPRESS_STREAM | CAP_FRAME_FLUSH, chk_compress_flush, 0, 0);
    add("frame_compress_stream.flush_each_update[linked,level=9]",
        CAP_FRAME_COMPRESS_STREAM | CAP_FRAME_FLUSH, chk_compress_flush, 0, 9);
    add("frame_compress_stream.flush_each_update[independent]",
        CAP_FRAME_COMPRESS_STREAM | CAP_FRAME_FLUSH, chk_compress_flush, 1, 0);
}
