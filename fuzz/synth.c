/*
 * synth.c: data described by a few bytes (synth.h). Not instrumented for
 * coverage (FZ_NO_COVERAGE): its loops run per segment and per byte, and
 * what matters for guidance is the compressor's coverage on the result.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "prng.h"
#include "synth.h"

/* The pool random segments are windows of: filled once, one splitmix64
 * round per 8 bytes. */
#define POOL_SIZE (1u << 20)
#define WINDOW_64K 65536u

static FZ_NO_COVERAGE const uint8_t *pool(void)
{
    static uint8_t *p;
    if (!p) {
        ref_prng r = { 0x73796E7468ull };
        size_t i;
        p = fz_alloc(POOL_SIZE);
        fz_free_at_exit(&p);
        for (i = 0; i < POOL_SIZE; i += 8) {
            uint64_t v = ref_prng_next(&r);
            int b;
            for (b = 0; b < 8; b++)
                p[i + b] = (uint8_t)(v >> (8 * b));
        }
    }
    return p;
}

/* n random bytes from pool offset `at` on (wrapping). */
static FZ_NO_COVERAGE void pool_copy(uint8_t *out, size_t n, size_t at)
{
    const uint8_t *p = pool();
    at %= POOL_SIZE;
    while (n) {
        size_t k = fz_min(n, POOL_SIZE - at);
        memcpy(out, p + at, k);
        out += k;
        n -= k;
        at = (at + k + 4099) % POOL_SIZE;   /* no exact 1 MiB period */
    }
}

/* out[0..len) = the `period` bytes before out, repeated (period <= what is
 * before out): doubling copies, none of them overlapping. */
static FZ_NO_COVERAGE void repeat_back(uint8_t *out, size_t len, size_t period)
{
    size_t done;
    if (period >= len) {
        memcpy(out, out - period, len);
        return;
    }
    memcpy(out, out - period, period);
    done = period;
    while (done < len) {
        size_t k = fz_min(len - done, done);
        memcpy(out + done, out, k);
        done += k;
    }
}

/* out[0..len) = pat[0..plen) repeated (plen >= 1). */
static FZ_NO_COVERAGE void repeat_pattern(uint8_t *out, size_t len, const uint8_t *pat,
                                          size_t plen)
{
    size_t first = fz_min(len, plen);
    memcpy(out, pat, first);
    if (len > plen)
        repeat_back(out + plen, len - plen, plen);
}

FZ_NO_COVERAGE void fz_synth(uint8_t *out, size_t len, const uint8_t *desc, size_t desc_len,
                             uint64_t seed)
{
    fz_synth_kinds(out, len, desc, desc_len, seed, FZ_SYNTH_ALL_KINDS);
}

FZ_NO_COVERAGE void fz_synth_kinds(uint8_t *out, size_t len, const uint8_t *desc,
                                   size_t desc_len, uint64_t seed, unsigned kinds)
{
    ref_prng r = { seed };
    size_t pos = 0, d = 0;
    while (pos < len) {
        uint8_t op[4];
        unsigned kind, k, p;
        size_t n, left = len - pos;
        if (d + 4 <= desc_len) {
            memcpy(op, desc + d, 4);
            d += 4;
        } else {
            uint64_t v = ref_prng_next(&r);
            memcpy(op, &v, 4);          /* endianness only moves bits */
        }
        kind = op[0] & 7;
        if (!((kinds >> kind) & 1))
            kind = 1;
        k = (unsigned)(op[0] >> 3) % 24;
        p = (unsigned)op[2] | (unsigned)op[3] << 8;
        n = ((size_t)1 << k) + ((((size_t)1 << k) * op[1]) >> 8);
        n = fz_min(n, left);
        if (kind == 7 && pos <= WINDOW_64K)
            kind = 4;
        if (kind == 4 && pos == 0)
            kind = 0;
        switch (kind) {
        case 0:
            pool_copy(out + pos, n, (size_t)p * 16 + pos);
            break;
        case 1:
            memset(out + pos, p & 255, n);
            break;
        case 2: {
            uint8_t pat[16];
            pool_copy(pat, 1 + (p & 15), (size_t)(p >> 4) * 7);
            repeat_pattern(out + pos, n, pat, 1 + (p & 15));
            break;
        }
        case 3:
            memset(out + pos, 0, n);
            break;
        case 4: {
            size_t far = fz_min(pos, (size_t)1 << (p % 24));
            repeat_back(out + pos, n, 1 + (size_t)ref_prng_below(&r, far));
            break;
        }
        case 5: {
            size_t i, letters = 2 + (p & 7);
            uint8_t *o = out + pos;
            pool_copy(o, n, (size_t)p * 64 + pos);
            for (i = 0; i < n; i++)
                o[i] = (uint8_t)('a' + o[i] % letters);
            break;
        }
        case 6:
            if (desc_len)
                repeat_pattern(out + pos, n, desc, desc_len);
            else
                memset(out + pos, 'x', n);
            break;
        default: {                      /* 7: beyond the window */
            size_t dist = WINDOW_64K + 1 + (size_t)ref_prng_below(&r, pos - WINDOW_64K);
            repeat_back(out + pos, n, dist);
            break;
        }
        }
        pos += n;
    }
}

FZ_NO_COVERAGE size_t fz_synth_size(uint8_t sel, uint32_t value, size_t small_max, size_t max)
{
    size_t lo = 0, hi = small_max;
    if (sel < FZ_SYNTH_SEL_LARGE) {
        /* log-uniform: below 2^k, k uniform in 0 .. bits of small_max */
        unsigned bits = 0, k;
        while (bits < 31 && ((size_t)1 << bits) <= small_max)
            bits++;
        k = (value >> 27) % (bits + 1);
        hi = fz_min(small_max, ((size_t)1 << k) - 1);
        return (size_t)(value & 0x7FFFFFFu) % (hi + 1);
    } else {
        unsigned cls = value & 4095;    /* the low bits pick the class ... */
        value >>= 12;                   /* ... the rest the size in it */
        if (cls == 0) {
            lo = (size_t)1 << 20;
            hi = max;
        } else if (cls % 64 == 0) {
            lo = WINDOW_64K;
            hi = (size_t)1 << 20;
        } else {
            hi = WINDOW_64K + 4096;
        }
    }
    hi = fz_min(hi, max);
    lo = fz_min(lo, hi);
    if (lo >= ((size_t)1 << 20))
        return lo + ((size_t)value * 8) % (hi - lo + 1);
    return lo + (size_t)value % (hi - lo + 1);
}
