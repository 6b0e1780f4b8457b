/*
 * API contract tests: every entry point a subject has, against the contract
 * of its API generation (history.md §7), with guard pages right after the
 * input and output buffers (harness/guard.h) as well as the sanitizers.
 *
 * Each check runs in a child process (harness/isolate.h) and prints one
 * JSON record per line:
 *   {"subject":..,"generation":..,"check":..,"verdict":..,"evidence":..,"ubsan":..}
 * harness/contracts.py builds the subject, runs this program and classifies
 * the records (known findings, report).
 *
 * Usage: contracts [--list] [--no-fork] [--only PREFIX]
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contracts.h"
#include "guard.h"
#include "isolate.h"
#include "jsonl.h"
#include "lz4ref.h"
#include "subject.h"
#include "testdata.h"

static const struct lz4_subject *S;

/* ---- test data ---------------------------------------------------------- */

enum data_kind { DATA_RANDOM, DATA_ZEROS, DATA_TEXT, DATA_MIXED };
static const char *const data_names[] = { "random", "zeros", "text", "mixed" };

static unsigned char *make_data(enum data_kind kind, size_t n, uint32_t seed)
{
    return testdata_make(data_names[kind], n, seed);
}

/* Decode with ref (strict) and compare with want[0..n). */
static int ref_decodes_to(const unsigned char *block, size_t blen, const unsigned char *want,
                          size_t n, char *msg, unsigned cap)
{
    unsigned char *out = malloc(n ? n : 1);
    ref_decode_result r = ref_decode_block(block, blen, out, n);
    int bad = r.status != REF_OK || r.written != n || (n && memcmp(out, want, n) != 0);
    if (bad)
        snprintf(msg, cap, "block of %zu bytes does not decode (ref strict) to the %zu input "
                 "bytes: %s, %zu written", blen, n, ref_status_name(r.status), r.written);
    free(out);
    return bad;
}

/* A valid block of n bytes of kind (made by ref), for decoder checks. */
static unsigned char *ref_block(const unsigned char *data, size_t n, size_t *blen)
{
    size_t cap = ref_compress_bound(n);
    unsigned char *b = malloc(cap);
    *blen = ref_compress(data, n, b, cap, 1);
    return b;
}

/* ---- check arguments ------------------------------------------------------ */

enum compressor { C_DEFAULT, C_FAST, C_HC, C_DICT };


static int call_compress(const check *c, const char *src, char *dst, int n, int cap)
{
    static const char dict[] = "upstream block kernel copy vendored fix lz4 the ";
    switch ((enum compressor)c->a) {
    case C_DEFAULT: return S->compress_default(src, dst, n, cap);
    case C_FAST: return S->compress_fast(src, dst, n, cap, c->b);
    case C_HC: return S->compress_hc(src, dst, n, cap, c->b);
    case C_DICT: return S->compress_using_dict(dict, (int)sizeof dict - 1, src, dst, n, cap, 1);
    }
    return 0;
}

static int decodes_in_dict_mode(const check *c, const unsigned char *block, size_t blen,
                                const unsigned char *want, size_t n, char *msg, unsigned cap)
{
    static const char dict[] = "upstream block kernel copy vendored fix lz4 the ";
    ref_decode_params p;
    ref_decode_result r;
    unsigned char *out;
    int bad;
    if (c->a != C_DICT)
        return ref_decodes_to(block, blen, want, n, msg, cap);
    out = malloc(n ? n : 1);
    memset(&p, 0, sizeof p);
    p.src = block; p.src_len = blen; p.dst = out; p.dst_cap = n;
    p.dict = (const uint8_t *)dict; p.dict_len = sizeof dict - 1;
    r = ref_decode(&p);
    bad = r.status != REF_OK || r.written != n || (n && memcmp(out, want, n) != 0);
    if (bad)
        snprintf(msg, cap, "dictionary block does not decode to the input: %s",
                 ref_status_name(r.status));
    free(out);
    return bad;
}

/* ---- compressor contracts --------------------------------------------- */

/* Compress into exactly the bound: succeeds, output <= bound, round trips. */
static int chk_compress_into_bound(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    static const size_t sizes[] = { 0, 1, 12, 13, 100, 4096, 65536, 300000 };
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int k;
        for (k = 0; k < 4; k++) {
            size_t n = sizes[i];
            unsigned char *data = make_data((enum data_kind)k, n, (uint32_t)(i * 7 + k));
            size_t bound = n + n / 255 + 16;
            guard_buf out = guard_alloc(bound, 0xA5);
            int r = call_compress(c, (const char *)data, (char *)out.data, (int)n, (int)bound);
            int bad = 0;
            if (r <= 0 || (size_t)r > bound) {
                snprintf(msg, cap, "%zu %s bytes into the bound (%zu): returned %d", n,
                         data_names[k], bound, r);
                bad = 1;
            } else {
                bad = decodes_in_dict_mode(c, out.data, (size_t)r, data, n, msg, cap);
            }
            guard_free(&out);
            free(data);
            if (bad)
                return 1;
        }
    }
    return 0;
}

/* Tiny and just-too-small capacities: 0 or a valid block, never a write
 * past the capacity (the guard page faults, or ASan reports). */
static int chk_compress_small_capacity(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    static const size_t sizes[] = { 1, 20, 1000, 70000 };
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int k;
        for (k = 0; k < 4; k++) {
            size_t n = sizes[i], bound = n + n / 255 + 16, full_len;
            unsigned char *data = make_data((enum data_kind)k, n, (uint32_t)(i * 5 + k));
            guard_buf full = guard_alloc(bound, 0);
            int r = call_compress(c, (const char *)data, (char *)full.data, (int)n, (int)bound);
            size_t caps[24];
            size_t ncaps = 0, j;
            full_len = r > 0 ? (size_t)r : 0;
            for (j = 0; j <= 16; j++)
                caps[ncaps++] = j;
            caps[ncaps++] = bound - 1;
            if (full_len >= 1) caps[ncaps++] = full_len - 1;
            if (full_len >= 2) caps[ncaps++] = full_len - 2;
            if (full_len >= 4) caps[ncaps++] = full_len - 4;
            caps[ncaps++] = full_len;
            guard_free(&full);
            for (j = 0; j < ncaps; j++) {
                guard_buf out = guard_alloc(caps[j], 0xA5);
                int got = call_compress(c, (const char *)data, (char *)out.data, (int)n,
                                        (int)caps[j]);
                int bad = 0;
                if (got < 0 || (size_t)got > caps[j]) {
                    snprintf(msg, cap, "%zu %s bytes into capacity %zu: returned %d", n,
                             data_names[k], caps[j], got);
                    bad = 1;
                } else if (got > 0) {
                    bad = decodes_in_dict_mode(c, out.data, (size_t)got, data, n, msg, cap);
                }
                guard_free(&out);
                if (bad) {
                    free(data);
                    return 1;
                }
            }
            free(data);
        }
    }
    return 0;
}

/* Negative input size: 0 (the size is rejected), nothing written. */
static int chk_compress_negative_size(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    guard_buf out = guard_alloc(64, 0xA5);
    int r = call_compress(c, "abcdefgh", (char *)out.data, -1, 64);
    int bad = r != 0;
    if (bad)
        snprintf(msg, cap, "input size -1 returned %d, want 0", r);
    guard_free(&out);
    return bad;
}

/* destSize: output <= target, consumed <= input, block decodes to exactly
 * the consumed prefix; target >= bound consumes everything. */
static int chk_dest_size(const void *arg, char *msg, unsigned cap)
{
    static const size_t sizes[] = { 1, 100, 5000, 70000 };
    size_t i;
    (void)arg;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int k;
        for (k = 0; k < 4; k++) {
            size_t n = sizes[i], bound = n + n / 255 + 16, t;
            unsigned char *data = make_data((enum data_kind)k, n, (uint32_t)(i * 3 + k));
            size_t targets[] = { 1, 2, 5, 13, 16, 100, n / 3, n / 2, n, bound };
            for (t = 0; t < sizeof targets / sizeof targets[0]; t++) {
                guard_buf out = guard_alloc(targets[t], 0xA5);
                int consumed = (int)n;
                int r = S->compress_dest_size((const char *)data, (char *)out.data, &consumed,
                                              (int)targets[t]);
                int bad = 0;
                if (r < 0 || (size_t)r > targets[t] || consumed < 0 || (size_t)consumed > n) {
                    snprintf(msg, cap, "%zu %s bytes, target %zu: returned %d, consumed %d", n,
                             data_names[k], targets[t], r, consumed);
                    bad = 1;
                } else if (r > 0) {
                    bad = ref_decodes_to(out.data, (size_t)r, data, (size_t)consumed, msg, cap);
                } else if (targets[t] >= bound) {
                    snprintf(msg, cap, "target >= bound but returned 0");
                    bad = 1;
                }
                if (!bad && targets[t] >= bound && (size_t)consumed != n) {
                    snprintf(msg, cap, "target >= bound but consumed only %d of %zu",
                             consumed, n);
                    bad = 1;
                }
                guard_free(&out);
                if (bad) {
                    free(data);
                    return 1;
                }
            }
            free(data);
        }
    }
    return 0;
}

/* Same input, same call, same bytes (determinism). */
static int chk_compress_deterministic(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    size_t n = 50000, bound = n + n / 255 + 16;
    unsigned char *data = make_data(DATA_MIXED, n, 77);
    unsigned char *x = malloc(bound), *y = malloc(bound);
    int rx = call_compress(c, (const char *)data, (char *)x, (int)n, (int)bound);
    int ry = call_compress(c, (const char *)data, (char *)y, (int)n, (int)bound);
    int bad = rx != ry || (rx > 0 && memcmp(x, y, (size_t)rx) != 0);
    if (bad)
        snprintf(msg, cap, "two identical calls gave %d and %d bytes / different bytes", rx, ry);
    free(data); free(x); free(y);
    return bad;
}

/* ---- bound ------------------------------------------------------------ */

static int chk_bound(const void *arg, char *msg, unsigned cap)
{
    static const int sizes[] = { 0, 1, 15, 16, 254, 255, 256, 65536, 1 << 20, 0x7E000000 };
    size_t i;
    (void)arg;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        long long want = (long long)sizes[i] + sizes[i] / 255 + 16;
        int got = S->compress_bound(sizes[i]);
        if (got != want) {
            snprintf(msg, cap, "bound(%d) = %d, want %lld", sizes[i], got, want);
            return 1;
        }
    }
    if (S->compress_bound(0x7E000001) != 0 || S->compress_bound(-1) != 0) {
        snprintf(msg, cap, "bound above the 0x7E000000 limit: %d, bound(-1) = %d",
                 S->compress_bound(0x7E000001), S->compress_bound(-1));
        return 1;
    }
    return 0;
}

/* ---- decoder contracts ----------------------------------------------- */

typedef struct sample {
    unsigned char *data, *block;
    size_t n, blen;
} sample;

static sample make_sample(size_t n)
{
    sample s;
    s.n = n;
    s.data = make_data(DATA_MIXED, n, (uint32_t)n);
    s.block = ref_block(s.data, n, &s.blen);
    return s;
}

static void free_sample(sample *s) { free(s->data); free(s->block); }

/* Decode with guard pages after input and output; returns the result. */
static int safe_guarded(const unsigned char *src, size_t srclen, int srcsize_arg,
                        size_t out_size, int cap_arg, unsigned char *copy_out)
{
    guard_buf in = guard_dup(src, srclen), out = guard_alloc(out_size, 0xA5);
    int r = S->decompress_safe((const char *)in.data, (char *)out.data, srcsize_arg, cap_arg);
    if (copy_out)
        memcpy(copy_out, out.data, out_size);
    guard_free(&in);
    guard_free(&out);
    return r;
}

static int chk_safe_exact(const void *arg, char *msg, unsigned cap)
{
    static const size_t sizes[] = { 1, 13, 100, 65536, 200000 };
    size_t i;
    (void)arg;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        sample s = make_sample(sizes[i]);
        unsigned char *out = malloc(s.n);
        int r = safe_guarded(s.block, s.blen, (int)s.blen, s.n, (int)s.n, out);
        int bad = r != (int)s.n || memcmp(out, s.data, s.n) != 0;
        if (bad)
            snprintf(msg, cap, "valid %zu-byte block, exact capacity: returned %d", s.n, r);
        free(out);
        free_sample(&s);
        if (bad)
            return 1;
    }
    return 0;
}

/* c->a selects the variant. */
enum safe_variant { SV_CAP_SHORT, SV_CAP_ZERO, SV_CAP_NEGATIVE, SV_SRC_ZERO, SV_SRC_SHORT,
                    SV_SRC_LONG, SV_EMPTY_BLOCK, SV_TOKEN_F0, SV_CAP_LARGER };

static int chk_safe_variant(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    sample s = make_sample(5000);
    unsigned char *buf;
    int r = 0, bad = 0;
    switch ((enum safe_variant)c->a) {
    case SV_CAP_SHORT:
        r = safe_guarded(s.block, s.blen, (int)s.blen, s.n - 1, (int)s.n - 1, NULL);
        bad = r >= 0;
        break;
    case SV_CAP_ZERO:
        r = safe_guarded(s.block, s.blen, (int)s.blen, 0, 0, NULL);
        bad = r >= 0;
        break;
    case SV_CAP_NEGATIVE: {
        /* A 64-byte buffer passed with capacity -1: error, nothing written. */
        unsigned char out[64];
        guard_buf in = guard_dup(s.block, s.blen), o = guard_alloc(64, 0xA5);
        r = S->decompress_safe((const char *)in.data, (char *)o.data, (int)s.blen, -1);
        memset(out, 0xA5, 64);
        bad = r >= 0 || memcmp(o.data, out, 64) != 0;
        guard_free(&in);
        guard_free(&o);
        break;
    }
    case SV_SRC_ZERO:
        r = safe_guarded(s.block, 0, 0, s.n, (int)s.n, NULL);
        bad = r >= 0;
        break;
    case SV_SRC_SHORT:
        r = safe_guarded(s.block, s.blen - 1, (int)s.blen - 1, s.n, (int)s.n, NULL);
        bad = r >= 0 && r == (int)s.n;
        break;
    case SV_SRC_LONG:
        buf = malloc(s.blen + 1);
        memcpy(buf, s.block, s.blen);
        buf[s.blen] = 0;
        r = safe_guarded(buf, s.blen + 1, (int)s.blen + 1, s.n + 64, (int)s.n + 64, NULL);
        bad = r >= 0;
        free(buf);
        break;
    case SV_EMPTY_BLOCK: {
        static const unsigned char z = 0;
        r = safe_guarded(&z, 1, 1, 0, 0, NULL);
        bad = r != 0;
        break;
    }
    case SV_TOKEN_F0: {
        static const unsigned char f0 = 0xF0;
        r = safe_guarded(&f0, 1, 1, 1000, 1000, NULL);
        bad = r >= 0;
        break;
    }
    case SV_CAP_LARGER:
        r = safe_guarded(s.block, s.blen, (int)s.blen, s.n + 1000, (int)s.n + 1000, NULL);
        bad = r != (int)s.n;
        break;
    }
    if (bad)
        snprintf(msg, cap, "returned %d", r);
    free_sample(&s);
    return bad;
}

/* Every capacity below the decoded size: an error, and no write past the
 * capacity wherever it cuts (inside literals or inside a match). */
static int chk_safe_capacity_sweep(const void *arg, char *msg, unsigned cap)
{
    sample s = make_sample(700);
    size_t c;
    (void)arg;
    for (c = 0; c < s.n; c++) {
        int r = safe_guarded(s.block, s.blen, (int)s.blen, c, (int)c, NULL);
        if (r >= 0) {
            snprintf(msg, cap, "capacity %zu of %zu returned %d", c, s.n, r);
            free_sample(&s);
            return 1;
        }
    }
    free_sample(&s);
    return 0;
}

/* Offset 0: reject, or accept with output that does not depend on what the
 * buffer held before (the information leak the spec warns about). */
static int chk_safe_offset_zero(const void *arg, char *msg, unsigned cap)
{
    static const unsigned char block[] = { 0x80, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 0, 0,
                                           0xC0, 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q',
                                           'r', 's', 't' };
    unsigned char x[100], y[100];
    guard_buf in = guard_dup(block, sizeof block);
    guard_buf ox = guard_alloc(100, 0x00), oy = guard_alloc(100, 0xFF);
    int rx = S->decompress_safe((const char *)in.data, (char *)ox.data, sizeof block, 100);
    int ry = S->decompress_safe((const char *)in.data, (char *)oy.data, sizeof block, 100);
    int bad;
    (void)arg;
    memcpy(x, ox.data, 100);
    memcpy(y, oy.data, 100);
    bad = rx != ry || (rx > 0 && memcmp(x, y, (size_t)rx) != 0);
    if (bad)
        snprintf(msg, cap, "offset 0: output depends on the buffer's previous content "
                 "(%d vs %d bytes)", rx, ry);
    guard_free(&in); guard_free(&ox); guard_free(&oy);
    return bad;
}

/* ---- partial decoding ----------------------------------------------- */

static int partial_guarded(const sample *s, int target, size_t out_size, int cap_arg,
                           unsigned char *copy)
{
    guard_buf in = guard_dup(s->block, s->blen), out = guard_alloc(out_size, 0xA5);
    int r = S->decompress_safe_partial((const char *)in.data, (char *)out.data, (int)s->blen,
                                       target, cap_arg);
    if (copy)
        memcpy(copy, out.data, out_size);
    guard_free(&in);
    guard_free(&out);
    return r;
}

/* Targets 1, N/2, N, N+64 (KLZ4-2022-49078: input ends at the guard page),
 * beyond: exactly min(target, N) bytes, equal to the prefix. */
static int chk_partial_targets(const void *arg, char *msg, unsigned cap)
{
    sample s = make_sample(3000);
    int targets[] = { 1, 17, 1500, 2999, 3000, 3064, 100000 };
    size_t i;
    (void)arg;
    for (i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        int t = targets[i];
        size_t room = (size_t)(t > 3000 ? t : 3000) ;
        unsigned char *out = malloc(room);
        int want = t < 3000 ? t : 3000;
        int r = partial_guarded(&s, t, room, (int)room, out);
        int bad = r != want || memcmp(out, s.data, (size_t)want) != 0;
        if (bad)
            snprintf(msg, cap, "target %d, capacity %zu: returned %d, want %d", t, room, r, want);
        free(out);
        if (bad) {
            free_sample(&s);
            return 1;
        }
    }
    free_sample(&s);
    return 0;
}

/* Target 0: the generation's convention (history.md §7.3.1). */
static int chk_partial_target_zero(const void *arg, char *msg, unsigned cap)
{
    sample s = make_sample(3000);
    int r = partial_guarded(&s, 0, 3000, 3000, NULL);
    int bad;
    (void)arg;
    switch (S->generation) {
    case GEN_KERNEL:   /* like an empty output buffer: error for a non-empty block */
        bad = r >= 0;
        break;
    case GEN_UPSTREAM: /* >= 1.9.2 returns 0; older releases error: either convention */
        bad = r > 0;
        break;
    default:           /* the reference follows upstream >= 1.9.2 */
        bad = r != 0;
        break;
    }
    if (bad)
        snprintf(msg, cap, "target 0 returned %d (%s convention)", r,
                 subject_generation_name(S->generation));
    free_sample(&s);
    return bad;
}

/* Negative target or capacity: error, nothing written (CVE-2021-3520,
 * KLZ4-GAP-3520). */
static int chk_partial_negative(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    sample s = make_sample(1000);
    unsigned char before[64];
    guard_buf in = guard_dup(s.block, s.blen), out = guard_alloc(64, 0xA5);
    int target = c->a ? -1 : 1000, capacity = c->a ? 1000 : -1;
    int r = S->decompress_safe_partial((const char *)in.data, (char *)out.data, (int)s.blen,
                                       target, capacity);
    int bad;
    memset(before, 0xA5, 64);
    bad = r >= 0 || memcmp(out.data, before, 64) != 0;
    if (bad)
        snprintf(msg, cap, "target %d, capacity %d: returned %d", target, capacity, r);
    guard_free(&in); guard_free(&out);
    free_sample(&s);
    return bad;
}

/* ---- fast (known output size) ---------------------------------------- */

static int chk_fast_exact(const void *arg, char *msg, unsigned cap)
{
    sample s = make_sample(20000);
    guard_buf in = guard_dup(s.block, s.blen), out = guard_alloc(s.n, 0xA5);
    int r = S->decompress_fast((const char *)in.data, (char *)out.data, (int)s.n);
    int bad = r != (int)s.blen || memcmp(out.data, s.data, s.n) != 0;
    (void)arg;
    if (bad)
        snprintf(msg, cap, "returned %d, want the %zu input bytes read", r, s.blen);
    guard_free(&in); guard_free(&out);
    free_sample(&s);
    return bad;
}

/* Short literal runs at the very end of the input: the fast decoder must not
 * read past the block (it does not know the input size). */
static int chk_fast_short_tail(const void *arg, char *msg, unsigned cap)
{
    /* 'a', match offset 1 length 18, then "vwxyz": 24 bytes from 10. */
    static const unsigned char block[] = { 0x1E, 'a', 1, 0, 0x50, 'v', 'w', 'x', 'y', 'z' };
    guard_buf in = guard_dup(block, sizeof block), out = guard_alloc(24, 0xA5);
    int r = S->decompress_fast((const char *)in.data, (char *)out.data, 24);
    (void)arg;
    guard_free(&in); guard_free(&out);
    if (r != (int)sizeof block) {
        snprintf(msg, cap, "returned %d, want %zu", r, sizeof block);
        return 1;
    }
    return 0;
}

static int chk_fast_empty(const void *arg, char *msg, unsigned cap)
{
    static const unsigned char z = 0;
    guard_buf in = guard_dup(&z, 1), out = guard_alloc(0, 0);
    int r = S->decompress_fast((const char *)in.data, (char *)out.data, 0);
    (void)arg;
    guard_free(&in); guard_free(&out);
    if (r != 1) {
        snprintf(msg, cap, "block 00, original size 0: returned %d, want 1", r);
        return 1;
    }
    return 0;
}

/* ---- dictionary decode ------------------------------------------------ */

static int chk_using_dict(const void *arg, char *msg, unsigned cap)
{
    /* Block: 0 literals, match of 20 at offset 10 (inside the dictionary),
     * then 8 literals. */
    static const unsigned char block[] = { 0x0F, 10, 0, 1, 0x80, 'l', 'i', 't', 'e', 'r',
                                           'a', 'l', 's' };
    static const char want[] = "KLMNOPQRSTKLMNOPQRSTliterals";
    char d2[30];
    guard_buf in = guard_dup(block, sizeof block), out = guard_alloc(28, 0xA5);
    int r;
    (void)arg;
    memcpy(d2, "0123456789KLMNOPQRST", 20);
    r = S->decompress_safe_using_dict((const char *)in.data, (char *)out.data, sizeof block, 28,
                                      d2, 20);
    if (r != 28 || memcmp(out.data, want, 28) != 0) {
        snprintf(msg, cap, "returned %d", r);
        guard_free(&in); guard_free(&out);
        return 1;
    }
    guard_free(&in); guard_free(&out);
    return 0;
}

/* ---- the table -------------------------------------------------------- */

#define MAX_CHECKS 160
static check checks[MAX_CHECKS];
static int nchecks;

static void add(const char *id, unsigned caps, check_fn fn, int a, int b)
{
    check *c = &checks[nchecks++];
    snprintf(c->id, sizeof c->id, "%s", id);
    c->caps = caps; c->fn = fn; c->a = a; c->b = b;
}

static void add_compressor(const char *name, unsigned caps, int which, int param)
{
    char id[96];
    snprintf(id, sizeof id, "%s.into_bound", name);
    add(id, caps, chk_compress_into_bound, which, param);
    snprintf(id, sizeof id, "%s.small_capacity", name);
    add(id, caps, chk_compress_small_capacity, which, param);
    snprintf(id, sizeof id, "%s.negative_size", name);
    add(id, caps, chk_compress_negative_size, which, param);
    snprintf(id, sizeof id, "%s.deterministic", name);
    add(id, caps, chk_compress_deterministic, which, param);
}

static void build_table(void)
{
    static const int accels[] = { -5, 0, 1, 2, 65537 };
    static const int levels[] = { -1, 0, 1, 3, 9, 12, 16, 17, 100 };
    char name[64];
    size_t i;
    add("compress_bound.formula_and_limit", CAP_COMPRESS_BOUND, chk_bound, 0, 0);
    add_compressor("compress_default", CAP_COMPRESS_DEFAULT, C_DEFAULT, 0);
    for (i = 0; i < sizeof accels / sizeof accels[0]; i++) {
        snprintf(name, sizeof name, "compress_fast[accel=%d]", accels[i]);
        add_compressor(name, CAP_COMPRESS_FAST, C_FAST, accels[i]);
    }
    for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        snprintf(name, sizeof name, "compress_hc[level=%d]", levels[i]);
        add_compressor(name, CAP_COMPRESS_HC, C_HC, levels[i]);
    }
    add_compressor("compress_using_dict", CAP_COMPRESS_USING_DICT, C_DICT, 0);
    add("compress_dest_size.invariants", CAP_COMPRESS_DEST_SIZE, chk_dest_size, 0, 0);
    add("decompress_safe.exact_capacity", CAP_DECOMPRESS_SAFE, chk_safe_exact, 0, 0);
    add("decompress_safe.capacity_one_short", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_CAP_SHORT, 0);
    add("decompress_safe.capacity_sweep", CAP_DECOMPRESS_SAFE, chk_safe_capacity_sweep, 0, 0);
    add("decompress_safe.capacity_zero", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_CAP_ZERO, 0);
    add("decompress_safe.capacity_negative", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_CAP_NEGATIVE, 0);
    add("decompress_safe.capacity_larger", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_CAP_LARGER, 0);
    add("decompress_safe.compressed_size_zero", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_SRC_ZERO, 0);
    add("decompress_safe.compressed_size_one_short", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_SRC_SHORT, 0);
    add("decompress_safe.compressed_size_one_long", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_SRC_LONG, 0);
    add("decompress_safe.empty_block_capacity_zero", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_EMPTY_BLOCK, 0);
    add("decompress_safe.lone_token_F0", CAP_DECOMPRESS_SAFE, chk_safe_variant, SV_TOKEN_F0, 0);
    add("decompress_safe.offset_zero_no_leak", CAP_DECOMPRESS_SAFE, chk_safe_offset_zero, 0, 0);
    add("decompress_safe_partial.targets", CAP_DECOMPRESS_PARTIAL, chk_partial_targets, 0, 0);
    add("decompress_safe_partial.target_zero", CAP_DECOMPRESS_PARTIAL, chk_partial_target_zero, 0, 0);
    add("decompress_safe_partial.negative_target", CAP_DECOMPRESS_PARTIAL, chk_partial_negative, 1, 0);
    add("decompress_safe_partial.negative_capacity", CAP_DECOMPRESS_PARTIAL, chk_partial_negative, 0, 0);
    add("decompress_fast.returns_input_read", CAP_DECOMPRESS_FAST, chk_fast_exact, 0, 0);
    add("decompress_fast.empty_block", CAP_DECOMPRESS_FAST, chk_fast_empty, 0, 0);
    add("decompress_fast.short_tail_at_input_end", CAP_DECOMPRESS_FAST, chk_fast_short_tail, 0, 0);
    add("decompress_safe_using_dict.match_into_dictionary", CAP_DECOMPRESS_USING_DICT, chk_using_dict, 0, 0);
    contracts_add_old_api(S, add);
    contracts_add_frame(S, add);
}

/* ---- main ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
    int i, list = 0, no_fork = 0;
    const char *only = NULL;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--no-fork"))
            no_fork = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--list] [--no-fork] [--only PREFIX]\n", argv[0]);
            return 2;
        }
    }
    S = lz4gate_subject();
    build_table();
    for (i = 0; i < nchecks; i++) {
        const check *c = &checks[i];
        isolate_result r;
        if (only && strncmp(c->id, only, strlen(only)) != 0)
            continue;
        if (list) {
            printf("%s\n", c->id);
            continue;
        }
        if ((S->caps & c->caps) != c->caps) {
            r.verdict = V_NOT_APPLICABLE;
            snprintf(r.evidence, sizeof r.evidence, "no %s entry point", subject_cap_name(c->caps));
            r.ubsan[0] = 0;
        } else {
            r = isolate_run(c->fn, c, 120, no_fork);
        }
        print_record(S, c->id, &r);
    }
    return 0;
}
