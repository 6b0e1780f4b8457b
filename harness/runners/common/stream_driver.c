/*
 * stream_driver.c: plans, compressed streams, and the subject compressing a
 * stream in each layout (stream_driver.h). Decoding: stream_decode.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "guard.h"
#include "lz4ref.h"
#include "stream_driver.h"

const char *const stream_mode_names[SM_COUNT] = {
    "prefix", "separate", "ring", "ring_sync", "savedict",
};
const char *const stream_dmode_names[DM_COUNT] = {
    "prefix", "separate", "ring", "usingDict", "usingDict_copy", "ring_sync",
};
const char *const stream_event_names[SE_COUNT] = { "none", "reset", "loadDict", "attach" };

void stream_blocks_free(stream_blocks *b)
{
    free(b->bytes);
    free(b->off);
    free(b->clen);
    free(b->dlen);
    free(b->event);
    free(b->dict);
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* Room for every step of p: the blocks at their bound (plus a capacity's
 * slack, cap_delta < 64), so that adding one does not copy the stream so
 * far (a realloc per block was quadratic in the stream, issue 15). */
void stream_blocks_init(stream_blocks *b, const stream_plan *p)
{
    size_t n = p->nsteps ? p->nsteps : 1, total = 0, room = 0, i;
    memset(b, 0, sizeof *b);
    for (i = 0; i < p->nsteps; i++) {
        total += p->step[i].size;
        room += ref_compress_bound(p->step[i].size) + 64;
    }
    b->off = xmalloc(n * sizeof *b->off);
    b->clen = xmalloc(n * sizeof *b->clen);
    b->dlen = xmalloc(n * sizeof *b->dlen);
    b->event = xmalloc(n * sizeof *b->event);
    b->dict = xmalloc(n * sizeof *b->dict);
    b->data = xmalloc(total);
    b->bytes = xmalloc(room ? room : 1);
    b->bytes_cap = room;
}

void stream_blocks_add(stream_blocks *b, const uint8_t *block, size_t clen, const uint8_t *data,
                       size_t dlen, int event, int dict)
{
    size_t at = b->n ? b->off[b->n - 1] + b->clen[b->n - 1] : 0;
    if (at + clen > b->bytes_cap) {
        b->bytes_cap = 2 * (at + clen);
        b->bytes = xrealloc(b->bytes, b->bytes_cap);
    }
    memcpy(b->bytes + at, block, clen);
    b->off[b->n] = at;
    b->clen[b->n] = clen;
    b->dlen[b->n] = dlen;
    b->event[b->n] = event;
    b->dict[b->n] = dict;
    if (dlen)
        memcpy(b->data + b->data_len, data, dlen);
    b->data_len += dlen;
    b->n++;
}

size_t stream_plan_max_block(const stream_plan *p)
{
    size_t m = 1, i;
    for (i = 0; i < p->nsteps; i++)
        if (p->step[i].size > m)
            m = p->step[i].size;
    return m;
}

int stream_plan_fit(const struct lz4_subject *s, stream_plan *p)
{
    unsigned need = p->hc ? CAP_STREAM_HC : CAP_STREAM_COMPRESS;
    unsigned attach = p->hc ? CAP_STREAM_HC_ATTACH : CAP_STREAM_ATTACH;
    size_t i;
    if (!(s->caps & need))
        return 0;
    if (p->mode == SM_SAVEDICT && !(s->caps & CAP_STREAM_SAVE_DICT))
        p->mode = SM_PREFIX;
    /* lz4.h (LZ4_compress_fast_continue, note 3): buffers must be separated
     * by at least one byte. A ring under two blocks may place a block over
     * the whole of the previous one (source end == dictionary end), which
     * the compressor's overlap check (source end < dictionary end) does not
     * see: it keeps the overwritten block as its dictionary (lz4 1.9.4). */
    if (p->mode == SM_RING_SYNC && p->ring < 2 * stream_plan_max_block(p))
        p->ring = 2 * stream_plan_max_block(p);
    for (i = 0; i < p->nsteps; i++) {
        stream_step *t = &p->step[i];
        if (i == 0 && t->event == SE_NONE)
            t->event = SE_RESET;
        if (t->event == SE_ATTACH && !(s->caps & attach))
            t->event = SE_LOAD_DICT;
        if ((t->event == SE_LOAD_DICT || t->event == SE_ATTACH) && !p->dict[t->dict & 1])
            t->event = SE_RESET;
        t->dict &= 1;
        if (!(s->caps & CAP_STREAM_RESET_FAST))
            t->fast_reset = 0;
    }
    return 1;
}

/* ---- the subject compresses ------------------------------------------------- */

static size_t bound_of(const struct lz4_subject *s, size_t n)
{
    return s->compress_bound ? (size_t)s->compress_bound((int)n) : ref_compress_bound(n);
}

/* Where the next block's input goes (enum stream_mode), and the buffers
 * that must stay. */
typedef struct placer {
    int mode;
    guard_buf whole, ring, reused, safe;
    guard_buf live[STREAM_MAX_STEPS];   /* SM_SEPARATE */
    size_t live_size[STREAM_MAX_STEPS], nlive;
    size_t pos;                          /* SM_RING*: where the next block goes */
} placer;

static void placer_init(placer *pl, const stream_plan *p, const uint8_t *data, size_t total)
{
    size_t maxb = stream_plan_max_block(p);
    memset(pl, 0, sizeof *pl);
    pl->mode = p->mode;
    if (p->mode == SM_PREFIX)
        pl->whole = guard_dup(data, total);
    /* SM_RING: the last 64 KiB stay intact when the block copied in at the
     * start of the ring is at most as long as what precedes its wrap
     * (stream_driver.h): 64 KiB + 2 x the largest block. */
    if (p->mode == SM_RING)
        pl->ring = guard_alloc(STREAM_WINDOW + 2 * maxb, 0);
    if (p->mode == SM_RING_SYNC)
        pl->ring = guard_alloc(p->ring, 0);
    if (p->mode == SM_SAVEDICT) {
        pl->reused = guard_alloc(maxb, 0);
        pl->safe = guard_alloc(STREAM_WINDOW, 0);
    }
}

/* The input of a block of n bytes that starts at data + at. */
static const char *placer_put(placer *pl, const uint8_t *data, size_t at, size_t n)
{
    switch (pl->mode) {
    case SM_PREFIX:
        return (const char *)pl->whole.data + at;
    case SM_SEPARATE:
        pl->live[pl->nlive] = guard_dup(data + at, n);
        pl->live_size[pl->nlive] = n;
        return (const char *)pl->live[pl->nlive++].data;
    case SM_RING:
    case SM_RING_SYNC:
        if (pl->pos + n > pl->ring.size)
            pl->pos = 0;
        memcpy(pl->ring.data + pl->pos, data + at, n);
        return (const char *)pl->ring.data + pl->pos;
    default:   /* SM_SAVEDICT */
        memcpy(pl->reused.data, data + at, n);
        return (const char *)pl->reused.data;
    }
}

/* After a block: advance (ok) or take the block back (failed). */
static void placer_done(placer *pl, size_t n, int ok)
{
    if (pl->mode == SM_RING || pl->mode == SM_RING_SYNC) {
        if (ok)
            pl->pos += n;
    } else if (pl->mode == SM_SEPARATE) {
        /* Free the buffers that 64 KiB of newer input follow. */
        pl->nlive = guard_keep_window(pl->live, pl->live_size, pl->nlive, STREAM_WINDOW);
    }
}

static void placer_free(placer *pl)
{
    size_t i;
    guard_free(&pl->whole);   /* a no-op when not mapped */
    guard_free(&pl->ring);
    guard_free(&pl->reused);
    guard_free(&pl->safe);
    for (i = 0; i < pl->nlive; i++)
        guard_free(&pl->live[i]);
}

unsigned char *stream_guard_tail(const guard_buf *g, size_t n, const char *name)
{
    guard_buf view = *g;
    view.data = g->data + g->size - n;
    view.size = n;
    guard_label(&view, name);
    guard_poison_before(g, view.data);     /* the earlier blocks' bytes: out of bounds */
    return view.data;
}

stream_result stream_problem(int block, enum fail_class cls, const char *fmt, ...)
{
    stream_result r;
    va_list ap;
    r.block = block;
    r.cls = cls;
    va_start(ap, fmt);
    vsnprintf(r.msg, sizeof r.msg, fmt, ap);
    va_end(ap);
    return r;
}

/* The dictionary stream of an attach (made on first use). */
static void *dict_stream(const struct lz4_subject *s, const stream_plan *p, void **ds, int d)
{
    if (!ds[d]) {
        ds[d] = s->stream_create(p->hc);
        if (ds[d]) {
            s->stream_reset(ds[d], p->param, 0);
            s->stream_load_dict(ds[d], (const char *)p->dict[d], (int)p->dict_len[d]);
        }
    }
    return ds[d];
}

stream_result stream_subject_compress(const struct lz4_subject *s, const stream_plan *p,
                                      const uint8_t *data, stream_blocks *out)
{
    stream_result res = stream_problem(-1, FAIL_NONE, "%s", "");
    void *st, *ds[2] = { NULL, NULL };
    placer pl;
    guard_buf dsts;
    size_t k, at = 0, total = 0;
    int pending_reset = 0;
    for (k = 0; k < p->nsteps; k++)
        total += p->step[k].size;
    stream_blocks_init(out, p);
    st = s->stream_create(p->hc);
    if (!st)
        return stream_problem(0, FAIL_CREATE_FAILED, "stream_create(%d) returned NULL", p->hc);
    s->stream_reset(st, p->param, 0);
    placer_init(&pl, p, data, total);
    dsts = guard_alloc(bound_of(s, stream_plan_max_block(p)) + 64, 0);   /* cap_delta < 64 */
    for (k = 0; k < p->nsteps && res.block < 0; k++) {
        const stream_step *t = &p->step[k];
        int ev = pending_reset && t->event == SE_NONE ? SE_RESET : t->event, r;
        size_t bound = bound_of(s, t->size), cap;
        const char *src;
        unsigned char *dst;
        pending_reset = 0;
        if (ev == SE_RESET)
            s->stream_reset(st, p->param, t->fast_reset);
        else if (ev == SE_LOAD_DICT)
            s->stream_load_dict(st, (const char *)p->dict[t->dict], (int)p->dict_len[t->dict]);
        else if (ev == SE_ATTACH) {
            void *d = dict_stream(s, p, ds, t->dict);
            if (!d) {
                res = stream_problem((int)k, FAIL_CREATE_FAILED, "stream_create(%d) returned "
                                     "NULL for a dictionary stream", p->hc);
                break;
            }
            s->stream_reset(st, p->param, t->fast_reset);
            s->stream_attach(st, d);
        }
        cap = t->cap_delta < 0 && (size_t)-t->cap_delta > bound ? 0
                                                                : bound + (size_t)t->cap_delta;
        src = placer_put(&pl, data, at, t->size);
        dst = stream_guard_tail(&dsts, cap, "output");
        memset(dst, 0xA5, cap);
        r = s->stream_compress(st, src, (char *)dst, (int)t->size, (int)cap, p->param);
        if (r < 0 || (size_t)r > cap)
            res = stream_problem((int)k, FAIL_RETURN_ABOVE_CAPACITY, "block %zu (%zu bytes, %s, "
                                 "after %s): returned %d, capacity %zu", k, t->size,
                                 stream_mode_names[p->mode], stream_event_names[ev], r, cap);
        else if (r == 0 && cap >= bound)
            res = stream_problem((int)k, FAIL_FAILS_WITHIN_BOUND, "block %zu (%zu bytes, %s, "
                                 "after %s): returned 0 with capacity %zu >= bound %zu", k,
                                 t->size, stream_mode_names[p->mode], stream_event_names[ev],
                                 cap, bound);
        else if (r == 0)
            pending_reset = 1;   /* lz4.h: after a failure the stream must be reset */
        else
            stream_blocks_add(out, dst, (size_t)r, data + at, t->size, ev, t->dict);
        placer_done(&pl, t->size, r > 0);
        if (r > 0 && p->mode == SM_SAVEDICT) {
            int saved = s->stream_save_dict(st, (char *)pl.safe.data, (int)STREAM_WINDOW);
            if (saved < 0 || saved > (int)STREAM_WINDOW)
                res = stream_problem((int)k, FAIL_SAVE_DICT, "saveDict into 64 KiB returned %d",
                                     saved);
        }
        at += t->size;
    }
    s->stream_free(st);
    if (ds[0])
        s->stream_free(ds[0]);
    if (ds[1])
        s->stream_free(ds[1]);
    placer_free(&pl);
    guard_free(&dsts);
    return res;
}
