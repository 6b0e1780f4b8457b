/*
 * Contract checks of the old kernel API (Linux 3.11-4.10,
 * docs/fix-history.md#old-kernel-api-g1):
 *   lz4_compress / lz4hc_compress: dst holds lz4_compressbound(src_len);
 *     *dst_len is ignored on entry, set to the compressed size; returns 0;
 *   lz4_decompress: decodes exactly actual_dest_len bytes, returns 0 and sets
 *     *src_len to the input consumed, or -1;
 *   lz4_decompress_unknownoutputsize: src_len exact, *dest_len capacity in,
 *     decoded size out; returns 0 or -1, never past either buffer.
 * "Returns 0 or -1" is tested exactly: KLZ4-2013-ERRRET (3.11's -(pos))
 * and KLZ4-2017-COMPAT (errors reported as success) are both wrong return
 * values, and tests/fixtures has a subject with each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "guard.h"
#include "lz4ref.h"
#include "testdata.h"

static const struct lz4_subject *subject;

/* lz4_compressbound of that generation: no limit check. */
static size_t old_bound(size_t n) { return n + n / 255 + 16; }

/* One valid block given to a decoder: the block made by ref of mixed data
 * (seed = its size) at the end of a guard-page buffer, and `room` bytes of
 * output ending at one. */
typedef struct valid_block {
    const unsigned char *data, *in;
    unsigned char *out;
    size_t n, blen, room;
} valid_block;

typedef check_result (*valid_block_check)(const valid_block *v, char *msg, unsigned cap);

/* check(v) for the blocks of 1 byte to 200000 bytes, each with room for
 * its size plus each of extra[0..nextra); the first failure. */
static check_result on_valid_blocks(const size_t *extra, size_t nextra, valid_block_check check,
                           char *msg, unsigned cap)
{
    static const size_t sizes[] = { 1, 13, 1000, 65536, 200000 };
    size_t i, e;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (e = 0; e < nextra; e++) {
            size_t n = sizes[i], blen;
            unsigned char *data = testdata_make("mixed", n, (uint64_t)n);
            unsigned char *block = contract_ref_block(data, n, &blen);
            guard_buf in = guard_dup(block, blen), out = guard_alloc(n + extra[e], 0xA5);
            valid_block v = { data, in.data, out.data, n, blen, n + extra[e] };
            check_result res = check(&v, msg, cap);
            guard_free(&in);
            guard_free(&out);
            free(block);
            free(data);
            if (check_failed(res))
                return res;
        }
    }
    return CHECK_PASS;
}

/* ---- compressors --------------------------------------------------------- */

/* check.variant of chk_old_compress: the entry point. */
enum old_compressor { OLD_COMPRESS, OLD_HC_COMPRESS };

/* *dst_len starts at 0: a compressor that reads it as a capacity fails
 * here. */
/* The class of an old compressor's failure: *dst_len past the bound; an
 * error whose block is nevertheless right (the convention broken) or not
 * (a failure with the bound's room); success with a block that does not
 * decode to the input. */
static enum fail_class old_compress_class(int r, size_t dst_len, size_t bound,
                                          const unsigned char *block, const unsigned char *data,
                                          size_t n)
{
    if (dst_len > bound)
        return FAIL_RETURN_ABOVE_CAPACITY;
    if (r != 0) {
        unsigned char *back = xmalloc(n ? n : 1);
        ref_decode_result d = dst_len ? ref_decode_block(block, dst_len, back, n)
                                      : (ref_decode_result){ REF_ERR_TRUNCATED_TOKEN, 0, 0, -1 };
        int right = d.status == REF_OK && d.written == n && (!n || !memcmp(back, data, n));
        free(back);
        return right ? FAIL_WRONG_RETURN : FAIL_FAILS_WITHIN_BOUND;
    }
    return FAIL_ROUNDTRIP;
}

static check_result chk_old_compress(const void *arg, char *msg, unsigned cap)
{
    static const char *const kinds[] = { "random", "text", "mixed", "zeros" };
    static const size_t sizes[] = { 0, 1, 15, 1000, 70000 };
    const check *c = arg;
    size_t k, i;
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t n = sizes[i], bound = old_bound(n), dst_len = 0;
            unsigned char *data = testdata_make(kinds[k], n, (uint64_t)n);
            guard_buf in = guard_dup(data, n), out = guard_alloc(bound, 0xA5);
            unsigned char *back = xmalloc(n);
            int r = c->variant == OLD_HC_COMPRESS
                        ? subject->old_hc_compress(in.data, n, out.data, &dst_len)
                        : subject->old_compress(in.data, n, out.data, &dst_len);
            ref_decode_result d = { REF_OK, 0, 0, -1 };
            int bad = r != 0 || dst_len == 0 || dst_len > bound;
            if (!bad) {
                d = ref_decode_block(out.data, dst_len, back, n);
                bad = d.status != REF_OK || d.written != n || (n && memcmp(back, data, n));
            }
            check_result res = CHECK_PASS;
            if (bad)
                res = check_fail(msg, cap, old_compress_class(r, dst_len, bound, out.data, data,
                                                              n),
                                 "%s %zu bytes, *dst_len = 0 on entry: returned %d, "
                                 "*dst_len = %zu (bound %zu), ref decode: %s, %zu bytes",
                                 kinds[k], n, r, dst_len, bound, ref_status_name(d.status),
                                 d.written);
            free(back);
            free(data);
            guard_free(&in);
            guard_free(&out);
            if (check_failed(res))
                return res;
        }
    }
    return CHECK_PASS;
}

/* ---- lz4_decompress (exact output size, input size unknown) -------------- */

static check_result old_decompress_valid(const valid_block *v, char *msg, unsigned cap)
{
    size_t src_len = 0xDEAD;
    int r = subject->old_decompress(v->in, &src_len, v->out, v->n);
    int differs = memcmp(v->out, v->data, v->n) != 0;
    /* an error; other bytes; another value than 0 for success; the input
     * consumed reported wrong */
    enum fail_class cls = r < 0 ? FAIL_REJECTS_VALID : differs ? FAIL_WRONG_OUTPUT
                          : r != 0 ? FAIL_WRONG_RETURN : FAIL_BAD_CONSUMED;
    if (r == 0 && src_len == v->blen && !differs)
        return CHECK_PASS;
    return check_fail(msg, cap, cls, "valid %zu-byte block of %zu bytes: returned %d, *src_len "
                      "= %zu (want 0 and the %zu input bytes consumed)%s", v->blen, v->n, r,
                      src_len, v->blen, differs ? ", output differs" : "");
}

static check_result chk_old_decompress_valid(const void *arg, char *msg, unsigned cap)
{
    static const size_t exact[] = { 0 };
    (void)arg;
    return on_valid_blocks(exact, 1, old_decompress_valid, msg, cap);
}

/* The class of an old decoder's result r where -1 was due (FAIL_NONE for
 * -1): success (0) is what the input is (`accepted`); another negative
 * value, or a positive one, the convention broken (0 or -1 only). */
static enum fail_class old_error_class(int r, enum fail_class accepted)
{
    return r == -1 ? FAIL_NONE : r == 0 ? accepted : FAIL_WRONG_RETURN;
}

/* A size reported through a pointer that is an error value passed on: a
 * negative int stored into a size_t (KLZ4-2017-COMPAT), the error then
 * reported as success. */
static int error_passed_on(size_t reported)
{
    return reported > (size_t)-1 / 2;
}

/* The first class of cls[0..n) other than FAIL_NONE, the convention's
 * (wrong_return) last: it says the least. */
static enum fail_class first_class(const enum fail_class *cls, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (cls[i] != FAIL_NONE && cls[i] != FAIL_WRONG_RETURN)
            return cls[i];
    for (i = 0; i < n; i++)
        if (cls[i] != FAIL_NONE)
            return cls[i];
    return FAIL_NONE;
}

/* Malformed for lz4_decompress: a match before the output start; a valid
 * block with actual_dest_len one short. Both must give exactly -1. */
static check_result chk_old_decompress_error(const void *arg, char *msg, unsigned cap)
{
    /* 'a', then a match at offset 5 from position 1, then 5 literals. */
    static const unsigned char before_start[] = { 0x10, 'a', 5, 0, 0x50, 'v', 'w', 'x', 'y', 'z' };
    size_t n = 1000, blen, src_len = 0, src_len1;
    unsigned char *data = testdata_make("mixed", n, 7);
    unsigned char *block = contract_ref_block(data, n, &blen);
    guard_buf in = guard_dup(before_start, sizeof before_start), out = guard_alloc(10, 0xA5);
    int r1 = subject->old_decompress(in.data, &src_len, out.data, 10), r2;
    src_len1 = src_len;
    guard_free(&in);
    guard_free(&out);
    in = guard_dup(block, blen);
    out = guard_alloc(n - 1, 0xA5);
    r2 = subject->old_decompress(in.data, &src_len, out.data, n - 1);
    guard_free(&in);
    guard_free(&out);
    free(block);
    free(data);
    (void)arg;
    if (r1 != -1 || r2 != -1) {
        /* accepted: the match read the bytes before the output (no guard
         * there); a block whose size is not the one told (actual_dest_len
         * is a claim of the content's size: ref rejects the pair); an
         * error passed on in *src_len is the convention broken */
        const enum fail_class cls[2] = {
            old_error_class(r1, error_passed_on(src_len1) ? FAIL_WRONG_RETURN
                                                          : FAIL_READS_BEFORE_HISTORY),
            old_error_class(r2, error_passed_on(src_len) ? FAIL_WRONG_RETURN
                                                         : FAIL_ACCEPTS_INVALID),
        };
        return check_fail(msg, cap, first_class(cls, 2), "match before the output start: "
                          "returned %d; output size one short: returned %d (want -1 for both)",
                          r1, r2);
    }
    return CHECK_PASS;
}

/* ---- lz4_decompress_unknownoutputsize ------------------------------------ */

static int unknown_guarded(const unsigned char *block, size_t blen, size_t out_size,
                           size_t *dest_len)
{
    guard_buf in = guard_dup(block, blen), out = guard_alloc(out_size, 0xA5);
    int r;
    *dest_len = out_size;
    r = subject->old_decompress_unknown(in.data, blen, out.data, dest_len);
    guard_free(&in);
    guard_free(&out);
    return r;
}

static check_result old_unknown_valid(const valid_block *v, char *msg, unsigned cap)
{
    size_t dest_len = v->room;
    int r = subject->old_decompress_unknown(v->in, v->blen, v->out, &dest_len);
    int differs = memcmp(v->out, v->data, v->n) != 0;
    /* an error; a size past the room; another size; other bytes; another
     * value than 0 for success */
    enum fail_class cls = r < 0 ? FAIL_REJECTS_VALID : dest_len > v->room
                          ? FAIL_RETURN_ABOVE_CAPACITY : dest_len != v->n ? FAIL_WRONG_LENGTH
                          : differs ? FAIL_WRONG_OUTPUT : FAIL_WRONG_RETURN;
    if (r == 0 && dest_len == v->n && !differs)
        return CHECK_PASS;
    return check_fail(msg, cap, cls, "valid block of %zu bytes, capacity %zu: returned %d, "
                      "*dest_len = %zu (want 0 and %zu)", v->n, v->room, r, dest_len, v->n);
}

/* Exactly the room the block needs, and 1000 bytes more. */
static check_result chk_old_unknown_valid(const void *arg, char *msg, unsigned cap)
{
    static const size_t extra[] = { 0, 1000 };
    (void)arg;
    return on_valid_blocks(extra, 2, old_unknown_valid, msg, cap);
}

/* Capacity one short, input one short, a match before the start, a lone
 * literal token with nothing after it: exactly -1 each. */
/* Success (0) where -1 was due, with *dest_len: an error passed on there
 * (the convention broken), a size past the room, else `cls`. */
static enum fail_class old_accepted_class(size_t dest_len, size_t room, enum fail_class cls)
{
    return error_passed_on(dest_len) ? FAIL_WRONG_RETURN
           : dest_len > room ? FAIL_RETURN_ABOVE_CAPACITY : cls;
}

static check_result chk_old_unknown_error(const void *arg, char *msg, unsigned cap)
{
    static const unsigned char before_start[] = { 0x10, 'a', 5, 0, 0x50, 'v', 'w', 'x', 'y', 'z' };
    static const unsigned char lone_f0[] = { 0xF0 };
    size_t n = 1000, blen, dest_len[4];
    unsigned char *data = testdata_make("mixed", n, 7);
    unsigned char *block = contract_ref_block(data, n, &blen);
    int r[4];
    (void)arg;
    r[0] = unknown_guarded(block, blen, n - 1, &dest_len[0]);
    r[1] = unknown_guarded(block, blen - 1, n, &dest_len[1]);
    r[2] = unknown_guarded(before_start, sizeof before_start, 100, &dest_len[2]);
    r[3] = unknown_guarded(lone_f0, 1, 100, &dest_len[3]);
    free(block);
    free(data);
    if (r[0] != -1 || r[1] != -1 || r[2] != -1 || r[3] != -1) {
        /* accepted: a valid block cut to a short room reported as the
         * whole; a cut block, a lone token (ref rejects both); a match that
         * read the bytes before the output (no guard there) */
        const enum fail_class cls[4] = {
            old_error_class(r[0], old_accepted_class(dest_len[0], n - 1, FAIL_WRONG_LENGTH)),
            old_error_class(r[1], old_accepted_class(dest_len[1], n, FAIL_ACCEPTS_INVALID)),
            old_error_class(r[2], old_accepted_class(dest_len[2], 100,
                                                     FAIL_READS_BEFORE_HISTORY)),
            old_error_class(r[3], old_accepted_class(dest_len[3], 100, FAIL_ACCEPTS_INVALID)),
        };
        return check_fail(msg, cap, first_class(cls, 4), "want -1 for each: capacity one short "
                          "%d, input one short %d, match before start %d, lone token F0 %d",
                          r[0], r[1], r[2], r[3]);
    }
    return CHECK_PASS;
}

/* Every capacity below the decoded size: an error, never a write past it. */
static check_result chk_old_unknown_sweep(const void *arg, char *msg, unsigned cap)
{
    size_t n = 700, blen, c;
    unsigned char *data = testdata_make("mixed", n, 700);
    unsigned char *block = contract_ref_block(data, n, &blen);
    (void)arg;
    for (c = 0; c < n; c++) {
        size_t dest_len;
        int r = unknown_guarded(block, blen, c, &dest_len);
        if (r >= 0) {
            /* success with a room below the block's size: the content cut
             * short reported as the whole, or a size past the room */
            enum fail_class cls = r > 0 ? FAIL_WRONG_RETURN
                                        : old_accepted_class(dest_len, c, FAIL_WRONG_LENGTH);
            free(block);
            free(data);
            return check_fail(msg, cap, cls, "capacity %zu of %zu returned %d", c, n, r);
        }
    }
    free(block);
    free(data);
    return CHECK_PASS;
}

void contracts_add_old_api(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    add("old_compress.ignores_dst_len_fits_bound", CAP_OLD_KERNEL_COMPRESS, chk_old_compress,
        OLD_COMPRESS, 0);
    add("old_hc_compress.ignores_dst_len_fits_bound", CAP_OLD_KERNEL_HC_COMPRESS,
        chk_old_compress, OLD_HC_COMPRESS, 0);
    add("old_decompress.returns_zero_and_input_consumed", CAP_OLD_KERNEL_DECOMPRESS,
        chk_old_decompress_valid, 0, 0);
    add("old_decompress.error_is_minus_one", CAP_OLD_KERNEL_DECOMPRESS,
        chk_old_decompress_error, 0, 0);
    add("old_decompress_unknown.returns_zero_and_size", CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN,
        chk_old_unknown_valid, 0, 0);
    add("old_decompress_unknown.error_is_minus_one", CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN,
        chk_old_unknown_error, 0, 0);
    add("old_decompress_unknown.capacity_sweep", CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN,
        chk_old_unknown_sweep, 0, 0);
}
