/*
 * Deliberately broken subjects, to show that the contract tests, fuzzers
 * and regression cases fail when a subject misbehaves. Built as the spec
 * "broken:MODE"; wraps the reference adapter and breaks one contract:
 *
 *   write_past_capacity  compressors write one byte at dst[capacity]
 *   short_return         decompress_safe reports one byte less than written
 *   ignore_capacity      decompress_safe decodes as if the capacity were 1 MiB
 *   partial_overshoot    decompress_safe_partial writes past the target
 *   bad_bound            compress_bound forgets the +16
 *   no_negative_guard    decompress_safe_partial lacks the "size < 0" guard
 *                        (the pre-CVE-2021-3520 pattern)
 */
#include <string.h>

#include "lz4ref.h"
#include "subject.h"

const struct lz4_subject *lz4gate_ref_subject(void);

#define MODE_write_past_capacity 1
#define MODE_short_return 2
#define MODE_ignore_capacity 3
#define MODE_partial_overshoot 4
#define MODE_bad_bound 5
#define MODE_no_negative_guard 6
#define MODE_(m) MODE_##m
#define MODE(m) MODE_(m)
#if !defined(BROKEN)
#error "build with -DBROKEN=<mode>"
#endif
#define SELECTED MODE(BROKEN)

static struct lz4_subject broken;

static int b_compress_default(const char *s, char *d, int n, int cap)
{
    int r = lz4gate_ref_subject()->compress_default(s, d, n, cap);
    if (SELECTED == MODE_write_past_capacity && cap >= 0)
        d[cap] = 0x5A;     /* one byte past the capacity */
    return r;
}

static int b_decompress_safe(const char *s, char *d, int n, int cap)
{
    int r;
    if (SELECTED == MODE_ignore_capacity)
        cap = 1 << 20;
    r = lz4gate_ref_subject()->decompress_safe(s, d, n, cap);
    if (SELECTED == MODE_short_return && r > 0)
        r--;
    return r;
}

static int b_decompress_safe_partial(const char *s, char *d, int n, int target, int cap)
{
    int r;
    if (SELECTED == MODE_no_negative_guard && (target < 0 || cap < 0)) {
        /* The sizes go through as huge unsigned values, as in a decoder
         * without the guard. */
        ref_decode_params p;
        ref_decode_result res;
        memset(&p, 0, sizeof p);
        p.src = (const uint8_t *)s; p.src_len = (size_t)n;
        p.dst = (uint8_t *)d; p.dst_cap = (size_t)cap;
        p.partial = 1; p.target = (size_t)target;
        res = ref_decode(&p);
        return res.status == REF_OK ? (int)res.written : -1;
    }
    r = lz4gate_ref_subject()->decompress_safe_partial(s, d, n, target, cap);
    if (SELECTED == MODE_partial_overshoot && r >= 0 && r < cap)
        d[r] = 0x5A, r++;
    return r;
}

static int b_compress_bound(int n)
{
    int r = lz4gate_ref_subject()->compress_bound(n);
    return SELECTED == MODE_bad_bound && r > 0 ? r - 16 : r;
}

const struct lz4_subject *lz4gate_subject(void)
{
    if (!broken.name) {
        broken = *lz4gate_ref_subject();
        broken.compress_default = b_compress_default;
        broken.decompress_safe = b_decompress_safe;
        broken.decompress_safe_partial = b_decompress_safe_partial;
        broken.compress_bound = b_compress_bound;
        broken.name = "broken";
    }
    return &broken;
}
