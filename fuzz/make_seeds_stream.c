/*
 * make_seeds_stream.c: the seed corpora of stream_roundtrip and alloc_fail
 * for fuzz/make_seeds.c (`python3 -m harness fuzz corpus --target T`), in
 * the header layouts fuzz/stream_roundtrip.c and fuzz/alloc_fail.c
 * document, written with params.h's fp_put_*.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "params.h"
#include "seed_file.h"

int make_stream_seeds(const char *dir);
int make_alloc_seeds(const char *dir);

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

static const char seed_text[] =
    "It was the best of times, it was the worst of times, it was the age of wisdom, it was "
    "the age of foolishness, it was the epoch of belief. ";

/* The text repeated `times` times (malloc'd). */
static uint8_t *repeated_text(size_t times, size_t *n)
{
    size_t one = sizeof seed_text - 1, i;
    uint8_t *p = xmalloc(one * times + 1);
    for (i = 0; i < times; i++)
        memcpy(p + i * one, seed_text, one);
    *n = one * times;
    return p;
}

/* [flags][layouts][cls][param][blocks][sizes][max block][data][seed]
 * [dict 0][dict 1][ring][corrupt at][corrupt block][mask]. Every seed is
 * in size tier 3 (stream_roundtrip.c: the sizes it was written for, as
 * before the tiers): "corrupt at" (any value: the byte is v % its block's
 * size) is the first from 17 on that gives it. */
#define STREAM_SEED_TIER 3
static void stream_seed(uint8_t flags, uint8_t layouts, int32_t param, uint8_t blocks,
                        uint8_t sizes, uint32_t maxb, uint8_t kind, uint64_t seed,
                        uint8_t d0c, uint32_t d0, uint8_t d1c, uint32_t d1, uint32_t ring,
                        uint8_t cblock, uint8_t mask, size_t text_times, const char *what)
{
    uint8_t hdr[42], *whole;          /* stream_roundtrip.c HEADER */
    fuzz_header_writer w = { hdr, sizeof hdr, 0 };
    size_t n, corrupt_pos;
    uint8_t *payload = repeated_text(text_times, &n);
    uint32_t corrupt_at = 17;
    fp_put_u8(&w, flags);
    fp_put_u8(&w, layouts);
    fp_put_u8(&w, 1);
    fp_put_u32(&w, (uint32_t)param);
    fp_put_u8(&w, blocks);
    fp_put_u8(&w, sizes);
    fp_put_u32(&w, maxb);
    fp_put_u8(&w, kind);
    fp_put_u64(&w, seed);
    fp_put_u8(&w, d0c);
    fp_put_u32(&w, d0);
    fp_put_u8(&w, d1c);
    fp_put_u32(&w, d1);
    fp_put_u32(&w, ring);
    corrupt_pos = w.len;
    fp_put_u32(&w, corrupt_at);
    fp_put_u8(&w, cblock);
    fp_put_u8(&w, mask);
    whole = xmalloc(header_len(&w) + n);
    memcpy(whole, hdr, header_len(&w));
    memcpy(whole + header_len(&w), payload, n);
    while (fp_hash_tier(whole, header_len(&w) + n, STREAM_SEED_TIER) < STREAM_SEED_TIER) {
        fuzz_header_writer at = { whole + corrupt_pos, 4, 0 };
        fp_put_u32(&at, ++corrupt_at);
    }
    save(whole, header_len(&w), payload, n, what);
    free(whole);
    free(payload);
}

int make_stream_seeds(const char *dir)
{
    static const char *const modes[] = { "prefix", "separate", "ring", "ringsync", "savedict" };
    static const char *const starts[] = { "reset", "load", "attach" };
    char what[64];
    int mode, hc, st, k = 0;
    out.path = dir;
    out.count = 0;
    /* every layout, fast and HC, reset / loadDict / attach first, events in
     * mid-stream; the subject decodes its own stream every other seed */
    for (mode = 0; mode < 5; mode++)
        for (hc = 0; hc < 2; hc++)
            for (st = 0; st < 3; st++, k++) {
                uint8_t flags = (uint8_t)(hc | (st * 2) | mode << 3 |
                                          ((mode + st) % 2 == 0 ? 64 : 0));
                snprintf(what, sizeof what, "%s-%s-%s", modes[mode], hc ? "hc" : "fast",
                         starts[st]);
                stream_seed(flags, (uint8_t)(mode | ((mode + hc) % 4) << 3), hc ? 12 : 17,
                            (uint8_t)(6 + 4 * mode), (uint8_t)((mode + st) % 4 | (st ? 16 : 8) << 2),
                            3000u + 4000u * (unsigned)mode, (uint8_t)((mode + hc) % 3),
                            1000u + (unsigned)k, 1, 5000u + 977u * (unsigned)k, 3, 200, 9000, 3,
                            0x40, (size_t)(1 + mode), what);
            }
    /* blocks beyond the 64 KiB window; a corrupted block; many tiny ones */
    stream_seed(64 | 2 << 3, 2, 17, 4, 1 | 4 << 2, 100000, 0, 77, 2, 0, 0, 0, 0, 0, 0, 20,
                "large");
    stream_seed(128 | 2, 0, 17, 8, 8 << 2, 5000, 1, 78, 1, 3000, 0, 0, 0, 2, 0x10, 1, "corrupt");
    stream_seed(64, 3 | 2 << 3, 17, 40, 2 | 32 << 2, 0, 0, 79, 3, 100, 3, 50, 0, 0, 0, 1, "tiny");
    return out.count;
}

/* [op][fail at][level][flags][frames][dict size][seed] */
int make_alloc_seeds(const char *dir)
{
    static const char *const ops[] = { "hc", "stream", "frame", "frame-mem", "unlz4" };
    static const int levels[] = { 9, 12, 0, 3 };
    static const unsigned fails[] = { 0, 1, 2, 3, 5 };
    char what[64];
    size_t n;
    uint8_t *payload = repeated_text(8, &n);
    unsigned op, f;
    out.path = dir;
    out.count = 0;
    for (op = 0; op < 5; op++)
        for (f = 0; f < 5; f++) {
            uint8_t hdr[20];      /* alloc_fail.c HEADER */
            fuzz_header_writer w = { hdr, sizeof hdr, 0 };
            unsigned fail = fails[f];
            uint8_t flags = (uint8_t)((fail & 1) | (op == 1 || op == 3 ? 2 : 0) |
                                      (op == 1 && fail % 2 ? 0x40 : 0) |
                                      (op == 1 && fail == 2 ? 0x80 : 0));
            fp_put_u8(&w, (uint8_t)op);
            fp_put_u32(&w, fail);
            fp_put_u8(&w, (uint8_t)levels[(op + fail) % 4]);
            fp_put_u8(&w, flags);
            fp_put_u8(&w, op == 3 ? 1 : 0);
            fp_put_u32(&w, flags & 2 ? 3000 : 0);
            fp_put_u64(&w, 500 + op * 5 + f);
            snprintf(what, sizeof what, "%s-fail%u", ops[op], fail);
            save(hdr, header_len(&w), payload, n, what);
        }
    free(payload);
    return out.count;
}

