/*
 * stream_roundtrip: streams of 2-50 blocks through the subject's streaming
 * block API (subject.h stream_*, dstream_*), in every memory layout
 * applications use (harness/runners/common/stream_driver.h): one buffer
 * (prefix), a buffer per block, rings large and small (synchronized), an
 * input buffer reused with LZ4_saveDict; dictionaries loaded or attached
 * (dictCtx), replaced and reset in mid-stream; fast and HC streams.
 *
 *   1. the subject compresses the stream; every block must come back within
 *      its capacity (and succeed when the capacity is at least the bound);
 *   2. ref decodes it as the logical stream lz4.h defines (each block may
 *      refer to the last 64 KiB of its dictionary and the blocks since):
 *      every block must decode, strictly, to its input;
 *   3. the subject decodes its own stream (LZ4_decompress_safe_continue in
 *      a layout that keeps 64 KiB, or usingDict with the history copied;
 *      a small synchronized ring for its own small-ring stream);
 *   4. ref compresses the stream for a drawn decoder layout (the history
 *      that layout keeps) and the subject decodes it; with a corrupted
 *      byte only memory safety, the return range and the earlier output
 *      are checked.
 *
 * Input: [42-byte header][payload]. Header, in draw order (params.h):
 *   u8   flags: bit 0 HC stream; bit 1 dictionary 0 loaded at the start
 *        (else attached, bit 2); bits 3-5 layout (enum stream_mode);
 *        bit 6 the subject decodes its own stream; bit 7 corrupt ref's
 *   u8   decoder layouts: bits 0-2 for ref's stream, bits 3-5 for its own
 *   u8+i32  parameter: class 0 the full int range, else acceleration
 *        -16..239 / HC level -3..16
 *   u8   blocks: 2 + v % 49
 *   u8   block sizes: bits 0-1 style (uniform to the maximum, all equal,
 *        tiny, mostly small), bits 2-7 event rate (in 64ths)
 *   u32  largest block: v % (the size class's largest block + 1); the
 *        stream stops growing at the class's total (size tiers, below)
 *   u8   data: 0 payload repeated, 1 text over 4 letters, 2 slices of the
 *        dictionaries and the payload
 *   u64  seed of the draws per block (sizes, events, capacities)
 *   u8+u32  dictionary 0 size (fp_dict_len), u8+u32 dictionary 1 size
 *   u32  ring size (SM_RING_SYNC): v % (2 x the class's largest block +
 *        1), at least twice the largest block
 *   u32  corrupted byte's position in its block, u8 its block, u8 its mask
 * (The dictionaries are fz_fill_dict(seed + 0 / + 1) windows.)
 *
 * Size tiers (issue 15: an execution costs in proportion to the stream,
 * which every pass compresses or decodes; libFuzzer kept the large streams
 * that reached new code and mutated them, and exec/s fell from ~4000 to
 * ~250 in 20 s). The tier comes from a hash of the whole input
 * (size_tier), so 15 in 16 mutations of a large input are small again;
 * with the kind of stream it picks the size class (largest block, total):
 *   class 0   512 B, 2 KiB          class 2   48 KiB, 160 KiB
 *   class 1   4 KiB, 16 KiB         class 3   192 KiB, 1 MiB
 *   tier (share)       fast   HC 1-9   HC 10-12 (optimal parser)
 *   0 (15/16)          1      0        0
 *   1 (15/256)         2      1        0
 *   2 (15/4096)        3      2        1
 *   3 (1/4096)         3      3        3
 * 160 KiB is past the 64 KiB window (rings wrap, history slides); 192 KiB
 * and 1 MiB are what the target drew before, so every size stays
 * reachable. HC costs ~8x fast per byte, its optimal levels on 4-letter
 * text far more (lz4 1.9.4 under ASan: 36 ms for a 16 KiB stream at level
 * 12, 430 ms for 64 KiB; at 1 in 256, its 160 KiB streams took 60% of the
 * time of a 20 s run's corpus). A dictionary (up to 65 KiB + 1 KiB) fills
 * the window in every class, so blocks after it slide it out of reach.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "params.h"
#include "prng.h"
#include "stream_driver.h"
#include "subject.h"

FZ_TARGET("stream_roundtrip");
FZ_NEEDS(CAP_STREAM_COMPRESS | CAP_STREAM_HC | CAP_STREAM_DECOMPRESS | CAP_DECOMPRESS_USING_DICT);

#define HEADER 42
#define MAX_BLOCK (192u * 1024u)
/* A stream's total: blocks past it are empty (speed: 50 blocks of the
 * largest size would be 9.6 MiB per input, each copied and decoded 3 times). */
#define MAX_TOTAL (1024u * 1024u)

/* The size classes (the header): largest block, total; the class of each
 * tier for a fast stream, HC levels below 10, HC's optimal levels. */
static const size_t class_block[4] = { 512u, 4u << 10, 48u << 10, MAX_BLOCK };
static const size_t class_total[4] = { 2u << 10, 16u << 10, 160u << 10, MAX_TOTAL };
static const int class_of[3][4] = { { 1, 2, 3, 3 }, { 0, 1, 2, 3 }, { 0, 0, 1, 3 } };
#define HC_OPT_MIN 10   /* lz4hc.h LZ4HC_CLEVEL_OPT_MIN: the optimal parser */

/* The tier of an input (params.h fp_hash_tier: a hash of all its bytes).
 * Not instrumented: comparisons libFuzzer traces would be solved for. The
 * seeds (make_seeds_stream.c) pick their tier with an unused header value. */
static FZ_NO_COVERAGE int size_tier(const uint8_t *data, size_t size)
{
    return fp_hash_tier(data, size, 3);
}

/* Decoder layouts for ref's stream (DM_RING_SYNC needs the subject's own
 * small ring) and for the subject's own (full history only). */
static const int ref_dmodes[] = { DM_PREFIX, DM_SEPARATE, DM_RING, DM_USINGDICT,
                                  DM_USINGDICT_COPY };
static const int own_dmodes[] = { DM_PREFIX, DM_RING, DM_USINGDICT_COPY, DM_RING_SYNC };

/* A layout the subject can decode in, or -1. */
static int usable_dmode(const struct lz4_subject *s, int dmode)
{
    unsigned need = dmode == DM_USINGDICT || dmode == DM_USINGDICT_COPY
                        ? CAP_DECOMPRESS_USING_DICT : CAP_STREAM_DECOMPRESS;
    return (s->caps & need) ? dmode : -1;
}

static void report(const stream_result *r, const char *prefix, const char *entry)
{
    if (r->block >= 0)
        fz_finding(r->cls, entry, "%s%s", prefix, r->msg);
}

/* The data: the payload repeated, letters, or slices of the dictionaries
 * and the payload (so that blocks refer to their dictionary). */
static void fill_data(uint8_t *d, size_t n, int kind, const uint8_t *payload, size_t plen,
                      const stream_plan *p, uint64_t seed)
{
    ref_prng r = { seed ^ 0x5EEDull };
    size_t i = 0;
    if (kind == 1 || (kind == 0 && !plen)) {
        fz_fill_prng(d, n, seed, 4);
        return;
    }
    while (i < n) {
        size_t take = 1 + ref_prng_below(&r, 300), which = ref_prng_below(&r, 3);
        const uint8_t *from = payload;
        size_t len = plen;
        if (kind == 2 && which < 2 && p->dict_len[which]) {
            from = p->dict[which];
            len = p->dict_len[which];
        }
        if (kind == 0)
            take = plen;
        if (!len) {
            d[i++] = (uint8_t)ref_prng_next(&r);
            continue;
        }
        take = fz_min(fz_min(take, len), n - i);
        memcpy(d + i, from + (kind == 0 ? 0 : ref_prng_below(&r, len - take + 1)), take);
        i += take;
    }
}

static size_t draw_size(ref_prng *r, int style, size_t maxb)
{
    switch (style) {
    case 0: return ref_prng_below(r, maxb + 1);
    case 1: return maxb;
    case 2: return ref_prng_below(r, 33);
    default: return ref_prng_below(r, 8) ? ref_prng_below(r, 1024) : ref_prng_below(r, maxb + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    stream_plan plan;
    ref_prng r;
    uint8_t flags, layouts, cls, sizes, kind, corrupt_block, mask, *dicts[2], *stream_data;
    int32_t param;
    size_t i, nblocks, maxb, total = 0, dict_len[2], corrupt_at, block_cap, total_cap;
    uint64_t seed;
    uint32_t ring, maxb_v;
    int dmode, size_class;

    fz_input(data, size);
    fp_init(&fp, data, size, HEADER);
    memset(&plan, 0, sizeof plan);
    flags = fp_u8(&fp);
    layouts = fp_u8(&fp);
    cls = fp_u8(&fp);
    param = fp_i32(&fp);
    nblocks = 2 + fp_u8(&fp) % 49;
    sizes = fp_u8(&fp);
    maxb_v = fp_u32(&fp);
    kind = fp_u8(&fp) % 3;
    seed = fp_u64(&fp);
    dict_len[0] = fp_dict_len(&fp);
    dict_len[1] = fp_dict_len(&fp);
    ring = fp_u32(&fp);
    corrupt_at = fp_u32(&fp);
    corrupt_block = fp_u8(&fp);
    mask = fp_u8(&fp);

    plan.hc = flags & 1;
    plan.param = cls == 0 ? param : plan.hc ? (int)((uint32_t)param % 20) - 3
                                            : (int)((uint32_t)param % 256) - 16;
    plan.mode = ((flags >> 3) & 7) % SM_COUNT;   /* bits 3-5 */
    size_class = class_of[!plan.hc ? 0 : plan.param < HC_OPT_MIN ? 1 : 2][size_tier(data, size)];
    block_cap = class_block[size_class];
    total_cap = class_total[size_class];
    maxb = maxb_v % (block_cap + 1);
    for (i = 0; i < 2; i++) {
        dicts[i] = dict_len[i] ? fz_alloc(dict_len[i]) : NULL;   /* exactly sized */
        if (dicts[i])
            fz_fill_dict(dicts[i], dict_len[i], seed + i);
        plan.dict[i] = dicts[i];
        plan.dict_len[i] = dict_len[i];
    }
    r.s = seed;
    plan.nsteps = nblocks;
    for (i = 0; i < nblocks; i++) {
        stream_step *t = &plan.step[i];
        t->size = fz_min(draw_size(&r, sizes & 3, maxb), total_cap - total);
        t->dict = (int)ref_prng_below(&r, 2);
        t->fast_reset = (int)ref_prng_below(&r, 2);
        t->event = SE_NONE;
        if (i == 0)
            t->event = !(flags & 2) && !(flags & 4) ? SE_RESET : flags & 2 ? SE_LOAD_DICT
                                                                           : SE_ATTACH;
        else if (ref_prng_below(&r, 64) < (size_t)(sizes >> 2))
            t->event = 1 + (int)ref_prng_below(&r, 3);
        /* Mostly enough room; one block in eight near the compressed size. */
        t->cap_delta = ref_prng_below(&r, 8) ? (int)ref_prng_below(&r, 64)
                                             : -(int)ref_prng_below(&r, t->size / 2 + 32);
        total += t->size;
    }
    plan.ring = ring % (2 * block_cap + 1);
    stream_data = fz_alloc(total ? total : 1);
    fill_data(stream_data, total, kind, fp.payload, fp.payload_len, &plan, seed);

    {   /* 1-3: the subject's stream */
        stream_plan own = plan;
        const char *entry = plan.hc ? "stream_compress_hc" : "stream_compress";
        if (stream_plan_fit(s, &own) && !fz_skip(entry)) {
            stream_blocks b;
            stream_result res = stream_subject_compress(s, &own, stream_data, &b);
            report(&res, "", entry);
            if (res.block < 0) {
                res = stream_ref_decode(&own, &b);
                report(&res, "", entry);
            }
            dmode = own_dmodes[((layouts >> 3) & 7) % 4];
            if (dmode == DM_RING_SYNC && own.mode != SM_RING_SYNC)
                dmode = DM_PREFIX;
            dmode = usable_dmode(s, dmode);
            if (res.block < 0 && (flags & 64) && dmode >= 0 && !fz_skip("stream_decompress")) {
                res = stream_subject_decode(s, &own, &b, dmode, 0, -1, 0, 0);
                report(&res, "its own stream: ", "stream_decompress");
            }
            stream_blocks_free(&b);
        }
    }
    {   /* 4: ref's stream, for a decoder layout */
        stream_plan dec = plan;
        stream_blocks b;
        dmode = usable_dmode(s, ref_dmodes[(layouts & 7) % 5]);
        if (dec.step[0].event == SE_NONE)
            dec.step[0].event = SE_RESET;
        for (i = 0; i < dec.nsteps; i++)   /* a decoder has no attach: both set the dictionary */
            if ((dec.step[i].event == SE_LOAD_DICT || dec.step[i].event == SE_ATTACH) &&
                !dec.dict[dec.step[i].dict])
                dec.step[i].event = SE_RESET;
        if (dmode >= 0 && !fz_skip("stream_decompress")) {
            stream_result res;
            stream_ref_encode(&dec, dmode, stream_data, &b);
            res = stream_subject_decode(s, &dec, &b, dmode, (flags & 128) ? 0 : (size_t)mask,
                                        (flags & 128) ? corrupt_block % (int)b.n : -1,
                                        corrupt_at, mask);
            report(&res, "ref's stream: ", dmode == DM_USINGDICT || dmode == DM_USINGDICT_COPY
                                               ? "decompress_safe_usingDict" : "stream_decompress");
            stream_blocks_free(&b);
        }
    }
    free(stream_data);
    free(dicts[0]);
    free(dicts[1]);
    return 0;
}
