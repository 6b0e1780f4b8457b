/*
 * Tests of the reference block encoder (ref/block_encode.c).
 *
 * Every block the encoder produces is decoded by ref_decode with the strict
 * profile, which enforces the end-of-block rules (spec, "End of block
 * conditions"), and must give back exactly the input (or, for destSize, the
 * prefix it claims to have consumed). Output buffers are followed by a
 * canary region that must stay untouched.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "lz4ref.h"
#include "ref_calls.h"
#include "block_walk.h"
#include "sample_data.h"

#define CANARY 64
#define CANARY_BYTE 0xA5

/* ---- helpers ------------------------------------------------------------ */

static uint32_t state_mem[REF_ENCODE_STATE_SIZE / 4];

/* An output buffer of `cap` bytes followed by a canary. */
static uint8_t *out_alloc(size_t cap)
{
    uint8_t *b = xmalloc(cap + CANARY);
    memset(b, CANARY_BYTE, cap + CANARY);
    return b;
}

/* Bytes at [cap, cap + CANARY) are untouched. */
static int canary_ok(const uint8_t *b, size_t cap)
{
    for (size_t i = 0; i < CANARY; i++)
        if (b[cap + i] != CANARY_BYTE)
            return 0;
    return 1;
}

/* Strict decode of blk into a buffer of exactly `want_len` bytes; the result
 * must be want[0..want_len). dict: the history the block was encoded with. */
static int decodes_to(const uint8_t *blk, size_t blk_len, const uint8_t *want,
                      size_t want_len, const uint8_t *dict, size_t dict_len,
                      const char *what)
{
    ref_decode_result r;
    uint8_t *out = xmalloc(want_len + 1);
    int ok;

    if (dict_len > REF_MAX_DICT) { /* the decoder takes the last 64 KiB */
        dict += dict_len - REF_MAX_DICT;
        dict_len = REF_MAX_DICT;
    }
    r = ref_decode_with(blk, blk_len, out, want_len, dict, dict_len, REF_PROFILE_STRICT, 0, 0);
    ok = r.status == REF_OK && r.written == want_len && r.consumed == blk_len &&
         (want_len == 0 || memcmp(out, want, want_len) == 0);
    CHECK(ok, "%s: decode status %s, written %zu of %zu, consumed %zu of %zu",
          what, ref_status_name(r.status), r.written, want_len, r.consumed, blk_len);
    free(out);
    return ok;
}

/* ---- the tests ----------------------------------------------------------- */

static const size_t sizes[] = { 0, 1, 4, 5, 12, 13, 14, 100, 4096, 65535, 65536,
                                65537, 1u << 20 };

static void test_bound(void)
{
    CHECK_EQ_SIZE(ref_compress_bound(0), 16, "bound(0)");
    CHECK_EQ_SIZE(ref_compress_bound(1), 17, "bound(1)");
    CHECK_EQ_SIZE(ref_compress_bound(254), 254 + 16, "bound(254)");
    CHECK_EQ_SIZE(ref_compress_bound(255), 255 + 1 + 16, "bound(255)");
    CHECK_EQ_SIZE(ref_compress_bound(65536), 65536 + 257 + 16, "bound(65536)");
    CHECK_EQ_SIZE(ref_compress_bound(REF_MAX_INPUT_SIZE),
                  (size_t)REF_MAX_INPUT_SIZE + REF_MAX_INPUT_SIZE / 255 + 16, "bound(max)");
    CHECK_EQ_SIZE(ref_compress_bound((size_t)REF_MAX_INPUT_SIZE + 1), 0, "bound(max+1)");
    CHECK_EQ_SIZE(ref_compress_bound(SIZE_MAX), 0, "bound(SIZE_MAX)");
}

static void test_bad_params(void)
{
    uint8_t src[32] = { 0 }, dst[64];
    ref_encode_params p;
    ref_encode_result r;

    memset(&p, 0, sizeof p);
    p.src = src;
    p.src_len = sizeof src;
    p.dst = dst;
    p.dst_cap = sizeof dst;
    r = ref_encode(&p, state_mem);
    CHECK(r.ok && r.written > 0, "baseline");

    r = ref_encode(&p, NULL);
    CHECK(!r.ok && r.written == 0, "NULL state");
    r = ref_encode(NULL, state_mem);
    CHECK(!r.ok, "NULL params");

    p.src = NULL;
    r = ref_encode(&p, state_mem);
    CHECK(!r.ok, "NULL src with length");
    p.src = src;

    p.dst = NULL;
    r = ref_encode(&p, state_mem);
    CHECK(!r.ok, "NULL dst with capacity");
    p.dst = dst;

    p.dict_len = 5;
    r = ref_encode(&p, state_mem);
    CHECK(!r.ok, "NULL dict with length");
    p.dict_len = 0;

    p.mode = (ref_encode_mode)7;
    r = ref_encode(&p, state_mem);
    CHECK(!r.ok, "unknown mode");
    p.mode = REF_ENCODE_LIMITED;

    /* Over the limit of the bound formula: refused before src is read. */
    p.src_len = (size_t)REF_MAX_INPUT_SIZE + 1;
    r = ref_encode(&p, state_mem);
    CHECK(!r.ok && r.written == 0, "src_len > REF_MAX_INPUT_SIZE");
    p.mode = REF_ENCODE_DEST_SIZE;
    r = ref_encode(&p, state_mem);
    CHECK(!r.ok && r.written == 0, "destSize src_len > REF_MAX_INPUT_SIZE");
    p.src_len = sizeof src;

    /* Capacity 0: not even a token fits, in either mode. */
    p.dst_cap = 0;
    r = ref_encode(&p, state_mem);
    CHECK(!r.ok && r.written == 0 && r.consumed == 0, "destSize cap 0");
    p.mode = REF_ENCODE_LIMITED;
    r = ref_encode(&p, state_mem);
    CHECK(!r.ok && r.written == 0, "limited cap 0");
    CHECK_EQ_SIZE(ref_compress(src, sizeof src, dst, 0, 1), 0, "ref_compress cap 0");
}

static void test_empty(void)
{
    uint8_t *dst = out_alloc(1);
    ref_encode_result r;

    /* "Even empty input can be represented, using a zero byte." */
    r = ref_encode_with(NULL, 0, dst, 1, 1, REF_ENCODE_LIMITED, NULL, 0);
    CHECK(r.ok && r.written == 1 && r.consumed == 0 && dst[0] == 0, "empty");
    CHECK(canary_ok(dst, 1), "empty: canary");
    r = ref_encode_with(NULL, 0, dst, 1, 1, REF_ENCODE_DEST_SIZE, NULL, 0);
    CHECK(r.ok && r.written == 1 && r.consumed == 0 && dst[0] == 0, "empty destSize");
    r = ref_encode_with(NULL, 0, dst, 0, 1, REF_ENCODE_LIMITED, NULL, 0);
    CHECK(!r.ok && r.written == 0, "empty, cap 0");
    r = ref_encode_with(NULL, 0, NULL, 0, 1, REF_ENCODE_LIMITED, NULL, 0);
    CHECK(!r.ok && r.written == 0, "empty, NULL dst");
    CHECK_EQ_SIZE(ref_compress(NULL, 0, dst, 1, 1), 1, "ref_compress empty");
    CHECK(decodes_to(dst, 1, NULL, 0, NULL, 0, "empty block"), "empty block decodes");
    free(dst);
}

/* Short inputs (< 13 bytes) are one literal run: token + literals. */
static void test_short(void)
{
    uint8_t src[12], dst[16];
    memset(src, 'a', sizeof src);
    for (size_t n = 1; n <= sizeof src; n++) {
        size_t w = ref_compress(src, n, dst, sizeof dst, 1);
        CHECK_EQ_SIZE(w, n + 1, "short input size");
        CHECK(dst[0] == (uint8_t)(n << 4) && memcmp(dst + 1, src, n) == 0,
              "short input %zu: one literal run", n);
    }
    /* 13 equal bytes: a literal, a 7-byte match, 5 final literals. */
    memset(dst, 0, sizeof dst);
    {
        uint8_t s13[13];
        memset(s13, 'a', sizeof s13);
        size_t w = ref_compress(s13, 13, dst, sizeof dst, 1);
        static const uint8_t want[] = { 0x13, 'a', 1, 0, 0x50, 'a', 'a', 'a', 'a', 'a' };
        CHECK(w == sizeof want && memcmp(dst, want, sizeof want) == 0,
              "13 x 'a': got %zu bytes", w);
    }
}

/*
 * Limited mode at capacities bound, exactly the size, and one less; every
 * acceleration; destSize at several targets.
 */
static void test_modes(enum sample_kind k, size_t n, const uint8_t *src)
{
    static const int accs[] = { -5, 0, 1, 2, 17, 65537, 1 << 30 };
    const size_t bound = ref_compress_bound(n);
    uint8_t *ref_blk = out_alloc(bound);
    uint8_t *dst = out_alloc(bound);
    uint8_t *ref_blk2 = out_alloc(bound);
    char what[160];
    ref_encode_result r, r1;
    size_t c;

    snprintf(what, sizeof what, "%s n=%zu limited cap=bound", sample_kind_names[k], n);
    r1 = ref_encode_with(src, n, ref_blk, bound, 1, REF_ENCODE_LIMITED, NULL, 0);
    CHECK(r1.ok && r1.written > 0 && r1.written <= bound && r1.consumed == n, "%s", what);
    CHECK(canary_ok(ref_blk, bound), "%s: canary", what);
    if (!r1.ok) {
        free(ref_blk);
        free(ref_blk2);
        free(dst);
        return;
    }
    c = r1.written;
    decodes_to(ref_blk, c, src, n, NULL, 0, what);
    check_end_rules(ref_blk, c, n, what);
    if (k == SAMPLE_ZERO && n >= 4096)
        CHECK(c < n / 200 + 16, "%s: zeros compress (%zu)", what, c);
    if (n < 13) /* too short for a match: token + literals */
        CHECK_EQ_SIZE(c, n + 1, what);
    CHECK_EQ_SIZE(ref_compress(src, n, dst, bound, 1), c, "ref_compress");
    CHECK(memcmp(dst, ref_blk, c) == 0, "%s: ref_compress same block", what);

    /* Capacity exactly the compressed size: the same block. */
    memset(dst, CANARY_BYTE, bound + CANARY);
    snprintf(what, sizeof what, "%s n=%zu limited cap=size", sample_kind_names[k], n);
    r = ref_encode_with(src, n, dst, c, 1, REF_ENCODE_LIMITED, NULL, 0);
    CHECK(r.ok && r.written == c && memcmp(dst, ref_blk, c) == 0, "%s", what);
    CHECK(canary_ok(dst, c), "%s: canary", what);

    /* One byte less: fails without writing at or past dst + cap. */
    memset(dst, CANARY_BYTE, bound + CANARY);
    snprintf(what, sizeof what, "%s n=%zu limited cap=size-1", sample_kind_names[k], n);
    r = ref_encode_with(src, n, dst, c - 1, 1, REF_ENCODE_LIMITED, NULL, 0);
    CHECK(!r.ok && r.written == 0, "%s", what);
    CHECK(canary_ok(dst, c - 1), "%s: canary", what);
    CHECK_EQ_SIZE(ref_compress(src, n, dst, c - 1, 1), 0, what);

    /* Every smaller capacity (sampled for big blocks) fails the same way,
     * whichever sequence is the one that does not fit. */
    {
        const size_t step = c <= 4096 ? 1 : c / 61;
        int all_ok = 1;
        for (size_t cap = 0; cap < c - 1; cap += step) {
            memset(dst, CANARY_BYTE, cap + CANARY);
            r = ref_encode_with(src, n, dst, cap, 1, REF_ENCODE_LIMITED, NULL, 0);
            if (r.ok || r.written != 0 || !canary_ok(dst, cap)) {
                all_ok = 0;
                CHECK(0, "%s n=%zu limited cap=%zu < size %zu: ok=%d written=%zu",
                      sample_kind_names[k], n, cap, c, r.ok, r.written);
                break;
            }
        }
        CHECK(all_ok, "%s n=%zu limited: all small capacities", sample_kind_names[k], n);
    }

    /* Accelerations: <= 0 means 1; any value is a valid block. */
    for (size_t a = 0; a < sizeof accs / sizeof accs[0]; a++) {
        size_t cap = accs[a] > 1 ? bound : c; /* acc <= 1 gives the same size */
        memset(dst, CANARY_BYTE, bound + CANARY);
        snprintf(what, sizeof what, "%s n=%zu acc=%d", sample_kind_names[k], n, accs[a]);
        r = ref_encode_with(src, n, dst, cap, accs[a], REF_ENCODE_LIMITED, NULL, 0);
        CHECK(r.ok && r.consumed == n && r.written <= cap, "%s", what);
        CHECK(canary_ok(dst, cap), "%s: canary", what);
        if (!r.ok)
            continue;
        if (accs[a] <= 1)
            CHECK(r.written == c && memcmp(dst, ref_blk, c) == 0, "%s: same as acc 1", what);
        if (accs[a] == 1 << 30) { /* clamped: the same block as 65537 */
            ref_encode_result r2 = ref_encode_with(src, n, ref_blk2, bound, 65537,
                                                   REF_ENCODE_LIMITED, NULL, 0);
            CHECK(r2.ok && r2.written == r.written &&
                  memcmp(dst, ref_blk2, r.written) == 0, "%s: same as 65537", what);
        }
        decodes_to(dst, r.written, src, n, NULL, 0, what);
        check_end_rules(dst, r.written, n, what);
    }

    /* destSize: targets from 1 byte up to the bound. */
    {
        const size_t targets[] = { 1, 2, 6, 7, 8, 17, 100, c / 3, c / 2, c - 1, c, c + 1, bound };
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            const size_t cap = targets[t];
            if (cap == 0 || cap > bound)
                continue;
            memset(dst, CANARY_BYTE, bound + CANARY);
            snprintf(what, sizeof what, "%s n=%zu destSize cap=%zu", sample_kind_names[k], n, cap);
            r = ref_encode_with(src, n, dst, cap, 1, REF_ENCODE_DEST_SIZE, NULL, 0);
            CHECK(r.ok && r.written >= 1 && r.written <= cap && r.consumed <= n, "%s", what);
            CHECK(canary_ok(dst, cap), "%s: canary", what);
            if (!r.ok)
                continue;
            decodes_to(dst, r.written, src, r.consumed, NULL, 0, what);
            check_end_rules(dst, r.written, r.consumed, what);
            if (cap >= c) /* enough room: the limited-mode block */
                CHECK(r.written == c && r.consumed == n && memcmp(dst, ref_blk, c) == 0,
                      "%s: equals limited (written %zu, consumed %zu)", what, r.written,
                      r.consumed);
            else /* a sensible encoder fills most of the room */
                CHECK(r.consumed < n && (cap < 64 || r.written + 8 >= cap ||
                                         r.written * 10 >= cap * 9),
                      "%s: written %zu consumed %zu", what, r.written, r.consumed);
        }
    }
    free(ref_blk);
    free(ref_blk2);
    free(dst);
}

/*
 * Dictionary mode: src continues dict (copies of it, for text-like data);
 * decoded with ref_decode's dict field.
 */
static void test_dict(enum sample_kind k, size_t n, const uint8_t *src, const uint8_t *dict,
                      size_t dict_len)
{
    const size_t bound = ref_compress_bound(n);
    uint8_t *dst = out_alloc(bound);
    char what[160];
    ref_encode_result r;
    size_t c;

    snprintf(what, sizeof what, "%s n=%zu dict=%zu", sample_kind_names[k], n, dict_len);
    r = ref_encode_with(src, n, dst, bound, 1, REF_ENCODE_LIMITED, dict, dict_len);
    CHECK(r.ok && r.consumed == n, "%s", what);
    CHECK(canary_ok(dst, bound), "%s: canary", what);
    if (!r.ok) {
        free(dst);
        return;
    }
    c = r.written;
    decodes_to(dst, c, src, n, dict, dict_len, what);
    check_end_rules(dst, c, n, what);
    if (k == SAMPLE_TEXT && n >= 100) { /* text reuses the dictionary's words */
        walk w;
        CHECK(walk_block(dst, c, &w) && w.dict_match, "%s: a match in the dictionary", what);
    }

    /* Exact capacity works, one less fails cleanly. */
    memset(dst, CANARY_BYTE, bound + CANARY);
    r = ref_encode_with(src, n, dst, c - 1, 1, REF_ENCODE_LIMITED, dict, dict_len);
    CHECK(!r.ok && canary_ok(dst, c - 1), "%s: cap size-1", what);

    /* destSize with a dictionary, half the room. */
    if (c >= 4) {
        memset(dst, CANARY_BYTE, bound + CANARY);
        r = ref_encode_with(src, n, dst, c / 2, 2, REF_ENCODE_DEST_SIZE, dict, dict_len);
        CHECK(r.ok && r.written <= c / 2 && canary_ok(dst, c / 2), "%s: destSize", what);
        if (r.ok) {
            decodes_to(dst, r.written, src, r.consumed, dict, dict_len, what);
            check_end_rules(dst, r.written, r.consumed, what);
        }
    }
    free(dst);
}

/* Matches that start in the dictionary and run on into the input. */
static void test_dict_crossing(void)
{
    uint8_t dict[1000], src[2000], dst[4000];
    ref_prng rng = { 77 };
    ref_encode_result r;
    walk w;

    for (size_t i = 0; i < sizeof dict; i++)
        dict[i] = (uint8_t)ref_prng_next(&rng);
    /* src = the last 300 dict bytes, then their first 300 again, then noise:
     * a match at src[0] from dict[700] that continues into src[0..]. */
    memcpy(src, dict + 700, 300);
    memcpy(src + 300, dict + 700, 300);
    for (size_t i = 600; i < sizeof src; i++)
        src[i] = (uint8_t)ref_prng_next(&rng);
    r = ref_encode_with(src, sizeof src, dst, sizeof dst, 1, REF_ENCODE_LIMITED, dict, sizeof dict);
    CHECK(r.ok, "crossing");
    if (!r.ok)
        return;
    decodes_to(dst, r.written, src, sizeof src, dict, sizeof dict, "crossing");
    CHECK(walk_block(dst, r.written, &w) && w.dict_match && w.crossing_match,
          "crossing: a match from the dictionary into the input");
    CHECK(r.written < sizeof src - 550, "crossing: 600 bytes matched (%zu)", r.written);

    /* Tiny dictionaries (shorter than a hash word) are usable. */
    for (size_t dl = 1; dl <= 5; dl++) {
        uint8_t s[40];
        memset(s, 'q', sizeof s);
        r = ref_encode_with(s, sizeof s, dst, sizeof dst, 1, REF_ENCODE_LIMITED, dict, dl);
        CHECK(r.ok, "tiny dict %zu", dl);
        if (r.ok)
            decodes_to(dst, r.written, s, sizeof s, dict, dl, "tiny dict");
    }
}

/* Results do not depend on what the state held before, nor on its alignment. */
static void test_state(void)
{
    static uint8_t raw[REF_ENCODE_STATE_SIZE + 8];
    const size_t n = 50000;
    uint8_t *src = xmalloc(n);
    uint8_t *a = out_alloc(ref_compress_bound(n));
    uint8_t *b = out_alloc(ref_compress_bound(n));
    ref_encode_params p;
    ref_encode_result ra, rb;

    sample_fill(SAMPLE_MIXED, src, n, 5);
    memset(&p, 0, sizeof p);
    p.src = src;
    p.src_len = n;
    p.dst = a;
    p.dst_cap = ref_compress_bound(n);
    ra = ref_encode(&p, state_mem);
    memset(raw, 0xC3, sizeof raw);
    p.dst = b;
    rb = ref_encode(&p, raw + 1); /* dirty and misaligned */
    CHECK(ra.ok && rb.ok && ra.written == rb.written && memcmp(a, b, ra.written) == 0,
          "state: dirty/misaligned state gives the same block");
    free(src);
    free(a);
    free(b);
}

/* 16 MiB: limited and destSize only (keeps the run short under ASan). */
static void test_huge(void)
{
    const size_t n = 16u << 20;
    uint8_t *src = xmalloc(n);
    const size_t bound = ref_compress_bound(n);
    uint8_t *dst = out_alloc(bound);
    static const enum sample_kind kinds[] = { SAMPLE_MIXED, SAMPLE_ZERO };

    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        char what[80];
        ref_encode_result r;
        size_t c;
        sample_fill(kinds[i], src, n, 99);
        snprintf(what, sizeof what, "%s 16 MiB limited", sample_kind_names[kinds[i]]);
        r = ref_encode_with(src, n, dst, bound, 1, REF_ENCODE_LIMITED, NULL, 0);
        CHECK(r.ok && r.consumed == n && canary_ok(dst, bound), "%s", what);
        if (!r.ok)
            continue;
        c = r.written;
        decodes_to(dst, c, src, n, NULL, 0, what);
        memset(dst, CANARY_BYTE, bound + CANARY);
        snprintf(what, sizeof what, "%s 16 MiB destSize", sample_kind_names[kinds[i]]);
        r = ref_encode_with(src, n, dst, c / 2 + 1, 1, REF_ENCODE_DEST_SIZE, NULL, 0);
        CHECK(r.ok && r.consumed < n && canary_ok(dst, c / 2 + 1), "%s", what);
        if (r.ok)
            decodes_to(dst, r.written, src, r.consumed, NULL, 0, what);
    }
    /* A 16 MiB literal run (long 255-chains) fits in the bound. */
    sample_fill(SAMPLE_NOISE, src, n, 3);
    {
        ref_encode_result r = ref_encode_with(src, n, dst, bound, 1, REF_ENCODE_LIMITED, NULL, 0);
        CHECK(r.ok && r.written <= bound && canary_ok(dst, bound), "noise 16 MiB");
        if (r.ok)
            decodes_to(dst, r.written, src, n, NULL, 0, "noise 16 MiB");
    }
    free(src);
    free(dst);
}

int main(int argc, char **argv)
{
    (void)argc;
    test_bound();
    test_bad_params();
    test_empty();
    test_short();
    test_state();
    test_dict_crossing();

    for (int k = 0; k < SAMPLE_KINDS; k++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const size_t n = sizes[s];
            const size_t dict_lens[] = { 1000, 65536, 100000 };
            uint8_t *buf = xmalloc(100000 + n + 1);
            /* One stream: dictionary (up to 100000 bytes) then the input. */
            sample_fill((enum sample_kind)k, buf, 100000 + n, 1000 + (uint64_t)s);
            test_modes((enum sample_kind)k, n, buf + 100000);
            if (n > 0)
                for (size_t d = 0; d < sizeof dict_lens / sizeof dict_lens[0]; d++)
                    test_dict((enum sample_kind)k, n, buf + 100000,
                              buf + 100000 - dict_lens[d], dict_lens[d]);
            free(buf);
        }
    }
    test_huge();
    return check_summary(argv[0]);
}
