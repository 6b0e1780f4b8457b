/*
 * The two conformant subjects among the broken ones (adapter_broken.c,
 * modes strict_decoders and compatible_decoders): decoders on the two sides
 * of ref's profile table (ref/profile.c), which the spec both allows (End
 * of block conditions: "a conformant decoder is allowed to reject";
 * offset 0). lz4gate's one verdict (harness/runners/common/judge.h) must
 * find nothing in either; the tests of the verdict run them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adapter_broken_profile.h"
#include "lz4frame_ref.h"

int bp_decode(const char *s, char *d, int n, int cap, int partial, int target, const char *dict,
              int dict_len, ref_profile profile)
{
    ref_decode_result r = bp_decode_result(s, d, n, cap, partial, target, dict, dict_len,
                                           profile);
    return r.status == REF_OK ? (int)r.written : -1;
}

ref_decode_result bp_decode_result(const char *s, char *d, int n, int cap, int partial,
                                   int target, const char *dict, int dict_len,
                                   ref_profile profile)
{
    ref_decode_params p;
    if (!s || n < 0 || cap < 0 || target < 0 || dict_len < 0) {
        ref_decode_result bad;
        memset(&bad, 0, sizeof bad);
        bad.status = REF_ERR_BAD_PARAMETER;
        return bad;
    }
    if (dict_len > REF_MAX_DICT) {      /* only the last 64 KiB is reachable */
        dict += dict_len - REF_MAX_DICT;
        dict_len = REF_MAX_DICT;
    }
    memset(&p, 0, sizeof p);
    p.src = (const uint8_t *)s;
    p.src_len = (size_t)n;
    p.dst = (uint8_t *)d;
    p.dst_cap = (size_t)cap;
    p.dict = dict_len ? (const uint8_t *)dict : NULL;
    p.dict_len = (size_t)dict_len;
    p.profile = profile;
    p.partial = partial;
    p.target = (size_t)target;
    p.target0 = REF_TARGET0_RETURNS_ZERO;
    return ref_decode(&p);
}

int bp_strict_whole(const char *s, int n)
{
    /* An input byte adds at most 255 output bytes (Compressed block format). */
    size_t cap = n > 0 ? 255u * (size_t)n + 64 : 64;
    char *out = malloc(cap);
    int r;
    if (!out)
        abort();
    r = bp_decode(s, out, n, (int)(cap > INT32_MAX ? INT32_MAX : cap), 0, 0, NULL, 0,
                  REF_PROFILE_STRICT);
    free(out);
    return r >= 0;
}

/* ---- LZ4F_decompress on ref's streaming decoder, strict profile ---------- */

struct bp_dctx {
    ref_frame_stream *stream;
};

void *bp_strict_dctx_create(void)
{
    return calloc(1, sizeof(struct bp_dctx));
}

void bp_strict_dctx_free(void *p)
{
    struct bp_dctx *d = p;
    if (d)
        ref_frame_stream_free(d->stream);
    free(d);
}

void bp_strict_dctx_reset(void *p)
{
    struct bp_dctx *d = p;
    ref_frame_stream_free(d->stream);
    d->stream = NULL;
}

/* As adapter_ref_frame.c's decoder (errors -1 - status, hint 0 at a frame
 * end), with the strict profile. */
long long bp_strict_frame_decompress(void *p, unsigned char *dst, size_t *dst_len,
                                     const unsigned char *src, size_t *src_len,
                                     const unsigned char *dict, size_t dict_len)
{
    struct bp_dctx *d = p;
    size_t consumed = 0, written = 0;
    ref_frame_status st;
    if (!d->stream) {
        ref_frame_options o;
        ref_frame_options_default(&o);
        o.profile = REF_PROFILE_STRICT;
        o.dict = dict;
        o.dict_len = dict ? dict_len : 0;
        d->stream = ref_frame_stream_new(&o);
        if (!d->stream)
            return -1 - (long long)REF_FRAME_ERR_NO_MEMORY;
    }
    st = ref_frame_stream_decode(d->stream, src, *src_len, &consumed, dst, *dst_len, &written);
    *src_len = consumed;
    *dst_len = written;
    if (st != REF_FRAME_OK)
        return -1 - (long long)st;
    return ref_frame_stream_at_frame_end(d->stream) ? 0 : 1;
}

/* ---- unlz4: the legacy stream it read, checked strict ------------------------ */

static unlz4_fill_fn user_fill;
static unsigned char *seen;
static size_t seen_len, seen_cap;

static long recording_fill(void *buf, unsigned long size)
{
    long r = user_fill(buf, size);
    if (r > 0) {
        if (seen_len + (size_t)r > seen_cap) {
            seen_cap = 2 * (seen_len + (size_t)r);
            seen = realloc(seen, seen_cap);
            if (!seen)
                abort();
        }
        memcpy(seen + seen_len, buf, (size_t)r);
        seen_len += (size_t)r;
    }
    return r;
}

unlz4_fill_fn bp_recording(unlz4_fill_fn fill)
{
    seen_len = 0;
    user_fill = fill;
    return fill ? recording_fill : NULL;
}

const unsigned char *bp_recorded(size_t *n)
{
    *n = seen_len;
    return seen;
}

int bp_legacy_strict_ok(const unsigned char *p, size_t n)
{
    static unsigned char out[65536];
    ref_frame_options o;
    ref_frame_stream *st;
    ref_frame_status s = REF_FRAME_OK;
    size_t at = 0, c, w = 0;
    ref_frame_options_default(&o);
    o.profile = REF_PROFILE_STRICT;
    o.formats = REF_FORMAT_LEGACY;
    st = ref_frame_stream_new(&o);
    if (!st)
        return -1;       /* out of memory (alloc_fail's failures reach ref too) */
    do {                 /* until the input is used up and no output waits */
        c = 0;
        s = ref_frame_stream_decode(st, p + at, n - at, &c, out, sizeof out, &w);
        at += c;
    } while (s == REF_FRAME_OK && (at < n || w == sizeof out) && (c || w));
    if (s == REF_FRAME_OK)
        s = ref_frame_stream_finish(st).status;
    ref_frame_stream_free(st);
    return s == REF_FRAME_OK;
}
