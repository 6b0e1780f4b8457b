/*
 * Contract checks of compress_bound and the block compressors
 * (compress_default, compress_fast, compress_hc, compress_using_dict,
 * compress_dest_size): output within the capacity (guard pages after every
 * buffer, as well as the sanitizers), and blocks that ref decodes to the
 * input (docs/fix-history.md#kernel-lz4-generations).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "guard.h"

static const struct lz4_subject *subject;

/* check.variant of the compressor checks: which entry point. */
enum compressor { C_DEFAULT, C_FAST, C_HC, C_DICT };

/* compress_using_dict's dictionary. */
static const char dict[] = "upstream block kernel copy vendored fix lz4 the ";

static int call_compress(const check *c, const char *src, char *dst, int n, int cap)
{
    switch ((enum compressor)c->variant) {
    case C_DEFAULT: return subject->compress_default(src, dst, n, cap);
    case C_FAST: return subject->compress_fast(src, dst, n, cap, c->accel_or_level);
    case C_HC: return subject->compress_hc(src, dst, n, cap, c->accel_or_level);
    case C_DICT:
        return subject->compress_using_dict(dict, (int)sizeof dict - 1, src, dst, n, cap, 1);
    }
    return 0;
}

/* CHECK_PASS when ref decodes the block the compressor made (with its
 * dictionary for compress_using_dict) to want[0..n). */
static check_result check_block(const check *c, const unsigned char *block, size_t blen,
                       const unsigned char *want, size_t n, char *msg, unsigned cap)
{
    size_t dict_len = c->variant == C_DICT ? sizeof dict - 1 : 0;
    return contract_ref_decodes_to(block, blen, want, n, dict, dict_len, msg, cap);
}

/* ---- compressor contracts --------------------------------------------- */

/* Compress into exactly the bound: succeeds, output <= bound, round trips. */
static check_result chk_compress_into_bound(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    static const size_t sizes[] = { 0, 1, 12, 13, 100, 4096, 65536, 300000 };
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int k;
        for (k = 0; k < DATA_KINDS; k++) {
            size_t n = sizes[i];
            unsigned char *data = contract_data((enum data_kind)k, n, (uint32_t)(i * 7 + k));
            size_t bound = n + n / 255 + 16;
            guard_buf out = guard_alloc(bound, 0xA5);
            int r = call_compress(c, (const char *)data, (char *)out.data, (int)n, (int)bound);
            check_result res;
            if (r <= 0 || (size_t)r > bound) {
                res = check_fail(msg, cap, r > 0 ? FAIL_RETURN_ABOVE_CAPACITY
                                                 : FAIL_FAILS_WITHIN_BOUND,
                                 "%zu %s bytes into the bound (%zu): returned %d", n,
                                 data_kind_names[k], bound, r);
            } else {
                res = check_block(c, out.data, (size_t)r, data, n, msg, cap);
            }
            guard_free(&out);
            free(data);
            if (check_failed(res))
                return res;
        }
    }
    return CHECK_PASS;
}

/* Tiny and just-too-small capacities: 0 or a valid block, never a write
 * past the capacity (the guard page faults, or ASan reports). */
static check_result chk_compress_small_capacity(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    static const size_t sizes[] = { 1, 20, 1000, 70000 };
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int k;
        for (k = 0; k < DATA_KINDS; k++) {
            size_t n = sizes[i], bound = n + n / 255 + 16, full_len;
            unsigned char *data = contract_data((enum data_kind)k, n, (uint32_t)(i * 5 + k));
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
                check_result res = CHECK_PASS;
                if (got < 0 || (size_t)got > caps[j]) {
                    /* a compressor fails with 0: a negative result is the
                     * convention broken */
                    res = check_fail(msg, cap, got < 0 ? FAIL_NEGATIVE_RETURN
                                                       : FAIL_RETURN_ABOVE_CAPACITY,
                                     "%zu %s bytes into capacity %zu: returned %d", n,
                                     data_kind_names[k], caps[j], got);
                } else if (got > 0) {
                    res = check_block(c, out.data, (size_t)got, data, n, msg, cap);
                }
                guard_free(&out);
                if (check_failed(res)) {
                    free(data);
                    return res;
                }
            }
            free(data);
        }
    }
    return CHECK_PASS;
}

/* Negative input size: 0 (the size is rejected), nothing written. */
static check_result chk_compress_negative_size(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    guard_buf out = guard_alloc(64, 0xA5);
    int r = call_compress(c, "abcdefgh", (char *)out.data, -1, 64);
    check_result res = CHECK_PASS;
    /* the size is refused with 0: a block for it, or a negative result, is
     * the convention broken (a write past the 64 bytes faults) */
    if (r != 0)
        res = check_fail(msg, cap, r < 0 ? FAIL_NEGATIVE_RETURN : FAIL_WRONG_RETURN,
                         "input size -1 returned %d, want 0", r);
    guard_free(&out);
    return res;
}

/* The destSize call of c: LZ4_compress_destSize (variant 0) or
 * LZ4_compress_HC_destSize at c's level (variant 1). */
static int call_dest_size(const check *c, const unsigned char *src, unsigned char *dst,
                          int *consumed, size_t target)
{
    if (c->variant)
        return subject->compress_hc_dest_size((const char *)src, (char *)dst, consumed,
                                              (int)target, c->accel_or_level);
    return subject->compress_dest_size((const char *)src, (char *)dst, consumed, (int)target);
}

/* destSize: output <= target, consumed <= input, block decodes to exactly
 * the consumed prefix; target >= bound consumes everything. */
static check_result chk_dest_size(const void *arg, char *msg, unsigned cap)
{
    static const size_t sizes[] = { 1, 100, 5000, 70000 };
    const check *c = arg;
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int k;
        for (k = 0; k < DATA_KINDS; k++) {
            size_t n = sizes[i], bound = n + n / 255 + 16, t;
            unsigned char *data = contract_data((enum data_kind)k, n, (uint32_t)(i * 3 + k));
            size_t targets[] = { 1, 2, 5, 13, 16, 100, n / 3, n / 2, n, bound };
            for (t = 0; t < sizeof targets / sizeof targets[0]; t++) {
                guard_buf out = guard_alloc(targets[t], 0xA5);
                int consumed = (int)n;
                int r = call_dest_size(c, data, out.data, &consumed, targets[t]);
                check_result res = CHECK_PASS;
                if (r < 0 || (size_t)r > targets[t] || consumed < 0 || (size_t)consumed > n) {
                    enum fail_class cls = r > 0 && (size_t)r > targets[t]
                                              ? FAIL_RETURN_ABOVE_CAPACITY
                                          : consumed < 0 || (size_t)consumed > n
                                              ? FAIL_BAD_CONSUMED
                                              : FAIL_NEGATIVE_RETURN;
                    res = check_fail(msg, cap, cls, "%zu %s bytes, target %zu: returned %d, "
                                     "consumed %d", n, data_kind_names[k], targets[t], r,
                                     consumed);
                } else if (r > 0) {
                    res = contract_ref_decodes_to(out.data, (size_t)r, data, (size_t)consumed,
                                                  NULL, 0, msg, cap);
                } else if (targets[t] >= bound) {
                    res = check_fail(msg, cap, FAIL_FAILS_WITHIN_BOUND,
                                     "target >= bound but returned 0");
                }
                if (!check_failed(res) && targets[t] >= bound && (size_t)consumed != n)
                    res = check_fail(msg, cap, FAIL_DEST_SIZE_SHORT,
                                     "target >= bound but consumed only %d of %zu", consumed, n);
                guard_free(&out);
                if (check_failed(res)) {
                    free(data);
                    return res;
                }
            }
            free(data);
        }
    }
    return CHECK_PASS;
}

/* Same input, same call, same bytes (determinism). */
static check_result chk_compress_deterministic(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    size_t n = 50000, bound = n + n / 255 + 16;
    unsigned char *data = contract_data(DATA_MIXED, n, 77);
    unsigned char *x = xmalloc(bound), *y = xmalloc(bound);
    int rx = call_compress(c, (const char *)data, (char *)x, (int)n, (int)bound);
    int ry = call_compress(c, (const char *)data, (char *)y, (int)n, (int)bound);
    check_result res = CHECK_PASS;
    if (rx != ry || (rx > 0 && memcmp(x, y, (size_t)rx) != 0))
        res = check_fail(msg, cap, FAIL_NONDETERMINISTIC,
                         "two identical calls gave %d and %d bytes / different bytes", rx, ry);
    free(data); free(x); free(y);
    return res;
}

/* ---- bound ------------------------------------------------------------ */

/* The size of the block that stores n bytes as literals only (one token,
 * its length bytes, the bytes): what incompressible input needs. */
static long long literals_block_size(long long n)
{
    return 1 + n + (n >= 15 ? (n - 15) / 255 + 1 : 0);
}

static check_result chk_bound(const void *arg, char *msg, unsigned cap)
{
    static const int sizes[] = { 0, 1, 15, 16, 254, 255, 256, 65536, 1 << 20, 0x7E000000 };
    size_t i;
    (void)arg;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        long long want = (long long)sizes[i] + sizes[i] / 255 + 16;
        int got = subject->compress_bound(sizes[i]);
        if (got != want)   /* below a literals-only block: incompressible data fails */
            return check_fail(msg, cap, got < literals_block_size(sizes[i])
                                            ? FAIL_BOUND_TOO_SMALL : FAIL_BOUND_DIFFERS,
                              "bound(%d) = %d, want %lld", sizes[i], got, want);
    }
    if (subject->compress_bound(0x7E000001) != 0 || subject->compress_bound(-1) != 0)
        return check_fail(msg, cap, FAIL_BOUND_DIFFERS,
                          "bound above the 0x7E000000 limit: %d, bound(-1) = %d",
                          subject->compress_bound(0x7E000001), subject->compress_bound(-1));
    return CHECK_PASS;
}

/* ---- registration ---------------------------------------------------- */

/* The four checks of one compressor. */
static void add_compressor(contract_add_fn add, const char *name, subject_caps caps,
                           enum compressor which, int accel_or_level)
{
    static const struct { const char *suffix; check_fn fn; } checks[] = {
        { "into_bound", chk_compress_into_bound },
        { "small_capacity", chk_compress_small_capacity },
        { "negative_size", chk_compress_negative_size },
        { "deterministic", chk_compress_deterministic },
    };
    size_t i;
    for (i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        char id[96];
        snprintf(id, sizeof id, "%s.%s", name, checks[i].suffix);
        add(id, caps, checks[i].fn, which, accel_or_level);
    }
}

void contracts_add_compress(const struct lz4_subject *tested, contract_add_fn add)
{
    static const int accels[] = { -5, 0, 1, 2, 65537 };
    static const int levels[] = { -1, 0, 1, 3, 9, 12, 16, 17, 100 };
    static const int hc_dest_size_levels[] = { 2, 3, 9, 10, 12 };
    char name[64];
    size_t i;
    subject = tested;
    add("compress_bound.formula_and_limit", CAP_COMPRESS_BOUND, chk_bound, 0, 0);
    add_compressor(add, "compress_default", CAP_COMPRESS_DEFAULT, C_DEFAULT, 0);
    for (i = 0; i < sizeof accels / sizeof accels[0]; i++) {
        snprintf(name, sizeof name, "compress_fast[accel=%d]", accels[i]);
        add_compressor(add, name, CAP_COMPRESS_FAST, C_FAST, accels[i]);
    }
    for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        snprintf(name, sizeof name, "compress_hc[level=%d]", levels[i]);
        add_compressor(add, name, CAP_COMPRESS_HC, C_HC, levels[i]);
    }
    add_compressor(add, "compress_using_dict", CAP_COMPRESS_USING_DICT, C_DICT, 0);
    add("compress_dest_size.invariants", CAP_COMPRESS_DEST_SIZE, chk_dest_size, 0, 0);
    /* LZ4_compress_HC_destSize: each parser that fills an output to its
     * target (lz4hc.c's fillOutput): the level-2 mid compressor, the hash
     * chain (3, 9) and the optimal parser (10, 12). */
    for (i = 0; i < sizeof hc_dest_size_levels / sizeof hc_dest_size_levels[0]; i++) {
        snprintf(name, sizeof name, "compress_hc_dest_size[level=%d].invariants",
                 hc_dest_size_levels[i]);
        add(name, CAP_COMPRESS_HC_DEST_SIZE, chk_dest_size, 1, hc_dest_size_levels[i]);
    }
}
