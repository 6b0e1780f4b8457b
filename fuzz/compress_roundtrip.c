/*
 * compress_roundtrip: the subject compresses drawn data in a drawn mode into
 * a buffer of exactly the capacity it is told (ending where its memory
 * ends, so ASan sees a write past it); the reference decodes the block (strict
 * profile) to exactly the input, or the consumed prefix for destSize.
 *
 * Checked for every mode: the return value is 0 (failure) or a block of at
 * most the capacity; with a capacity of at least compress_bound(n) the call
 * succeeds; the block decodes exactly and obeys every rule of the spec
 * (strict); the same call twice gives the same bytes (when drawn).
 *
 * Input: [21-byte header][payload]; a shorter input completes its header
 * from a hash of its bytes (params.h, fp_init_filled). Header, in draw
 * order (params.h):
 *   u8      mode, v % 16: 0 compress_default, 1 compress_fast, 2
 *           compress_default with a capacity around the compressed size
 *           (limited output), 3 compress_dest_size, 4 compress_hc, 5
 *           compress_using_dict; 6-15 the modes other than HC in turn (HC
 *           costs a 256 KiB state per call: 1 draw in 16; modes the subject
 *           lacks fall back to compress_default)
 *   u8      data: bits 0-1: 0 or 3 the payload, 1 fz_synth(payload as
 *           description) of the drawn size (synth.h), 2 pseudo-random text
 *           over 4 letters of the drawn size; bit 2 the call runs a second
 *           time (determinism; the data and capacity unchanged); bits 3-6
 *           (HC): a size above HC_LARGE is kept only when all four are set,
 *           else folded below it (v % (HC_LARGE + 1)): HC compresses
 *           ~100 times slower per byte than the fast modes (a 741 KB input
 *           at level 12, twice, took 10 s, half of a 20 s bench run), so
 *           its sizes of 64 KiB + 4 KiB .. 8 MiB are drawn 16 times less
 *           often than the other modes' (synth.h: each large class must cost
 *           a small part of the time of the small one; issue 15), and only
 *           of runs (FZ_SYNTH_RUNS; text of such a size, data 2, is folded
 *           below HC_LARGE: one 1 MiB text input at level 9 ran past
 *           libFuzzer's 30 s timeout in a campaign on lz4 1.8.3)
 *   u8+u32  size of drawn data: fz_synth_size(sel, value, 4 KiB, 8 MiB),
 *           except the long class (below) for sel LONG_SEL .. 253
 *   u8      parameter class: bits 0-1: 0 full int range, else small
 *           (acceleration -128..127, HC level -3..16); bits 2-5 (HC): 0
 *           compress_hc, else compress_hc_ext_state when the subject has it
 *           (the same compressor with a state allocated once: compress_hc
 *           allocates 256 KiB per call, 35% of the time when it took every
 *           HC draw; its own allocation path is still called in 1 HC draw
 *           of 16); bits 2-4 (other modes, class 0): 0 the full range, 7
 *           an acceleration k * 2^26, k 1..31 (KLZ4-ACCEL-WRAP:
 *           acceleration << 6 wraps to a search step of 0 there; the full
 *           range hits one of these 31 values once in 2^27 draws), else
 *           small. Half of the full range is above 2^25, where releases up
 *           to 1.9.2 overflow the step (a crash on most inputs that would
 *           hide their other bugs) and later ones clamp: 1 draw in 32.
 *   i32     acceleration or HC level (also the seed of drawn data)
 *   u8+u32  capacity (modes 2, 4) or destSize target (mode 3):
 *           fp_size_near(compressed size, compress_bound(n) + 64); in the
 *           long class, sel bits 0-1 not both 0: 1 .. 32 bytes below the
 *           compressed size of the same call with a capacity of
 *           compress_bound
 *
 * The long class: modes 2-4 with fz_synth data (data bits 0-1 = 1) and a
 * size selector of LONG_SEL .. 253 (1 in 128 of their draws) take LONG_MIN
 * .. LONG_MAX bytes. Limited output must count the run-length bytes of a
 * literal run or match exactly (spec: a length byte per 255 beyond 15); a
 * check that divides by 256 instead (ULZ4-2019-17543, KLZ4-GAP-HCLIM)
 * undercounts by one byte per 64 KiB of run, more than the 5-byte margin
 * only past ~330 KB, so only a run of hundreds of KiB at the end of the
 * data (synthesised: zeros, a byte run, a short period, a copy; about half
 * of the draws end so) with a capacity a few bytes short of what it needs
 * shows it. Cost: two calls of the compressor on up to 1.5 MiB, 10-30 ms
 * (1 execution in ~1200: a small part of the total). HC there uses
 * compress_hc (its 256 KiB allocation is small next to the input, and the
 * entry names the defect), levels 1 .. LONG_HC_LEVEL_MAX, on runs only
 * (FZ_SYNTH_RUNS): lz4 1.9.1's HC took 0.9 s per call on 1 MiB of random
 * bytes (at every level: it tries every position) and 80 s per execution
 * on 2 MiB of 4-letter text at level 9, on runs ~40 ms.
 *   u32     dictionary (mode 5): the first (v % (payload + 1)) payload bytes,
 *           the rest is the data (or the description)
 *
 * The data and the dictionary are exact (fz_src: a read past them is
 * reported), the destination ends exactly at the capacity (fz_out_open),
 * without an allocation per call.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "subject.h"
#include "params.h"
#include "synth.h"

FZ_TARGET("compress_roundtrip");

#define HEADER 21
#define MAX_DATA ((size_t)8 << 20)
#define HC_LARGE ((size_t)(64 + 4) << 10)
#define LONG_SEL 252
#define LONG_MIN ((size_t)512 << 10)
#define LONG_MAX ((size_t)3 << 19)
#define LONG_HC_LEVEL_MAX 9
#define ACCEL_WRAP_CLASS 7

enum { M_DEFAULT, M_FAST, M_LIMITED, M_DEST_SIZE, M_HC, M_DICT, M_COUNT };
static const char *const mode_names[] = {
    "compress_default", "compress_fast", "compress_default(limited)", "compress_dest_size",
    "compress_hc", "compress_using_dict"
};

typedef struct job {
    const struct lz4_subject *s;
    int mode;
    const uint8_t *data;    /* exactly n bytes of their own */
    size_t n;
    const uint8_t *dict;    /* exactly dict_len bytes of their own */
    size_t dict_len;
    int param;              /* acceleration or level */
    size_t cap;
    int twice;              /* run the call a second time */
    int hc_ext;             /* M_HC through compress_hc_ext_state */
} job;

typedef struct outcome {
    int r;                  /* return value */
    int consumed;           /* destSize: input bytes taken */
    uint8_t *block;         /* copy of r bytes */
} outcome;

static int bound_of(const struct lz4_subject *s, size_t n)
{
    if (s->compress_bound)
        return s->compress_bound((int)n);
    return (int)ref_compress_bound(n);
}

/* One call; the block (if any) copied to scratch slot `slot`. */
static outcome run(const job *j, int slot)
{
    outcome o;
    fz_out out;
    uint8_t *dst = fz_out_open(&out, j->cap, 0, 0);     /* ends exactly at the capacity */
    int cap = (int)j->cap, n = (int)j->n;
    const char *src = (const char *)j->data;
    o.consumed = n;
    switch (j->mode) {
    case M_FAST:
        o.r = j->s->compress_fast(src, (char *)dst, n, cap, j->param);
        break;
    case M_DEST_SIZE:
        o.r = j->s->compress_dest_size(src, (char *)dst, &o.consumed, cap);
        break;
    case M_HC:
        o.r = (j->hc_ext ? j->s->compress_hc_ext_state : j->s->compress_hc)(
            src, (char *)dst, n, cap, j->param);
        break;
    case M_DICT:
        o.r = j->s->compress_using_dict((const char *)j->dict, (int)j->dict_len, src,
                                        (char *)dst, n, cap, j->param);
        break;
    default:
        o.r = j->s->compress_default(src, (char *)dst, n, cap);
        break;
    }
    if (!fz_out_close(&out))
        fz_finding("wrote_before_dst", mode_names[j->mode], "%s wrote before the destination "
                   "buffer (input %zu bytes, capacity %zu)", j->s->name, j->n, j->cap);
    o.block = NULL;
    if (o.r > 0 && o.r <= cap) {
        fz_consume(dst, (size_t)o.r);
        o.block = fz_scratch(slot, (size_t)o.r);
        memcpy(o.block, dst, (size_t)o.r);
    }
    return o;
}

static void check(const job *j)
{
    const char *name = mode_names[j->mode];
    outcome a = run(j, 9), b;
    int bound = bound_of(j->s, j->n);
    size_t expect_len;

    if (a.r < 0)
        fz_finding("negative_return", name, "%s returned %d (input %zu bytes, capacity %zu, "
                   "parameter %d); failure is 0", j->s->name, a.r, j->n, j->cap, j->param);
    if (a.r > (int)j->cap)
        fz_finding("return_above_capacity", name, "%s returned %d, more than the capacity "
                   "%zu (input %zu bytes)", j->s->name, a.r, j->cap, j->n);
    if (j->mode == M_DEST_SIZE && (a.consumed < 0 || (size_t)a.consumed > j->n))
        fz_finding("bad_consumed", name, "%s consumed %d of %zu input bytes (target %zu)",
                   j->s->name, a.consumed, j->n, j->cap);
    if (a.r == 0 && j->n > 0 && bound > 0 && j->cap >= (size_t)bound &&
        j->mode != M_DEST_SIZE)
        fz_finding("fails_within_bound", name, "%s returned 0 with a capacity of %zu >= "
                   "compress_bound(%zu) = %d (parameter %d)", j->s->name, j->cap, j->n,
                   bound, j->param);
    if (j->mode == M_DEST_SIZE && a.r > 0 && bound > 0 && j->cap >= (size_t)bound &&
        (size_t)a.consumed != j->n)
        fz_finding("dest_size_short", name, "%s consumed %d of %zu bytes with a target of "
                   "%zu >= compress_bound = %d", j->s->name, a.consumed, j->n, j->cap, bound);

    if (a.block) {
        fz_ref st, co;
        expect_len = j->mode == M_DEST_SIZE ? (size_t)a.consumed : j->n;
        /* Decoded with exactly the expected capacity. */
        st = fz_ref_decode(0, a.block, (size_t)a.r, expect_len, j->dict, j->dict_len,
                           REF_PROFILE_STRICT, 0, 0, 0);
        if (st.r.status != REF_OK) {
            co = fz_ref_decode(1, a.block, (size_t)a.r, expect_len, j->dict, j->dict_len,
                               REF_PROFILE_COMPATIBLE, 0, 0, 0);
            if (co.r.status == REF_OK && co.r.written == expect_len &&
                memcmp(co.out, j->data, expect_len) == 0)
                fz_finding("nonconformant_block", name, "%s: the %d-byte block decodes to "
                           "the input only under the compatible profile; strict rejects it "
                           "with %s (check %s): a compressor must obey every rule (input "
                           "%zu bytes, capacity %zu, parameter %d)", j->s->name, a.r,
                           ref_status_name(st.r.status), fz_check_name(st.r.failed_check),
                           j->n, j->cap, j->param);
            else
                fz_finding("roundtrip", name, "%s: the %d-byte block does not decode: ref "
                           "says %s (check %s) at input byte %zu after %zu output bytes "
                           "(input %zu bytes, capacity %zu, parameter %d)", j->s->name, a.r,
                           ref_status_name(st.r.status), fz_check_name(st.r.failed_check),
                           st.r.consumed, st.r.written, j->n, j->cap, j->param);
        } else if (st.r.written != expect_len ||
                   (expect_len && memcmp(st.out, j->data, expect_len) != 0)) {
            fz_finding("roundtrip", name, "%s: the %d-byte block decodes to %zu bytes that "
                       "are not the %zu input bytes (capacity %zu, parameter %d)", j->s->name,
                       a.r, st.r.written, expect_len, j->cap, j->param);
        }
    }

    if (!j->twice)
        return;
    b = run(j, 10);
    if (a.r != b.r || a.consumed != b.consumed ||
        (a.block && b.block && memcmp(a.block, b.block, (size_t)a.r) != 0))
        fz_finding("nondeterministic", name, "%s: two identical calls returned %d and %d "
                   "(consumed %d and %d)%s (input %zu bytes, capacity %zu)", j->s->name, a.r,
                   b.r, a.consumed, b.consumed, a.r == b.r ? " with different bytes" : "",
                   j->n, j->cap);
}

/* Modes the subject has and LZ4GATE_FUZZ_SKIP does not exclude. */
static int has_mode(const struct lz4_subject *s, int mode)
{
    switch (mode) {
    case M_FAST: return s->compress_fast != NULL && !fz_skip("compress_fast");
    case M_DEST_SIZE: return s->compress_dest_size != NULL && !fz_skip("compress_dest_size");
    case M_HC: return s->compress_hc != NULL && !fz_skip("compress_hc");
    case M_DICT: return s->compress_using_dict != NULL && !fz_skip("compress_using_dict");
    default: return s->compress_default != NULL;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* mode draw (v % 16) -> mode: HC once in 16 (see the header above) */
    static const uint8_t mode_of[16] = {
        M_DEFAULT, M_FAST, M_LIMITED, M_DEST_SIZE, M_HC, M_DICT, M_DEFAULT, M_FAST, M_LIMITED,
        M_DEST_SIZE, M_DICT, M_DEFAULT, M_FAST, M_LIMITED, M_DEST_SIZE, M_DICT
    };
    fuzz_params fp;
    job j;
    uint8_t kind, size_sel, psel, *buf;
    uint32_t size_v, dict_sel;
    int32_t pv;
    size_t cap_draw_pos, len;
    const uint8_t *desc;
    size_t desc_len;
    int long_class, hc_big;

    fz_input(data, size);
    memset(&j, 0, sizeof j);
    j.s = lz4gate_subject();
    fp_init_filled(&fp, data, size, HEADER);
    j.mode = mode_of[fp_u8(&fp) % 16];
    kind = fp_u8(&fp);
    size_sel = fp_u8(&fp);
    size_v = fp_u32(&fp);
    psel = fp_u8(&fp);
    pv = fp_i32(&fp);
    cap_draw_pos = fp.pos;
    fp.pos += 5;                      /* capacity: drawn once the size is known */
    dict_sel = fp_u32(&fp);
    if (!has_mode(j.s, j.mode))
        j.mode = M_DEFAULT;
    if (!j.s->compress_default)
        return 0;
    j.twice = (kind >> 2) & 1;
    long_class = (j.mode == M_LIMITED || j.mode == M_DEST_SIZE || j.mode == M_HC) &&
                 (kind & 3) == 1 && size_sel >= LONG_SEL &&
                 size_sel < FZ_SYNTH_SEL_LARGE;

    j.hc_ext = j.mode == M_HC && j.s->compress_hc_ext_state && ((psel >> 2) & 15) != 0 &&
               !long_class;
    fz_share("hc", j.mode == M_HC);     /* the bench's peer weights (speed.py) */
    if (j.mode == M_HC && long_class)
        j.param = 1 + (int)((uint32_t)pv % LONG_HC_LEVEL_MAX);
    else if (j.mode == M_HC)
        j.param = (psel & 3) ? (int)((uint32_t)pv & 0xFF) % 20 - 3 : pv;
    else if (!(psel & 3) && ((psel >> 2) & 7) == ACCEL_WRAP_CLASS)
        j.param = (int)(((uint32_t)pv % 31 + 1) << 26);    /* KLZ4-ACCEL-WRAP */
    else
        j.param = (psel & 3) || ((psel >> 2) & 7) ? (int)(int8_t)(uint8_t)pv : pv;

    /* The data (and dictionary). */
    desc = fp.payload;
    desc_len = fp.payload_len;
    if (j.mode == M_DICT) {
        size_t k = dict_sel % (desc_len + 1);
        j.dict = fz_src(1, desc, k);
        j.dict_len = k;
        desc += k;
        desc_len -= k;
    }
    if (long_class) {
        len = LONG_MIN + size_v % (LONG_MAX - LONG_MIN + 1);
    } else {
        len = fz_synth_size(size_sel, size_v, 4096, MAX_DATA);
        if (j.mode == M_HC && len > HC_LARGE && ((kind >> 3) & 15) != 15)
            len %= HC_LARGE + 1;
    }
    /* HC above HC_LARGE: runs only (the long class, above) */
    hc_big = j.mode == M_HC && len > HC_LARGE;
    if (hc_big && (kind & 3) == 2)
        len %= HC_LARGE + 1;
    switch (kind & 3) {
    case 1:
        buf = fz_scratch(11, len + 1);
        fz_synth_kinds(buf, len, desc, desc_len, (uint64_t)(uint32_t)pv << 32 | size_v,
                       hc_big ? FZ_SYNTH_RUNS : FZ_SYNTH_ALL_KINDS);
        break;
    case 2:
        buf = fz_scratch(11, len + 1);
        fz_fill_prng_cached(buf, len, (uint64_t)pv, 4);
        break;
    default:
        buf = (uint8_t *)desc;
        len = desc_len;
        break;
    }
    j.n = len;
    j.data = fz_src(0, buf, len);

    /* The capacity. */
    {
        int bound = bound_of(j.s, j.n);
        size_t ub = bound > 0 ? (size_t)bound : ref_compress_bound(j.n) + 16;
        j.cap = ub;
        if (long_class) {
            /* A few bytes short of what the same call needs (header). */
            job probe = j;
            size_t keep = fp.pos, c;
            uint8_t sel;
            uint32_t v;
            int r;
            probe.cap = ub;
            r = run(&probe, 9).r;
            c = r > 0 ? (size_t)r : 0;
            fp.pos = cap_draw_pos;
            sel = fp_u8(&fp);
            v = fp_u32(&fp);
            fp.pos = cap_draw_pos;
            j.cap = (sel & 3) && c > 32 ? c - 1 - v % 32 : fp_size_near(&fp, c ? c : ub, ub + 64);
            fp.pos = keep;
        } else if (j.mode == M_LIMITED || j.mode == M_DEST_SIZE || j.mode == M_HC) {
            /* Around the size the subject's own default compressor reaches. */
            fz_out tmp;
            uint8_t *t = fz_out_open(&tmp, ub, 0, 0);
            int c = j.s->compress_default((const char *)j.data, (char *)t, (int)j.n, (int)ub);
            size_t keep = fp.pos;
            fz_out_close(&tmp);
            fp.pos = cap_draw_pos;
            j.cap = fp_size_near(&fp, c > 0 ? (size_t)c : ub, ub + 64);
            fp.pos = keep;
        }
    }
    check(&j);
    return 0;
}
