/*
 * sweep.stream.decode_empty_block_between[...]: an empty block between two
 * blocks of a decoding stream (LZ4_decompress_safe_continue). The empty
 * block is the one-byte block 0x00 (a token with no literals and no match:
 * spec, "End of block conditions", the encoding of empty input). It
 * decodes to nothing and adds no history, so the block after it may still
 * refer back into the block before it: lz4.h only asks that previously
 * decoded data stay where it was decoded.
 *
 *   [one_buffer]   the three blocks decoded one after the other;
 *   [separate]     each into a buffer of its own (the decoder's external
 *                  dictionary path: the empty block's buffer holds nothing,
 *                  and the third block's history is still the first's).
 *
 * The third block, ref's, refers into the first through matches; the
 * subject must decode it to its data (ref strict accepts every block).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "guard.h"
#include "ref_calls.h"
#include "testdata.h"

static const struct lz4_subject *subject;

#define PART 3000   /* each data block's size: well under 64 KiB, all reachable */

enum empty_layout { EL_ONE_BUFFER, EL_SEPARATE };

/* Decode block i (src[0..n), valid, want bytes) into dst with capacity
 * cap through ds; CHECK_PASS when it returns want, else msg set and the
 * class: rejected, a size past the capacity, another size. */
static check_result step(void *ds, const unsigned char *src, size_t n, unsigned char *dst,
                         size_t cap, int want, const char *what, char *msg, unsigned msg_cap)
{
    guard_buf in = guard_dup(src, n);
    int r = subject->dstream_decompress(ds, (const char *)in.data, (char *)dst, (int)n,
                                        (int)cap);
    guard_free(&in);
    if (r != want)
        return check_fail(msg, msg_cap, r < 0 ? FAIL_REJECTS_VALID
                                        : (size_t)r > cap ? FAIL_RETURN_ABOVE_CAPACITY
                                                          : FAIL_WRONG_LENGTH,
                          "%s: returned %d, want %d", what, r, want);
    return CHECK_PASS;
}

static check_result chk_empty_between(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    static const unsigned char empty[1] = { 0 };
    unsigned char *data = testdata_make("text", 2 * PART, 23);
    size_t bound = PART + PART / 255 + 16;
    unsigned char *b1 = xmalloc(bound), *b2 = xmalloc(bound);
    /* one buffer: [block 1][block 3]; separate: three guard buffers */
    guard_buf one = guard_alloc(c->variant == EL_ONE_BUFFER ? 2 * PART : 0, 0xA5);
    guard_buf first = guard_alloc(c->variant == EL_SEPARATE ? PART : 0, 0xA5);
    guard_buf middle = guard_alloc(16, 0xA5);
    guard_buf last = guard_alloc(c->variant == EL_SEPARATE ? PART : 0, 0xA5);
    unsigned char *out1 = c->variant == EL_SEPARATE ? first.data : one.data;
    unsigned char *out0 = c->variant == EL_SEPARATE ? middle.data : one.data + PART;
    unsigned char *out2 = c->variant == EL_SEPARATE ? last.data : one.data + PART;
    size_t cap0 = c->variant == EL_SEPARATE ? 16 : PART;
    ref_encode_result e1 = ref_encode_with(data, PART, b1, bound, 1, REF_ENCODE_LIMITED, NULL, 0);
    ref_encode_result e2 = ref_encode_with(data + PART, PART, b2, bound, 1, REF_ENCODE_LIMITED,
                                           data, PART);
    void *ds = subject->dstream_create();
    check_result res = CHECK_PASS;
    if (!e1.ok || !e2.ok || !ds) {
        res = check_fail(msg, cap, ds ? FAIL_CHECK_INCOMPLETE : FAIL_CREATE_FAILED, "%s",
                         ds ? "ref could not encode the blocks" : "dstream_create returned NULL");
    } else if (!subject->dstream_set(ds, NULL, 0)) {
        res = check_fail(msg, cap, FAIL_STREAM_ERROR, "setStreamDecode(no dictionary) returned 0");
    } else {
        res = step(ds, b1, e1.written, out1, PART, PART, "block 1", msg, cap);
        if (!check_failed(res))
            res = step(ds, empty, 1, out0, cap0, 0, "block 2 (empty)", msg, cap);
        if (!check_failed(res))
            res = step(ds, b2, e2.written, out2, PART, PART, "block 3 (matches into block 1)",
                       msg, cap);
        if (!check_failed(res) && memcmp(out2, data + PART, PART) != 0)
            res = check_fail(msg, cap, FAIL_WRONG_OUTPUT,
                             "block 3 (matches into block 1): not its data");
    }
    if (ds)
        subject->dstream_free(ds);
    guard_free(&one);
    guard_free(&first);
    guard_free(&middle);
    guard_free(&last);
    free(b1);
    free(b2);
    free(data);
    return res;
}

void contracts_add_sweep_stream_empty(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    add("sweep.stream.decode_empty_block_between[one_buffer]", CAP_STREAM_DECOMPRESS,
        chk_empty_between, EL_ONE_BUFFER, 0);
    add("sweep.stream.decode_empty_block_between[separate]", CAP_STREAM_DECOMPRESS,
        chk_empty_between, EL_SEPARATE, 0);
}
