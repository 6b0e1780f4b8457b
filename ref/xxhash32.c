/*
 * xxHash-32, the checksum of the LZ4 frame format (lz4_Frame_format.md,
 * "Header Checksum", "Block checksum", "Content Checksum"), written from the
 * published description of the algorithm (xxhash_spec.md): five 32-bit
 * primes, four lanes of 16-byte stripes, then 4-byte and 1-byte tails, then
 * the avalanche. Little-endian reads are done byte by byte, so the result is
 * the same on every host.
 *
 * The one-shot and the streaming versions are written separately on purpose:
 * tests/c/test_frame.c checks that they agree for every split of the input.
 */
#include <string.h>

#include "lz4frame_ref.h"

#define P1 0x9E3779B1u
#define P2 0x85EBCA77u
#define P3 0xC2B2AE3Du
#define P4 0x27D4EB2Fu
#define P5 0x165667B1u

static uint32_t rotl(uint32_t x, unsigned r) { return (x << r) | (x >> (32 - r)); }

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One lane step of the 16-byte stripe loop. */
static uint32_t round32(uint32_t acc, uint32_t lane)
{
    return rotl(acc + lane * P2, 13) * P1;
}

/* Consume the tail (< 16 bytes), then mix the bits (the "avalanche"). */
static uint32_t finish(uint32_t acc, const uint8_t *p, size_t n)
{
    while (n >= 4) {
        acc = rotl(acc + le32(p) * P3, 17) * P4;
        p += 4;
        n -= 4;
    }
    while (n > 0) {
        acc = rotl(acc + (uint32_t)*p * P5, 11) * P1;
        p++;
        n--;
    }
    acc ^= acc >> 15;
    acc *= P2;
    acc ^= acc >> 13;
    acc *= P3;
    acc ^= acc >> 16;
    return acc;
}

static uint32_t converge(const uint32_t v[4])
{
    return rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
}

static void init_lanes(uint32_t v[4], uint32_t seed)
{
    v[0] = seed + P1 + P2;
    v[1] = seed + P2;
    v[2] = seed;
    v[3] = seed - P1;
}

uint32_t ref_xxh32(const void *data, size_t n, uint32_t seed)
{
    const uint8_t *p = data;
    uint32_t acc;

    if (n >= 16) {
        uint32_t v[4];
        size_t stripes = n / 16, i;
        init_lanes(v, seed);
        for (i = 0; i < stripes; i++, p += 16) {
            v[0] = round32(v[0], le32(p));
            v[1] = round32(v[1], le32(p + 4));
            v[2] = round32(v[2], le32(p + 8));
            v[3] = round32(v[3], le32(p + 12));
        }
        acc = converge(v);
    } else {
        acc = seed + P5;
    }
    acc += (uint32_t)n;   /* the input length, modulo 2^32 */
    return finish(acc, p, n % 16);
}

void ref_xxh32_init(ref_xxh32_state *s, uint32_t seed)
{
    memset(s, 0, sizeof *s);
    s->seed = seed;
    init_lanes(s->v, seed);
}

void ref_xxh32_update(ref_xxh32_state *s, const void *data, size_t n)
{
    const uint8_t *p = data;

    if (n == 0)
        return;
    s->total_len += (uint32_t)n;
    if (n >= 16 || s->total_len >= 16)
        s->large = 1;
    while (n > 0) {
        size_t take = 16 - s->buf_len;
        if (take > n)
            take = n;
        memcpy(s->buf + s->buf_len, p, take);
        s->buf_len += (unsigned)take;
        p += take;
        n -= take;
        if (s->buf_len == 16) {
            s->v[0] = round32(s->v[0], le32(s->buf));
            s->v[1] = round32(s->v[1], le32(s->buf + 4));
            s->v[2] = round32(s->v[2], le32(s->buf + 8));
            s->v[3] = round32(s->v[3], le32(s->buf + 12));
            s->buf_len = 0;
        }
    }
}

uint32_t ref_xxh32_digest(const ref_xxh32_state *s)
{
    uint32_t acc = s->large ? converge(s->v) : s->seed + P5;
    acc += s->total_len;
    return finish(acc, s->buf, s->buf_len);
}
