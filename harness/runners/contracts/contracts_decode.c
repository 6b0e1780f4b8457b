/*
 * Contract checks of the block decoders (decompress_safe,
 * decompress_safe_partial, decompress_fast, decompress_safe_using_dict) on
 * blocks made by ref and on hand-made edge blocks, with guard pages right
 * after the input and output buffers as well as the sanitizers
 * (docs/fix-history.md#kernel-lz4-generations).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "guard.h"

static const struct lz4_subject *subject;

/* ---- samples: data and the block ref makes of it -------------------------- */

typedef struct sample {
    unsigned char *data, *block;
    size_t n, blen;
} sample;

static sample make_sample(size_t n)
{
    sample s;
    s.n = n;
    s.data = contract_data(DATA_MIXED, n, (uint32_t)n);
    s.block = contract_ref_block(s.data, n, &s.blen);
    return s;
}

static void free_sample(sample *s) { free(s->data); free(s->block); }

/* Decode with guard pages after input and output; returns the result. */
static int safe_guarded(const unsigned char *src, size_t srclen, int srcsize_arg,
                        size_t out_size, int cap_arg, unsigned char *copy_out)
{
    guard_buf in = guard_dup(src, srclen), out = guard_alloc(out_size, 0xA5);
    int r = subject->decompress_safe((const char *)in.data, (char *)out.data, srcsize_arg, cap_arg);
    if (copy_out)
        memcpy(copy_out, out.data, out_size);
    guard_free(&in);
    guard_free(&out);
    return r;
}

/* The class of a decode of a valid n-byte block into capacity cap that
 * returned r (out: its output, or NULL when the bytes are not checked);
 * FAIL_NONE when it decoded exactly. */
static enum fail_class valid_decode_class(int r, size_t n, size_t cap, const unsigned char *out,
                                          const unsigned char *want)
{
    if (r < 0)
        return FAIL_REJECTS_VALID;
    if ((size_t)r > cap)
        return FAIL_RETURN_ABOVE_CAPACITY;
    if ((size_t)r != n)
        return FAIL_WRONG_LENGTH;
    if (out && n && memcmp(out, want, n) != 0)
        return FAIL_WRONG_OUTPUT;
    return FAIL_NONE;
}

static check_result chk_safe_exact(const void *arg, char *msg, unsigned cap)
{
    static const size_t sizes[] = { 1, 13, 100, 65536, 200000 };
    size_t i;
    (void)arg;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        sample s = make_sample(sizes[i]);
        unsigned char *out = xmalloc(s.n);
        int r = safe_guarded(s.block, s.blen, (int)s.blen, s.n, (int)s.n, out);
        enum fail_class cls = valid_decode_class(r, s.n, s.n, out, s.data);
        check_result res = CHECK_PASS;
        if (cls != FAIL_NONE)
            res = check_fail(msg, cap, cls, "valid %zu-byte block, exact capacity: returned %d",
                             s.n, r);
        free(out);
        free_sample(&s);
        if (check_failed(res))
            return res;
    }
    return CHECK_PASS;
}

/* check.variant of chk_safe_variant: the argument or block that is off. */
enum safe_variant { SV_CAP_SHORT, SV_CAP_ZERO, SV_CAP_NEGATIVE, SV_SRC_ZERO, SV_SRC_SHORT,
                    SV_SRC_LONG, SV_EMPTY_BLOCK, SV_TOKEN_F0, SV_CAP_LARGER };

/* A valid block accepted with a capacity below its decoded size: a size
 * above the capacity, or a cut output reported as the whole (the caller
 * takes it for the block's content). */
static enum fail_class short_capacity_class(int r, size_t cap)
{
    return (size_t)r > cap ? FAIL_RETURN_ABOVE_CAPACITY : FAIL_WRONG_LENGTH;
}

static check_result chk_safe_variant(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    sample s = make_sample(5000);
    unsigned char *buf;
    int r = 0;
    enum fail_class cls = FAIL_NONE;
    check_result res = CHECK_PASS;
    switch ((enum safe_variant)c->variant) {
    case SV_CAP_SHORT:
        r = safe_guarded(s.block, s.blen, (int)s.blen, s.n - 1, (int)s.n - 1, NULL);
        if (r >= 0)
            cls = short_capacity_class(r, s.n - 1);
        break;
    case SV_CAP_ZERO:
        r = safe_guarded(s.block, s.blen, (int)s.blen, 0, 0, NULL);
        if (r >= 0)
            cls = short_capacity_class(r, 0);
        break;
    case SV_CAP_NEGATIVE: {
        /* A 64-byte buffer passed with capacity -1: error, nothing written. */
        unsigned char out[64];
        guard_buf in = guard_dup(s.block, s.blen), o = guard_alloc(64, 0xA5);
        r = subject->decompress_safe((const char *)in.data, (char *)o.data, (int)s.blen, -1);
        memset(out, 0xA5, 64);
        /* any byte written is past a capacity of -1; any size above it;
         * 0 (nothing written) the error convention broken */
        if (memcmp(o.data, out, 64) != 0)
            cls = FAIL_WRITES_PAST_CAPACITY;
        else if (r > 0)
            cls = FAIL_RETURN_ABOVE_CAPACITY;
        else if (r == 0)
            cls = FAIL_WRONG_RETURN;
        guard_free(&in);
        guard_free(&o);
        break;
    }
    case SV_SRC_ZERO:
        r = safe_guarded(s.block, 0, 0, s.n, (int)s.n, NULL);
        if (r >= 0)   /* no input is no block: ref rejects it */
            cls = FAIL_ACCEPTS_INVALID;
        break;
    case SV_SRC_SHORT:
        r = safe_guarded(s.block, s.blen - 1, (int)s.blen - 1, s.n, (int)s.n, NULL);
        if (r >= 0 && r == (int)s.n)   /* a cut block: ref rejects it */
            cls = FAIL_ACCEPTS_INVALID;
        break;
    case SV_SRC_LONG:
        buf = xmalloc(s.blen + 1);
        memcpy(buf, s.block, s.blen);
        buf[s.blen] = 0;
        r = safe_guarded(buf, s.blen + 1, (int)s.blen + 1, s.n + 64, (int)s.n + 64, NULL);
        if (r >= 0)   /* a byte after the last literals: ref rejects it */
            cls = FAIL_ACCEPTS_INVALID;
        free(buf);
        break;
    case SV_EMPTY_BLOCK: {
        static const unsigned char z = 0;
        r = safe_guarded(&z, 1, 1, 0, 0, NULL);
        if (r != 0)
            cls = r < 0 ? FAIL_REJECTS_VALID : FAIL_RETURN_ABOVE_CAPACITY;
        break;
    }
    case SV_TOKEN_F0: {
        static const unsigned char f0 = 0xF0;
        r = safe_guarded(&f0, 1, 1, 1000, 1000, NULL);
        if (r >= 0)   /* 15 literals announced, none there */
            cls = FAIL_ACCEPTS_INVALID;
        break;
    }
    case SV_CAP_LARGER:
        r = safe_guarded(s.block, s.blen, (int)s.blen, s.n + 1000, (int)s.n + 1000, NULL);
        r = subject_decoded_size(subject, r, (int)s.n + 1000, (long long)s.n);
        cls = valid_decode_class(r, s.n, s.n + 1000, NULL, NULL);
        break;
    }
    if (cls != FAIL_NONE)
        res = check_fail(msg, cap, cls, "returned %d", r);
    free_sample(&s);
    return res;
}

/* Every capacity below the decoded size: an error, and no write past the
 * capacity wherever it cuts (inside literals or inside a match). */
static check_result chk_safe_capacity_sweep(const void *arg, char *msg, unsigned cap)
{
    sample s = make_sample(700);
    size_t c;
    (void)arg;
    for (c = 0; c < s.n; c++) {
        int r = safe_guarded(s.block, s.blen, (int)s.blen, c, (int)c, NULL);
        if (r >= 0) {
            check_result res = check_fail(msg, cap, short_capacity_class(r, c),
                                          "capacity %zu of %zu returned %d", c, s.n, r);
            free_sample(&s);
            return res;
        }
    }
    free_sample(&s);
    return CHECK_PASS;
}

/* Offset 0: reject, or accept with output that does not depend on what the
 * buffer held before (the information leak the spec warns about). */
static check_result chk_safe_offset_zero(const void *arg, char *msg, unsigned cap)
{
    static const unsigned char block[] = { 0x80, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 0, 0,
                                           0xC0, 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q',
                                           'r', 's', 't' };
    unsigned char x[100], y[100];
    guard_buf in = guard_dup(block, sizeof block);
    guard_buf ox = guard_alloc(100, 0x00), oy = guard_alloc(100, 0xFF);
    int rx = subject->decompress_safe((const char *)in.data, (char *)ox.data, sizeof block, 100);
    int ry = subject->decompress_safe((const char *)in.data, (char *)oy.data, sizeof block, 100);
    check_result res = CHECK_PASS;
    (void)arg;
    /* Accepted, the block is 8 literals, a 4-byte match and 12 literals. */
    rx = subject_decoded_size(subject, rx, 100, 24);
    ry = subject_decoded_size(subject, ry, 100, 24);
    memcpy(x, ox.data, 100);
    memcpy(y, oy.data, 100);
    if (rx != ry || (rx > 0 && memcmp(x, y, (size_t)rx) != 0))
        res = check_fail(msg, cap, FAIL_STALE_OUTPUT, "offset 0: output depends on the "
                         "buffer's previous content (%d vs %d bytes)", rx, ry);
    guard_free(&in); guard_free(&ox); guard_free(&oy);
    return res;
}

/* ---- partial decoding ----------------------------------------------- */

static int partial_guarded(const sample *s, int target, size_t out_size, int cap_arg,
                           unsigned char *copy)
{
    guard_buf in = guard_dup(s->block, s->blen), out = guard_alloc(out_size, 0xA5);
    int r = subject->decompress_safe_partial((const char *)in.data, (char *)out.data,
                                             (int)s->blen, target, cap_arg);
    if (copy)
        memcpy(copy, out.data, out_size);
    guard_free(&in);
    guard_free(&out);
    return r;
}

/* Targets 1, N/2, N, N+64 (KLZ4-2022-49078: input ends at the guard page),
 * beyond: exactly min(target, N) bytes, equal to the prefix. */
static check_result chk_partial_targets(const void *arg, char *msg, unsigned cap)
{
    sample s = make_sample(3000);
    int targets[] = { 1, 17, 1500, 2999, 3000, 3064, 100000 };
    size_t i;
    (void)arg;
    for (i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        int t = targets[i];
        size_t room = (size_t)(t > 3000 ? t : 3000) ;
        unsigned char *out = xmalloc(room);
        int want = t < 3000 ? t : 3000;
        int r = partial_guarded(&s, t, room, (int)room, out);
        /* more than the target asked for, within the capacity */
        enum fail_class cls = r > t && (size_t)r <= room ? FAIL_RETURN_ABOVE_TARGET
                              : valid_decode_class(r, (size_t)want, room, out, s.data);
        if (cls != FAIL_NONE) {
            check_result res = check_fail(msg, cap, cls, "target %d, capacity %zu: returned %d, "
                                          "want %d", t, room, r, want);
            free(out);
            free_sample(&s);
            return res;
        }
        free(out);
    }
    free_sample(&s);
    return CHECK_PASS;
}

/* Target 0: the generation's convention (docs/fix-history.md#where-the-kernel-differs-from-upstream). */
static check_result chk_partial_target_zero(const void *arg, char *msg, unsigned cap)
{
    sample s = make_sample(3000);
    int r = partial_guarded(&s, 0, 3000, 3000, NULL);
    int bad;
    check_result res = CHECK_PASS;
    (void)arg;
    switch (subject->generation) {
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
    /* bytes for a target of 0 are above it; else 0 for an error or an
     * error for 0: the generation's convention broken */
    if (bad)
        res = check_fail(msg, cap, r > 0 ? FAIL_RETURN_ABOVE_TARGET : FAIL_WRONG_RETURN,
                         "target 0 returned %d (%s convention)", r,
                         subject_generation_name(subject->generation));
    free_sample(&s);
    return res;
}

/* check.variant of chk_partial_negative: the argument that is -1. */
enum negative_argument { NEGATIVE_CAPACITY, NEGATIVE_TARGET };

/* Negative target or capacity: error, nothing written (CVE-2021-3520,
 * KLZ4-GAP-3520). */
static check_result chk_partial_negative(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    sample s = make_sample(1000);
    unsigned char before[64];
    guard_buf in = guard_dup(s.block, s.blen), out = guard_alloc(64, 0xA5);
    int target = c->variant == NEGATIVE_TARGET ? -1 : 1000;
    int capacity = c->variant == NEGATIVE_TARGET ? 1000 : -1;
    int r = subject->decompress_safe_partial((const char *)in.data, (char *)out.data,
                                             (int)s.blen, target, capacity);
    enum fail_class cls = FAIL_NONE;
    check_result res = CHECK_PASS;
    memset(before, 0xA5, 64);
    /* a negative target or capacity leaves no room: any byte written is
     * past it, any size above it, 0 the error convention broken */
    if (memcmp(out.data, before, 64) != 0)
        cls = FAIL_WRITES_PAST_CAPACITY;
    else if (r > 0)
        cls = c->variant == NEGATIVE_TARGET ? FAIL_RETURN_ABOVE_TARGET
                                            : FAIL_RETURN_ABOVE_CAPACITY;
    else if (r == 0)
        cls = FAIL_WRONG_RETURN;
    if (cls != FAIL_NONE)
        res = check_fail(msg, cap, cls, "target %d, capacity %d: returned %d", target, capacity,
                         r);
    guard_free(&in); guard_free(&out);
    free_sample(&s);
    return res;
}

/* ---- fast (known output size) ---------------------------------------- */

/* The class of decompress_fast on a valid block of blen bytes that
 * returned r (it returns the input bytes it read); FAIL_NONE when right. */
static enum fail_class fast_read_class(int r, size_t blen)
{
    if (r < 0)
        return FAIL_REJECTS_VALID;
    return (size_t)r != blen ? FAIL_BAD_CONSUMED : FAIL_NONE;
}

static check_result chk_fast_exact(const void *arg, char *msg, unsigned cap)
{
    sample s = make_sample(20000);
    guard_buf in = guard_dup(s.block, s.blen), out = guard_alloc(s.n, 0xA5);
    int r = subject->decompress_fast((const char *)in.data, (char *)out.data, (int)s.n);
    enum fail_class cls = fast_read_class(r, s.blen);
    check_result res = CHECK_PASS;
    (void)arg;
    if (r >= 0 && memcmp(out.data, s.data, s.n) != 0)
        cls = FAIL_WRONG_OUTPUT;
    if (cls != FAIL_NONE)
        res = check_fail(msg, cap, cls, "returned %d, want the %zu input bytes read", r, s.blen);
    guard_free(&in); guard_free(&out);
    free_sample(&s);
    return res;
}

/* Short literal runs at the very end of the input: the fast decoder must not
 * read past the block (it does not know the input size). */
static check_result chk_fast_short_tail(const void *arg, char *msg, unsigned cap)
{
    /* 'a', match offset 1 length 18, then "vwxyz": 24 bytes from 10. */
    static const unsigned char block[] = { 0x1E, 'a', 1, 0, 0x50, 'v', 'w', 'x', 'y', 'z' };
    guard_buf in = guard_dup(block, sizeof block), out = guard_alloc(24, 0xA5);
    int r = subject->decompress_fast((const char *)in.data, (char *)out.data, 24);
    (void)arg;
    guard_free(&in); guard_free(&out);
    if (r != (int)sizeof block)
        return check_fail(msg, cap, fast_read_class(r, sizeof block), "returned %d, want %zu", r,
                          sizeof block);
    return CHECK_PASS;
}

static check_result chk_fast_empty(const void *arg, char *msg, unsigned cap)
{
    static const unsigned char z = 0;
    guard_buf in = guard_dup(&z, 1), out = guard_alloc(0, 0);
    int r = subject->decompress_fast((const char *)in.data, (char *)out.data, 0);
    (void)arg;
    guard_free(&in); guard_free(&out);
    if (r != 1)
        return check_fail(msg, cap, fast_read_class(r, 1),
                          "block 00, original size 0: returned %d, want 1", r);
    return CHECK_PASS;
}

/* ---- dictionary decode ------------------------------------------------ */

static check_result chk_using_dict(const void *arg, char *msg, unsigned cap)
{
    /* Block: 0 literals, match of 20 at offset 10 (inside the dictionary),
     * then 8 literals. */
    static const unsigned char block[] = { 0x0F, 10, 0, 1, 0x80, 'l', 'i', 't', 'e', 'r',
                                           'a', 'l', 's' };
    static const char want[] = "KLMNOPQRSTKLMNOPQRSTliterals";
    char d2[30];
    guard_buf in = guard_dup(block, sizeof block), out = guard_alloc(28, 0xA5);
    int r;
    enum fail_class cls;
    check_result res = CHECK_PASS;
    (void)arg;
    memcpy(d2, "0123456789KLMNOPQRST", 20);
    r = subject->decompress_safe_using_dict((const char *)in.data, (char *)out.data,
                                            sizeof block, 28, d2, 20);
    cls = valid_decode_class(r, 28, 28, out.data, (const unsigned char *)want);
    if (cls != FAIL_NONE)
        res = check_fail(msg, cap, cls, "returned %d", r);
    guard_free(&in); guard_free(&out);
    return res;
}

/* ---- registration ---------------------------------------------------- */

void contracts_add_decode(const struct lz4_subject *tested, contract_add_fn add)
{
    static const struct { const char *id; check_fn fn; int variant; } safe[] = {
        { "exact_capacity", chk_safe_exact, 0 },
        { "capacity_one_short", chk_safe_variant, SV_CAP_SHORT },
        { "capacity_sweep", chk_safe_capacity_sweep, 0 },
        { "capacity_zero", chk_safe_variant, SV_CAP_ZERO },
        { "capacity_negative", chk_safe_variant, SV_CAP_NEGATIVE },
        { "capacity_larger", chk_safe_variant, SV_CAP_LARGER },
        { "compressed_size_zero", chk_safe_variant, SV_SRC_ZERO },
        { "compressed_size_one_short", chk_safe_variant, SV_SRC_SHORT },
        { "compressed_size_one_long", chk_safe_variant, SV_SRC_LONG },
        { "empty_block_capacity_zero", chk_safe_variant, SV_EMPTY_BLOCK },
        { "lone_token_F0", chk_safe_variant, SV_TOKEN_F0 },
        { "offset_zero_no_leak", chk_safe_offset_zero, 0 },
    };
    size_t i;
    subject = tested;
    for (i = 0; i < sizeof safe / sizeof safe[0]; i++) {
        char id[96];
        snprintf(id, sizeof id, "decompress_safe.%s", safe[i].id);
        add(id, CAP_DECOMPRESS_SAFE, safe[i].fn, safe[i].variant, 0);
    }
    add("decompress_safe_partial.targets", CAP_DECOMPRESS_PARTIAL, chk_partial_targets, 0, 0);
    add("decompress_safe_partial.target_zero", CAP_DECOMPRESS_PARTIAL, chk_partial_target_zero,
        0, 0);
    add("decompress_safe_partial.negative_target", CAP_DECOMPRESS_PARTIAL, chk_partial_negative,
        NEGATIVE_TARGET, 0);
    add("decompress_safe_partial.negative_capacity", CAP_DECOMPRESS_PARTIAL,
        chk_partial_negative, NEGATIVE_CAPACITY, 0);
    add("decompress_fast.returns_input_read", CAP_DECOMPRESS_FAST, chk_fast_exact, 0, 0);
    add("decompress_fast.empty_block", CAP_DECOMPRESS_FAST, chk_fast_empty, 0, 0);
    add("decompress_fast.short_tail_at_input_end", CAP_DECOMPRESS_FAST, chk_fast_short_tail,
        0, 0);
    add("decompress_safe_using_dict.match_into_dictionary", CAP_DECOMPRESS_USING_DICT,
        chk_using_dict, 0, 0);
}
