/* lz4gate's one verdict on a decoder's result (judge.h: the rule). */
#include "judge.h"

#include <stdlib.h>
#include <string.h>

judgement judge_decode(int accepted, int same_output, int strict_ok, int compat_ok)
{
    if (!accepted)
        return strict_ok ? JUDGE_REJECTS_VALID : JUDGE_PASS;
    if (!compat_ok)
        return JUDGE_ACCEPTS_INVALID;
    if (same_output)
        return JUDGE_PASS;
    return strict_ok ? JUDGE_WRONG_OUTPUT : JUDGE_OTHER_OUTPUT;
}

enum fail_class judgement_class(judgement v)
{
    switch (v) {
    case JUDGE_REJECTS_VALID: return FAIL_REJECTS_VALID;
    case JUDGE_ACCEPTS_INVALID:
    case JUDGE_OTHER_OUTPUT: return FAIL_ACCEPTS_INVALID;
    case JUDGE_WRONG_OUTPUT: return FAIL_WRONG_OUTPUT;
    case JUDGE_PASS: break;
    }
    return FAIL_NONE;
}

judgement judge_output(const judge_ref *ref, int accepted, const uint8_t *out, size_t len)
{
    int same = ref->compat_ok && len == ref->len && (len == 0 || memcmp(out, ref->out, len) == 0);
    return judge_decode(accepted, same, ref->strict_ok, ref->compat_ok);
}

int judge_partial_strict_ok(int call_ok, int whole_ok)
{
    return call_ok && whole_ok;
}

judge_ref judge_ref_block(const ref_decode_params *p, ref_decode_result *last)
{
    ref_decode_params q = *p;
    ref_decode_result r;
    judge_ref v;
    q.profile = REF_PROFILE_STRICT;
    r = ref_decode(&q);
    v.strict_ok = r.status == REF_OK;
    if (!v.strict_ok) {     /* strict accepting stands for both (judge.h) */
        q.profile = REF_PROFILE_COMPATIBLE;
        r = ref_decode(&q);
    }
    v.compat_ok = r.status == REF_OK;
    v.out = q.dst;
    v.len = v.compat_ok ? r.written : 0;
    if (last)
        *last = r;
    return v;
}

int judge_block_strict_whole(const uint8_t *src, size_t n, const uint8_t *dict,
                               size_t dict_len)
{
    /* An input byte adds at most 255 output bytes (a length byte); a token
     * with its offset, 3 bytes, at most 19 (Compressed block format). */
    size_t cap = n > (SIZE_MAX - 64) / 255 ? SIZE_MAX : 255 * n + 64;
    ref_decode_params p;
    ref_decode_result r;
    memset(&p, 0, sizeof p);
    p.dst = malloc(cap);
    if (!p.dst)
        return -1;
    p.src = src;
    p.src_len = n;
    p.dst_cap = cap;
    p.dict = dict_len ? dict : NULL;
    p.dict_len = dict_len;
    p.profile = REF_PROFILE_STRICT;
    r = ref_decode(&p);
    free(p.dst);
    return r.status == REF_OK;
}

judge_ref judge_ref_frames(const ref_frame_options *o, const uint8_t *src, size_t n,
                               uint8_t *dst, size_t cap, ref_frame_result *last)
{
    ref_frame_options q = *o;
    ref_frame_result r;
    judge_ref v;
    q.profile = REF_PROFILE_STRICT;
    r = ref_frame_decode(&q, src, n, dst, cap);
    v.strict_ok = r.status == REF_FRAME_OK;
    /* Out of room under strict: the compatible decode takes the same path
     * to the same end (it only checks less), no need to run it. */
    if (!v.strict_ok && r.status != REF_FRAME_ERR_OUTPUT_FULL) {
        q.profile = REF_PROFILE_COMPATIBLE;
        r = ref_frame_decode(&q, src, n, dst, cap);
    }
    v.compat_ok = r.status == REF_FRAME_OK;
    v.out = dst;
    v.len = v.compat_ok ? r.written : 0;
    if (last)
        *last = r;
    return v;
}
