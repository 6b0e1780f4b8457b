/*
 * Adapter presenting lz4gate's reference codec (ref/) through the
 * upstream-style API of the subject table, so that the reference can itself
 * be gated, fuzzed and run through the regression cases like any subject.
 *
 * Conventions follow upstream >= 1.9.4 where the API leaves a choice:
 * negative sizes and NULL buffers are errors (-1), a partial decode of
 * target 0 returns 0, errors return -(input position) - 1. The decoder runs
 * the strict profile.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lz4ref.h"
#include "subject.h"

#ifndef SUBJECT_ENTRY
#define SUBJECT_ENTRY lz4gate_subject
#endif

static int decode_result(ref_decode_result r)
{
    if (r.status != REF_OK)
        return r.consumed < INT32_MAX ? -(int)r.consumed - 1 : -1;
    return (int)r.written;
}

static ref_decode_params params(const char *src, size_t n, char *dst, size_t cap)
{
    ref_decode_params p;
    memset(&p, 0, sizeof p);
    p.src = (const uint8_t *)src;
    p.src_len = n;
    p.dst = (uint8_t *)dst;
    p.dst_cap = cap;
    p.profile = REF_PROFILE_STRICT;
    p.target0 = REF_TARGET0_RETURNS_ZERO;
    return p;
}

static int r_compress_bound(int n)
{
    return n < 0 ? 0 : (int)ref_compress_bound((size_t)n);
}

static int r_decompress_safe(const char *s, char *d, int n, int cap)
{
    ref_decode_params p;
    if (!s || n < 0 || cap < 0)
        return -1;
    p = params(s, (size_t)n, d, (size_t)cap);
    return decode_result(ref_decode(&p));
}

static int r_decompress_safe_partial(const char *s, char *d, int n, int target, int cap)
{
    ref_decode_params p;
    if (!s || n < 0 || target < 0 || cap < 0)
        return -1;
    p = params(s, (size_t)n, d, (size_t)cap);
    p.partial = 1;
    p.target = (size_t)target;
    return decode_result(ref_decode(&p));
}

/* Only the last 64 KiB of a dictionary can be referenced. */
static void set_dict(ref_decode_params *p, const char *dict, int dict_size)
{
    if (dict_size > REF_MAX_DICT) {
        dict += dict_size - REF_MAX_DICT;
        dict_size = REF_MAX_DICT;
    }
    p->dict = (const uint8_t *)dict;
    p->dict_len = (size_t)dict_size;
}

/* Known output size, unknown input size: the LZ4_decompress_fast contract
 * (trusted input), with dict[0..dict_size) as history (none: NULL, 0);
 * where the dictionary ends at dst it is the output's own prefix, which ref
 * reads the same way. Returns the input bytes read. The input bound is "as
 * far as the address space goes", so a malformed block reads past its
 * buffer exactly as the contract permits, and ASan reports it. */
static int r_decompress_fast_using_dict(const char *s, char *d, int original,
                                        const char *dict, int dict_size)
{
    ref_decode_params p;
    ref_decode_result r;
    if (!s || original < 0 || dict_size < 0)
        return -1;
    p = params(s, SIZE_MAX - (uintptr_t)s, d, (size_t)original);
    p.stop_at_output_end = 1;
    set_dict(&p, dict, dict_size);
    r = ref_decode(&p);
    if (r.status != REF_OK || r.written != (size_t)original)
        return -1;
    return (int)r.consumed;
}

static int r_decompress_fast(const char *s, char *d, int original)
{
    return r_decompress_fast_using_dict(s, d, original, NULL, 0);
}

static int r_decompress_safe_using_dict(const char *s, char *d, int n, int cap,
                                        const char *dict, int dict_size)
{
    ref_decode_params p;
    if (!s || n < 0 || cap < 0 || dict_size < 0)
        return -1;
    p = params(s, (size_t)n, d, (size_t)cap);
    set_dict(&p, dict, dict_size);
    return decode_result(ref_decode(&p));
}

static int encode(const char *dict, int dict_size, const char *s, char *d, int n, int cap,
                  int accel, ref_encode_mode mode, int *consumed)
{
    ref_encode_params p;
    ref_encode_result r;
    void *state;
    if (!s || n < 0 || cap <= 0 || dict_size < 0)
        return 0;
    memset(&p, 0, sizeof p);
    p.src = (const uint8_t *)s;
    p.src_len = (size_t)n;
    p.dst = (uint8_t *)d;
    p.dst_cap = (size_t)cap;
    p.acceleration = accel;
    p.dict = (const uint8_t *)dict;
    p.dict_len = (size_t)dict_size;
    p.mode = mode;
    state = malloc(REF_ENCODE_STATE_SIZE);
    if (!state)
        abort();
    r = ref_encode(&p, state);
    free(state);
    if (consumed)
        *consumed = r.ok ? (int)r.consumed : 0;
    return r.ok ? (int)r.written : 0;
}

static int r_compress_default(const char *s, char *d, int n, int cap)
{
    return encode(NULL, 0, s, d, n, cap, 1, REF_ENCODE_LIMITED, NULL);
}

static int r_compress_fast(const char *s, char *d, int n, int cap, int accel)
{
    return encode(NULL, 0, s, d, n, cap, accel, REF_ENCODE_LIMITED, NULL);
}

static int r_compress_dest_size(const char *s, char *d, int *n, int target)
{
    if (!n)
        return 0;
    return encode(NULL, 0, s, d, *n, target, 1, REF_ENCODE_DEST_SIZE, n);
}

static int r_compress_using_dict(const char *dict, int dict_size, const char *s, char *d,
                                 int n, int cap, int accel)
{
    return encode(dict, dict_size, s, d, n, cap, accel, REF_ENCODE_LIMITED, NULL);
}

void ref_adapter_frame_fill(struct lz4_subject *s);   /* adapter_ref_frame.c */
void ref_stream_fill(struct lz4_subject *s);          /* adapter_stream_ref.c */

const struct lz4_subject *SUBJECT_ENTRY(void)
{
    static struct lz4_subject s = {
        .name = "ref",
        .generation = GEN_REF,
        .caps = CAP_COMPRESS_BOUND | CAP_DECOMPRESS_SAFE | CAP_DECOMPRESS_PARTIAL |
                CAP_DECOMPRESS_FAST | CAP_DECOMPRESS_USING_DICT | CAP_COMPRESS_DEFAULT |
                CAP_COMPRESS_FAST | CAP_COMPRESS_DEST_SIZE | CAP_COMPRESS_USING_DICT |
                CAP_DECOMPRESS_FAST_USING_DICT,
        .compress_bound = r_compress_bound,
        .decompress_safe = r_decompress_safe,
        .decompress_safe_partial = r_decompress_safe_partial,
        .decompress_fast = r_decompress_fast,
        .decompress_safe_using_dict = r_decompress_safe_using_dict,
        .decompress_fast_using_dict = r_decompress_fast_using_dict,
        .compress_default = r_compress_default,
        .compress_fast = r_compress_fast,
        .compress_dest_size = r_compress_dest_size,
        .compress_using_dict = r_compress_using_dict,
    };
    if (!s.frame_decompress) {
        ref_adapter_frame_fill(&s);
        ref_stream_fill(&s);   /* adapter_stream_ref.c */
    }
    return &s;
}
