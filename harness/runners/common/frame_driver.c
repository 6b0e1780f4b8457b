/* Driving a subject's streaming frame decoder (frame_driver.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "frame_driver.h"
#include "guard.h"
#include "lz4frame_ref.h"

/* A call that takes no input and gives no output while both are offered
 * is tolerated this many times in a row (LZ4F may return after parsing
 * state), then the driver gives up. */
#define MAX_IDLE_CALLS 4

const char *frame_drive_outcome_name(enum frame_drive_outcome o)
{
    switch (o) {
    case FRAME_DRIVE_COMPLETE: return "complete";
    case FRAME_DRIVE_INCOMPLETE: return "incomplete";
    case FRAME_DRIVE_ERROR: return "error";
    case FRAME_DRIVE_STALLED: return "stalled";
    case FRAME_DRIVE_OUTPUT_FULL: return "output_full";
    case FRAME_DRIVE_CONTRACT: return "contract";
    }
    return "?";
}

enum fail_class frame_drive_outcome_class(enum frame_drive_outcome o)
{
    switch (o) {
    case FRAME_DRIVE_ERROR: return FAIL_FRAME_ERROR;
    case FRAME_DRIVE_STALLED: return FAIL_STALLED;
    case FRAME_DRIVE_OUTPUT_FULL: return FAIL_OUTPUT_FULL;
    case FRAME_DRIVE_CONTRACT: return FAIL_SIZE_BEYOND_OFFERED;
    case FRAME_DRIVE_COMPLETE:
    case FRAME_DRIVE_INCOMPLETE:
        break;
    }
    return FAIL_NONE;
}

frame_drive frame_drive_decode(const struct lz4_subject *s, void *dctx,
                               const unsigned char *src, size_t n, size_t in_chunk,
                               size_t out_chunk, const unsigned char *dict, size_t dict_len,
                               unsigned char *out, size_t out_cap)
{
    return frame_drive_decode_fed(s, dctx, src, n, in_chunk, out_chunk, dict, dict_len, out,
                                  out_cap, FRAME_FEED_SLIDE);
}

frame_drive frame_drive_decode_fed(const struct lz4_subject *s, void *dctx,
                                   const unsigned char *src, size_t n, size_t in_chunk,
                                   size_t out_chunk, const unsigned char *dict,
                                   size_t dict_len, unsigned char *out, size_t out_cap,
                                   enum frame_feed feed)
{
    frame_drive d;
    guard_buf gin, gout;
    long long hint = 1;
    int idle = 0;
    size_t left = 0;   /* FRAME_FEED_REFILL: bytes of the chunk not yet taken */
    memset(&d, 0, sizeof d);
    if (s->flags & SUBJECT_FRAME_ONE_SHOT) {
        /* A one-shot decoder (subject.h): the whole input, all the room. */
        in_chunk = n;
        out_chunk = out_cap;
    }
    if (!in_chunk || in_chunk > n)
        in_chunk = n;
    if (!out_chunk)
        out_chunk = out_cap ? out_cap : 1;
    gin = guard_alloc(in_chunk, 0);
    gout = guard_alloc(out_chunk, 0xA5);
    for (;;) {
        size_t offer = n - d.consumed < in_chunk ? n - d.consumed : in_chunk;
        unsigned char *in_at;
        size_t src_len, dst_len = out_chunk;
        if (feed == FRAME_FEED_REFILL && left) {
            offer = left;   /* the rest of the chunk, already in place */
        } else {
            memcpy(gin.data + in_chunk - offer, src + d.consumed, offer);
            left = offer;
        }
        in_at = gin.data + in_chunk - offer;   /* ends at the guard page */
        src_len = offer;
        hint = s->frame_decompress(dctx, gout.data, &dst_len, in_at, &src_len, dict, dict_len);
        d.calls++;
        if (src_len > offer || dst_len > out_chunk) {
            d.outcome = FRAME_DRIVE_CONTRACT;
            break;
        }
        if (hint < 0) {
            d.outcome = FRAME_DRIVE_ERROR;
            d.error = hint;
            break;
        }
        if (dst_len > out_cap - d.written) {
            d.outcome = FRAME_DRIVE_OUTPUT_FULL;
            break;
        }
        memcpy(out + d.written, gout.data, dst_len);
        d.written += dst_len;
        d.consumed += src_len;
        left -= src_len;
        if (hint == 0)
            d.frames++;
        if (d.consumed == n && (dst_len < out_chunk || hint == 0)) {
            /* All input taken and the last call did not fill the room:
             * nothing is waiting. */
            d.outcome = hint == 0 ? FRAME_DRIVE_COMPLETE : FRAME_DRIVE_INCOMPLETE;
            break;
        }
        if (src_len == 0 && dst_len == 0) {
            if (++idle > MAX_IDLE_CALLS) {
                d.outcome = FRAME_DRIVE_STALLED;
                break;
            }
        } else {
            idle = 0;
        }
    }
    guard_free(&gin);
    guard_free(&gout);
    return d;
}

/* Make room for `need` more bytes after len in *buf (capacity *cap). */
static void room_for(unsigned char **buf, size_t *cap, size_t len, size_t need)
{
    if (*cap - len >= need)
        return;
    *cap = len + need + *cap / 2;
    *buf = xrealloc(*buf, *cap);
}

long long frame_compress_chunked(const struct lz4_subject *s, void *cctx,
                                 const struct subject_frame_prefs *p,
                                 const unsigned char *dict, size_t dict_len,
                                 const unsigned char *data, size_t n, size_t chunk,
                                 unsigned char **frame)
{
    /* Every call gets the room the API says it may need: the header at most
     * 19 bytes (LZ4F_HEADER_SIZE_MAX), Update and End LZ4F_compressBound. */
    size_t cap = 64, len = 0, at = 0;
    long long r;
    if (!chunk)
        chunk = n ? n : 1;
    *frame = xmalloc(cap);
    r = s->frame_compress_begin(cctx, *frame, cap, p, dict, dict_len);
    if (r < 0)
        return r;
    len = (size_t)r;
    while (at < n) {
        size_t take = n - at < chunk ? n - at : chunk;
        room_for(frame, &cap, len, s->frame_compress_update_bound(take, p));
        r = s->frame_compress_update(cctx, *frame + len, cap - len, data + at, take);
        if (r < 0)
            return r;
        len += (size_t)r;
        at += take;
    }
    room_for(frame, &cap, len, s->frame_compress_update_bound(0, p));
    r = s->frame_compress_end(cctx, *frame + len, cap - len);
    if (r < 0)
        return r;
    return (long long)(len + (size_t)r);
}

int frame_ref_decodes_to(const unsigned char *frame, size_t len, const unsigned char *want,
                         size_t n, const unsigned char *dict, size_t dict_len, const char *what,
                         char *msg, size_t cap)
{
    ref_frame_options o;
    ref_frame_result r;
    unsigned char *out = xmalloc(n + 1);   /* one byte more: a longer output shows */
    int ok;
    ref_frame_options_default(&o);
    o.profile = REF_PROFILE_STRICT;
    o.dict = dict;
    o.dict_len = dict_len;
    r = ref_frame_decode(&o, frame, len, out, n + 1);
    ok = r.status == REF_FRAME_OK && r.written == n && (!n || !memcmp(out, want, n));
    if (!ok)
        snprintf(msg, cap, "%s: the %zu-byte frame does not decode to the %zu input bytes "
                 "(ref: %s, check %s, %zu bytes)", what, len, n, ref_frame_status_name(r.status),
                 ref_frame_check_name(r.failed_check), r.written);
    free(out);
    return ok;
}
