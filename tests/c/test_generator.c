/*
 * Tests of ref_gen_block (ref/block_gen.c), the valid-block generator.
 *
 * For thousands of seeds over a range of output sizes, with and without a
 * dictionary, every generated block must:
 *   - decode with ref_decode (strict and compatible profiles, exact output
 *     capacity and capacity + 100) to exactly the output the generator
 *     reported, consuming the whole block;
 *   - carry feature bits that match what an independent parse of the block
 *     finds (so the coverage counts below are honest);
 *   - be reproduced byte for byte from the same seed;
 *   - never write past the caps it was given.
 * Across all seeds every REF_GEN_F_* feature must appear at least once.
 */
#include "alloc.h"
#include "check.h"
#include "lz4ref.h"
#include "ref_calls.h"

#include <stdint.h>

#define GUARD 32
#define GUARD_BYTE 0xA5
#define NUM_FEATURES 9

static const char *const feature_names[NUM_FEATURES] = {
    "LONG_LITERALS", "LENGTH_CHAIN", "OVERLAP",     "MAX_OFFSET", "EDGE_MATCHLEN",
    "EDGE_LITLEN",   "EXACT_END",    "DICT",        "HUGE_LITERALS",
};

static unsigned long feature_count[NUM_FEATURES];
static unsigned long blocks_total, blocks_with_dict, output_bytes_total;

/* ---- buffers with a guard zone after the cap --------------------------- */

static uint8_t *alloc_guarded(size_t cap)
{
    uint8_t *b = xmalloc(cap + GUARD);
    memset(b, GUARD_BYTE, cap + GUARD);
    return b;
}

static int guard_intact(const uint8_t *b, size_t cap)
{
    size_t i;
    for (i = 0; i < GUARD; i++)
        if (b[cap + i] != GUARD_BYTE)
            return 0;
    return 1;
}

/* ---- independent parse: which features does a block really have? ------- */

/* Reads a 255-chain after a token field of 15; returns 0 on truncation. */
static int read_ext(const uint8_t *b, size_t len, size_t *i, size_t *value,
                    uint32_t *features)
{
    uint8_t byte;
    do {
        if (*i >= len)
            return 0;
        byte = b[(*i)++];
        *value += byte;
        if (byte == 255)
            *features |= REF_GEN_F_LENGTH_CHAIN;
    } while (byte == 255);
    return 1;
}

/*
 * Walks the sequences of a block (structure only, no output is produced)
 * and derives the REF_GEN_F_* bits from the lengths and offsets found.
 * Returns 0 if the block is not even well-formed.
 */
static int parse_features(const uint8_t *b, size_t len, uint32_t *features)
{
    size_t i = 0, produced = 0, last_match = 0;
    int has_match = 0;
    *features = 0;
    for (;;) {
        size_t lits, mlen, off;
        uint8_t token;
        if (i >= len)
            return 0;
        token = b[i++];
        lits = token >> 4;
        if (lits == 15 && !read_ext(b, len, &i, &lits, features))
            return 0;
        if (lits == 0 || lits == 14 || lits == 15)
            *features |= REF_GEN_F_EDGE_LITLEN;
        if (lits >= 270)
            *features |= REF_GEN_F_LONG_LITERALS;
        if (lits >= 65536)
            *features |= REF_GEN_F_HUGE_LITERALS;
        if (lits > len - i)
            return 0;
        i += lits;
        produced += lits;
        if (i == len) { /* the last sequence: literals only */
            if (has_match &&
                lits == (last_match >= 7 ? 5 : 12 - last_match))
                *features |= REF_GEN_F_EXACT_END;
            return 1;
        }
        if (len - i < 2)
            return 0;
        off = (size_t)b[i] | (size_t)b[i + 1] << 8;
        i += 2;
        mlen = (token & 15u) + 4;
        if (mlen == 19 && !read_ext(b, len, &i, &mlen, features))
            return 0;
        if (off == 0)
            return 0;
        if (mlen > off)
            *features |= REF_GEN_F_OVERLAP;
        if (off == 65535)
            *features |= REF_GEN_F_MAX_OFFSET;
        if (off > produced)
            *features |= REF_GEN_F_DICT;
        if (mlen == 4 || mlen == 18 || mlen == 19 || mlen == 274)
            *features |= REF_GEN_F_EDGE_MATCHLEN;
        produced += mlen;
        has_match = 1;
        last_match = mlen;
    }
}

/* ---- decoding ---------------------------------------------------------- */

/* Decodes with capacity output_len + extra and compares. */
static void check_decodes(const uint8_t *block, const ref_gen_result *g,
                          const uint8_t *out, const uint8_t *dict,
                          size_t extra, ref_profile profile,
                          const char *what)
{
    size_t cap = g->output_len + extra;
    uint8_t *dst = xmalloc(cap); /* exact size: ASan sees overruns */
    ref_decode_result r;
    r = ref_decode_with(block, g->block_len, dst, cap, dict, g->dict_len, profile, 0, 0);
    CHECK(r.status == REF_OK, "%s: status %s", what, ref_status_name(r.status));
    CHECK_EQ_SIZE(r.written, g->output_len, what);
    CHECK_EQ_SIZE(r.consumed, g->block_len, what);
    CHECK(r.written != g->output_len || memcmp(dst, out, g->output_len) == 0,
          "%s: output differs", what);
    free(dst);
}

/* ---- one generated block ------------------------------------------------ */

typedef struct bufs {
    size_t max_output, block_cap, out_cap;
    uint8_t *block, *out, *dict;    /* first generation */
    uint8_t *block2, *out2, *dict2; /* determinism re-run */
    /* (dict and dict2 are allocated per block, dict_len + GUARD bytes) */
} bufs;

static void bufs_init(bufs *b, size_t max_output)
{
    b->max_output = max_output;
    b->block_cap = ref_compress_bound(max_output) + 64; /* documented minimum */
    b->out_cap = max_output;
    b->block = alloc_guarded(b->block_cap);
    b->out = alloc_guarded(b->out_cap);
    b->block2 = alloc_guarded(b->block_cap);
    b->out2 = alloc_guarded(b->out_cap);
}

static void bufs_free(bufs *b)
{
    free(b->block); free(b->out);
    free(b->block2); free(b->out2);
}

/* Dictionary sizes: the edges and random ones. */
static size_t pick_dict_len(ref_prng *rs)
{
    static const size_t edges[] = {1, 4, 12, 19, 255, 4096, 65535, 65536};
    uint64_t x = ref_prng_next(rs);
    if (x % 3 == 0)
        return edges[(x >> 8) % (sizeof edges / sizeof edges[0])];
    if (x % 3 == 1)
        return 1 + (size_t)((x >> 8) % 300);
    return 1 + (size_t)((x >> 8) % REF_MAX_DICT);
}

static void check_block(bufs *b, uint64_t seed, size_t dict_len)
{
    ref_gen_params p;
    ref_gen_result g, g2;
    uint32_t parsed;
    char what[128];
    int i;

    p.seed = seed;
    p.max_output = b->max_output;
    p.dict_len = dict_len;
    snprintf(what, sizeof what, "seed %llu max_output %zu dict %zu",
             (unsigned long long)seed, b->max_output, dict_len);

    g = ref_gen_block(&p, b->block, b->block_cap, b->out, b->out_cap, b->dict);
    CHECK(g.ok, "%s: generator failed", what);
    CHECK(guard_intact(b->block, b->block_cap), "%s: wrote past block_cap", what);
    CHECK(guard_intact(b->out, b->out_cap), "%s: wrote past out_cap", what);
    CHECK(guard_intact(b->dict, dict_len), "%s: wrote past dict_len", what);
    if (!g.ok)
        return;
    CHECK(g.block_len >= 1 && g.block_len <= b->block_cap, "%s: block_len %zu", what,
          g.block_len);
    CHECK(g.output_len <= b->max_output, "%s: output_len %zu", what, g.output_len);
    CHECK_EQ_SIZE(g.dict_len, dict_len, what);

    /* Every block decodes to exactly the generated output. */
    check_decodes(b->block, &g, b->out, b->dict, 0, REF_PROFILE_STRICT, what);
    check_decodes(b->block, &g, b->out, b->dict, 100, REF_PROFILE_STRICT, what);
    check_decodes(b->block, &g, b->out, b->dict, 0, REF_PROFILE_COMPATIBLE, what);

    /* The DICT bit is real: without the dictionary the block breaks at
     * the first match reaching before the output; with no such match the
     * dictionary is not needed at all. */
    if (dict_len > 0) {
        uint8_t *dst = xmalloc(g.output_len);
        ref_decode_result r;
        r = ref_decode_with(b->block, g.block_len, dst, g.output_len, NULL, 0,
                            REF_PROFILE_STRICT, 0, 0);
        if (g.features & REF_GEN_F_DICT)
            CHECK(r.status == REF_ERR_OFFSET_BEFORE_START,
                  "%s: no dict: status %s", what, ref_status_name(r.status));
        else
            CHECK(r.status == REF_OK && r.written == g.output_len &&
                      memcmp(dst, b->out, g.output_len) == 0,
                  "%s: no dict: status %s", what, ref_status_name(r.status));
        free(dst);
    } else {
        CHECK(!(g.features & REF_GEN_F_DICT), "%s: DICT without dict", what);
    }

    /* The feature bits agree with an independent parse. */
    CHECK(parse_features(b->block, g.block_len, &parsed), "%s: parse failed", what);
    CHECK(parsed == g.features, "%s: features 0x%x, parsed 0x%x", what,
          (unsigned)g.features, (unsigned)parsed);
    if (b->max_output < 70000)
        CHECK(!(g.features & REF_GEN_F_HUGE_LITERALS), "%s: HUGE below 70000", what);
    /* Without history, outputs below 13 bytes are a single literal run
     * ("End of block conditions", rule 3 note): a token and the bytes. */
    if (dict_len == 0 && g.output_len < 13)
        CHECK_EQ_SIZE(g.block_len, g.output_len + 1, what);

    /* Same seed, same bytes. */
    {
        g2 = ref_gen_block(&p, b->block2, b->block_cap, b->out2, b->out_cap, b->dict2);
        CHECK(guard_intact(b->block2, b->block_cap) && guard_intact(b->out2, b->out_cap) &&
                  guard_intact(b->dict2, dict_len),
              "%s: re-run wrote past a cap", what);
        CHECK(g2.ok == g.ok && g2.block_len == g.block_len &&
                  g2.output_len == g.output_len && g2.features == g.features &&
                  g2.dict_len == g.dict_len,
              "%s: results differ on re-run", what);
        CHECK(g2.block_len == g.block_len &&
                  memcmp(b->block, b->block2, g.block_len) == 0,
              "%s: block differs on re-run", what);
        CHECK(g2.output_len == g.output_len &&
                  memcmp(b->out, b->out2, g.output_len) == 0,
              "%s: output differs on re-run", what);
        CHECK(memcmp(b->dict, b->dict2, dict_len) == 0, "%s: dict differs on re-run",
              what);
    }

    blocks_total++;
    blocks_with_dict += dict_len > 0;
    output_bytes_total += g.output_len;
    for (i = 0; i < NUM_FEATURES; i++)
        if (g.features & (1u << i))
            feature_count[i]++;
}

/* The dictionaries get exact-size buffers, so ASan sees any overrun. */
static void run_one(bufs *b, uint64_t seed, size_t dict_len)
{
    b->dict = alloc_guarded(dict_len);
    b->dict2 = alloc_guarded(dict_len);
    check_block(b, seed, dict_len);
    free(b->dict);
    free(b->dict2);
    b->dict = b->dict2 = NULL;
}

/* ---- caps and parameters ------------------------------------------------- */

static void test_caps(void)
{
    static const size_t sizes[] = {1, 13, 300, 70000};
    uint8_t small_block[80], small_out[1];
    ref_gen_params p;
    ref_gen_result g;
    size_t i;

    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i], bcap = ref_compress_bound(n) + 64;
        uint8_t *block = alloc_guarded(bcap), *out = alloc_guarded(n);
        uint8_t *dict = alloc_guarded(REF_MAX_DICT);
        p.seed = 7;
        p.max_output = n;
        p.dict_len = 0;
        g = ref_gen_block(&p, block, bcap, out, n, dict);
        CHECK(g.ok, "documented caps for %zu", n);
        g = ref_gen_block(&p, block, bcap, out, n - 1, dict);
        CHECK(!g.ok, "out_cap one short for %zu", n);
        g = ref_gen_block(&p, block, bcap - 1, out, n, dict);
        CHECK(!g.ok, "block_cap one short for %zu", n);
        CHECK(guard_intact(block, bcap) && guard_intact(out, n), "guards %zu", n);
        p.dict_len = REF_MAX_DICT + 1;
        g = ref_gen_block(&p, block, bcap, out, n, dict);
        CHECK(!g.ok, "dictionary over 64 KiB for %zu", n);
        p.dict_len = 10;
        g = ref_gen_block(&p, block, bcap, out, n, NULL);
        CHECK(!g.ok, "dict_len without a dict buffer for %zu", n);
        free(block); free(out); free(dict);
    }

    /* max_output 0 (below the documented >= 1) still gives the empty block. */
    p.seed = 1;
    p.max_output = 0;
    p.dict_len = 0;
    g = ref_gen_block(&p, small_block, sizeof small_block, small_out, 0, NULL);
    CHECK(g.ok && g.block_len == 1 && small_block[0] == 0 && g.output_len == 0,
          "max_output 0");
    g = ref_gen_block(NULL, small_block, sizeof small_block, small_out, 1, NULL);
    CHECK(!g.ok, "NULL params");
}

/* ---- cross-platform reproducibility ------------------------------------- */

/* FNV-1a over the blocks of a few fixed seeds: the same on every platform
 * (32/64-bit, any compiler), so a seed reported by one CI job reproduces in
 * another. Update GOLDEN_DIGEST only when the generator is changed on
 * purpose. */
#define GOLDEN_DIGEST 0x969b233ee3f6b612ull

static uint64_t fnv1a(uint64_t h, const uint8_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

static void test_golden(void)
{
    static const size_t sizes[] = {13, 300, 4096, 70000};
    uint64_t h = 0xCBF29CE484222325ull;
    uint8_t *dict = alloc_guarded(REF_MAX_DICT);
    size_t i;
    uint64_t seed;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        bufs b;
        bufs_init(&b, sizes[i]);
        for (seed = 0; seed < 24; seed++) {
            ref_gen_params p;
            ref_gen_result g;
            uint8_t feat[4];
            p.seed = seed;
            p.max_output = sizes[i];
            p.dict_len = seed % 2 ? (size_t)REF_MAX_DICT >> (seed % 9) : 0;
            g = ref_gen_block(&p, b.block, b.block_cap, b.out, b.out_cap, dict);
            CHECK(g.ok, "golden seed %llu size %zu", (unsigned long long)seed, sizes[i]);
            if (!g.ok)
                continue;
            feat[0] = (uint8_t)g.features;
            feat[1] = (uint8_t)(g.features >> 8);
            feat[2] = (uint8_t)g.output_len;
            feat[3] = (uint8_t)g.block_len;
            h = fnv1a(h, feat, sizeof feat);
            h = fnv1a(h, b.block, g.block_len);
            h = fnv1a(h, dict, p.dict_len);
        }
        bufs_free(&b);
    }
    free(dict);
    CHECK(h == GOLDEN_DIGEST, "generator digest 0x%016llx, want 0x%016llx",
          (unsigned long long)h, (unsigned long long)GOLDEN_DIGEST);
}

int main(int argc, char **argv)
{
    static const struct {
        size_t max_output;
        unsigned seeds;
    } runs[] = {
        {1, 1000},   {5, 1000},    {12, 3000},  {13, 3000},   {64, 3000},
        {300, 3000}, {4096, 1500}, {70000, 80}, {300000, 24},
    };
    ref_prng rs = { 0x1234567ull };
    size_t r;
    int i;
    (void)argc;

    test_caps();
    test_golden();

    for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        bufs b;
        uint64_t seed;
        bufs_init(&b, runs[r].max_output);
        for (seed = 0; seed < runs[r].seeds; seed++) {
            /* Even seeds without, odd seeds with a dictionary. */
            size_t dict_len = seed % 2 ? pick_dict_len(&rs) : 0;
            run_one(&b, seed, dict_len);
        }
        bufs_free(&b);
    }

    printf("%lu blocks (%lu with dictionary), %lu output bytes\n", blocks_total,
           blocks_with_dict, output_bytes_total);
    for (i = 0; i < NUM_FEATURES; i++) {
        printf("  %-14s %lu\n", feature_names[i], feature_count[i]);
        CHECK(feature_count[i] > 0, "feature %s never generated", feature_names[i]);
    }
    return check_summary(argv[0]);
}
