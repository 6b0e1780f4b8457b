/*
 * ref_gen_block: a generator of valid LZ4 blocks (in the spirit of zstd's
 * decodecorpus), written from lz4_Block_format.md.
 *
 * From a 64-bit seed it builds a block sequence by sequence, choosing each
 * literal length, match length and offset from distributions that favour
 * the places where decoders go wrong: length fields at the 15 / 255
 * boundaries, long 255-byte chains, overlapping copies (offset < length),
 * offset 65535, matches reaching into and across the end of a dictionary,
 * and blocks that end exactly at the end-of-block limits. Every block obeys
 * every rule of the spec, including the "End of block conditions", so a
 * strict decoder must accept it and reproduce the output computed here.
 *
 * The output is computed by the generator itself while it emits each
 * sequence (literal bytes are generated straight into out[], matches are
 * copied from the history, in pieces that give the bytes of a byte-by-byte
 * copy), so it is independent of any decoder.
 *
 * Size guarantee (why the block always fits in ref_compress_bound + 64):
 * per sequence with L literals and a match of M >= 4 bytes the block spends
 *   1 (token) + ext(L) + L + 2 (offset) + ext'(M)
 * bytes for L + M output bytes, where ext(L) = 0 for L < 15 and
 * (L - 15) / 255 + 1 otherwise, and ext'(M) = 0 for M < 19 and
 * (M - 19) / 255 + 1 otherwise. That is at most (L - 15) / 255 bytes more
 * than it produces (and at least one byte less when L < 15). The last
 * sequence (literals only) costs 1 + ext(F) + F. Summed over the block the
 * excess is at most output / 255 + 2, below the n / 255 + 16 of the bound.
 * The writer still checks every byte against block_cap.
 */
#include "lz4ref.h"
#include "prng.h"

#include <string.h>

/* Literal runs of 64 KiB and more are only generated for such outputs. */
#define GEN_HUGE_MIN_OUTPUT 70000u
#define GEN_HUGE_LITERALS 65536u

/* ---- PRNG: ref/prng.h (splitmix64) ---------------------------------- */

/* Index i with probability weights[i] / sum(weights). */
static unsigned rng_pick(ref_prng *r, const unsigned *weights, unsigned n)
{
    unsigned total = 0, i;
    size_t x;
    for (i = 0; i < n; i++)
        total += weights[i];
    x = ref_prng_below(r, total);
    for (i = 0; i + 1 < n; i++) {
        if (x < weights[i])
            return i;
        x -= weights[i];
    }
    return n - 1;
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }
static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/* ---- generator state -------------------------------------------------- */

typedef struct gen {
    ref_prng rng;
    uint8_t *blk;
    size_t blk_cap, blk_len;
    uint8_t *out;
    size_t out_cap, pos; /* pos: output bytes produced so far */
    const uint8_t *dict;
    size_t dict_len;
    uint32_t features;
    int overflow; /* a write would have passed a cap: the result is not ok */
    unsigned style; /* GEN_STYLE_*: which length distributions to use */
} gen;

/* Per-block styles, so that big blocks get both many short sequences and
 * a few huge ones. */
enum {
    GEN_STYLE_MIXED = 0, /* every length kind except "as long as possible" */
    GEN_STYLE_SHORT = 1, /* short literal runs and matches: many sequences */
    GEN_STYLE_GIANT = 2, /* mixed, plus matches that fill the whole block */
    GEN_STYLE_COUNT
};

static void put_byte(gen *g, uint8_t b)
{
    if (g->blk_len < g->blk_cap)
        g->blk[g->blk_len++] = b;
    else
        g->overflow = 1;
}

/*
 * The optional length bytes after a token field of 15 ("Compressed block
 * format"): v is the length minus 15 (literals) or minus 19 (matches);
 * as many 255 bytes as fit, then the remainder (possibly 0).
 */
static void put_length_ext(gen *g, size_t v)
{
    if (v >= 255)
        g->features |= REF_GEN_F_LENGTH_CHAIN;
    while (v >= 255) {
        put_byte(g, 255);
        v -= 255;
    }
    put_byte(g, (uint8_t)v);
}

/* ---- content of literals and dictionary -------------------------------- */

static const char *const gen_words[] = {
    "the ", "block ", "lz4 ", "match ", "literal ", "offset ", "of ",
    "a ", "token ", "length ", "end ", "\n", ", ", ". ", "0123456789 ",
};

/* Fill dst[0..n) with one kind of content: random, a run of one byte,
 * text-like words, or a short repeating pattern. */
static void fill_bytes(gen *g, uint8_t *dst, size_t n)
{
    static const unsigned weights[] = {4, 2, 3, 2};
    size_t i;
    switch (rng_pick(&g->rng, weights, 4)) {
    case 0: /* random */
        for (i = 0; i < n; i++)
            dst[i] = (uint8_t)ref_prng_next(&g->rng);
        break;
    case 1: { /* one repeated byte: 0x00, 0xFF or any */
        static const unsigned w[] = {1, 1, 2};
        unsigned k = rng_pick(&g->rng, w, 3);
        uint8_t b = k == 0 ? 0x00 : k == 1 ? 0xFF : (uint8_t)ref_prng_next(&g->rng);
        memset(dst, b, n);
        break;
    }
    case 2: { /* text-like */
        const size_t nwords = sizeof gen_words / sizeof gen_words[0];
        const char *w = gen_words[ref_prng_below(&g->rng, nwords)];
        for (i = 0; i < n; i++) {
            if (*w == '\0')
                w = gen_words[ref_prng_below(&g->rng, nwords)];
            dst[i] = (uint8_t)*w++;
        }
        break;
    }
    default: { /* a pattern of period 1..8 */
        uint8_t pat[8];
        size_t period = ref_prng_range(&g->rng, 1, 8);
        for (i = 0; i < period; i++)
            pat[i] = (uint8_t)ref_prng_next(&g->rng);
        for (i = 0; i < n && i < period; i++)
            dst[i] = pat[i];
        /* dst[i] = pat[i % period]: copies of the first i bytes (i a
         * multiple of the period), without a division per byte */
        for (i = period; i < n; i += min_size(i, n - i))
            memcpy(dst + i, dst, min_size(i, n - i));
        break;
    }
    }
}

/* A dictionary made of chunks of the kinds above. */
static void fill_dict(gen *g, uint8_t *dict, size_t len)
{
    size_t done = 0;
    while (done < len) {
        size_t n = min_size(len - done, ref_prng_range(&g->rng, 1, 2048));
        fill_bytes(g, dict + done, n);
        done += n;
    }
}

/* ---- emitting a sequence ---------------------------------------------- */

static void note_literal_length(gen *g, size_t n)
{
    if (n == 0 || n == 14 || n == 15)
        g->features |= REF_GEN_F_EDGE_LITLEN;
    if (n >= 270)
        g->features |= REF_GEN_F_LONG_LITERALS;
    if (n >= GEN_HUGE_LITERALS)
        g->features |= REF_GEN_F_HUGE_LITERALS;
}

/* Literal-length part of the token plus its extension bytes, then the
 * literals themselves (generated into out[] and copied into the block). */
static void emit_token_and_literals(gen *g, size_t lits, size_t match_len,
                                    int has_match)
{
    unsigned lit_field = lits < 15 ? (unsigned)lits : 15u;
    unsigned ml_field = 0;
    uint8_t *dst;

    if (has_match)
        ml_field = match_len - REF_MIN_MATCH < 15
                       ? (unsigned)(match_len - REF_MIN_MATCH) : 15u;
    put_byte(g, (uint8_t)(lit_field << 4 | ml_field));
    if (lits >= 15)
        put_length_ext(g, lits - 15);
    note_literal_length(g, lits);

    if (lits > g->out_cap - g->pos || lits > g->blk_cap - g->blk_len) {
        g->overflow = 1;
        return;
    }
    dst = g->out + g->pos;
    fill_bytes(g, dst, lits);
    memcpy(g->blk + g->blk_len, dst, lits);
    g->blk_len += lits;
    g->pos += lits;
}

/* Offset (little endian), match-length extension, then the copy itself.
 * The caller guarantees 1 <= offset <= min(pos + dict_len, 65535). */
static void emit_match(gen *g, size_t offset, size_t len)
{
    size_t k;

    put_byte(g, (uint8_t)(offset & 0xFF));
    put_byte(g, (uint8_t)(offset >> 8));
    if (len - REF_MIN_MATCH >= 15)
        put_length_ext(g, len - 19);

    if (len > offset)
        g->features |= REF_GEN_F_OVERLAP;
    if (offset == REF_MAX_OFFSET)
        g->features |= REF_GEN_F_MAX_OFFSET;
    if (offset > g->pos)
        g->features |= REF_GEN_F_DICT;
    if (len == 4 || len == 18 || len == 19 || len == 274)
        g->features |= REF_GEN_F_EDGE_MATCHLEN;

    if (len > g->out_cap - g->pos || offset == 0 ||
        offset > g->pos + g->dict_len) {
        g->overflow = 1;
        return;
    }
    /* Oldest first: an overlapping match (len > offset) re-reads bytes it
     * has just written ("Implementation notes", overlap match). Positions
     * before the output are in the dictionary, which ends right where the
     * output starts. Match byte k is byte k - offset, so once k >= offset
     * also byte k - d for any multiple d of offset with d <= k: copied in
     * pieces of at most d bytes (d grows as k does), each reading only
     * bytes written before it, the same bytes as a byte-by-byte copy. */
    k = 0;
    if (offset > g->pos) {
        k = min_size(len, offset - g->pos);
        memcpy(g->out + g->pos, g->dict + (g->dict_len - (offset - g->pos)), k);
    }
    while (k < len) {
        size_t d = k < offset ? offset : offset * (k / offset);
        size_t piece = min_size(len - k, k < offset ? offset - k : d);
        memcpy(g->out + g->pos + k, g->out + g->pos + k - d, piece);
        k += piece;
    }
    g->pos += len;
}

/* ---- choosing lengths and offsets ------------------------------------- */

static size_t pick_literal_length(gen *g)
{
    static const unsigned weights[GEN_STYLE_COUNT][7] = {
        {3, 6, 3, 1, 1, 2, 1}, {3, 6, 3, 0, 0, 0, 0}, {3, 6, 3, 1, 1, 2, 1}};
    ref_prng *r = &g->rng;
    switch (rng_pick(r, weights[g->style], 7)) {
    case 0: return 0;
    case 1: return ref_prng_range(r, 1, 14);
    case 2: return ref_prng_range(r, 14, 16);   /* last 1-byte field, 15 + "0" */
    case 3: return ref_prng_range(r, 269, 271); /* 15 + 254 / 255,0 / 255,1 */
    case 4: return ref_prng_range(r, 524, 525); /* 15 + 255,254 / 255,255,0 */
    case 5: return ref_prng_range(r, 17, 600);
    default: { /* a longer 255 chain, ending on 0, 1 or 254 */
        static const size_t last[] = {0, 1, 254};
        return 15 + 255 * ref_prng_range(r, 2, 20) + last[ref_prng_below(r, 3)];
    }
    }
}

/* May return more than fits; the caller clamps. */
static size_t pick_match_length(gen *g)
{
    static const unsigned weights[GEN_STYLE_COUNT][8] = {
        {3, 4, 2, 1, 1, 2, 1, 0}, {3, 4, 2, 0, 0, 0, 0, 0}, {3, 4, 2, 1, 1, 2, 1, 1}};
    ref_prng *r = &g->rng;
    switch (rng_pick(r, weights[g->style], 8)) {
    case 0: return 4;                      /* token field 0 */
    case 1: return ref_prng_range(r, 5, 17);
    case 2: return ref_prng_range(r, 18, 19);   /* field 14 / field 15 + "0" */
    case 3: return ref_prng_range(r, 273, 275); /* 19 + 254 / 255,0 / 255,1 */
    case 4: return ref_prng_range(r, 528, 530); /* 19 + 255,254 / 255,255,0 / ,1 */
    case 5: return ref_prng_range(r, 20, 300);
    case 6: return 19 + 255 * ref_prng_range(r, 2, 64) + ref_prng_below(r, 256);
    default: return (size_t)-1; /* as long as the block allows */
    }
}

/*
 * An offset for a match starting at output position `start` (after its
 * literals), with 1 <= offset <= max_off = min(start + dict_len, 65535).
 */
static size_t pick_offset(gen *g, size_t start, size_t len, size_t max_off)
{
    static const unsigned weights[] = {4, 2, 3, 1, 2, 2};
    ref_prng *r = &g->rng;
    unsigned kind = rng_pick(r, weights, 6);
    int dict_reachable = g->dict_len > 0 && start < REF_MAX_OFFSET;
    size_t off;

    if (kind >= 4 && !dict_reachable)
        kind = 2;
    switch (kind) {
    case 0: off = ref_prng_range(r, 1, 19); break;  /* overlap when len > off */
    case 1: off = ref_prng_range(r, 1, 256); break;
    case 2: off = ref_prng_range(r, 1, max_off); break;
    case 3: off = max_off; break; /* 65535, or the oldest byte of history */
    case 4: /* starts in the dictionary */
        off = ref_prng_range(r, start + 1, min_size(start + g->dict_len, REF_MAX_OFFSET));
        break;
    default: /* starts in the dictionary and runs on into the output:
                at most len - 1 bytes before the output start */
        off = start + ref_prng_range(r, 1, min_size(min_size(len - 1, g->dict_len),
                                               REF_MAX_OFFSET - start));
        break;
    }
    return min_size(off, max_off);
}

/* ---- the generator ---------------------------------------------------- */

ref_gen_result ref_gen_block(const ref_gen_params *p, uint8_t *block,
                             size_t block_cap, uint8_t *out, size_t out_cap,
                             uint8_t *dict)
{
    ref_gen_result res;
    gen g;
    size_t bound, target, last_match = 0, stop_den, rem, lits;
    int has_match = 0, want_huge, huge_ok;

    memset(&res, 0, sizeof res);
    if (p == NULL || block == NULL || out == NULL)
        return res;
    if (p->dict_len > REF_MAX_DICT || (p->dict_len > 0 && dict == NULL))
        return res;
    /* The documented caps; bound is 0 past REF_MAX_INPUT_SIZE. See the top
     * of this file for why the block always fits. */
    bound = ref_compress_bound(p->max_output);
    if (bound == 0 || out_cap < p->max_output || block_cap < bound + 64)
        return res;

    memset(&g, 0, sizeof g);
    /* Mix the sizes in so that one seed gives unrelated blocks per size. */
    g.rng.s = p->seed ^ ((uint64_t)p->max_output * 0xD6E8FEB86659FD93ull) ^
              ((uint64_t)p->dict_len * 0xA0761D6478BD642Full);
    g.blk = block;
    g.blk_cap = block_cap;
    g.out = out;
    g.out_cap = out_cap;
    g.dict = dict;
    g.dict_len = p->dict_len;
    if (p->dict_len > 0)
        fill_dict(&g, dict, p->dict_len);

    /* Decoded size aimed at: often the maximum, often small. */
    switch (ref_prng_below(&g.rng, 4)) {
    case 0: target = p->max_output; break;
    case 1: target = ref_prng_range(&g.rng, 0, p->max_output); break;
    case 2: target = ref_prng_range(&g.rng, 0, min_size(p->max_output, 40)); break;
    default: target = ref_prng_range(&g.rng, p->max_output / 2, p->max_output); break;
    }
    /* Chance 1/stop_den to stop after each sequence (0: only when full). */
    {
        static const size_t dens[] = {0, 0, 16, 255};
        stop_den = dens[ref_prng_below(&g.rng, 4)];
    }
    g.style = (unsigned)ref_prng_below(&g.rng, GEN_STYLE_COUNT);
    huge_ok = p->max_output >= GEN_HUGE_MIN_OUTPUT;
    want_huge = huge_ok && ref_prng_below(&g.rng, 3) == 0;

    for (;;) {
        size_t room, len, start, max_off, off;
        /* With no history at all the first sequence needs a literal for
         * its match to copy ("End of block conditions", rule 3 note). */
        size_t min_lits = g.pos + g.dict_len == 0 ? 1 : 0;

        rem = target - g.pos;
        /* Smallest sequence: min_lits literals, a 4-byte match that starts
         * >= 12 bytes before the end, so 8 final literals (rules 2, 3). */
        if (rem < min_lits + REF_MATCH_FROM_END)
            break;
        if (has_match && stop_den > 0 && ref_prng_below(&g.rng, stop_den) == 0)
            break;

        if (want_huge && rem >= GEN_HUGE_LITERALS + REF_MATCH_FROM_END &&
            ref_prng_below(&g.rng, 2) == 0) {
            lits = ref_prng_range(&g.rng, GEN_HUGE_LITERALS,
                             min_size(rem - REF_MATCH_FROM_END,
                                      GEN_HUGE_LITERALS + 4096));
            want_huge = 0;
        } else {
            lits = max_size(pick_literal_length(&g), min_lits);
            if (lits > rem - REF_MATCH_FROM_END)
                lits = ref_prng_below(&g.rng, 2)
                           ? rem - REF_MATCH_FROM_END
                           : ref_prng_range(&g.rng, min_lits, rem - REF_MATCH_FROM_END);
        }

        /* room >= 12. A match of len bytes leaves room - len final bytes,
         * which must be >= 5 (rule 2) and >= 12 - len (rule 3): for
         * len <= room - 5 both hold. */
        room = rem - lits;
        len = pick_match_length(&g);
        if (len > room - REF_LAST_LITERALS)
            len = ref_prng_below(&g.rng, 2)
                      ? room - REF_LAST_LITERALS
                      : ref_prng_range(&g.rng, REF_MIN_MATCH, room - REF_LAST_LITERALS);

        start = g.pos + lits;
        max_off = min_size(start + g.dict_len, REF_MAX_OFFSET);
        off = pick_offset(&g, start, len, max_off);

        emit_token_and_literals(&g, lits, len, 1);
        emit_match(&g, off, len);
        if (g.overflow)
            return res;
        has_match = 1;
        last_match = len;
    }

    /* The last sequence: literals only (rule 1). */
    rem = target - g.pos;
    if (!has_match) {
        lits = rem; /* a block with no match is one literal run */
    } else {
        /* >= 5 literals (rule 2), and the last match must start >= 12
         * bytes before the end (rule 3). */
        size_t min_final = max_size(REF_LAST_LITERALS,
                                    REF_MATCH_FROM_END - min_size(last_match,
                                                                  REF_MATCH_FROM_END));
        static const unsigned weights[] = {1, 2, 1};
        switch (rng_pick(&g.rng, weights, 3)) {
        case 0: lits = min_final; break; /* exactly at the limits */
        case 1: lits = rem; break;       /* fill up to the target */
        default: lits = ref_prng_range(&g.rng, min_final, min_size(rem, min_final + 300)); break;
        }
        if (lits == min_final)
            g.features |= REF_GEN_F_EXACT_END;
    }
    if (!huge_ok && lits >= GEN_HUGE_LITERALS)
        lits = GEN_HUGE_LITERALS - 1; /* still >= min_final */
    emit_token_and_literals(&g, lits, 0, 0);
    if (g.overflow)
        return res;

    res.ok = 1;
    res.block_len = g.blk_len;
    res.output_len = g.pos;
    res.dict_len = p->dict_len;
    res.features = g.features;
    return res;
}
