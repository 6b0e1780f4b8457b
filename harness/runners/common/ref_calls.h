/*
 * ref_calls.h: the reference encoder and decoder called with their
 * parameters as arguments, for lz4gate's own programs (the unit tests, the
 * vector and seed generators, the vector runner), so that none of them
 * fills ref_encode_params / ref_decode_params field by field again.
 */
#ifndef LZ4GATE_REF_CALLS_H
#define LZ4GATE_REF_CALLS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lz4ref.h"

/* ref_encode with a scratch state of this translation unit (the programs
 * that use it are single-threaded). */
static inline ref_encode_result ref_encode_with(const uint8_t *src, size_t n, uint8_t *dst,
                                                size_t cap, int acceleration,
                                                ref_encode_mode mode, const uint8_t *dict,
                                                size_t dict_len)
{
    static uint32_t state[REF_ENCODE_STATE_SIZE / 4];
    ref_encode_params p;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.src_len = n;
    p.dst = dst;
    p.dst_cap = cap;
    p.acceleration = acceleration;
    p.mode = mode;
    p.dict = dict;
    p.dict_len = dict_len;
    return ref_encode(&p, state);
}

/* ref_decode of a block with an external dictionary (dict_len 0: none),
 * whole (partial 0) or partial with `target`; no prefix, and a partial
 * target of 0 returns 0 bytes (REF_TARGET0_RETURNS_ZERO). */
static inline ref_decode_result ref_decode_with(const uint8_t *src, size_t n, uint8_t *dst,
                                                size_t cap, const uint8_t *dict,
                                                size_t dict_len, ref_profile profile,
                                                int partial, size_t target)
{
    ref_decode_params p;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.src_len = n;
    p.dst = dst;
    p.dst_cap = cap;
    p.dict = dict_len ? dict : NULL;
    p.dict_len = dict_len;
    p.profile = profile;
    p.partial = partial;
    p.target = target;
    p.target0 = REF_TARGET0_RETURNS_ZERO;
    return ref_decode(&p);
}

#endif /* LZ4GATE_REF_CALLS_H */
