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

#include "check.h"
#include "lz4ref.h"

enum kind { K_MIXED, K_ZERO, K_TEXT, K_NOISE, K_COUNT };
static const char *const kind_name[K_COUNT] = { "mixed", "zero", "text", "noise" };

static const size_t sizes[] = { 0, 1, 12, 13, 100, 4096, 65535, 65536, 65537, 300000,
                                1u << 20 };

#define DICT_LEN 65536 /* bytes of history generated before each input */

/* ---- test data ------------------------------------------------------------ */

/* Random literals, byte runs and copies from up to ~70000 bytes back. */
static void gen_mixed(uint8_t *b, size_t n, unsigned long long seed)
{
    size_t i = 0;
    while (i < n) {
        unsigned long long r = check_rand(&seed);
        size_t len = 1 + (size_t)(r >> 8) % 64;
        if (len > n - i)
            len = n - i;
        if (r % 4 == 0 || i == 0) {
            for (size_t k = 0; k < len; k++)
                b[i + k] = (uint8_t)check_rand(&seed);
        } else if (r % 4 == 1) {
            memset(b + i, (int)(r >> 40), len);
        } else {
            size_t back = 1 + (size_t)(r >> 20) % (i < 70000 ? i : 70000);
            for (size_t k = 0; k < len; k++)
                b[i + k] = b[i + k - back];
        }
        i += len;
    }
}

/* Words, spaces and newlines, like prose. */
static void gen_text(uint8_t *b, size_t n, unsigned long long seed)
{
    static const char *const words[] = {
        "stream", "block", "frame", "of", "a", "sequence", "literal", "match",
        "offset", "length", "token", "decoder", "shall", "is", "and", "to",
        "compressed", "input", "output", "bytes", "end", "rule", "LZ4", "kernel",
    };
    size_t i = 0;
    while (i < n) {
        unsigned long long r = check_rand(&seed);
        const char *w = words[r % (sizeof words / sizeof words[0])];
        for (size_t k = 0; w[k] && i < n; k++)
            b[i++] = (uint8_t)w[k];
        if (i < n)
            b[i++] = (r >> 32) % 9 == 0 ? '\n' : ' ';
    }
}

static void gen(enum kind k, uint8_t *b, size_t n, unsigned long long seed)
{
    switch (k) {
    case K_MIXED: gen_mixed(b, n, seed); break;
    case K_ZERO: memset(b, 0, n); break;
    case K_TEXT: gen_text(b, n, seed); break;
    default:
        for (size_t i = 0; i < n; i++)
            b[i] = (uint8_t)check_rand(&seed);
        break;
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- liblz4 -> ref ----------------------------------------------------------- */

/* Strict ref_decode of blk must give want[0..want_len). */
static void ref_decodes_to(const uint8_t *blk, size_t blk_len, const uint8_t *want,
                           size_t want_len, const uint8_t *dict, size_t dict_len,
                           uint8_t *out, const char *what)
{
    ref_decode_params p;
    ref_decode_result r;

    memset(&p, 0, sizeof p);
    p.src = blk;
    p.src_len = blk_len;
    p.dst = out;
    p.dst_cap = want_len;
    p.dict = dict;
    p.dict_len = dict_len;
    p.profile = REF_PROFILE_STRICT;
    r = ref_decode(&p);
    CHECK(r.status == REF_OK && r.written == want_len && r.consumed == blk_len &&
          (want_len == 0 || memcmp(out, want, want_len) == 0),
          "%s: ref_decode %s, written %zu of %zu, consumed %zu of %zu", what,
          ref_status_name(r.status), r.written, want_len, r.consumed, blk_len);
}

static void lz4_to_ref(enum kind k, const uint8_t *src, size_t n, const uint8_t *dict,
                       uint8_t *blk, size_t cap, uint8_t *out)
{
    char what[160];
    int w;

    snprintf(what, sizeof what, "%s n=%zu LZ4_compress_default", kind_name[k], n);
    w = LZ4_compress_default((const char *)src, (char *)blk, (int)n, (int)cap);
    CHECK(w > 0, "%s", what);
    if (w > 0)
        ref_decodes_to(blk, (size_t)w, src, n, NULL, 0, out, what);

    /* Every HC level on the smaller inputs, a few on the big ones (level 12
     * is slow). */
    for (int level = 1; level <= 12; level++) {
        if (n > 65537 && level != 1 && level != 4 && level != 9 && level != 12)
            continue;
        snprintf(what, sizeof what, "%s n=%zu LZ4_compress_HC level %d", kind_name[k], n,
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
                     kind_name[k], n, targets[t]);
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
                     kind_name[k], n);
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

static ref_encode_result ref_enc(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                                 int acc, ref_encode_mode mode, const uint8_t *dict,
                                 size_t dict_len)
{
    static uint32_t state[REF_ENCODE_STATE_SIZE / 4];
    ref_encode_params p;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.src_len = n;
    p.dst = dst;
    p.dst_cap = cap;
    p.acceleration = acc;
    p.mode = mode;
    p.dict = dict;
    p.dict_len = dict_len;
    return ref_encode(&p, state);
}

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

static void ref_to_lz4(enum kind k, const uint8_t *src, size_t n, const uint8_t *dict,
                       uint8_t *blk, size_t cap, uint8_t *out)
{
    static const int accs[] = { 1, 8 };
    char what[160];
    ref_encode_result r;

    for (size_t a = 0; a < sizeof accs / sizeof accs[0]; a++) {
        const int acc = accs[a];
        size_t full;

        snprintf(what, sizeof what, "%s n=%zu ref limited acc %d", kind_name[k], n, acc);
        r = ref_enc(src, n, blk, cap, acc, REF_ENCODE_LIMITED, NULL, 0);
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
                snprintf(what, sizeof what, "%s n=%zu ref destSize %zu acc %d", kind_name[k],
                         n, targets[t], acc);
                r = ref_enc(src, n, blk, targets[t], acc, REF_ENCODE_DEST_SIZE, NULL, 0);
                CHECK(r.ok && r.written <= targets[t], "%s", what);
                if (r.ok)
                    lz4_decodes_to(blk, r.written, src, r.consumed, NULL, 0, out, what);
            }
        }

        /* Dictionary (the 64 KiB generated just before src). */
        if (n > 0) {
            snprintf(what, sizeof what, "%s n=%zu ref dict acc %d", kind_name[k], n, acc);
            r = ref_enc(src, n, blk, cap, acc, REF_ENCODE_LIMITED, dict, DICT_LEN);
            CHECK(r.ok && r.consumed == n, "%s", what);
            if (r.ok)
                lz4_decodes_to(blk, r.written, src, n, dict, DICT_LEN, out, what);
            snprintf(what, sizeof what, "%s n=%zu ref dict destSize acc %d", kind_name[k], n,
                     acc);
            r = ref_enc(src, n, blk, full / 2 + 1, acc, REF_ENCODE_DEST_SIZE, dict, DICT_LEN);
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

    for (int k = 0; k < K_COUNT; k++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const size_t n = sizes[s];
            const size_t cap = ref_compress_bound(n);
            /* One stream: DICT_LEN bytes of history, then the input. */
            uint8_t *buf = xmalloc(DICT_LEN + n);
            uint8_t *blk = xmalloc(cap);
            uint8_t *out = xmalloc(n);

            gen((enum kind)k, buf, DICT_LEN + n, 4242 + (unsigned long long)s);
            lz4_to_ref((enum kind)k, buf + DICT_LEN, n, buf, blk, cap, out);
            ref_to_lz4((enum kind)k, buf + DICT_LEN, n, buf, blk, cap, out);
            free(buf);
            free(blk);
            free(out);
        }
    }
    return check_summary(argv[0]);
}
