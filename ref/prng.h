/*
 * prng.h: the one pseudo-random generator of lz4gate (splitmix64), used by
 * ref's block generator and, through this header, by the harness, the fuzz
 * targets, the seed and vector generators and the tests. Deterministic:
 * the same seed gives the same stream on every platform, so generated data
 * and every failure reproduce.
 */
#ifndef LZ4REF_PRNG_H
#define LZ4REF_PRNG_H

#include <stddef.h>
#include <stdint.h>

#define REF_PRNG_GAMMA 0x9E3779B97F4A7C15ull

typedef struct ref_prng {
    uint64_t s;
} ref_prng;

/* The splitmix64 output function of state z. */
static inline uint64_t ref_prng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t ref_prng_next(ref_prng *r)
{
    return ref_prng_mix(r->s += REF_PRNG_GAMMA);
}

/* Uniform in [0, n), n >= 1 (the modulo bias does not matter here). */
static inline size_t ref_prng_below(ref_prng *r, size_t n)
{
    return (size_t)(ref_prng_next(r) % (uint64_t)n);
}

/* Uniform in [lo, hi], lo <= hi. */
static inline size_t ref_prng_range(ref_prng *r, size_t lo, size_t hi)
{
    return lo + ref_prng_below(r, hi - lo + 1);
}

/* n bytes of the stream of `seed`, one round per byte: byte i depends only
 * on seed + (i + 1) * GAMMA, so any stretch of a stream can be filled on its
 * own. With alphabet > 0 the bytes are the letters 'a' .. 'a' + alphabet - 1. */
static inline void ref_prng_fill(uint8_t *p, size_t n, uint64_t seed, unsigned alphabet)
{
    ref_prng r = { seed };
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t z = ref_prng_next(&r);
        p[i] = (uint8_t)(alphabet ? 'a' + z % alphabet : z);
    }
}

#endif /* LZ4REF_PRNG_H */
