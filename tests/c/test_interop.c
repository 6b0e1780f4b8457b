/*
 * Interoperability of the reference codec with the system liblz4:
 *
 *   liblz4 -> ref: blocks from LZ4_compress_default, LZ4_compress_HC (levels
 *     1..12), LZ4_compress_destSize and LZ4_compress_fast_continue with a
 *     dictionary decode in ref_decode (strict profile, so they also obey the
 *     end-of-block rules) to the original;
 *   ref -> liblz4: blocks from ref_encode (limited and destSize,
 *     accelerations 1 and 8, with and without a dictionary) decode in
 *     LZ4_decompress_safe / LZ4_decompress_safe_usingDict to the original.
 *
 * Links -llz4.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <lz4hc.h>

#include "alloc.h"
#include "check.h"
#include "lz4ref.h"
#include "ref_calls.h"
#include "sample_data.h"

static const size_t sizes[] = { 0, 1, 12, 13, 100, 4096, 65535, 65536, 65537, 300000,
                                1u << 20 };

#define DICT_LEN 65536 /* bytes of history generated before each input */

/* ---- liblz4 -> ref ----------------------------------------------------------- */

/* Strict ref_decode of blk must give want[0..want_len). */
static void ref_decodes_to(const uint8_t *blk, size_t blk_len, const uint8_t *want,
                           size_t want_len, const uint8_t *dict, size_t dict_len,
                           uint8_t *out, const char *what)
{
    ref_decode_result r = ref_decode_with(blk, blk_len, out, want_len, dict, dict_len,
                                          REF_PROFILE_STRICT, 0, 0);
    CHECK(r.status == REF_OK && r.written == want_len && r.consumed == blk_len &&
          (want_len == 0 || memcmp(out, want, want_len) == 0),
          "%s: ref_decode %s, written %zu of %zu, consumed %zu of %zu", what,
          ref_status_name(r.status), r.written, want_len, r.consumed, blk_len);
}

static void lz4_to_ref(enum sample_kind k, const uint8_t *src, size_t n, const uint8_t *dict,
                       uint8_t *blk, size_t cap, uint8_t *out)
{
    char what[160];
    int w;

    snprintf(what, sizeof what, "%s n=%zu LZ4_compress_default", sample_kind_names[k], n);
    w = LZ4_compress_default((const char *)src, (char *)blk, (int)n, (int)cap);
    CHECK(w > 0, "%s", what);
    if (w > 0)
        ref_decodes_to(blk, (size_t)w, src, n, NULL, 0, out, what);

    /* Every HC level on the smaller inputs, a few on the big ones (level 12
     * is slow). */
    for (int level = 1; level <= 12; level++) {
        if (n > 65537 && level != 1 && level != 4 && level != 9 && level != 12)
            continue;
        snprintf(what, sizeof what, "%s n=%zu LZ4_compress_HC level %d", sample_kind_names[k], n,
                 level);
        w = LZ4_compress_HC((const char *)src, (char *)blk, (int)n, (int)cap, level);
        CHECK(w > 0, "%s", what);
        if (w > 0)
            ref_decodes_to(blk, (size_t)w, src, n, NULL, 0, out, what);
    }

    /* destSize: the block decodes to the prefix liblz4 says it consumed. */
    {
        const size_t targets[] = { 1, 7, 20, 100, 1000, 65536, cap };
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            int consumed = (int)n;
            if (targets[t] > cap)
                continue;
            snprintf(what, sizeof what, "%s n=%zu LZ4_compress_destSize target %zu",
                     sample_kind_names[k], n, targets[t]);
            w = LZ4_compress_destSize((const char *)src, (char *)blk, &consumed,
                                      (int)targets[t]);
            CHECK(w > 0 && (size_t)w <= targets[t] && consumed >= 0 && (size_t)consumed <= n,
                  "%s: returned %d, consumed %d", what, w, consumed);
            if (w > 0 && consumed >= 0)
                ref_decodes_to(blk, (size_t)w, src, (size_t)consumed, NULL, 0, out, what);
        }
    }

    /* Dictionary: LZ4_loadDict + LZ4_compress_fast_continue. */
    if (n > 0) {
        LZ4_stream_t *s = LZ4_createStream();
        CHECK(s != NULL, "LZ4_createStream");
        if (s) {
            snprintf(what, sizeof what, "%s n=%zu LZ4_compress_fast_continue+dict",
                     sample_kind_names[k], n);
            LZ4_loadDict(s, (const char *)dict, DICT_LEN);
            w = LZ4_compress_fast_continue(s, (const char *)src, (char *)blk, (int)n,
                                           (int)cap, 1);
            CHECK(w > 0, "%s", what);
            if (w > 0)
                ref_decodes_to(blk, (size_t)w, src, n, dict, DICT_LEN, out, what);
            LZ4_freeStream(s);
        }
    }
}

/* ---- ref -> liblz4 ----------------------------------------------------------- */

/* LZ4_decompress_safe(_usingDict) of blk must give want[0..want_len). */
static void lz4_decodes_to(const uint8_t *blk, size_t blk_len, const uint8_t *want,
                           size_t want_len, const uint8_t *dict, size_t dict_len,
                           uint8_t *out, const char *what)
{
    int d;
    if (dict_len)
        d = LZ4_decompress_safe_usingDict((const char *)blk, (char *)out, (int)blk_len,
                                          (int)want_len, (const char *)dict, (int)dict_len);
    else
        d = LZ4_decompress_safe((const char *)blk, (char *)out, (int)blk_len, (int)want_len);
    CHECK(d >= 0 && (size_t)d == want_len && (want_len == 0 || memcmp(out, want, want_len) == 0),
          "%s: liblz4 returned %d, want %zu", what, d, want_len);
}

static void ref_to_lz4(enum sample_kind k, const uint8_t *src, size_t n, const uint8_t *dict,
                       uint8_t *blk, size_t cap, uint8_t *out)
{
    static const int accs[] = { 1, 8 };
    char what[160];
    ref_encode_result r;

    for (size_t a = 0; a < sizeof accs / sizeof accs[0]; a++) {
        const int acc = accs[a];
        size_t full;

        snprintf(what, sizeof what, "%s n=%zu ref limited acc %d", sample_kind_names[k], n, acc);
        r = ref_encode_with(src, n, blk, cap, acc, REF_ENCODE_LIMITED, NULL, 0);
        CHECK(r.ok && r.consumed == n, "%s", what);
        if (!r.ok)
            continue;
        full = r.written;
        lz4_decodes_to(blk, r.written, src, n, NULL, 0, out, what);

        /* destSize at a few targets below and at the full size. */
        {
            const size_t targets[] = { 1, 7, 20, full / 3, full / 2, full - 1, full };
            for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
                if (targets[t] == 0)
                    continue;
                snprintf(what, sizeof what, "%s n=%zu ref destSize %zu acc %d",
                         sample_kind_names[k], n, targets[t], acc);
                r = ref_encode_with(src, n, blk, targets[t], acc, REF_ENCODE_DEST_SIZE, NULL,
                                    0);
                CHECK(r.ok && r.written <= targets[t], "%s", what);
                if (r.ok)
                    lz4_decodes_to(blk, r.written, src, r.consumed, NULL, 0, out, what);
            }
        }

        /* Dictionary (the 64 KiB generated just before src). */
        if (n > 0) {
            snprintf(what, sizeof what, "%s n=%zu ref dict acc %d", sample_kind_names[k], n, acc);
            r = ref_encode_with(src, n, blk, cap, acc, REF_ENCODE_LIMITED, dict, DICT_LEN);
            CHECK(r.ok && r.consumed == n, "%s", what);
            if (r.ok)
                lz4_decodes_to(blk, r.written, src, n, dict, DICT_LEN, out, what);
            snprintf(what, sizeof what, "%s n=%zu ref dict destSize acc %d",
                     sample_kind_names[k], n, acc);
            r = ref_encode_with(src, n, blk, full / 2 + 1, acc, REF_ENCODE_DEST_SIZE, dict,
                                DICT_LEN);
            CHECK(r.ok, "%s", what);
            if (r.ok)
                lz4_decodes_to(blk, r.written, src, r.consumed, dict, DICT_LEN, out, what);
        }
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    /* The bound formulas agree. */
    {
        static const int ns[] = { 0, 1, 255, 65536, 1 << 20, LZ4_MAX_INPUT_SIZE };
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            CHECK_EQ_SIZE(ref_compress_bound((size_t)ns[i]), (size_t)LZ4_compressBound(ns[i]),
                          "bound vs LZ4_compressBound");
        CHECK_EQ_SIZE(ref_compress_bound((size_t)LZ4_MAX_INPUT_SIZE + 1), 0, "bound limit");
        CHECK_EQ_SIZE(LZ4_MAX_INPUT_SIZE, REF_MAX_INPUT_SIZE, "REF_MAX_INPUT_SIZE");
    }

    for (int k = 0; k < SAMPLE_KINDS; k++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const size_t n = sizes[s];
            const size_t cap = ref_compress_bound(n);
            /* One stream: DICT_LEN bytes of history, then the input. */
            uint8_t *buf = xmalloc(DICT_LEN + n);
            uint8_t *blk = xmalloc(cap);
            uint8_t *out = xmalloc(n);

            sample_fill((enum sample_kind)k, buf, DICT_LEN + n, 4242 + (uint64_t)s);
            lz4_to_ref((enum sample_kind)k, buf + DICT_LEN, n, buf, blk, cap, out);
            ref_to_lz4((enum sample_kind)k, buf + DICT_LEN, n, buf, blk, cap, out);
            free(buf);
            free(blk);
            free(out);
        }
    }
    return check_summary(argv[0]);
}
