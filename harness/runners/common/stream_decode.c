/*
 * stream_decode.c: ref's view of a stream (it decodes the logical stream;
 * it compresses a stream for a decoder layout) and the subject decoding a
 * stream in each layout (stream_driver.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "guard.h"
#include "lz4ref.h"
#include "stream_driver.h"
#include "judge.h"

/* ---- history: the last 64 KiB, by copy ------------------------------------ */

typedef struct history {
    uint8_t *bytes;    /* STREAM_WINDOW + room */
    size_t len;
} history;

static void hist_set(history *h, const uint8_t *p, size_t n)
{
    if (n > STREAM_WINDOW) {
        p += n - STREAM_WINDOW;
        n = STREAM_WINDOW;
    }
    if (n)
        memcpy(h->bytes, p, n);
    h->len = n;
}

/* The block just written at bytes + len (n bytes) joins the history. */
static void hist_grow(history *h, size_t n)
{
    h->len += n;
    if (h->len > STREAM_WINDOW) {
        memmove(h->bytes, h->bytes + h->len - STREAM_WINDOW, STREAM_WINDOW);
        h->len = STREAM_WINDOW;
    }
}

/* The history an event leaves (SE_NONE: unchanged). */
static void hist_event(history *h, const stream_plan *p, int event, int dict)
{
    if (event == SE_RESET)
        h->len = 0;
    else if (event == SE_LOAD_DICT || event == SE_ATTACH)
        hist_set(h, p->dict[dict], p->dict_len[dict]);
}

/* The largest of v[0..n), at least 1. */
static size_t max_of(const size_t *v, size_t n)
{
    size_t m = 1, i;
    for (i = 0; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

static size_t max_dlen(const stream_blocks *b)
{
    return max_of(b->dlen, b->n);
}

/* ---- ref ------------------------------------------------------------------- */

stream_result stream_ref_decode(const stream_plan *p, const stream_blocks *b)
{
    history h;
    size_t i, pos = 0;
    stream_result res = stream_problem(-1, FAIL_NONE, "%s", "");
    h.bytes = xmalloc(STREAM_WINDOW + max_dlen(b));
    h.len = 0;
    for (i = 0; i < b->n && res.block < 0; i++) {
        ref_decode_params q;
        ref_decode_result r;
        hist_event(&h, p, b->event[i], b->dict[i]);
        memset(&q, 0, sizeof q);
        q.src = b->bytes + b->off[i];
        q.src_len = b->clen[i];
        q.dst = h.bytes + h.len;
        q.dst_cap = b->dlen[i];
        q.prefix_len = h.len;
        q.profile = REF_PROFILE_STRICT;
        r = ref_decode(&q);
        if (r.status != REF_OK || r.written != b->dlen[i] ||
            memcmp(q.dst, b->data + pos, b->dlen[i]) != 0)
            res = stream_problem((int)i, FAIL_BAD_STREAM, "block %zu of %zu (%zu bytes of %zu, "
                                 "after %s, %zu bytes of history) does not decode with ref "
                                 "(strict): %s (check %d) at byte %zu, %zu bytes%s", i, b->n,
                                 b->clen[i], b->dlen[i], stream_event_names[b->event[i]], h.len,
                                 ref_status_name(r.status), r.failed_check, r.consumed,
                                 r.written, r.status == REF_OK ? " that differ" : "");
        hist_grow(&h, b->dlen[i]);
        pos += b->dlen[i];
    }
    free(h.bytes);
    return res;
}

void stream_ref_encode(const stream_plan *p, int dmode, const uint8_t *data, stream_blocks *out)
{
    history h;
    size_t i, at = 0, since = 0, maxb = stream_plan_max_block(p);
    uint8_t *block = xmalloc(ref_compress_bound(maxb));
    void *table = xmalloc(REF_ENCODE_STATE_SIZE);
    int event = SE_RESET, dict = 0;
    stream_blocks_init(out, p);
    h.bytes = xmalloc(STREAM_WINDOW + maxb);
    h.len = 0;
    for (i = 0; i < p->nsteps; i++) {
        const stream_step *t = &p->step[i];
        ref_encode_params e;
        ref_encode_result r;
        if (t->event != SE_NONE) {
            event = t->event;
            dict = t->dict;
            hist_event(&h, p, event, dict);
            since = 0;
        }
        memset(&e, 0, sizeof e);
        e.src = data + at;
        e.src_len = t->size;
        e.dst = block;
        e.dst_cap = ref_compress_bound(t->size);
        e.acceleration = p->hc ? 1 : p->param;
        e.mode = REF_ENCODE_LIMITED;
        /* The history the decoder layout keeps (stream_driver.h). */
        e.dict = h.bytes;
        e.dict_len = h.len;
        if (dmode == DM_USINGDICT && since > 0 && since < h.len) {
            e.dict = h.bytes + h.len - since;   /* the output since the event only */
            e.dict_len = since;
        }
        r = ref_encode(&e, table);
        if (!r.ok) {
            fprintf(stderr, "lz4gate: ref_encode failed on a %zu-byte block\n", t->size);
            abort();
        }
        stream_blocks_add(out, block, r.written, data + at, t->size,
                          i == 0 || t->event != SE_NONE ? event : SE_NONE, dict);
        if (dmode == DM_SEPARATE) {
            hist_set(&h, data + at, t->size);   /* the previous block only */
        } else {
            memcpy(h.bytes + h.len, data + at, t->size);
            hist_grow(&h, t->size);
        }
        since += t->size;
        at += t->size;
    }
    free(h.bytes);
    free(table);
    free(block);
}

/* ---- the subject decodes ----------------------------------------------------- */

/* Where each block's output goes, and what must stay. */
typedef struct outputs {
    int dmode;
    guard_buf whole, ring, dict, srcs;   /* dict, srcs: stream_guard_tail */
    guard_buf live[STREAM_MAX_STEPS];   /* DM_SEPARATE */
    size_t live_size[STREAM_MAX_STEPS], nlive;
    size_t pos;                          /* rings: where the next block goes */
} outputs;

static size_t ring_size(int dmode, const stream_plan *p, const stream_blocks *b, size_t slack)
{
    /* LZ4_decoderRingBufferSize (lz4.h): 64 KiB + 14 + the largest block. */
    return dmode == DM_RING ? STREAM_WINDOW + 14 + max_dlen(b) + slack : p->ring;
}

/* The output area of block i (cap bytes from the returned pointer). */
static uint8_t *out_place(outputs *o, size_t at, size_t cap)
{
    switch (o->dmode) {
    case DM_SEPARATE:
        o->live[o->nlive] = guard_alloc(cap, 0xA5);
        o->live_size[o->nlive] = cap;
        return o->live[o->nlive++].data;
    case DM_RING:
    case DM_RING_SYNC:
        if (o->pos + cap > o->ring.size)
            o->pos = 0;
        return o->ring.data + o->pos;
    default:
        return o->whole.data + at;
    }
}

static void out_done(outputs *o, size_t n)
{
    if (o->dmode == DM_SEPARATE)
        o->live_size[o->nlive - 1] = n;   /* what the buffer holds */
    if (o->dmode == DM_RING || o->dmode == DM_RING_SYNC) {
        o->pos += n;
    } else if (o->dmode == DM_SEPARATE) {
        /* lz4.h: the previous 64 KiB of output stay where they were
         * decoded; free the buffers that 64 KiB of newer output follow. */
        o->nlive = guard_keep_window(o->live, o->live_size, o->nlive, STREAM_WINDOW);
    }
}

static void out_free(outputs *o)
{
    size_t i;
    guard_free(&o->whole);   /* a no-op when not mapped */
    guard_free(&o->ring);
    guard_free(&o->dict);
    guard_free(&o->srcs);
    for (i = 0; i < o->nlive; i++)
        guard_free(&o->live[i]);
}

/* Did a call change the output before its destination (at pos)? The last
 * 64 KiB after each block (the history it may read), everything after a
 * corrupted one and at the end. */
static int before_changed(const uint8_t *out, const uint8_t *want, size_t pos, int all)
{
    size_t from = all || pos < STREAM_WINDOW ? 0 : pos - STREAM_WINDOW;
    return memcmp(out + from, want + from, pos - from) != 0;
}

/* The blocks of a stream the subject decodes are valid, strict: ref's
 * encoder made them, or ref (strict) decoded the subject's own first
 * (stream_ref_decode). ref's one verdict (judge.h) leaves a decoder no
 * other result than their data. */
static judgement block_verdict(int r, const uint8_t *out, const uint8_t *want, size_t n)
{
    return judge_decode(r >= 0, r == (int)n && (n == 0 || memcmp(out, want, n) == 0), 1, 1);
}

stream_result stream_subject_decode(const struct lz4_subject *s, const stream_plan *p,
                                    const stream_blocks *b, int dmode, size_t slack,
                                    int corrupt_block, size_t corrupt_at, uint8_t corrupt_mask)
{
    stream_result res = stream_problem(-1, FAIL_NONE, "%s", "");
    int using_dict = dmode == DM_USINGDICT || dmode == DM_USINGDICT_COPY;
    void *ds = NULL;
    outputs o;
    history h;
    size_t i, pos = 0, since = 0;
    const uint8_t *evdict = NULL;
    size_t evdict_len = 0;
    if (dmode == DM_RING_SYNC)
        slack = 0;   /* lz4.h: synchronized mode needs the exact sizes */
    if (!using_dict) {
        ds = s->dstream_create();
        if (!ds)
            return stream_problem(0, FAIL_CREATE_FAILED, "dstream_create returned NULL");
    }
    memset(&o, 0, sizeof o);
    o.dmode = dmode;
    if (dmode == DM_RING || dmode == DM_RING_SYNC)
        o.ring = guard_alloc(ring_size(dmode, p, b, slack), 0xA5);
    else if (dmode != DM_SEPARATE)
        o.whole = guard_alloc(b->data_len + slack, 0xA5);
    o.srcs = guard_alloc(max_of(b->clen, b->n), 0);
    if (dmode == DM_USINGDICT_COPY)
        o.dict = guard_alloc(STREAM_WINDOW, 0);
    h.bytes = xmalloc(STREAM_WINDOW + max_dlen(b));
    h.len = 0;
    for (i = 0; i < b->n && res.block < 0; i++) {
        size_t cap = b->dlen[i] + slack;
        int corrupt = (int)i == corrupt_block, r;
        judgement v = JUDGE_PASS;
        uint8_t *src = stream_guard_tail(&o.srcs, b->clen[i], "input"), *dst;
        memcpy(src, b->bytes + b->off[i], b->clen[i]);
        if (b->event[i] != SE_NONE) {
            evdict = b->event[i] == SE_RESET ? NULL : p->dict[b->dict[i]];
            evdict_len = evdict ? p->dict_len[b->dict[i]] : 0;
            if (ds)
                s->dstream_set(ds, (const char *)evdict, (int)evdict_len);
            hist_event(&h, p, b->event[i], b->dict[i]);
            since = 0;
            /* DM_RING: LZ4_decompress_safe_continue keeps one earlier
             * segment (lz4.h: the previous prefix becomes the dictionary),
             * so the event's dictionary is dropped at the first wrap. The
             * output since the event starts at the ring's start: at the
             * wrap it fills all but one block of the ring, more than the
             * 64 KiB a block may refer to. */
            if (dmode == DM_RING)
                o.pos = 0;
        }
        if (corrupt && b->clen[i])
            src[corrupt_at % b->clen[i]] ^= corrupt_mask ? corrupt_mask : 1;
        dst = out_place(&o, pos, cap);
        if (!using_dict) {
            r = s->dstream_decompress(ds, (const char *)src, (char *)dst,
                                      (int)b->clen[i], (int)cap);
        } else {
            const uint8_t *dict = evdict;
            size_t dict_len = evdict_len;
            if (dmode == DM_USINGDICT && since) {
                dict_len = since < STREAM_WINDOW ? since : STREAM_WINDOW;
                dict = dst - dict_len;   /* the prefix: dict + dict_len == dst */
            } else if (dmode == DM_USINGDICT_COPY) {
                uint8_t *copy = stream_guard_tail(&o.dict, h.len, "dictionary");
                memcpy(copy, h.bytes, h.len);
                dict = h.len ? copy : NULL;
                dict_len = h.len;
            }
            r = s->decompress_safe_using_dict((const char *)src, (char *)dst,
                                              (int)b->clen[i], (int)cap, (const char *)dict,
                                              (int)dict_len);
        }
        if (r > (int)cap)
            res = stream_problem((int)i, FAIL_RETURN_ABOVE_CAPACITY, "block %zu (%s, after %s): "
                                 "returned %d, capacity %zu", i, stream_dmode_names[dmode],
                                 stream_event_names[b->event[i]], r, cap);
        else if (!corrupt && (v = block_verdict(r, dst, b->data + pos, b->dlen[i])) !=
                 JUDGE_PASS && r != (int)b->dlen[i])
            res = stream_problem((int)i, r < 0 ? FAIL_REJECTS_VALID : FAIL_WRONG_LENGTH,
                                 "block %zu of %zu (%zu bytes to %zu, %s, after %s, %zu of "
                                 "history): returned %d", i, b->n, b->clen[i], b->dlen[i],
                                 stream_dmode_names[dmode], stream_event_names[b->event[i]],
                                 h.len, r);
        else if (!corrupt && v == JUDGE_WRONG_OUTPUT)
            res = stream_problem((int)i, FAIL_WRONG_OUTPUT, "block %zu of %zu (%zu bytes, %s, "
                                 "after %s, %zu of history): the output differs", i, b->n,
                                 b->dlen[i], stream_dmode_names[dmode],
                                 stream_event_names[b->event[i]], h.len);
        else if (o.whole.map && before_changed(o.whole.data, b->data, pos, corrupt))
            res = stream_problem((int)i, FAIL_WROTE_BEFORE_DST, "block %zu (%s%s): the output of "
                                 "earlier blocks changed", i, stream_dmode_names[dmode],
                                 corrupt ? ", corrupted" : "");
        if (corrupt)
            break;   /* after an error the stream is undefined: stop */
        memcpy(h.bytes + h.len, b->data + pos, b->dlen[i]);
        hist_grow(&h, b->dlen[i]);
        out_done(&o, b->dlen[i]);
        since += b->dlen[i];
        pos += b->dlen[i];
    }
    if (res.block < 0 && corrupt_block < 0 && o.whole.map &&
        before_changed(o.whole.data, b->data, pos, 1))
        res = stream_problem((int)b->n - 1, FAIL_WROTE_BEFORE_DST, "%s: the output of earlier "
                             "blocks changed", stream_dmode_names[dmode]);
    if (ds)
        s->dstream_free(ds);
    out_free(&o);
    free(h.bytes);
    return res;
}
