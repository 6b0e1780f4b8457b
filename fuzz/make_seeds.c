/*
 * make_seeds: writes the seed corpus of a fuzz target.
 *
 *   make_seeds TARGET DIR
 *
 * Every seed is [header][payload] in the layout the target documents
 * (fuzz/<target>.c), written with params.h's fp_put_* in the target's
 * draw order. Payloads come from the reference codec only: ref_encode over
 * a few synthetic data sets (text, runs, pseudo-random bytes, a dictionary
 * case), ref_gen_block over a range of seeds and sizes, and a handful of
 * hand-made malformed blocks. Deterministic: the same files on every run
 * and platform. Exit status 0, or 2 on bad arguments / I/O errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "lz4frame_ref.h"
#include "oracle.h"
#include "params.h"
#include "prng.h"
#include "ref_calls.h"
#include "seed_file.h"
#include "synth.h"

/* oracle.c's failure lines name the program; its fz_fill_dict makes the
 * dictionaries exactly as the targets draw them. */
FZ_TARGET("make_seeds");

static seed_dir out;

static size_t header_len(const fuzz_header_writer *w)
{
    return seed_header_len(w);
}

static void save(const uint8_t *hdr, size_t hlen, const uint8_t *payload, size_t plen,
                 const char *what)
{
    seed_save(&out, hdr, hlen, payload, plen, what);
}

/* ---- data sets -------------------------------------------------------- */

typedef struct sample {
    const char *name;
    uint8_t *data;
    size_t n;
} sample;

static sample samples[8];
static size_t nsamples;

static void add_sample(const char *name, uint8_t *data, size_t n)
{
    samples[nsamples].name = name;
    samples[nsamples].data = data;
    samples[nsamples].n = n;
    nsamples++;
}

static void make_samples(void)
{
    static const char *words[] = { "lz4 ", "block ", "format ", "literal ", "match ",
                                   "offset ", "token ", "the ", "end ", "of " };
    uint8_t *t = xmalloc(1500), *z = xmalloc(3000), *r = xmalloc(200), *m = xmalloc(2000),
            *a = xmalloc(1200);
    size_t i, k = 0;
    ref_prng rng = { 12345 };
    while (k < 1500) {
        const char *w = words[ref_prng_below(&rng, 10)];
        for (i = 0; w[i] && k < 1500; i++)
            t[k++] = (uint8_t)w[i];
    }
    add_sample("text", t, 1500);
    memset(z, 0, 3000);
    add_sample("zeros", z, 3000);
    ref_prng_fill(r, 200, 7, 0);
    add_sample("random", r, 200);
    memcpy(m, t, 700);
    memset(m + 700, 'x', 600);
    ref_prng_fill(m + 1300, 700, 9, 0);
    add_sample("mixed", m, 2000);
    ref_prng_fill(a, 1200, 3, 4);
    add_sample("abcd", a, 1200);
    add_sample("tiny13", (uint8_t *)"abcdabcdabcda", 13);
    add_sample("one", (uint8_t *)"a", 1);
    add_sample("empty", (uint8_t *)"", 0);
}

/* The block ref_encode writes (0 bytes when it fails). */
static size_t encode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, int accel,
                     const uint8_t *dict, size_t dict_len)
{
    ref_encode_result r = ref_encode_with(src, n, dst, cap, accel, REF_ENCODE_LIMITED, dict,
                                          dict_len);
    return r.ok ? r.written : 0;
}

/* ---- decode_differential / base_vs_candidate (same block seeds) -------- */

static void block_seed(int bvc, const uint8_t *block, size_t blen, uint8_t flags,
                       size_t dict_len, uint64_t dict_seed, int cap_delta, int target_half,
                       const char *what)
{
    uint8_t hdr[64];
    fuzz_header_writer w = { hdr, sizeof hdr, 0 };
    fp_put_u8(&w, (uint8_t)(bvc ? (flags & 1) : flags));
    if (dict_len) {
        fp_put_u8(&w, 1);
        fp_put_u32(&w, (uint32_t)dict_len);
    } else {
        fp_put_u8(&w, 0);
        fp_put_u32(&w, 0);
    }
    fp_put_u64(&w, dict_seed);
    fp_put_size_near(&w, cap_delta);
    if (target_half) {
        fp_put_u8(&w, 6);               /* tiny target: 0..32 */
        fp_put_u32(&w, 7);
    } else {
        fp_put_size_near(&w, 0);
    }
    if (bvc)
        fp_put_u32(&w, 1);              /* acceleration / level */
    save(hdr, header_len(&w), block, blen, what);
}

static void decode_seeds(int bvc)
{
    uint8_t block[8192], out[80000], dict[4096];
    size_t i, n;
    static const uint8_t bad_chain[] = { 0xF0, 0xFF, 0xFF, 0x10, 'x', 'y' };
    static const uint8_t far_offset[] = { 0x14, 'a', 0x00, 0x01, 0x50, 'a', 'b', 'c', 'd',
                                          'e' };
    static const uint8_t zero_byte[] = { 0 };

    for (i = 0; i < nsamples; i++) {
        n = encode(samples[i].data, samples[i].n, block, sizeof block, 1, NULL, 0);
        block_seed(bvc, block, n, 0, 0, 0, 0, 0, samples[i].name);
        if (samples[i].n > 20) {
            block_seed(bvc, block, n, 4, 0, 0, -1, 0, samples[i].name); /* 4: in place */
            block_seed(bvc, block, n, 0, 0, 0, 1, 1, samples[i].name);
        }
    }
    /* generated blocks, from tiny to 70 KB of output */
    {
        static const size_t sizes[] = { 0, 5, 13, 40, 300, 1000, 3000, 70000 };
        for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            ref_gen_params gp;
            ref_gen_result gr;
            memset(&gp, 0, sizeof gp);
            gp.seed = 1000 + i;
            gp.max_output = sizes[i];
            gr = ref_gen_block(&gp, block, sizeof block, out, sizeof out, NULL);
            if (gr.ok && gr.block_len <= 4096)
                block_seed(bvc, block, gr.block_len, 0, 0, 0, i & 1 ? -1 : 0, 0, "gen");
        }
    }
    /* a block that needs its dictionary: fz_fill_dict(seed), as the target draws it */
    fz_fill_dict(dict, 2000, 77);
    {
        uint8_t data[1500];
        memcpy(data, dict + 500, 600);
        memcpy(data + 600, samples[0].data, 900);
        n = encode(data, sizeof data, block, sizeof block, 1, dict, 2000);
        block_seed(bvc, block, n, 2, 2000, 77, 0, 0, "dict-ext");
        block_seed(bvc, block, n, 3, 2000, 77, 0, 0, "dict-prefix");
    }
    /* malformed */
    /* No offset-0 seed: upstream 1.9.4 and Linux 6.1 fail it (stale output of
     * LZ4_decompress_safe_partial), and the seeds must pass on the default
     * subjects; the fuzzer reaches offset 0 in seconds anyway. */
    block_seed(bvc, bad_chain, sizeof bad_chain, 0, 0, 0, 0, 0, "chain");
    block_seed(bvc, far_offset, sizeof far_offset, 0, 0, 0, 0, 0, "faroffset");
    block_seed(bvc, zero_byte, 1, 0, 0, 0, 0, 0, "zero");
    n = encode(samples[0].data, samples[0].n, block, sizeof block, 1, NULL, 0);
    block_seed(bvc, block, n / 2, 0, 0, 0, 0, 0, "truncated");
}

/* ---- compress_roundtrip ----------------------------------------------- */

/* [mode][data kind][size sel][size][param class][param][cap][dict] */
static void compress_seed(uint8_t mode, uint8_t kind, uint8_t size_sel, uint32_t size_v,
                          uint8_t psel, int32_t pv, int cap_delta, uint32_t dict_sel,
                          const sample *s)
{
    uint8_t hdr[32];
    fuzz_header_writer w = { hdr, sizeof hdr, 0 };
    fp_put_u8(&w, mode);
    fp_put_u8(&w, kind);
    fp_put_u8(&w, size_sel);
    fp_put_u32(&w, size_v);
    fp_put_u8(&w, psel);
    fp_put_u32(&w, (uint32_t)pv);
    fp_put_size_near(&w, cap_delta);
    fp_put_u32(&w, dict_sel);
    save(hdr, header_len(&w), s->data, s->n, s->name);
}

static void compress_seeds(void)
{
    size_t i;
    for (i = 0; i < nsamples; i++) {
        compress_seed(0, 28, 0, 0, 0, 1, 0, 0, &samples[i]);          /* default, twice */
        compress_seed(2, 0, 0, 0, 0, 1, -1, 0, &samples[i]);          /* limited: size - 1 */
    }
    compress_seed(1, 0, 0, 0, 0, 8, 0, 0, &samples[0]);               /* fast 8 */
    compress_seed(1, 0, 0, 0, 0, 0, 0, 0, &samples[3]);               /* fast 0 */
    compress_seed(1, 0, 0, 0, 0, -7, 0, 0, &samples[4]);              /* fast < 0 */
    compress_seed(1, 0, 0, 0, 0, 65537, 0, 0, &samples[0]);           /* fast, max */
    compress_seed(2, 0, 0, 0, 0, 1, 0, 0, &samples[3]);               /* limited: exact */
    compress_seed(2, 0, 0, 0, 0, 1, 1, 0, &samples[0]);               /* limited: + 1 */
    compress_seed(3, 0, 0, 0, 0, 1, 0, 0, &samples[0]);               /* destSize */
    compress_seed(3, 0, 0, 0, 0, 1, -5, 0, &samples[3]);
    compress_seed(3, 0, 0, 0, 0, 1, 0, 0, &samples[5]);
    compress_seed(4, 0, 0, 0, 1, 9 + 3, 0, 0, &samples[0]);           /* HC 9 */
    compress_seed(4, 0, 0, 0, 1, 12 + 3, -1, 0, &samples[3]);         /* HC 12, limited */
    compress_seed(4, 0, 0, 0, 1, 0 + 3, 0, 0, &samples[4]);           /* HC 0 */
    compress_seed(4, 0, 0, 0, 1, 16 + 3, 0, 0, &samples[2]);          /* HC 16 */
    compress_seed(5, 0, 0, 0, 0, 1, 0, 700, &samples[3]);             /* dictionary */
    compress_seed(5, 0, 0, 0, 0, 1, 0, 1000, &samples[0]);
    /* synthesised from the text as description: 20 000 bytes (the class
     * 0 .. 68 KiB of fz_synth_size), and 4 000 at HC 9 (HC's largest is 4 KiB) */
    compress_seed(0, 1, 255, 20000u << 12 | 1, 0, 1, 0, 0, &samples[0]);
    compress_seed(4, 1, 255, 4000u << 12 | 1, 1, 9 + 3, 0, 0, &samples[0]);
    /* 66 000 bytes (64 .. 68 KiB): 32-bit position tables (larger data,
     * from 64 KiB to 4 MiB, is compress_large's: make_seeds_large.c) */
    compress_seed(0, 1, 255, (66000u - 65536u) << 12 | 64, 0, 1, 0, 0, &samples[7]);
    compress_seed(2, 2, 0, FZ_SYNTH_SMALL_4K(3000), 0, 5, 2, 0, &samples[7]);            /* 4-letter text */
}

/* ---- ref_to_subject ----------------------------------------------------- */

/* [source][size sel][size][seed][accel][dict][enc cap][cap][target][vflags][v] */
static void r2s_seed(uint8_t source, uint8_t size_sel, uint32_t size_v, uint64_t seed,
                     int32_t accel, uint32_t dict_v, int enc_cap_delta, int cap_delta,
                     int target_delta, uint8_t vflags, uint32_t v, const sample *s,
                     const char *what)
{
    uint8_t hdr[42];          /* ref_to_subject.c HEADER */
    fuzz_header_writer w = { hdr, sizeof hdr, 0 };
    fp_put_u8(&w, source);
    fp_put_u8(&w, size_sel);
    fp_put_u32(&w, size_v);
    fp_put_u64(&w, seed);
    fp_put_u32(&w, (uint32_t)accel);
    fp_put_u32(&w, dict_v);
    fp_put_size_near(&w, enc_cap_delta);
    fp_put_size_near(&w, cap_delta);
    fp_put_size_near(&w, target_delta);
    fp_put_u8(&w, vflags);
    fp_put_u32(&w, v);
    save(hdr, header_len(&w), s ? s->data : NULL, s ? s->n : 0, what);
}

static void r2s_seeds(void)
{
    size_t i;
    for (i = 0; i < nsamples; i++) {
        /* the payload encoded, partial decode with the drawn capacity */
        r2s_seed(0, 0, 0, 0, 1, 0, 0, -1, -3, 64, 0, &samples[i], samples[i].name);
        r2s_seed(16, 0, 0, 0, 1, 0, -16, 0, -1, 0, 0, &samples[i], "destsize");
    }
    r2s_seed(2, 0, 0, 0, 1, 800, 0, 0, 0, 0, 400, &samples[0], "dict-ext");
    r2s_seed(2 | 0, 0, 0, 0, 4, 600, 0, -2, 0, 32, 100, &samples[3], "dict-prefix");
    /* synthesised data, from the payload as description */
    r2s_seed(4, 0, FZ_SYNTH_SMALL_4K(3000), 5, 1, 0, 0, -1, -7, 64, 0, &samples[0], "synth");
    r2s_seed(8, 0, FZ_SYNTH_SMALL_4K(4000), 6, 3, 0, 0, 1, 0, 64, 0, &samples[7], "synth-empty");
    /* 300 000 bytes (size class 64 KiB .. 1 MiB: fz_synth_size) from the
     * stream alone, with copies from beyond the 64 KiB window (kind 7) */
    r2s_seed(12, 255, (300000u - 65536u) << 12 | 64, 7, 1, 0, 0, 0, 0, 0, 0, NULL, "synth-large");
    /* judged variations: a capacity inside a literal run / a match, a cut block */
    r2s_seed(0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x1234, &samples[3], "cap-in-literals");
    r2s_seed(1, 0, FZ_SYNTH_SMALL_4K(3000), 11, 1, 0, 0, 0, 0, 2, 0x5678, NULL, "cap-in-match");
    r2s_seed(1, 0, FZ_SYNTH_SMALL_4K(2000), 12, 1, 0, 0, 0, 0, 16, 777, NULL, "cut");
    for (i = 0; i < 10; i++) {
        /* generated blocks, some on a dictionary, one of 72 000 bytes */
        int with_dict = i % 3 == 2;
        r2s_seed((uint8_t)(1 | (with_dict ? 2 : 0)), (uint8_t)(i == 9 ? 255 : 0),
                 i == 9 ? (72000u - 65536u) << 12 | 64 : FZ_SYNTH_SMALL_4K(64 + 400 * i), 500 + i, 1,
                 with_dict ? FZ_SYNTH_LOG(12, 3000) : 0, 0, (int)(i % 4) - 2, (int)i - 5,
                 (uint8_t)((i & 1) << 6 | (with_dict ? (i % 2 ? 4 : 32) : 0)), 1000, NULL,
                 "gen");
    }
}

/* ---- frames ---------------------------------------------------------------- */

/* A frame (or legacy frame) of sample s with prefs p; returns its size. */
static size_t encode_frame(const ref_frame_prefs *p, const sample *s, size_t n, uint8_t **out)
{
    size_t cap = p ? ref_frame_bound(n, p) : ref_legacy_bound(n), len;
    *out = xmalloc(cap);
    len = p ? ref_frame_encode(p, s->data, n, *out, cap)
            : ref_legacy_encode(s->data, n, *out, cap, 1);
    if (!len) {
        fprintf(stderr, "make_seeds: frame encoder failed\n");
        exit(2);
    }
    return len;
}

/* frame_decode: [flags][in chunk][out room][dict len][dict seed][stream] */
static uint8_t made_opt;
static uint32_t made_size, made_damage;

static void frame_decode_seed(uint8_t flags, uint32_t in_chunk, uint32_t room, size_t dict_len,
                              uint64_t dict_seed, const uint8_t *stream, size_t n,
                              const char *what)
{
    uint8_t hdr[32];          /* frame_decode.c HEADER */
    fuzz_header_writer w = { hdr, sizeof hdr, 0 };
    fp_put_u8(&w, flags);
    fp_put_u32(&w, in_chunk);
    fp_put_u32(&w, room);
    fp_put_u8(&w, dict_len ? 1 : 0);
    fp_put_u32(&w, (uint32_t)dict_len);
    fp_put_u64(&w, dict_seed);
    /* a made frame (flag bit 1): options, data size, damage */
    fp_put_u8(&w, made_opt);
    fp_put_u8(&w, 0);
    fp_put_u32(&w, made_size);
    fp_put_u32(&w, made_damage);
    save(hdr, header_len(&w), stream, n, what);
}

static void frame_decode_seeds(void)
{
    static const uint8_t skippable[] = { 0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 's', 'k', 'p' };
    ref_frame_prefs p;
    uint8_t *f, *g, dict[2000], *both;
    size_t i, lf, lg;
    for (i = 0; i < nsamples; i++) {
        size_t n = samples[i].n < 20000 ? samples[i].n : 20000;
        ref_frame_prefs_default(&p);
        p.block_max = 4;
        p.linked_blocks = (int)(i & 1);
        p.block_checksum = (int)(i % 3 == 0);
        p.content_size = (int)(i % 2 == 0);
        p.uncompressed = (int)(i == 5);
        lf = encode_frame(&p, &samples[i], n, &f);
        frame_decode_seed(0, 0, 0, 0, 0, f, lf, samples[i].name);
        frame_decode_seed(0, (uint32_t)(1 + i * 3), (uint32_t)(7 + i * 100), 0, 0, f, lf,
                          "chunked");
        free(f);
    }
    /* skippable + two frames */
    ref_frame_prefs_default(&p);
    p.block_max = 5;
    lf = encode_frame(&p, &samples[0], 3000, &f);
    lg = encode_frame(&p, &samples[1], 2000, &g);
    both = xmalloc(sizeof skippable + lf + lg);
    memcpy(both, skippable, sizeof skippable);
    memcpy(both + sizeof skippable, f, lf);
    memcpy(both + sizeof skippable + lf, g, lg);
    frame_decode_seed(0, 0, 0, 0, 0, both, sizeof skippable + lf + lg, "concat");
    free(both);
    free(f);
    free(g);
    /* a frame on a dictionary, with its Dict-ID (the target's fz_dict) */
    fz_fill_dict(dict, sizeof dict, 77);
    ref_frame_prefs_default(&p);
    p.block_max = 4;
    p.linked_blocks = 1;
    p.dict = dict;
    p.dict_len = sizeof dict;
    p.dict_id_present = 1;
    p.dict_id = 77;
    p.content_size = 1;
    lf = encode_frame(&p, &samples[0], 5000, &f);
    frame_decode_seed(1, 5, 11, sizeof dict, 77, f, lf, "dict");
    /* frames ref makes of synthesised data (the sample text as description):
     * block and content checksums, intact and with one damaged byte */
    made_opt = 3;
    made_size = FZ_SYNTH_SMALL_4K(3000);
    frame_decode_seed(0x82, 0, 0, 0, 0, samples[0].data, samples[0].n, "made");
    made_damage = 1 | 40u << 2 | 0x80u << 24;
    frame_decode_seed(0x82, 0, 0, 0, 0, samples[0].data, samples[0].n, "made-damaged");
    made_opt = 0;
    made_size = made_damage = 0;
    free(f);
}

/* frame_roundtrip: [flags][block id][bits][level][capacity][piece][room]
 * [dict len][dict seed][data] */
static void frame_rt_seed(uint8_t flags, uint8_t block_id, uint8_t bits, int32_t level,
                          uint32_t piece, uint32_t room, size_t dict_len, const sample *s,
                          size_t n, const char *what)
{
    uint8_t hdr[33];          /* frame_roundtrip.c HEADER */
    fuzz_header_writer w = { hdr, sizeof hdr, 0 };
    fp_put_u8(&w, flags);
    fp_put_u8(&w, block_id);
    fp_put_u8(&w, bits);
    fp_put_u32(&w, (uint32_t)level);
    fp_put_size_near(&w, 0);
    fp_put_u32(&w, piece);
    fp_put_u32(&w, room);
    fp_put_u8(&w, dict_len ? 1 : 0);
    fp_put_u32(&w, (uint32_t)dict_len);
    fp_put_u64(&w, 77);
    save(hdr, header_len(&w), s->data, n < s->n ? n : s->n, what);
}

static void frame_roundtrip_seeds(void)
{
    size_t i;
    for (i = 0; i < nsamples; i++) {
        size_t n = 30000;
        /* subject -> ref, one-shot and streamed; ref -> subject */
        frame_rt_seed(1, 4, (uint8_t)i, 0, 0, 0, 0, &samples[i], n, "oneshot");
        frame_rt_seed(3, (uint8_t)(4 + i % 4), (uint8_t)(i * 5), (int32_t)(i * 2) - 3,
                      (uint32_t)(1000 + i * 777), 0, 0, &samples[i], n, "stream");
        frame_rt_seed(0, (uint8_t)(i % 4), (uint8_t)(i * 3), 1, (uint32_t)(3 + i),
                      (uint32_t)(100 + i), 0, &samples[i], n, "refenc");
    }
    frame_rt_seed(3, 4, 0, 9, 4000, 0, 2000, &samples[0], 20000, "stream-dict");
    frame_rt_seed(8, 4, 0, 1, 0, 0, 2000, &samples[0], 20000, "refenc-dictid");
}

/* legacy_decode: [flags][reserved x7][stream] */
static void legacy_seeds(void)
{
    uint8_t hdr[8] = { 0 }, *f, *g, *both;
    size_t i, lf, lg;
    for (i = 0; i < nsamples; i++) {
        lf = encode_frame(NULL, &samples[i], samples[i].n < 20000 ? samples[i].n : 20000, &f);
        save(hdr, sizeof hdr, f, lf, samples[i].name);
        free(f);
    }
    /* two members with zero padding between them (KLZ4-UNLZ4-PAD) */
    lf = encode_frame(NULL, &samples[0], 3000, &f);
    lg = encode_frame(NULL, &samples[2], 3000, &g);
    both = xmalloc(lf + 4 + lg);
    memset(both, 0, lf + 4 + lg);
    memcpy(both, f, lf);
    memcpy(both + lf + 4, g, lg);
    save(hdr, sizeof hdr, both, lf + 4 + lg, "padded");
    memcpy(both + lf, g, lg);
    save(hdr, sizeof hdr, both, lf + lg, "two-members");
    free(both);
    free(f);
    free(g);
}

/* fuzz/make_seeds_stream.c, make_seeds_large.c: seeds numbered from 0 in
 * dir; return how many */
int make_stream_seeds(const char *dir), make_alloc_seeds(const char *dir);
int make_large_seeds(const char *dir), make_decode_large_seeds(const char *dir);

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: make_seeds decode_differential|compress_roundtrip|"
                "ref_to_subject|base_vs_candidate|frame_decode|frame_roundtrip|legacy_decode|"
                "stream_roundtrip|alloc_fail|compress_large|decode_large "
                "DIR\n");
        return 2;
    }
    out.path = argv[2];
    make_samples();
    if (strcmp(argv[1], "decode_differential") == 0)
        decode_seeds(0);
    else if (strcmp(argv[1], "base_vs_candidate") == 0)
        decode_seeds(1);
    else if (strcmp(argv[1], "compress_roundtrip") == 0)
        compress_seeds();
    else if (strcmp(argv[1], "ref_to_subject") == 0)
        r2s_seeds();
    else if (strcmp(argv[1], "frame_decode") == 0)
        frame_decode_seeds();
    else if (strcmp(argv[1], "frame_roundtrip") == 0)
        frame_roundtrip_seeds();
    else if (strcmp(argv[1], "legacy_decode") == 0)
        legacy_seeds();
    else if (strcmp(argv[1], "stream_roundtrip") == 0)
        out.count += make_stream_seeds(out.path);
    else if (strcmp(argv[1], "alloc_fail") == 0)
        out.count += make_alloc_seeds(out.path);
    else if (strcmp(argv[1], "compress_large") == 0)
        out.count += make_large_seeds(out.path);
    else if (strcmp(argv[1], "decode_large") == 0)
        out.count += make_decode_large_seeds(out.path);
    else {
        fprintf(stderr, "make_seeds: unknown target '%s'\n", argv[1]);
        return 2;
    }
    printf("make_seeds: %d seeds in %s\n", out.count, out.path);
    return 0;
}
