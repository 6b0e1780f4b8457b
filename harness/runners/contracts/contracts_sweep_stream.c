/*
 * Boundary sweep of streams (issue 25, "Find one-line bugs without luck"):
 * the streaming block API (lz4.h "Streaming Compression Functions",
 * "Streaming Decompression Functions") over 2 to 5 blocks whose history
 * adds up to just under, exactly, and just over 64 KiB, the most a block may
 * refer back (spec: a 16-bit offset; lz4.h: "the previous 64 KiB").
 *
 * The data repeats 32-byte pieces at distances 65532 to 65535 across the
 * blocks' boundaries, so that a compressor which keeps a byte too much or
 * too little history, or misplaces it after a ring wrap or a saveDict,
 * writes a block that ref's decode of the logical stream (stream_driver.h)
 * rejects or decodes to other bytes.
 *
 *   compress[mode=M], compress_hc[mode=M]  the subject's stream in every
 *       input layout of stream_driver.h (prefix, separate buffers, a 64 KiB
 *       ring, synchronized rings of 64 KiB - 1 to 64 KiB + 1 bytes, one
 *       buffer with LZ4_saveDict into 64 KiB), fast (acceleration 1) and HC
 *       (level 9); every block must decode (ref strict) to its data, and
 *       the subject decodes its own stream back (_continue).
 *   decode[mode=M]  ref's streams of the same plans, decoded by the subject
 *       with _continue in one buffer, in separate buffers, in a ring, and
 *       with _usingDict (the output as a prefix, or a copy of the last
 *       64 KiB), at exact capacities.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "stream_driver.h"
#include "testdata.h"

static const struct lz4_subject *subject;

/* The plans: block sizes (0 ends a list), the event before block 0, the
 * synchronized ring's size. */
typedef struct sweep_plan {
    size_t sizes[6];
    int load_dict;        /* block 0 after LZ4_loadDict of the 64 KiB + 1 dictionary */
    size_t ring;
    const char *what;
} sweep_plan;

static const sweep_plan plans[] = {
    { { 65536, 100, 0 }, 0, 0, "2 blocks, the first exactly 64 KiB" },
    { { 32767, 32767, 4096, 0 }, 0, 65535, "3 blocks, 64 KiB - 2 of history, ring 64 KiB - 1" },
    { { 16384, 16384, 16384, 16384, 2048, 0 }, 0, 65536, "5 blocks of 16 KiB, ring 64 KiB" },
    { { 20000, 20000, 20000, 5537, 0 }, 0, 65537, "4 blocks, 64 KiB + 1 of history, ring 64 KiB + 1" },
    { { 30000, 30000, 6000, 0 }, 1, 65536, "3 blocks after a dictionary of 64 KiB + 1" },
};
#define NPLANS (sizeof plans / sizeof plans[0])
#define DICT_LEN 65537

static unsigned char *dictionary;

/* A 32-byte piece at data position at copied from dist bytes before it
 * (in the data, or in the dictionary before it: one logical stream). A
 * source still zero gets the random bytes of pool there first. Sources lie
 * below total - 65532 and copies from 65532 on: no plan reaches 131064
 * bytes, so no copy is a later source. */
static void repeat_piece(unsigned char *hist, size_t base, size_t total, size_t at, size_t dist,
                         const unsigned char *pool)
{
    static const unsigned char zero[32];
    unsigned char *src = hist + base + at - dist;
    if (base + at < dist || at + 32 > total)
        return;
    if (!memcmp(src, zero, sizeof zero))
        memcpy(src, pool + (base + at - dist) % (total - 32), 32);
    memcpy(hist + base + at, src, 32);
}

/* The data: zeros, coded as long matches, so that a hash-table compressor
 * (ref's encoder too) inserts almost nothing between the pieces and still
 * finds them (contracts_sweep_window.c says why); every 2048 bytes a 32-byte
 * random piece from 65532 + (k % 4) bytes before, and at the start of each
 * block one from 65535 bytes before, where there is one (a match there
 * needs all of 64 KiB of history but its first byte). Distances past
 * 65535 are the window sweep's (sweep.window.stream*): here the history's
 * layout is on trial, not the window's size. */
static unsigned char *plan_data(const sweep_plan *sp, size_t total)
{
    unsigned char *hist = xmalloc(DICT_LEN + total);
    unsigned char *pool = testdata_make("random", total, 51), *data = xmalloc(total ? total : 1);
    const size_t base = sp->load_dict ? DICT_LEN : 0;
    size_t at, k;
    memcpy(hist, dictionary, base);
    memset(hist + base, 0, total);
    for (at = 2048, k = 0; at < total; at += 2048, k++)
        repeat_piece(hist, base, total, at, 65532 + k % 4, pool);
    for (at = 0, k = 0; sp->sizes[k]; at += sp->sizes[k++])
        repeat_piece(hist, base, total, at, 65535, pool);
    memcpy(data, hist + base, total);
    free(hist);
    free(pool);
    return data;
}

static size_t plan_of(const sweep_plan *sp, int hc, int level, int mode, stream_plan *p)
{
    size_t i, total = 0;
    memset(p, 0, sizeof *p);
    p->hc = hc;
    p->param = hc ? level : 1;
    p->mode = mode;
    p->ring = sp->ring;
    p->dict[0] = dictionary;
    p->dict_len[0] = DICT_LEN;
    for (i = 0; sp->sizes[i]; i++) {
        p->step[i].size = sp->sizes[i];
        p->step[i].event = i ? SE_NONE : sp->load_dict ? SE_LOAD_DICT : SE_RESET;
        total += sp->sizes[i];
    }
    p->nsteps = i;
    return total;
}

/* check.variant: the layout; accel_or_level: 0 for the decoder checks, else
 * the compressor's (1: fast, acceleration 1; 9: HC level 9). */
static check_result chk_stream(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    const int decode = c->accel_or_level == 0, hc = c->accel_or_level > 1;
    size_t i;
    check_result res_all = CHECK_PASS;
    if (!dictionary)
        dictionary = testdata_make("random", DICT_LEN, 52);
    for (i = 0; i < NPLANS && !check_failed(res_all); i++) {
        stream_plan p;
        stream_blocks b;
        stream_result res;
        const size_t total = plan_of(&plans[i], hc, c->accel_or_level, decode ? SM_PREFIX
                                                                             : c->variant, &p);
        unsigned char *data = plan_data(&plans[i], total);
        if (decode) {
            stream_ref_encode(&p, c->variant, data, &b);
            res = stream_subject_decode(subject, &p, &b, c->variant, 0, -1, 0, 0);
        } else if (!stream_plan_fit(subject, &p)) {
            free(data);
            return check_fail(msg, cap, FAIL_CHECK_INCOMPLETE,
                              "the subject cannot stream this kind");
        } else {
            res = stream_subject_compress(subject, &p, data, &b);
            if (res.block < 0)
                res = stream_ref_decode(&p, &b);
            if (res.block < 0 && (subject->caps & CAP_STREAM_DECOMPRESS))
                res = stream_subject_decode(subject, &p, &b,
                                            p.mode == SM_RING_SYNC ? DM_RING_SYNC : DM_PREFIX,
                                            0, -1, 0, 0);
        }
        /* the driver's class of what it saw (stream_driver.h) */
        if (res.block >= 0)
            res_all = check_fail(msg, cap, res.cls, "%s: %s: %s", plans[i].what,
                                 contract_class_name(res.cls), res.msg);
        stream_blocks_free(&b);
        free(data);
    }
    return res_all;
}

static const int compress_modes[] = { SM_PREFIX, SM_SEPARATE, SM_RING, SM_RING_SYNC,
                                      SM_SAVEDICT };
static const int hc_modes[] = { SM_PREFIX, SM_RING_SYNC, SM_SAVEDICT };
static const int decode_modes[] = { DM_PREFIX, DM_SEPARATE, DM_RING, DM_USINGDICT,
                                    DM_USINGDICT_COPY };

/* The entry points a compressing layout needs: saveDict's layout without
 * LZ4_saveDict is n/a (stream_plan_fit would run it as one buffer). */
static subject_caps layout_caps(subject_caps stream_cap, int mode)
{
    return stream_cap | (mode == SM_SAVEDICT ? CAP_STREAM_SAVE_DICT : 0);
}

void contracts_add_sweep_stream(const struct lz4_subject *tested, contract_add_fn add)
{
    char id[96];
    size_t i;
    subject = tested;
    for (i = 0; i < sizeof compress_modes / sizeof compress_modes[0]; i++) {
        snprintf(id, sizeof id, "sweep.stream.compress[mode=%s]",
                 stream_mode_names[compress_modes[i]]);
        add(id, layout_caps(CAP_STREAM_COMPRESS, compress_modes[i]), chk_stream,
            compress_modes[i], 1);
    }
    for (i = 0; i < sizeof hc_modes / sizeof hc_modes[0]; i++) {
        snprintf(id, sizeof id, "sweep.stream.compress_hc[mode=%s]",
                 stream_mode_names[hc_modes[i]]);
        add(id, layout_caps(CAP_STREAM_HC, hc_modes[i]), chk_stream, hc_modes[i], 9);
    }
    for (i = 0; i < sizeof decode_modes / sizeof decode_modes[0]; i++) {
        int dict = decode_modes[i] == DM_USINGDICT || decode_modes[i] == DM_USINGDICT_COPY;
        snprintf(id, sizeof id, "sweep.stream.decode[mode=%s]",
                 stream_dmode_names[decode_modes[i]]);
        add(id, dict ? CAP_DECOMPRESS_USING_DICT : CAP_STREAM_DECOMPRESS, chk_stream,
            decode_modes[i], 0);
    }
}
