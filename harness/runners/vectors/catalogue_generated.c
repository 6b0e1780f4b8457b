/*
 * The generated vectors: blocks of ref_gen_block (ref/block_gen.c) with
 * fixed seeds over a plan of output sizes and dictionaries, then topped up
 * until every generator feature (REF_GEN_F_*) has its minimum count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "catalogue.h"
#include "vector_add.h"
#include "vector_files.h"
#include "vector_index.h"

#define NUM_FEATURES 9
static const char *const feature_names[NUM_FEATURES] = {
    "LONG_LITERALS", "LENGTH_CHAIN", "OVERLAP", "MAX_OFFSET", "EDGE_MATCHLEN",
    "EDGE_LITLEN", "EXACT_END", "DICT", "HUGE_LITERALS",
};
static unsigned gen_feature_count[NUM_FEATURES];
static unsigned ngen;

unsigned generated_count(void)
{
    return ngen;
}

/* Generate with (seed, max_output, dict_len) and add the block as the next
 * gen-NNN vector, unless the feature bit `need` is set and missing or the block is
 * longer than max_block. extra_cap: decode with that much more capacity. */
static void gen_one(uint64_t seed, size_t max_output, size_t dict_len, uint32_t need,
                    size_t max_block, size_t extra_cap)
{
    ref_gen_params gp;
    ref_gen_result gr;
    size_t block_cap = ref_compress_bound(max_output) + 64;
    uint8_t *blk = xmalloc(block_cap), *out = xmalloc(max_output), *dict = xmalloc(dict_len);
    char id[32], dname[40], comment[256], flags[256];
    design want;
    unsigned f;

    gp.seed = seed;
    gp.max_output = max_output;
    gp.dict_len = dict_len;
    gr = ref_gen_block(&gp, blk, block_cap, out, max_output, dict);
    if (!gr.ok)
        die("ref_gen_block failed (seed %llu, max_output %zu, dict %zu)",
            (unsigned long long)seed, max_output, dict_len);
    if ((need && !(gr.features & need)) || gr.block_len > max_block)
        goto done;

    snprintf(id, sizeof id, "gen-%03u", ngen);
    snprintf(comment, sizeof comment,
             "ref_gen_block(seed=%llu, max_output=%zu, dict_len=%zu): %zu-byte block, %zu bytes "
             "of output%s", (unsigned long long)seed, max_output, dict_len, gr.block_len,
             gr.output_len, extra_cap ? ", decoded with a larger capacity" : "");
    snprintf(flags, sizeof flags, "generated");
    for (f = 0; f < NUM_FEATURES; f++) {
        if (gr.features & (1u << f)) {
            size_t l = strlen(flags);
            snprintf(flags + l, sizeof flags - l, " %s", feature_names[f]);
            gen_feature_count[f]++;
        }
    }
    if (dict_len)
        strcat(flags, " dictionary");
    if (extra_cap)
        strcat(flags, " capacity_larger");
    want.strict = want.compatible = REF_OK;
    want.output = out;
    want.output_len = gr.output_len;
    snprintf(dname, sizeof dname, "%s.dict", id);
    add_vector(id, comment, flags, blk, gr.block_len, gr.output_len + extra_cap,
               dict_len ? dname : NULL, dict, dict_len, &want);
    ngen++;
done:
    free(blk);
    free(out);
    free(dict);
}

void generated_vectors(void)
{
    /* (max_output, dict_len, how many). Small blocks dominate: they are
     * where the end-of-block limits and the length-field edges sit. */
    static const struct { size_t max_output, dict_len; unsigned count; } plan[] = {
        { 0, 0, 1 }, { 1, 0, 2 }, { 3, 0, 2 }, { 5, 0, 2 }, { 12, 0, 2 }, { 13, 0, 6 },
        { 16, 0, 4 }, { 24, 0, 4 }, { 40, 0, 8 }, { 64, 0, 10 }, { 128, 0, 14 },
        { 300, 0, 16 }, { 600, 0, 14 }, { 1024, 0, 14 }, { 2048, 0, 10 }, { 4096, 0, 8 },
        { 8192, 0, 4 }, { 16384, 0, 2 }, { 32768, 0, 1 }, { 40, 1, 2 }, { 64, 16, 5 },
        { 256, 64, 5 }, { 1024, 300, 5 }, { 2048, 1000, 3 }, { 4096, 4096, 2 },
        { 600, 20000, 1 },
    };
    /* Every fifth vector is decoded with this much more capacity, in turn. */
    static const size_t extras[] = { 1, 7, 64, 1000 };
    static const unsigned min_count[NUM_FEATURES] = { 4, 4, 4, 2, 4, 4, 4, 4, 1 };
    uint64_t seed = 0x6C7A346761746531ull; /* "lz4gate1" */
    size_t i, n = 0;
    unsigned f, k;

    for (i = 0; i < sizeof plan / sizeof plan[0]; i++)
        for (k = 0; k < plan[i].count; k++, n++)
            gen_one(seed + n, plan[i].max_output, plan[i].dict_len, 0, (size_t)-1,
                    n % 5 == 4 ? extras[(n / 5) % 4] : 0);

    /* Top up every feature to its minimum with the first seeds (in a fixed
     * order) that show it in a small enough block. */
    for (f = 0; f < NUM_FEATURES; f++) {
        uint32_t bit = 1u << f;
        uint64_t s = 0x6C7A346761746532ull + (uint64_t)f * 1000003u;
        size_t max_output = bit == REF_GEN_F_HUGE_LITERALS ? 70000
                            : bit == REF_GEN_F_MAX_OFFSET ? 65600 : 2000;
        size_t dict_len = bit == REF_GEN_F_DICT ? 500 : 0;
        size_t max_block = bit == REF_GEN_F_HUGE_LITERALS ? 70000
                           : bit == REF_GEN_F_MAX_OFFSET ? 12000 : 1200;
        unsigned tries = 0;
        while (gen_feature_count[f] < min_count[f]) {
            if (++tries > 200000)
                die("no seed gives feature %s in a block <= %zu bytes", feature_names[f],
                    max_block);
            gen_one(s++, max_output, dict_len, bit, max_block, 0);
        }
    }
    index_set_features(feature_names, gen_feature_count, NUM_FEATURES);
}
