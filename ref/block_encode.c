/*
 * lz4ref block encoder: a small greedy LZ4 block compressor.
 *
 * Written from lz4_Block_format.md. The encoder is deliberately simple:
 *
 *   - one hash table of 4096 uint32 positions (the caller's `state`), indexed
 *     by a multiplicative hash of the 4 bytes at a position; no chains, the
 *     newest position wins;
 *   - a candidate is only used after its bytes are compared, so stale or
 *     empty (zero) table entries are harmless;
 *   - a found match is extended forward, and backward into the literals that
 *     are still pending;
 *   - parsing is greedy: the first match found is taken; after a miss the
 *     search moves on by `acceleration` bytes, plus one more byte for every
 *     64 consecutive misses (incompressible data is skipped quickly);
 *   - every output byte is accounted for before it is written: the encoder
 *     never writes at or past dst + dst_cap.
 *
 * REF_ENCODE_DEST_SIZE accepts a sequence only if, after it, there is still
 * room for the shortest valid last sequence (max(5, 12 - match length)
 * literals, "End of block conditions" rules 2 and 3). When a sequence does
 * not fit, the block ends with as many literals as fit. With enough room it
 * produces exactly the REF_ENCODE_LIMITED block.
 *
 * Positions are "virtual": the usable dictionary occupies [0, dlen) and the
 * input [dlen, dlen + src_len), as if the dictionary lay right before the
 * input (spec, "Compressed block format": the offset counts back from the
 * current position, across the dictionary/input boundary). Both fit in a
 * uint32_t because src_len <= REF_MAX_INPUT_SIZE and dlen <= REF_MAX_DICT.
 */
#include "lz4ref.h"

#include <string.h>

/* The planted encoder bugs of ref/mutant.h (ENCODE_*), for the mutant
 * builds only; a build without -DREF_MUTANT* (the oracle, the amalgams of
 * harness/subjects/fixtures.py, which do not include mutant.h) has none. */
#if defined(REF_MUTANT_LINKED) || defined(REF_MUTANT_FROM_ENV) || defined(REF_MUTANT)
#include "mutant.h"
#define ENCODE_MUTANT(name) (REF_MUTANT_SELECTED == REF_MUTANT_ID_##name)
#else
#define ENCODE_MUTANT(name) 0
#endif

#define HASH_BITS 12
#define HASH_ENTRIES (1u << HASH_BITS) /* == REF_ENCODE_STATE_SIZE / 4 */

_Static_assert(HASH_ENTRIES * 4 == REF_ENCODE_STATE_SIZE, "state is the hash table");

/* Largest useful acceleration; larger values behave the same, and the clamp
 * keeps the step arithmetic far from overflow. */
#define MAX_ACCELERATION 65537

/* The search step grows by one byte every 2^MISS_SHIFT consecutive misses. */
#define MISS_SHIFT 6

/* Inputs shorter than this have no room for a match: the first byte must be
 * a literal, a match starts >= 12 bytes before the end and is >= 4 long
 * (spec, "End of block conditions", rule 3 and its note). */
#define MIN_COMPRESSIBLE (REF_MATCH_FROM_END + 1)

size_t ref_compress_bound(size_t n)
{
    if (n > REF_MAX_INPUT_SIZE)
        return 0;
    return n + n / 255 + 16;
}

/* ---- small helpers --------------------------------------------------- */

static uint32_t read32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint32_t hash4(const uint8_t *p)
{
    /* Knuth's multiplicative hash; the top bits are the best mixed. */
    return (read32(p) * 2654435761u) >> (32 - HASH_BITS);
}

/* The table is accessed through memcpy so that `state` needs no particular
 * alignment. */
static uint32_t table_get(const uint8_t *table, uint32_t h)
{
    uint32_t v;
    memcpy(&v, table + (size_t)h * 4, sizeof v);
    return v;
}

static void table_put(uint8_t *table, uint32_t h, uint32_t pos)
{
    memcpy(table + (size_t)h * 4, &pos, sizeof pos);
}

/* Index of the first differing byte of two unequal 8-byte words loaded from
 * memory: their lowest differing byte on a little-endian machine. */
static size_t first_diff(uint64_t x, uint64_t y)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (size_t)__builtin_ctzll(x ^ y) >> 3;
#else
    unsigned char a[8], b[8];
    size_t k = 0;
    memcpy(a, &x, 8);
    memcpy(b, &y, 8);
    while (a[k] == b[k])
        k++;
    return k;
#endif
}

/* Number of leading bytes on which a and b agree, comparing b up to b_end.
 * a must be readable for at least as many bytes. */
static size_t common_len(const uint8_t *a, const uint8_t *b, const uint8_t *b_end)
{
    const uint8_t *start = b;
    while ((size_t)(b_end - b) >= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return (size_t)(b - start) + first_diff(x, y);
        a += 8;
        b += 8;
    }
    while (b < b_end && *a == *b) {
        a++;
        b++;
    }
    return (size_t)(b - start);
}

/* Extra bytes a length field needs beyond its 4 token bits (spec, "Compressed
 * block format": 15 in the token, then bytes of 255 and a final byte < 255). */
static size_t len_extra(size_t v)
{
    return v < 15 ? 0 : (v - 15) / 255 + 1;
}

/* Encoded size of a sequence: token, literal length, literals, offset, match
 * length. */
static size_t seq_cost(size_t lit_len, size_t match_len)
{
    return 1 + len_extra(lit_len) + lit_len + 2 + len_extra(match_len - REF_MIN_MATCH);
}

/* Encoded size of the last sequence, which has only literals (rule 1). */
static size_t last_cost(size_t lit_len)
{
    return 1 + len_extra(lit_len) + lit_len;
}

static uint8_t *write_len_extra(uint8_t *op, size_t v)
{
    if (v < 15)
        return op;
    v -= 15;
    if (v >= 255) {
        memset(op, 255, v / 255);
        op += v / 255;
        if (ENCODE_MUTANT(ENCODE_LEN_255) && v % 255 == 0)
            return op;          /* planted: the final 0 byte is missing */
        v %= 255;
    }
    *op++ = (uint8_t)v;
    return op;
}

/* Copies n literal bytes. A short run is copied as one fixed 16-byte block
 * when both buffers have 16 bytes there (~6% faster than a sized memcpy).
 * The bytes past n stay below oend: what follows overwrites them, or they
 * lie past the block's end, where dst's content is unspecified anyway. */
static void copy_literals(uint8_t *op, const uint8_t *oend, const uint8_t *lit,
                          const uint8_t *lit_end, size_t n)
{
    if (n == 0)
        return;
    if (n <= 16 && (size_t)(oend - op) >= 16 && (size_t)(lit_end - lit) >= 16)
        memcpy(op, lit, 16);
    else
        memcpy(op, lit, n);
}

/* Writes a sequence: literals, then a match. The caller has checked that
 * seq_cost() bytes are free below oend; the literals are lit[0..lit_len),
 * and lit_end ends the input. */
static uint8_t *write_seq(uint8_t *op, const uint8_t *oend, const uint8_t *lit,
                          const uint8_t *lit_end, size_t lit_len, size_t offset,
                          size_t match_len)
{
    const size_t ml = match_len - REF_MIN_MATCH;
    *op++ = (uint8_t)(((lit_len < 15 ? lit_len : 15) << 4) | (ml < 15 ? ml : 15));
    op = write_len_extra(op, lit_len);
    copy_literals(op, oend, lit, lit_end, lit_len);
    op += lit_len;
    *op++ = (uint8_t)(offset & 0xFF); /* offset is little endian */
    *op++ = (uint8_t)(offset >> 8);
    return write_len_extra(op, ml);
}

/* Writes the last sequence: literals only, no offset (rule 1). The caller
 * has checked that last_cost() bytes are free. */
static uint8_t *write_last(uint8_t *op, const uint8_t *lit, size_t lit_len)
{
    *op++ = (uint8_t)((lit_len < 15 ? lit_len : 15) << 4);
    op = write_len_extra(op, lit_len);
    memcpy(op, lit, lit_len);
    return op + lit_len;
}

/* ---- the encoder ------------------------------------------------------ */

typedef struct encoder {
    const uint8_t *src;
    size_t n;
    const uint8_t *dict; /* last dlen bytes of the caller's dictionary */
    size_t dlen;
} encoder;

/* Byte at virtual position v (< dlen + n). */
static uint8_t byte_at(const encoder *e, size_t v)
{
    return v < e->dlen ? e->dict[v] : e->src[v - e->dlen];
}

/* Length of the match between virtual position m (< dlen + i) and input
 * position i, at most max_len bytes. A match that starts in the dictionary
 * may run on into the input. */
static size_t match_len_at(const encoder *e, size_t m, size_t i, size_t max_len)
{
    const uint8_t *b = e->src + i;
    size_t k;
    if (m >= e->dlen)
        return common_len(e->src + (m - e->dlen), b, b + max_len);
    /* Dictionary part: at most up to the end of the dictionary. */
    k = e->dlen - m;
    if (k > max_len)
        k = max_len;
    k = common_len(e->dict + m, b, b + k);
    if (m + k < e->dlen || k == max_len)
        return k;
    /* Reached the dictionary end: continue at the start of the input. */
    return k + common_len(e->src, b + k, b + max_len);
}

ref_encode_result ref_encode(const ref_encode_params *p, void *state)
{
    ref_encode_result r = {0, 0, 0};
    const int dest_size = p && p->mode == REF_ENCODE_DEST_SIZE;
    encoder e;
    uint8_t *table = state;
    uint8_t *op, *oend;
    size_t anchor = 0; /* first input byte not yet encoded */
    size_t lits;
    int acc;

    if (!p || (!p->src && p->src_len) || (!p->dst && p->dst_cap) ||
        (!p->dict && p->dict_len) || !state || p->src_len > REF_MAX_INPUT_SIZE ||
        (p->mode != REF_ENCODE_LIMITED && p->mode != REF_ENCODE_DEST_SIZE))
        return r;
    if (p->dst_cap == 0) /* not even room for a token */
        return r;
    if (p->src_len == 0) {
        /* "Even empty input can be represented, using a zero byte" (spec,
         * "End of block conditions", rule 2). */
        p->dst[0] = 0;
        r.written = 1;
        r.ok = 1;
        return r;
    }

    e.src = p->src;
    e.n = p->src_len;
    e.dlen = p->dict_len < REF_MAX_DICT ? p->dict_len : REF_MAX_DICT;
    e.dict = e.dlen ? p->dict + (p->dict_len - e.dlen) : NULL;
    op = p->dst;
    oend = p->dst + p->dst_cap;

    acc = p->acceleration;
    if (acc < 1)
        acc = 1;
    if (acc > MAX_ACCELERATION)
        acc = MAX_ACCELERATION;

    if (e.n >= MIN_COMPRESSIBLE) {
        /* rule 3: a match starts at or before n - 12; rule 2: it ends at or
         * before n - 5, so the last 5 bytes remain literals. */
        const size_t match_start_limit =
            e.n - REF_MATCH_FROM_END + (ENCODE_MUTANT(ENCODE_LAST_MATCH) ? 1 : 0);
        const size_t match_end_limit =
            e.n - REF_LAST_LITERALS + (ENCODE_MUTANT(ENCODE_LAST_LITERALS) ? 1 : 0);
        /* 65535, or 65536 in the mutant that takes a match it cannot code */
        const size_t max_offset =
            REF_MAX_OFFSET + (ENCODE_MUTANT(ENCODE_WINDOW_65536) ? 1 : 0);
        size_t i = 0;
        size_t misses = 0;
        size_t d;

        memset(table, 0, REF_ENCODE_STATE_SIZE);
        for (d = 0; d + 4 <= e.dlen; d++)
            table_put(table, hash4(e.dict + d), (uint32_t)d);

        while (i <= match_start_limit) {
            const uint32_t h = hash4(e.src + i);
            const size_t v = e.dlen + i; /* virtual position of i */
            size_t m = table_get(table, h);
            size_t len = 0;

            table_put(table, h, (uint32_t)v);
            /* 1 <= v - m <= REF_MAX_OFFSET, in one unsigned comparison (an
             * entry equal to v, i.e. an empty slot at v = 0, wraps). */
            if (v - m - 1 < max_offset) {
                if (m >= e.dlen) { /* in the input: the common case */
                    const uint8_t *mp = e.src + (m - e.dlen);
                    if (read32(mp) == read32(e.src + i))
                        len = 4 + common_len(mp + 4, e.src + i + 4,
                                             e.src + match_end_limit);
                } else {
                    len = match_len_at(&e, m, i, match_end_limit - i);
                }
            }
            if (len < REF_MIN_MATCH) {
                /* Miss: step further the longer nothing matched (and the
                 * higher the acceleration). */
                i += (size_t)acc + (misses++ >> MISS_SHIFT);
                continue;
            }

            /* Extend backward over pending literals; the offset stays. */
            while (i > anchor && m > 0 && byte_at(&e, m - 1) == e.src[i - 1]) {
                i--;
                m--;
                len++;
            }

            {
                const size_t lit_len = i - anchor;
                const size_t offset = e.dlen + i - m;
                const size_t cost = seq_cost(lit_len, len);
                size_t room = (size_t)(oend - op);
                if (dest_size) {
                    /* Keep room for the shortest valid last sequence after
                     * this match: max(5, 12 - len) literals (rules 2, 3). */
                    size_t tail = REF_MATCH_FROM_END > len ? REF_MATCH_FROM_END - len : 0;
                    if (tail < REF_LAST_LITERALS)
                        tail = REF_LAST_LITERALS;
                    if (cost > room || last_cost(tail) > room - cost)
                        break; /* stop here; finish with literals below */
                } else if (cost > room) {
                    return r;
                }
                op = write_seq(op, oend, e.src + anchor, e.src + e.n, lit_len, offset, len);
            }
            /* Also remember the position after a match start: it measurably
             * helps text with a 4-byte hash key (~1% smaller). */
            if (len > REF_MIN_MATCH)
                table_put(table, hash4(e.src + i + 1), (uint32_t)(e.dlen + i + 1));
            i += len;
            anchor = i;
            misses = 0;
            if (i > match_start_limit)
                break;
            /* The match end is a likely start of the next repetition. */
            table_put(table, hash4(e.src + i - 2), (uint32_t)(e.dlen + i - 2));
        }
    }

    /* Last sequence: the remaining input as literals (rule 1). */
    lits = e.n - anchor;
    if (last_cost(lits) > (size_t)(oend - op)) {
        size_t room = (size_t)(oend - op);
        if (!dest_size)
            return r;
        /* Largest literal count whose run fits in room (room >= 1: the
         * reservation above always leaves a token's worth). */
        lits = room - 1;
        while (lits > 0 && last_cost(lits) > room)
            lits--;
        /* The room reserved when the last match was accepted guarantees
         * at least max(5, 12 - its length) literals here: rules 2, 3 hold. */
    }
    op = write_last(op, e.src + anchor, lits);

    r.written = (size_t)(op - p->dst);
    r.consumed = anchor + lits;
    r.ok = 1;
    return r;
}

size_t ref_compress(const uint8_t *src, size_t src_len, uint8_t *dst,
                    size_t dst_cap, int acceleration)
{
    uint32_t table[HASH_ENTRIES];
    ref_encode_params p;
    ref_encode_result r;

    memset(&p, 0, sizeof p);
    p.src = src;
    p.src_len = src_len;
    p.dst = dst;
    p.dst_cap = dst_cap;
    p.acceleration = acceleration;
    p.mode = REF_ENCODE_LIMITED;
    r = ref_encode(&p, table);
    return r.ok ? r.written : 0;
}
