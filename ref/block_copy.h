/*
 * Wide copies for the reference block decoder (block_decode.c).
 *
 * Each helper copies a run of `len` bytes in fixed-size steps (memcpy with a
 * constant size, which compilers turn into plain vector moves) and so may
 * read or write up to one step past the run. It does so only after an
 * explicit test that the last step fits in what is left of the buffers it
 * touches (`room`: bytes from the cursor to the end of the buffer, or to
 * the target of a partial decode); when that test fails it returns 0 and
 * does nothing, and the caller takes its exact, byte-precise path. So no
 * helper ever touches a byte outside [src, src+n) or [dst, dst+cap): the
 * bytes past the run that it may write are output the decoder writes again
 * later or leaves unspecified (as every decoder does past the bytes it
 * reports), and the bytes past the run that it may read are input bytes,
 * or output-buffer bytes whose value is not used.
 *
 * The callers only use them when the input and output buffers do not
 * overlap (an over-write could otherwise change input not yet read: the
 * in-place decoding of docs/fix-history.md#klz4-2020-inplace).
 */
#ifndef LZ4REF_BLOCK_COPY_H
#define LZ4REF_BLOCK_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define REF_STEP 16   /* the wide step: one 16-byte vector move */

/*
 * Literals: copy len bytes from in to out (disjoint buffers). out_room and
 * in_room are the bytes left from out and from in. Returns 1 when done.
 */
static inline int ref_wide_literals(uint8_t *out, size_t out_room,
                                    const uint8_t *in, size_t in_room, size_t len)
{
    size_t room = out_room < in_room ? out_room : in_room;
    size_t done;

    /* Short runs (token values 0-14, the common case): one step. */
    if (len <= REF_STEP && room >= REF_STEP) {
        memcpy(out, in, REF_STEP);
        return 1;
    }
    if (room < 2 * REF_STEP || len > room - 2 * REF_STEP)
        return 0;   /* the last step might not fit: exact path */
    /* Here len + 2 steps <= room, so each 32-byte step below is inside both
     * buffers: it starts before len and len + 32 <= room. */
    memcpy(out, in, 2 * REF_STEP);
    for (done = 2 * REF_STEP; done < len; done += 2 * REF_STEP)
        memcpy(out + done, in + done, 2 * REF_STEP);
    return 1;
}

/*
 * Match inside the output (or the prefix just before it), offset >= 8:
 * out[i] = out[i - offset] for i < len. Returns 1 when done.
 *
 * Copying in steps of s bytes gives the byte-by-byte result as long as
 * offset >= s: each step then reads only bytes written before it (by an
 * earlier step or an earlier sequence), never bytes it is writing itself
 * (spec, "Safe decoding": the "overlap match" scenario, where a match
 * copies bytes it has just produced).
 */
static inline int ref_wide_match(uint8_t *out, size_t room, size_t offset, size_t len)
{
    const uint8_t *from = out - offset;
    size_t done;

    if (room < 2 * REF_STEP || len > room - REF_STEP)
        return 0;
    /* Token match lengths 4-16 (most matches): two 8-byte steps, whatever
     * the offset (>= 8), with no branch on it. */
    memcpy(out, from, 8);
    memcpy(out + 8, from + 8, 8);
    if (len <= REF_STEP)
        return 1;
    if (offset >= 2 * REF_STEP && len <= room - 2 * REF_STEP) {
        /* Long matches: 32-byte steps, each ending before len + 32 <= room. */
        for (done = REF_STEP; done < len; done += 2 * REF_STEP)
            memcpy(out + done, from + done, 2 * REF_STEP);
    } else if (offset >= REF_STEP) {
        /* Each 16-byte step starts before len: ends before len + 16 <= room. */
        for (done = REF_STEP; done < len; done += REF_STEP)
            memcpy(out + done, from + done, REF_STEP);
    } else {
        for (done = REF_STEP; done < len; done += 8)
            memcpy(out + done, from + done, 8);
    }
    return 1;
}

/* The offset at p (spec, "Compressed block format": 2 bytes, little
 * endian): one 16-bit load on a little-endian machine, two bytes elsewhere.
 * The caller has checked that both bytes are in the input. */
static inline size_t ref_read_le16(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
#else
    return (size_t)p[0] | (size_t)p[1] << 8;
#endif
}

/* The largest multiple of the period o that is <= 16 (the store step of a
 * 16-byte pattern), for o = 1..7. */
static const uint8_t ref_pattern_step[8] = { 0, 16, 16, 15, 16, 15, 12, 14 };

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The 8 bytes p[i] = w[phase + i % o] of the little-endian word w (o =
 * 1..7, phase + o <= 8): keep bytes phase..phase+o-1 of w, then add
 * copies of them shifted by o, 2o, ... bytes: a multiplication by sum(2^(8*o*k)), whose terms never overlap,
 * so nothing carries; what passes bit 63 is dropped, as wanted.
 */
static inline uint64_t ref_pattern_word(uint64_t word, size_t o, unsigned phase)
{
    static const uint64_t keep[8] = {
        0, 0xFFull, 0xFFFFull, 0xFFFFFFull, 0xFFFFFFFFull, 0xFFFFFFFFFFull,
        0xFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFull,
    };
    static const uint64_t spread[8] = {
        0, 0x0101010101010101ull, 0x0001000100010001ull, 0x0001000001000001ull,
        0x0000000100000001ull, 0x0000010000000001ull, 0x0001000000000001ull,
        0x0100000000000001ull,
    };
    return ((word >> (8 * phase)) & keep[o]) * spread[o];
}
#endif

/*
 * Match with offset 1..7 (spec, "Safe decoding": an "overlap match" with a
 * short period; offset 1 repeats the last byte):
 * out[i] = out[i - offset], so the match is the `offset` bytes before out
 * repeated. They are made once into a 16-byte pattern, which is then
 * stored at out + k * step (step: the largest multiple of the period that
 * is <= 16): each store starts at a whole period, so where stores overlap
 * they agree. Returns 1 when done.
 */
static inline int ref_pattern_match(uint8_t *out, size_t room, size_t offset, size_t len)
{
    const uint8_t *from = out - offset;
    uint8_t pat[REF_STEP];
    size_t step, done;

    if (offset == 0 || offset >= 8 || room < REF_STEP || len > room - REF_STEP)
        return 0;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    {
        /* One 8-byte read at `from`: the period, then 8 - offset bytes of
         * out[] (inside the buffer: room >= 16), which are masked off. The
         * pattern's second half is the match from byte 8 on: the first
         * half's bytes from phase 8 % o, a whole period (phase + o <= 8). */
        static const uint8_t phase8[8] = { 0, 0, 0, 2, 0, 3, 2, 1 };
        uint64_t word, lo, hi;
        memcpy(&word, from, 8);
        lo = ref_pattern_word(word, offset, 0);
        hi = ref_pattern_word(lo, offset, phase8[offset]);
        memcpy(pat, &lo, 8);
        memcpy(pat + 8, &hi, 8);
    }
#else
    {
        /* Any byte order: gather p[i] = from[i % offset] byte by byte. */
        size_t i, k = 0;
        for (i = 0; i < REF_STEP; i++) {
            pat[i] = from[k];
            k = k + 1 == offset ? 0 : k + 1;
        }
    }
#endif
    step = ref_pattern_step[offset];
    for (done = 0; done < len; done += step)
        memcpy(out + done, pat, REF_STEP);
    return 1;
}

#endif /* LZ4REF_BLOCK_COPY_H */
