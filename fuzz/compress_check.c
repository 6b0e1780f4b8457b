/*
 * compress_check.c: one judged call of a subject's block compressor
 * (compress_check.h), shared by compress_roundtrip and compress_large.
 */
#include <string.h>

#include "compress_check.h"
#include "oracle.h"

static const char *const compress_mode_names[CM_COUNT] = {
    "compress_default", "compress_fast", "compress_default(limited)", "compress_dest_size",
    "compress_hc", "compress_using_dict"
};

typedef struct outcome {
    int r;                  /* return value */
    int consumed;           /* destSize: input bytes taken */
    uint8_t *block;         /* copy of r bytes */
} outcome;

int compress_bound_of(const struct lz4_subject *s, size_t n)
{
    if (s->compress_bound)
        return s->compress_bound((int)n);
    return (int)ref_compress_bound(n);
}

/* One call; the block (if any) copied to scratch slot `slot`. */
static outcome run(const compress_job *j, int slot)
{
    outcome o;
    fz_out out;
    uint8_t *dst = fz_out_open(&out, j->cap, 0, 0);     /* ends exactly at the capacity */
    int cap = (int)j->cap, n = (int)j->n;
    const char *src = (const char *)j->data;
    o.consumed = n;
    switch (j->mode) {
    case CM_FAST:
        o.r = j->s->compress_fast(src, (char *)dst, n, cap, j->param);
        break;
    case CM_DEST_SIZE:
        o.r = j->s->compress_dest_size(src, (char *)dst, &o.consumed, cap);
        break;
    case CM_HC:
        o.r = (j->hc_ext ? j->s->compress_hc_ext_state : j->s->compress_hc)(
            src, (char *)dst, n, cap, j->param);
        break;
    case CM_DICT:
        o.r = j->s->compress_using_dict((const char *)j->dict, (int)j->dict_len, src,
                                        (char *)dst, n, cap, j->param);
        break;
    default:
        o.r = j->s->compress_default(src, (char *)dst, n, cap);
        break;
    }
    if (!fz_out_close(&out))
        fz_finding(FAIL_WROTE_BEFORE_DST, compress_mode_names[j->mode], "%s wrote before the "
                   "destination buffer (input %zu bytes, capacity %zu)", j->s->name, j->n,
                   j->cap);
    o.block = NULL;
    if (o.r > 0 && o.r <= cap) {
        fz_consume(dst, (size_t)o.r);
        o.block = fz_scratch(slot, (size_t)o.r);
        memcpy(o.block, dst, (size_t)o.r);
    }
    return o;
}

void compress_check(const compress_job *j)
{
    const char *name = compress_mode_names[j->mode];
    outcome a = run(j, 9), b;
    int bound = compress_bound_of(j->s, j->n);
    size_t expect_len;

    if (a.r < 0)
        fz_finding(FAIL_NEGATIVE_RETURN, name, "%s returned %d (input %zu bytes, capacity %zu, "
                   "parameter %d); failure is 0", j->s->name, a.r, j->n, j->cap, j->param);
    if (a.r > (int)j->cap)
        fz_finding(FAIL_RETURN_ABOVE_CAPACITY, name, "%s returned %d, more than the capacity "
                   "%zu (input %zu bytes)", j->s->name, a.r, j->cap, j->n);
    if (j->mode == CM_DEST_SIZE && (a.consumed < 0 || (size_t)a.consumed > j->n))
        fz_finding(FAIL_BAD_CONSUMED, name, "%s consumed %d of %zu input bytes (target %zu)",
                   j->s->name, a.consumed, j->n, j->cap);
    if (a.r == 0 && j->n > 0 && bound > 0 && j->cap >= (size_t)bound &&
        j->mode != CM_DEST_SIZE)
        fz_finding(FAIL_FAILS_WITHIN_BOUND, name, "%s returned 0 with a capacity of %zu >= "
                   "compress_bound(%zu) = %d (parameter %d)", j->s->name, j->cap, j->n,
                   bound, j->param);
    if (j->mode == CM_DEST_SIZE && a.r > 0 && bound > 0 && j->cap >= (size_t)bound &&
        (size_t)a.consumed != j->n)
        fz_finding(FAIL_DEST_SIZE_SHORT, name, "%s consumed %d of %zu bytes with a target of "
                   "%zu >= compress_bound = %d", j->s->name, a.consumed, j->n, j->cap, bound);

    if (a.block) {
        fz_ref st, co;
        expect_len = j->mode == CM_DEST_SIZE ? (size_t)a.consumed : j->n;
        /* Decoded with exactly the expected capacity. */
        st = fz_ref_decode(0, a.block, (size_t)a.r, expect_len, j->dict, j->dict_len,
                           REF_PROFILE_STRICT, 0, 0, 0);
        if (st.r.status != REF_OK) {
            co = fz_ref_decode(1, a.block, (size_t)a.r, expect_len, j->dict, j->dict_len,
                               REF_PROFILE_COMPATIBLE, 0, 0, 0);
            if (co.r.status == REF_OK && co.r.written == expect_len &&
                memcmp(co.out, j->data, expect_len) == 0)
                fz_finding(FAIL_NONCONFORMANT_BLOCK, name, "%s: the %d-byte block decodes to "
                           "the input only under the compatible profile; strict rejects it "
                           "with %s (check %s): a compressor must obey every rule (input "
                           "%zu bytes, capacity %zu, parameter %d)", j->s->name, a.r,
                           ref_status_name(st.r.status), fz_check_name(st.r.failed_check),
                           j->n, j->cap, j->param);
            else
                fz_finding(FAIL_ROUNDTRIP, name, "%s: the %d-byte block does not decode: ref "
                           "says %s (check %s) at input byte %zu after %zu output bytes "
                           "(input %zu bytes, capacity %zu, parameter %d)", j->s->name, a.r,
                           ref_status_name(st.r.status), fz_check_name(st.r.failed_check),
                           st.r.consumed, st.r.written, j->n, j->cap, j->param);
        } else if (st.r.written != expect_len ||
                   (expect_len && memcmp(st.out, j->data, expect_len) != 0)) {
            fz_finding(FAIL_ROUNDTRIP, name, "%s: the %d-byte block decodes to %zu bytes that "
                       "are not the %zu input bytes (capacity %zu, parameter %d)", j->s->name,
                       a.r, st.r.written, expect_len, j->cap, j->param);
        }
    }

    if (!j->twice)
        return;
    b = run(j, 10);
    if (a.r != b.r || a.consumed != b.consumed ||
        (a.block && b.block && memcmp(a.block, b.block, (size_t)a.r) != 0))
        fz_finding(FAIL_NONDETERMINISTIC, name, "%s: two identical calls returned %d and %d "
                   "(consumed %d and %d)%s (input %zu bytes, capacity %zu)", j->s->name, a.r,
                   b.r, a.consumed, b.consumed, a.r == b.r ? " with different bytes" : "",
                   j->n, j->cap);
}

int compress_mode_or_default(const struct lz4_subject *s, int mode)
{
    int has;
    switch (mode) {
    case CM_FAST: has = s->compress_fast != NULL && !fz_skip("compress_fast"); break;
    case CM_DEST_SIZE:
        has = s->compress_dest_size != NULL && !fz_skip("compress_dest_size");
        break;
    case CM_HC: has = s->compress_hc != NULL && !fz_skip("compress_hc"); break;
    case CM_DICT: has = s->compress_using_dict != NULL && !fz_skip("compress_using_dict"); break;
    default: has = 1; break;
    }
    return has ? mode : CM_DEFAULT;
}

void compress_take_dict(compress_job *j, const uint8_t **p, size_t *len, uint32_t sel)
{
    size_t k;
    if (j->mode != CM_DICT)
        return;
    k = sel % (*len + 1);
    j->dict = fz_src(1, *p, k);
    j->dict_len = k;
    *p += k;
    *len -= k;
}

size_t compress_needed(const compress_job *j)
{
    compress_job probe = *j;
    int bound = compress_bound_of(j->s, j->n), r;
    probe.cap = bound > 0 ? (size_t)bound : ref_compress_bound(j->n) + 16;
    r = run(&probe, 9).r;
    return r > 0 ? (size_t)r : 0;
}

size_t compress_default_size(const compress_job *j)
{
    compress_job probe = *j;
    probe.mode = CM_DEFAULT;
    return compress_needed(&probe);
}
