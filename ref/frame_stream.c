/*
 * The streaming driver of the frame decoder: input split at any byte,
 * output taken in chunks of any size.
 *
 * A unit (frame_engine.h) that lies whole inside the current input is
 * parsed in place; one split across inputs is gathered in the staging
 * buffer first. Blocks are decoded into a window that keeps, in front of
 * the block, the 64 KiB of history that linked blocks may reference;
 * decoded bytes wait there ("pending") until the caller has taken them,
 * and no further unit is parsed before that, so an error is reported only
 * after every byte decoded before it was delivered, as in the one-shot.
 */
#include <stdlib.h>
#include <string.h>

#include "frame_engine.h"

struct ref_frame_stream {
    frame_engine e;
    ref_frame_options opt;  /* with dict pointing at dict_copy */
    uint8_t *dict_copy;

    uint8_t *window;        /* history + block being decoded */
    size_t window_cap;
    size_t pend_off;        /* decoded bytes not yet delivered: */
    size_t pend_len;        /*   window[pend_off .. pend_off + pend_len) */
    size_t delivered;       /* bytes handed to the caller in total */

    uint8_t *stage;         /* a unit split across inputs */
    size_t stage_cap;
    size_t staged;
};

static void stream_fail(ref_frame_stream *s, ref_frame_status status)
{
    s->e.status = status;
    s->e.failed_check = -1;
    s->e.err_off = s->e.pos;
}

ref_frame_stream *ref_frame_stream_new(const ref_frame_options *o)
{
    ref_frame_stream *s;
    ref_frame_options defaults;

    if (!o) {
        ref_frame_options_default(&defaults);
        o = &defaults;
    }
    if (!o->dict && o->dict_len)
        return NULL;
    s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->opt = *o;
    if (o->dict) {
        /* Keep the last 64 KiB: the caller's buffer need not outlive this call. */
        size_t keep = o->dict_len > REF_MAX_DICT ? REF_MAX_DICT : o->dict_len;
        s->dict_copy = malloc(keep ? keep : 1);
        if (!s->dict_copy) {
            free(s);
            return NULL;
        }
        if (keep)
            memcpy(s->dict_copy, o->dict + (o->dict_len - keep), keep);
        s->opt.dict = s->dict_copy;
        s->opt.dict_len = keep;
    }
    ref_frame_stream_reset(s);
    return s;
}

void ref_frame_stream_free(ref_frame_stream *s)
{
    if (!s)
        return;
    free(s->window);
    free(s->stage);
    free(s->dict_copy);
    free(s);
}

void ref_frame_stream_reset(ref_frame_stream *s)
{
    /* Everything but the buffers and options starts over
     * (docs/fix-history.md#ulz4-2023-1227: a reset that keeps stale state fails the next frame). */
    ref_frame_engine_init(&s->e, &s->opt, s->window, s->window_cap);
    s->pend_off = s->pend_len = s->delivered = 0;
    s->staged = 0;
}

/* Before a block: room for its largest output after the history it may
 * reference. Slides the history to the front, grows the window if needed. */
static int make_room(ref_frame_stream *s)
{
    frame_engine *e = &s->e;
    const size_t max_out = ref_frame_engine_unit_output_max(e);
    const size_t keep = ref_frame_engine_history(e);

    if (max_out == 0 || e->out_cap - e->out_pos >= max_out)
        return 1;
    if (keep && e->out_pos > keep)
        memmove(s->window, s->window + (e->out_pos - keep), keep);
    e->out_pos = keep;
    if (s->window_cap - keep < max_out) {
        size_t want = REF_FRAME_HISTORY + max_out;
        uint8_t *w = realloc(s->window, want);
        if (!w)
            return 0;
        s->window = w;
        s->window_cap = want;
        e->out = w;
        e->out_cap = want;
    }
    return 1;
}

static int stage_room(ref_frame_stream *s, size_t need)
{
    uint8_t *p;
    if (s->stage_cap >= need)
        return 1;
    p = realloc(s->stage, need);
    if (!p)
        return 0;
    s->stage = p;
    s->stage_cap = need;
    return 1;
}

/* Hand out pending bytes; returns 1 when none remain. */
static int deliver(ref_frame_stream *s, uint8_t *dst, size_t dst_cap, size_t *out)
{
    size_t take = dst_cap - *out;
    if (take > s->pend_len)
        take = s->pend_len;
    if (take) {
        memcpy(dst + *out, s->window + s->pend_off, take);
        *out += take;
        s->pend_off += take;
        s->pend_len -= take;
        s->delivered += take;
    }
    return s->pend_len == 0;
}

ref_frame_status ref_frame_stream_decode(ref_frame_stream *s, const uint8_t *src, size_t src_len,
                                         size_t *consumed, uint8_t *dst, size_t dst_cap,
                                         size_t *written)
{
    frame_engine *e = &s->e;
    size_t in = 0, out = 0;

    *consumed = 0;
    *written = 0;
    if ((!src && src_len) || (!dst && dst_cap))
        return REF_FRAME_ERR_BAD_PARAMETER;
    while (e->status == REF_FRAME_OK) {
        const size_t avail = src_len - in;
        const uint8_t *unit;
        size_t before;

        if (!deliver(s, dst, dst_cap, &out))
            break;                          /* dst is full */
        if (e->unit == U_SKIP_DATA) {       /* user data: count it, keep nothing */
            size_t take = avail < e->need ? avail : e->need;
            if (take == 0)
                break;
            ref_frame_engine_skipped(e, take);
            in += take;
            continue;
        }
        if (s->staged == 0 && avail >= e->need) {
            unit = src ? src + in : NULL;   /* whole in this input: in place */
            in += e->need;
        } else {
            size_t take = e->need - s->staged;
            if (take > avail)
                take = avail;
            if (take == 0)
                break;                      /* need more input */
            if (!stage_room(s, e->need)) {
                stream_fail(s, REF_FRAME_ERR_NO_MEMORY);
                break;
            }
            memcpy(s->stage + s->staged, src + in, take);
            s->staged += take;
            in += take;
            if (s->staged < e->need)
                break;                      /* input used up */
            unit = s->stage;
        }
        s->staged = 0;
        if (!make_room(s)) {
            stream_fail(s, REF_FRAME_ERR_NO_MEMORY);
            break;
        }
        before = e->out_pos;
        if (ref_frame_engine_unit(e, unit) != REF_FRAME_OK)
            break;
        s->pend_off = before;
        s->pend_len = e->out_pos - before;
    }
    *consumed = in;
    *written = out;
    return e->status;
}

int ref_frame_stream_at_frame_end(const ref_frame_stream *s)
{
    const frame_engine *e = &s->e;
    /* A legacy frame has no end mark: between chunks is also an end. */
    return e->status == REF_FRAME_OK && e->pos > 0 && s->staged == 0 && s->pend_len == 0 &&
           (e->unit == U_MAGIC || e->unit == U_LEGACY_SIZE);
}

ref_frame_result ref_frame_stream_finish(ref_frame_stream *s)
{
    frame_engine *e = &s->e;

    if (e->status == REF_FRAME_OK && s->pend_len)
        stream_fail(s, REF_FRAME_ERR_BAD_PARAMETER);   /* output not taken */
    if (e->status == REF_FRAME_OK && !ref_frame_engine_end(e, s->stage, s->staged))
        (void)ref_frame_engine_truncated(e);   /* mutant build of its check: accepts */
    if (e->status == REF_FRAME_OK)
        s->staged = 0;
    return ref_frame_engine_result(e, s->delivered);
}
