/*
 * make_seeds_large.c: the seed corpora of compress_large and decode_large
 * for fuzz/make_seeds.c (`python3 -m harness fuzz corpus --target T`), in
 * the header layouts fuzz/compress_large.c and fuzz/decode_large.c
 * document. compress_large's payload describes its data in synth.h's
 * segments; decode_large's is the block around its long run.
 */
#include <stdio.h>

#include "params.h"
#include "seed_file.h"

int make_large_seeds(const char *dir);
int make_decode_large_seeds(const char *dir);

/* compress_large.c's mode draws (v % 8) and capacity classes (sel % 4) */
enum { LIMITED = 0, DEST_SIZE = 1, HC = 2, FAST = 6, DICT = 7 };
enum { CAP_NEAR = 0, CAP_SHORT = 1, CAP_ENOUGH = 3 };

/* synth.h segment kinds */
enum { RANDOM = 0, RUN = 1, PERIOD = 2, ZEROS = 3, COPY = 4, TEXT = 5, FAR_COPY = 7 };

/* A size value of compress_large.c: 2^k + rest, 16 <= k < 22. */
static uint32_t size_value(unsigned k, uint32_t rest)
{
    return (uint32_t)(k - 16) << 28 | rest;
}

/* One synth.h segment of 2^k + 2^k * at / 256 bytes. */
static void segment(uint8_t *d, unsigned kind, unsigned k, uint8_t at, uint16_t p)
{
    d[0] = (uint8_t)(kind | k << 3);
    d[1] = at;
    d[2] = (uint8_t)p;
    d[3] = (uint8_t)(p >> 8);
}

/* [mode][flags][size][cap sel][cap v][param][dict][seed] + description */
static void large_seed(seed_dir *out, uint8_t mode, uint8_t flags, uint32_t size_v,
                       uint8_t cap_sel, uint32_t cap_v, int32_t param, uint32_t dict,
                       const uint8_t *desc, size_t desc_len, const char *what)
{
    uint8_t hdr[23];          /* compress_large.c HEADER */
    fuzz_header_writer w = { hdr, sizeof hdr, 0 };
    fp_put_u8(&w, mode);
    fp_put_u8(&w, flags);
    fp_put_u32(&w, size_v);
    fp_put_u8(&w, cap_sel);
    fp_put_u32(&w, cap_v);
    fp_put_u32(&w, (uint32_t)param);
    fp_put_u32(&w, dict);
    fp_put_u32(&w, 7);
    seed_save(out, hdr, seed_header_len(&w), desc, desc_len, what);
}

int make_large_seeds(const char *dir)
{
    seed_dir out = { dir, 0 };
    uint8_t mixed[6 * 4], run_end[2 * 4], hc_runs[3 * 4], dict_desc[64 + 3 * 4];
    size_t i;

    /* text, random bytes, a copy from beyond 64 KiB, then a long run at the
     * end: a capacity 12 bytes short of the need (ULZ4-2019-17543) */
    segment(mixed + 0, TEXT, 15, 0, 3);
    segment(mixed + 4, RANDOM, 16, 0, 99);
    segment(mixed + 8, FAR_COPY, 14, 0, 0);
    segment(mixed + 12, PERIOD, 14, 0, 0x123);
    segment(mixed + 16, COPY, 13, 0, 17);
    segment(mixed + 20, ZEROS, 20, 0, 0);
    segment(run_end + 0, RANDOM, 12, 0, 5);
    segment(run_end + 4, RUN, 20, 0, 'a');
    large_seed(&out, LIMITED, 1, size_value(20, 0), CAP_SHORT, 11, 1, 0, run_end,
               sizeof run_end, "limited-run-short");
    large_seed(&out, DEST_SIZE, 1, size_value(20, 0), CAP_SHORT, 11, 1, 0, run_end,
               sizeof run_end, "destsize-run-short");
    large_seed(&out, LIMITED, 1, size_value(19, 300000), CAP_ENOUGH, 0, 1, 0, mixed,
               sizeof mixed, "limited-mixed-exact");
    large_seed(&out, DEST_SIZE, 0, size_value(18, 5000), CAP_NEAR, 0, 1, 0, mixed,
               sizeof mixed, "destsize-mixed-twice");
    large_seed(&out, FAST, 1, size_value(17, 70000), CAP_NEAR, 0, 8 + 16, 0, mixed,
               sizeof mixed, "fast8-mixed");
    large_seed(&out, LIMITED, 1, size_value(21, 0), CAP_NEAR, 0, 1, 0, mixed,
               sizeof mixed, "limited-mixed-2mib");
    /* HC: runs and zeros (the only kinds it is given), level 9 and 1,
     * short of the need (ULZ4-2019-HCLIM) */
    segment(hc_runs + 0, RUN, 12, 0, 'x');
    segment(hc_runs + 4, ZEROS, 12, 0, 0);
    segment(hc_runs + 8, RUN, 20, 128, 'y');
    large_seed(&out, HC, 1, size_value(20, 500000), CAP_SHORT, 11, 8, 0, hc_runs,
               sizeof hc_runs, "hc9-runs-short");
    large_seed(&out, HC, 1, size_value(16, 1000), CAP_ENOUGH, 3, 0, 0, hc_runs,
               sizeof hc_runs, "hc1-runs-enough");
    /* a dictionary of 64 description bytes, then text and copies */
    for (i = 0; i < 64; i++)
        dict_desc[i] = (uint8_t)("the dictionary of a large input "[i % 32]);
    segment(dict_desc + 64, TEXT, 16, 0, 1);
    segment(dict_desc + 68, COPY, 16, 0, 20);
    segment(dict_desc + 72, RUN, 16, 0, 't');
    large_seed(&out, DICT, 1, size_value(17, 10000), CAP_NEAR, 0, 1 + 16, 64, dict_desc,
               sizeof dict_desc, "dict-text");
    return out.count;
}

/* decode_large.c's run-length classes (v >> 30) */
enum { RUN_WRAP_32 = 0, RUN_WRAP_31 = 1, RUN_UNIFORM = 2, RUN_SMALL = 3 };

/* [split][run byte][run length][capacity sel + v][flags] + block bytes */
static void block_seed(seed_dir *out, const char *around, size_t around_len, size_t split,
                       uint8_t run_byte, unsigned run_class, uint32_t run_v, uint8_t flags,
                       const char *what)
{
    uint8_t hdr[12];          /* decode_large.c HEADER */
    fuzz_header_writer w = { hdr, sizeof hdr, 0 };
    fp_put_u8(&w, (uint8_t)split);
    fp_put_u8(&w, run_byte);
    fp_put_u32(&w, (uint32_t)run_class << 30 | run_v);
    fp_put_size_near(&w, 0);                  /* capacity: the decoded size */
    fp_put_u8(&w, flags);
    seed_save(out, hdr, seed_header_len(&w), (const uint8_t *)around, around_len, what);
}

int make_decode_large_seeds(const char *dir)
{
    seed_dir out = { dir, 0 };
    /* a literal run of 15 + 255 x 1000 + 0x10 bytes, then 5 literals short */
    block_seed(&out, "\xF0\x10" "abcde", 7, 1, 0xFF, RUN_SMALL, 1000, 0, "literal-chain");
    /* one literal 'a', offset 1, a match length of 15 + 255 x 300 + 0,
     * then 12 final literals */
    block_seed(&out, "\x1F\x61\x01\x00\x00\xC0" "bbbbbbbbbbbb", 18, 4, 0xFF, RUN_SMALL, 300,
               1, "match-chain");
    /* the same two shapes with runs near the 32-bit and 31-bit boundaries */
    block_seed(&out, "\xF0\x10", 2, 1, 0xFF, RUN_WRAP_32, 0, 0, "literal-chain-wrap32");
    block_seed(&out, "\x1F\x61\x01\x00\x00\xC0" "bbbbbbbbbbbb", 18, 4, 0xFF, RUN_WRAP_31, 100,
               1, "match-chain-wrap31");
    /* a valid block: one literal run of 15 + 255 + 255 + 0 = 525 bytes, the
     * run itself (0xC8) */
    block_seed(&out, "\xF0\xFF\xFF\x00", 4, 4, 0xC8, RUN_SMALL, 525, 0, "valid-literals");
    /* a run of zero bytes: many empty sequences' worth of input */
    block_seed(&out, "\x10" "a", 2, 2, 0x00, RUN_UNIFORM, 100000, 0, "zeros");
    return out.count;
}
