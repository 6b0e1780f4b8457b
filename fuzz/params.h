/*
 * params.h: drawing the parameters of a fuzz call from its input.
 *
 * Layout of every lz4gate fuzz input:
 *
 *     [ header: FUZZ_HEADER bytes of parameters ][ payload ... ]
 *
 * The header has a fixed size per target, so the payload (a block to
 * decode, data to compress) always starts at the same offset and a seed
 * file is "parameters, then the bytes they apply to". An input shorter than
 * the header has an empty payload, and its missing header bytes read as
 * zero bytes (fp_init) or, with fp_init_filled, as bytes of the ref/prng.h
 * stream seeded by a hash of the bytes present: libFuzzer starts from an
 * empty corpus with inputs of a few bytes and lets them grow slowly
 * (-len_control), so with zero padding every parameter past the first few
 * bytes would stay 0 for the first tens of seconds; filled, each short
 * input is a different, complete draw of every parameter. An input with
 * the whole header reads exactly as written (seeds, minimised crashes
 * longer than the header), and a position past the header reads 0 either
 * way.
 *
 * Draws consume the header front to back. Each value is drawn over its full
 * range from as many bytes as the type has (4 bytes for a 32-bit value,
 * 8 for a 64-bit one): nothing here caps a size at 255. When the header is
 * exhausted every further draw returns 0, which is still a valid value.
 *
 * The seed generator (fuzz/make_seeds.c) writes headers with the mirror
 * functions fp_put_*, in the order each target documents.
 */
#ifndef LZ4GATE_FUZZ_PARAMS_H
#define LZ4GATE_FUZZ_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "prng.h"

typedef struct fuzz_params {
    const uint8_t *hdr;     /* the parameter bytes */
    size_t hdr_len;         /* bytes of header actually present */
    size_t pos;             /* next header byte to draw */
    const uint8_t *payload; /* the bytes after the header */
    size_t payload_len;
    size_t fill_end;        /* positions hdr_len .. fill_end - 1 read filler */
    uint64_t fill_seed;     /* ... bytes of this stream (fp_init_filled) */
} fuzz_params;

/* Split data[0..size) into a header of header_len bytes and the payload. */
static inline void fp_init(fuzz_params *fp, const uint8_t *data, size_t size,
                           size_t header_len)
{
    fp->hdr = data;
    fp->hdr_len = size < header_len ? size : header_len;
    fp->pos = 0;
    fp->payload = size > header_len ? data + header_len : data + size;
    fp->payload_len = size > header_len ? size - header_len : 0;
    fp->fill_end = 0;
    fp->fill_seed = 0;
}

/* A hash of data[0..size) from `start`: the filler's seed below, and the
 * targets' rare large sizes (a hash of the whole input, so that most
 * mutations of a large input are small again: issue 15). */
static inline uint64_t fp_hash(const uint8_t *data, size_t size, uint64_t start)
{
    uint64_t h = start;
    size_t i;
    for (i = 0; i < size; i++)
        h = ref_prng_mix(h ^ data[i]);
    return h;
}

/* The tier of an input, for sizes drawn rarely: how many of the top `max`
 * 4-bit groups of fp_hash(data, size, 0) are 0, from the top (tier t or
 * more: 1 input in 16^t). A seed generator that wants a tier searches a
 * header value that gives it. */
static inline int fp_hash_tier(const uint8_t *data, size_t size, int max)
{
    uint64_t h = fp_hash(data, size, 0);
    int tier = 0;
    while (tier < max && (h >> (60 - 4 * tier) & 15) == 0)
        tier++;
    return tier;
}

/* fp_init, with the missing bytes of a short header drawn from the stream
 * seeded by a hash of the bytes present (and their number). */
static inline void fp_init_filled(fuzz_params *fp, const uint8_t *data, size_t size,
                                  size_t header_len)
{
    fp_init(fp, data, size, header_len);
    if (size >= header_len)
        return;
    fp->fill_end = header_len;
    fp->fill_seed = fp_hash(data, size, 0x6C7A34676174ull ^ size);
}

/* fp_init_filled for targets whose payload is a block to decode: an input
 * shorter than the header is all payload, and every header byte is drawn
 * from the stream seeded by its hash. From an empty corpus libFuzzer's first
 * inputs are a few bytes long; read this way each is a block to decode
 * under a complete draw of the parameters, not an empty payload until the
 * inputs outgrow the header. */
static inline void fp_init_block(fuzz_params *fp, const uint8_t *data, size_t size,
                                 size_t header_len)
{
    fp_init_filled(fp, data, size, header_len);
    if (size >= header_len)
        return;
    fp->hdr_len = 0;
    fp->payload = data;
    fp->payload_len = size;
}

static inline uint8_t fp_u8(fuzz_params *fp)
{
    size_t at = fp->pos++;
    if (at < fp->hdr_len)
        return fp->hdr[at];
    if (at < fp->fill_end)       /* the byte depends on its position only */
        return (uint8_t)ref_prng_mix(fp->fill_seed + (at + 1) * REF_PRNG_GAMMA);
    return 0;
}

/* Little endian, from exactly 2 / 4 / 8 header bytes. */
static inline uint16_t fp_u16(fuzz_params *fp)
{
    uint16_t v = fp_u8(fp);
    return (uint16_t)(v | (uint16_t)fp_u8(fp) << 8);
}

static inline uint32_t fp_u32(fuzz_params *fp)
{
    uint32_t v = 0;
    int i;
    for (i = 0; i < 4; i++)
        v |= (uint32_t)fp_u8(fp) << (8 * i);
    return v;
}

static inline uint64_t fp_u64(fuzz_params *fp)
{
    uint64_t v = fp_u32(fp);
    return v | (uint64_t)fp_u32(fp) << 32;
}

/* A 32-bit signed value over the whole int range (INT_MIN..INT_MAX). */
static inline int32_t fp_i32(fuzz_params *fp)
{
    uint32_t u = fp_u32(fp);
    int32_t v;
    memcpy(&v, &u, sizeof v);   /* two's complement, no implementation-defined cast */
    return v;
}

/* Uniform-ish in [lo, hi] from 4 bytes (modulo bias is harmless here). */
static inline uint32_t fp_range(fuzz_params *fp, uint32_t lo, uint32_t hi)
{
    uint32_t v = fp_u32(fp);
    if (lo >= hi)
        return lo;
    if (lo == 0 && hi == UINT32_MAX)
        return v;
    return lo + v % (hi - lo + 1);
}

/* A size in [0, max] that lands on the interesting places often: exactly
 * `exact`, within +-16 of it, small, or anywhere in the range. One selector
 * byte, then 4 bytes for the value. `exact` above max is clamped. */
enum { FP_NEAR_EXACT = 0, FP_NEAR_WINDOW = 16 };
static inline size_t fp_size_near(fuzz_params *fp, size_t exact, size_t max)
{
    uint8_t sel = fp_u8(fp);
    uint32_t v = fp_u32(fp);
    size_t e = exact < max ? exact : max;
    switch (sel & 7) {
    case 0: case 1: case 2:                 /* exact */
        return e;
    case 3: case 4: {                       /* exact - 16 .. exact + 16 */
        int64_t d = (int64_t)(v % (2 * FP_NEAR_WINDOW + 1)) - FP_NEAR_WINDOW;
        int64_t s = (int64_t)e + d;
        if (s < 0)
            return 0;
        return (size_t)s > max ? max : (size_t)s;
    }
    case 5: {                               /* 0 .. 2 * exact + 64 */
        uint64_t hi = (uint64_t)e * 2 + 64;
        if (hi > max)
            hi = max;
        return (size_t)(v % (hi + 1));
    }
    case 6:                                 /* tiny: 0 .. 32 */
        return v % 33 > max ? max : (size_t)(v % 33);
    default:                                /* anywhere in [0, max] */
        return (size_t)((uint64_t)v % ((uint64_t)max + 1));
    }
}

/* ---- writing headers (the seed generator) ---------------------------- */

typedef struct fuzz_header_writer {
    uint8_t *buf;
    size_t cap;
    size_t len;
} fuzz_header_writer;

static inline void fp_put_u8(fuzz_header_writer *w, uint8_t v)
{
    if (w->len < w->cap)
        w->buf[w->len] = v;
    w->len++;
}

static inline void fp_put_u16(fuzz_header_writer *w, uint16_t v)
{
    fp_put_u8(w, (uint8_t)v);
    fp_put_u8(w, (uint8_t)(v >> 8));
}

static inline void fp_put_u32(fuzz_header_writer *w, uint32_t v)
{
    int i;
    for (i = 0; i < 4; i++)
        fp_put_u8(w, (uint8_t)(v >> (8 * i)));
}

static inline void fp_put_u64(fuzz_header_writer *w, uint64_t v)
{
    fp_put_u32(w, (uint32_t)v);
    fp_put_u32(w, (uint32_t)(v >> 32));
}

/* The selector + value pair that makes fp_size_near() return `exact`
 * (sel 0) or exact + delta (sel 3, |delta| <= 16). */
static inline void fp_put_size_near(fuzz_header_writer *w, int delta)
{
    if (delta == 0) {
        fp_put_u8(w, 0);
        fp_put_u32(w, 0);
    } else {
        fp_put_u8(w, 3);
        fp_put_u32(w, (uint32_t)(delta + FP_NEAR_WINDOW));
    }
}

/* A value fp_size_near() returns unchanged (sel 7: anywhere in [0, max]). */
static inline void fp_put_size_any(fuzz_header_writer *w, uint32_t v)
{
    fp_put_u8(w, 7);
    fp_put_u32(w, v);
}

/* A dictionary length: none, anything up to 65 KiB + 1 KiB (decoders must
 * cope with dictionaries larger than the 64 KiB window), exactly 64 KiB, or
 * a short one. Reads 1 + 4 bytes. */
#define FP_DICT_MAX (65536 + 1024)
static inline size_t fp_dict_len(fuzz_params *fp)
{
    uint8_t cls = fp_u8(fp);
    uint32_t v = fp_u32(fp);
    switch (cls & 3) {
    case 0: return 0;
    case 1: return v % (FP_DICT_MAX + 1);
    case 2: return 65536;
    default: return v % 256;
    }
}

#endif /* LZ4GATE_FUZZ_PARAMS_H */
