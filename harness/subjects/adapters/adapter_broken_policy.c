/*
 * Broken modes for the verdict policy's planted scenarios (issue 40), each
 * a one-line bug in front of ref, each an example of one row of the policy
 * table (harness/findings/policy.py):
 *
 *   rejects_one_valid       decompress_safe rejects a valid block that
 *                           decodes to exactly 65536 bytes (a false
 *                           reject: FAIL; a size only the contract checks
 *                           decode, decompress_safe.exact_capacity among them)
 *   wrong_bytes_right_length decompress_safe returns the right length with
 *                           one wrong byte for a valid 200000-byte block
 *                           (data corruption: FAIL; likewise)
 *   compress_fails_in_bound compress_default fails (returns 0) on 4096-byte
 *                           inputs given at least their bound (a false
 *                           reject: FAIL)
 *   accepts_truncated       decompress_safe accepts a block whose last
 *                           literal run is cut short, returning the bytes
 *                           before the cut (invalid input accepted: the
 *                           format's latitude, WARN)
 *   compress_negative_size_minus_one  compress_default returns -1 for a
 *                           negative input size where the API says 0 (a
 *                           return convention: WARN)
 *   ub_in_decoder           decompress_safe overflows a signed int on
 *                           every valid block of 1000 bytes or more, with
 *                           the right result (undefined behaviour without
 *                           a memory error: WARN)
 *   fails_after_many_calls  decompress_safe returns a wrong byte from its
 *                           20000th call in a process on: a fuzz campaign
 *                           records it, a replay of the input alone passes
 *                           (not reproducible: INFO)
 */
#include <limits.h>

#include "adapter_broken_modes.h"
#include "adapter_broken_policy.h"
#include "adapter_broken_profile.h"
#include "lz4ref.h"

const struct lz4_subject *lz4gate_ref_subject(void);

enum { REJECTED_SIZE = 65536, WRONG_BYTE_SIZE = 200000, FAILING_INPUT = 4096, UB_SIZE = 1000,
       CALLS_BEFORE_FAILING = 20000 };

static int mode;

static int bv_decompress_safe(const char *s, char *d, int n, int cap)
{
    static unsigned long calls;
    int r = lz4gate_ref_subject()->decompress_safe(s, d, n, cap);
    if (mode == MODE_rejects_one_valid && r == REJECTED_SIZE)
        return -1;
    if (mode == MODE_wrong_bytes_right_length && r == WRONG_BYTE_SIZE)
        d[0] ^= 1;
    if (mode == MODE_ub_in_decoder && r >= UB_SIZE) {
        volatile int big = INT_MAX;
        int sum = big + r;          /* signed overflow: UBSan reports, goes on */
        (void)sum;
    }
    if (mode == MODE_fails_after_many_calls && ++calls >= CALLS_BEFORE_FAILING && r > 0)
        d[0] ^= 1;
    if (mode == MODE_accepts_truncated && r < 0 && n > 0 && cap >= 0) {
        ref_decode_result res = bp_decode_result(s, d, n, cap, 0, 0, NULL, 0,
                                                 REF_PROFILE_COMPATIBLE);
        if (res.status == REF_ERR_TRUNCATED_LITERALS)
            return (int)res.written;    /* what came before the cut */
    }
    return r;
}

static int bv_compress_default(const char *s, char *d, int n, int cap)
{
    const struct lz4_subject *ref = lz4gate_ref_subject();
    if (mode == MODE_compress_fails_in_bound && n == FAILING_INPUT &&
        cap >= ref->compress_bound(n))
        return 0;
    if (mode == MODE_compress_negative_size_minus_one && n < 0)
        return -1;
    return ref->compress_default(s, d, n, cap);
}

void bv_install(struct lz4_subject *t, int selected)
{
    mode = selected;
    switch (mode) {
    case MODE_rejects_one_valid:
    case MODE_wrong_bytes_right_length:
    case MODE_ub_in_decoder:
    case MODE_fails_after_many_calls:
    case MODE_accepts_truncated:
        t->decompress_safe = bv_decompress_safe;
        break;
    case MODE_compress_fails_in_bound:
    case MODE_compress_negative_size_minus_one:
        t->compress_default = bv_compress_default;
        break;
    default:
        break;
    }
}
