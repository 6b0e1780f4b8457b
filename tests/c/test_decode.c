/*
 * Unit tests of the reference decoder: every error class and every named
 * check (checks.h), from hand-made blocks built from the spec's examples and
 * rules; the malformed blocks are the shared catalogue
 * (harness/runners/vectors/malformed_blocks.c), which the frame tests and
 * the vector generator read too. Input and output live in exactly sized
 * heap buffers so that AddressSanitizer sees any access past them;
 * tests/mutants.py rebuilds this file with one check switched off and
 * expects it to fail.
 */
#include <stdint.h>

#include "block_writer.h"
#include "buf.h"
#include "check.h"
#include "checks.h"
#include "lz4ref.h"
#include "malformed_blocks.h"

/* A block under construction: block_put_sequence appends to it. */
#define put_sequence block_put_sequence

typedef struct outcome {
    ref_decode_result r;
    uint8_t out[4096];
} outcome;

/* Decode with src and dst in exactly sized heap buffers (ASan bounds). */
static outcome run(const ref_decode_params *base, const uint8_t *src, size_t n, size_t cap)
{
    outcome o;
    ref_decode_params p = *base;
    uint8_t *in = malloc(n ? n : 1);
    uint8_t *dst = malloc(cap ? cap : 1);
    if (n)
        memcpy(in, src, n);
    memset(dst, 0xA5, cap);
    p.src = n ? in : NULL;
    p.src_len = n;
    p.dst = cap ? dst : NULL;
    p.dst_cap = cap;
    o.r = ref_decode(&p);
    memset(o.out, 0, sizeof o.out);
    memcpy(o.out, dst, cap < sizeof o.out ? cap : sizeof o.out);
    free(in);
    free(dst);
    return o;
}

static ref_decode_params strict(void)
{
    ref_decode_params p;
    memset(&p, 0, sizeof p);
    p.profile = REF_PROFILE_STRICT;
    return p;
}

static ref_decode_params compatible(void)
{
    ref_decode_params p = strict();
    p.profile = REF_PROFILE_COMPATIBLE;
    return p;
}

#define EXPECT_ERR(o, want_status, check, what)                                     \
    do {                                                                            \
        CHECK((o).r.status == (want_status), "%s: status %s, want %s", what,        \
              ref_status_name((o).r.status), ref_status_name(want_status));         \
        CHECK((o).r.failed_check == (check), "%s: check %s, want %s", what,         \
              ref_check_name((o).r.failed_check), ref_check_name(check));           \
    } while (0)

#define EXPECT_OK(o, bytes, len, what)                                              \
    do {                                                                            \
        CHECK((o).r.status == REF_OK, "%s: status %s", what,                        \
              ref_status_name((o).r.status));                                       \
        CHECK_EQ_SIZE((o).r.written, (len), what);                                  \
        CHECK(memcmp((o).out, (bytes), (len)) == 0, "%s: output differs", what);    \
    } while (0)

static const char alpha[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static void test_spec_examples(void)
{
    ref_decode_params p = strict();
    char lits[300];
    size_t i, sizes[] = { 0, 1, 4, 14, 15, 48, 269, 270, 280 };
    for (i = 0; i < 300; i++)
        lits[i] = alpha[i % (sizeof alpha - 1)];

    /* Literal-only blocks: examples 1-3 (48, 280, 15) and the limits. */
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        buf k = { NULL, 0, 0 };
        outcome o;
        put_sequence(&k, lits, sizes[i], 0, 0, 0);
        o = run(&p, k.p, k.n, sizes[i]);
        EXPECT_OK(o, lits, sizes[i], "literal-only block, exact capacity");
        CHECK_EQ_SIZE(o.r.consumed, k.n, "consumes the whole block");
        o = run(&p, k.p, k.n, sizes[i] + 7);
        EXPECT_OK(o, lits, sizes[i], "literal-only block, larger capacity");
        buf_free(&k);
    }
    /* Example 1 byte by byte: 48 = 15 + 33. */
    {
        buf k = { NULL, 0, 0 };
        put_sequence(&k, lits, 48, 0, 0, 0);
        CHECK(k.p[0] == 0xF0 && k.p[1] == 33, "48 is coded as 15 + 33");
        buf_free(&k);
    }
    /* Example 2: 280 = 15 + 255 + 10; example 3: 15 = 15 + 0. */
    {
        buf k = { NULL, 0, 0 };
        put_sequence(&k, lits, 280, 0, 0, 0);
        CHECK(k.p[1] == 255 && k.p[2] == 10, "280 is coded as 15 + 255 + 10");
        k.n = 0;
        put_sequence(&k, lits, 15, 0, 0, 0);
        CHECK(k.p[1] == 0, "15 is coded as 15 + 0");
        buf_free(&k);
    }
    /* "Even empty input can be represented, using a zero byte." */
    {
        uint8_t z = 0;
        outcome o = run(&p, &z, 1, 0);
        EXPECT_OK(o, "", 0, "block 00 into capacity 0");
        o = run(&p, &z, 1, 10);
        EXPECT_OK(o, "", 0, "block 00 into capacity 10");
    }
}

static void test_matches(void)
{
    ref_decode_params p = strict();
    buf k = { NULL, 0, 0 };
    outcome o;
    char want[200];
    size_t i;

    /* Offset 1, length 20: "the last byte is repeated matchlength times". */
    put_sequence(&k, "xy", 2, 1, 1, 20);
    put_sequence(&k, "tail!", 5, 0, 0, 0);
    memcpy(want, "xy", 2);
    memset(want + 2, 'y', 20);
    memcpy(want + 22, "tail!", 5);
    o = run(&p, k.p, k.n, 27);
    EXPECT_OK(o, want, 27, "overlapping match, offset 1");

    /* Offset 3, length 50, plus match length coded with 15 + 31. */
    k.n = 0;
    put_sequence(&k, "abc", 3, 1, 3, 50);
    put_sequence(&k, "12345", 5, 0, 0, 0);
    for (i = 0; i < 53; i++)
        want[i] = "abc"[i % 3];
    memcpy(want + 53, "12345", 5);
    o = run(&p, k.p, k.n, 58);
    EXPECT_OK(o, want, 58, "overlapping match, offset 3, length chain");

    /* Match lengths at the field boundaries 4, 18, 19, 274, 275. */
    {
        size_t lens[] = { 4, 18, 19, 274, 275 };
        for (i = 0; i < 5; i++) {
            char w[400];
            size_t j, total = 8 + lens[i] + 8;
            k.n = 0;
            put_sequence(&k, alpha, 8, 1, 8, lens[i]);
            put_sequence(&k, alpha + 20, 8, 0, 0, 0);
            memcpy(w, alpha, 8);
            for (j = 0; j < lens[i]; j++)
                w[8 + j] = alpha[j % 8];
            memcpy(w + 8 + lens[i], alpha + 20, 8);
            o = run(&p, k.p, k.n, total);
            EXPECT_OK(o, w, total, "match length at a field boundary");
        }
    }

    /* Exactly at the end-of-block limits: match of 7 + 5 literals = 12. */
    k.n = 0;
    put_sequence(&k, "abcd", 4, 1, 4, 7);
    put_sequence(&k, "vwxyz", 5, 0, 0, 0);
    o = run(&p, k.p, k.n, 16);
    EXPECT_OK(o, "abcdabcdabcvwxyz", 16, "last match exactly 12 bytes before the end");
    buf_free(&k);
}

/*
 * Every row of the malformed-block catalogue under both profiles: the
 * strict decode fails with the row's status, named check and input
 * position; the compatible one fails the same way, or (offset 0, rules 2
 * and 3: ref/profile.c) decodes to the row's output.
 */
static void test_malformed_blocks(void)
{
    ref_decode_params p = strict(), c = compatible();
    size_t i;
    for (i = 0; i < malformed_block_count; i++) {
        const malformed_block *m = &malformed_blocks[i];
        const uint8_t *bytes = (const uint8_t *)m->bytes;
        outcome o = run(&p, bytes, m->len, m->capacity);
        EXPECT_ERR(o, m->strict, m->check, m->name);
        CHECK_EQ_SIZE(o.r.consumed, m->position, m->name);
        o = run(&c, bytes, m->len, m->capacity);
        if (m->compatible == REF_OK) {
            EXPECT_OK(o, m->compatible_output, m->compatible_output_len, m->name);
        } else {
            EXPECT_ERR(o, m->compatible, m->check, m->name);
            CHECK_EQ_SIZE(o.r.consumed, m->position, m->name);
        }
    }
}

/* Parameters the decoder refuses outright. */
static void test_bad_parameters(void)
{
    ref_decode_params bad = strict();
    uint8_t dst[4];
    ref_decode_result r;
    bad.src = NULL;
    bad.src_len = 3;
    bad.dst = dst;
    bad.dst_cap = 4;
    r = ref_decode(&bad);
    CHECK(r.status == REF_ERR_BAD_PARAMETER, "NULL source with length 3");
    bad.src = dst;
    bad.dict_len = 70000;
    bad.dict = dst;
    r = ref_decode(&bad);
    CHECK(r.status == REF_ERR_BAD_PARAMETER, "dictionary larger than 64 KiB");
}

/* Length chains that overflow size_t: reachable only where size_t has 32
 * bits, with >= 16 843 009 bytes of 0xFF (docs/fix-history.md#klz4-2014-4611). */
static void test_length_overflow(void)
{
#if SIZE_MAX == 0xFFFFFFFFu
    ref_decode_params p = strict();
    const size_t chain = 16843009;    /* 15 + 255 * 16843009 > 2^32 - 1 */
    size_t n = 1 + chain + 1;
    uint8_t *in = malloc(chain + 16), *dst = malloc(64);
    ref_decode_result r;

    in[0] = 0xF0;
    memset(in + 1, 0xFF, chain);
    in[n - 1] = 0;
    p.src = in; p.src_len = n; p.dst = dst; p.dst_cap = 64;
    r = ref_decode(&p);
    CHECK(r.status == REF_ERR_LENGTH_OVERFLOW && r.failed_check == REF_CHECK_LITLEN_NO_WRAP,
          "literal length wraps: %s", ref_status_name(r.status));

    /* Same in the match length: 8 literals, offset 8, then the chain. */
    in[0] = 0x8F;
    memcpy(in + 1, "abcdefgh", 8);
    in[9] = 8; in[10] = 0;
    memset(in + 11, 0xFF, chain);
    in[11 + chain] = 0;
    p.src_len = 12 + chain;
    r = ref_decode(&p);
    CHECK(r.status == REF_ERR_LENGTH_OVERFLOW && r.failed_check == REF_CHECK_MATCHLEN_NO_WRAP,
          "match length wraps: %s", ref_status_name(r.status));
    free(in);
    free(dst);
#endif
}

static void test_partial(void)
{
    ref_decode_params p = strict();
    buf k = { NULL, 0, 0 };
    outcome o;
    /* 8 literals + 16-byte match (offset 8) + 13 literals = 37 bytes. */
    const char *full = "abcdefgh" "abcdefghabcdefgh" "abcdefghijklm";
    put_sequence(&k, "abcdefgh", 8, 1, 8, 16);
    put_sequence(&k, "abcdefghijklm", 13, 0, 0, 0);
    o = run(&p, k.p, k.n, 40);
    EXPECT_OK(o, full, 37, "partial test block decodes whole");

    p.partial = 1;
    p.target = 5;        /* inside the first literal run */
    o = run(&p, k.p, k.n, 37);
    EXPECT_OK(o, full, 5, "partial: stop inside literals");
    p.target = 12;       /* inside the match */
    o = run(&p, k.p, k.n, 37);
    EXPECT_OK(o, full, 12, "partial: stop inside a match");
    p.target = 24;       /* exactly at the end of the match */
    o = run(&p, k.p, k.n, 37);
    EXPECT_OK(o, full, 24, "partial: stop at the end of a match");
    p.target = 1000;     /* beyond the end: whole block */
    o = run(&p, k.p, k.n, 40);
    EXPECT_OK(o, full, 37, "partial: target beyond the end");
    p.target = 20;       /* capacity smaller than target: capacity wins */
    o = run(&p, k.p, k.n, 10);
    EXPECT_OK(o, full, 10, "partial: min(target, capacity)");
    /* Input cut right after the bytes needed: still decodes the target. */
    p.target = 12;
    o = run(&p, k.p, 12, 37);
    EXPECT_OK(o, full, 12, "partial: input cut after the needed bytes");
    /* Target 0, both conventions. */
    p.target = 0;
    p.target0 = REF_TARGET0_RETURNS_ZERO;
    o = run(&p, k.p, k.n, 37);
    EXPECT_OK(o, "", 0, "partial target 0, upstream >= 1.9.2");
    p.target0 = REF_TARGET0_AS_EMPTY_OUTPUT;
    o = run(&p, k.p, k.n, 37);
    EXPECT_ERR(o, REF_ERR_OUTPUT_OVERFLOW, REF_CHECK_LITERALS_IN_OUTPUT,
               "partial target 0, kernel convention");
    {
        uint8_t z = 0;
        o = run(&p, &z, 1, 37);
        EXPECT_OK(o, "", 0, "partial target 0, kernel convention, block 00");
    }
    buf_free(&k);
}

static void test_known_size(void)
{
    ref_decode_params p = strict();
    buf k = { NULL, 0, 0 };
    outcome o;
    put_sequence(&k, "abcdefgh", 8, 1, 8, 16);
    put_sequence(&k, "ijklm", 5, 0, 0, 0);
    buf_append(&k, "TRAILING", 8, 0);   /* bytes after the block */
    p.stop_at_output_end = 1;
    o = run(&p, k.p, k.n, 29);
    EXPECT_OK(o, "abcdefghabcdefghabcdefghijklm", 29, "known-size decode");
    CHECK_EQ_SIZE(o.r.consumed, k.n - 8, "consumed stops before the trailing bytes");
    p.stop_at_output_end = 0;
    o = run(&p, k.p, k.n, 29);
    EXPECT_ERR(o, REF_ERR_OUTPUT_FULL_INPUT_LEFT, REF_CHECK_OUTPUT_FULL_AT_END,
               "same block with trailing bytes, exact-size input expected");
    buf_free(&k);
}

static void test_history(void)
{
    ref_decode_params p = strict();
    buf k = { NULL, 0, 0 };
    uint8_t dict[32], mem[64], out[64];
    ref_decode_result r;
    memcpy(dict, "0123456789ABCDEFGHIJKLMNOPQRSTUV", 32);

    /* External dictionary: match of 10 starting 4 bytes before the output's
     * start, so it crosses from the dictionary into the output and overlaps. */
    put_sequence(&k, "", 0, 1, 4, 10);
    put_sequence(&k, "endof", 5, 0, 0, 0);
    /* rule 3 needs 12 bytes after the match start: 10 + 5 = 15, fine. */
    p.src = k.p; p.src_len = k.n; p.dst = out; p.dst_cap = sizeof out;
    p.dict = dict; p.dict_len = sizeof dict;
    r = ref_decode(&p);
    CHECK(r.status == REF_OK && r.written == 15 &&
          memcmp(out, "STUVSTUVSTendof", 15) == 0, "match across the dictionary end");

    /* Offset reaching exactly the first dictionary byte, and one past it. */
    k.n = 0;
    put_sequence(&k, "", 0, 1, 32, 8);
    put_sequence(&k, "12345", 5, 0, 0, 0);
    p.src_len = k.n;
    r = ref_decode(&p);
    CHECK(r.status == REF_OK && memcmp(out, "01234567", 8) == 0, "offset = dictionary size");
    k.n = 0;
    put_sequence(&k, "", 0, 1, 33, 8);
    put_sequence(&k, "12345", 5, 0, 0, 0);
    p.src_len = k.n;
    r = ref_decode(&p);
    CHECK(r.status == REF_ERR_OFFSET_BEFORE_START, "offset = dictionary size + 1");

    /* Prefix mode: the history sits in the same buffer just before dst. */
    memcpy(mem, "0123456789ABCDEFGHIJKLMNOPQRSTUV", 32);
    p.dict = NULL; p.dict_len = 0;
    p.dst = mem + 32; p.dst_cap = 32; p.prefix_len = 32;
    r = ref_decode(&p);
    CHECK(r.status == REF_ERR_OFFSET_BEFORE_START, "offset = prefix size + 1");
    k.n = 0;
    put_sequence(&k, "", 0, 1, 32, 8);
    put_sequence(&k, "12345", 5, 0, 0, 0);
    p.src_len = k.n;
    r = ref_decode(&p);
    CHECK(r.status == REF_OK && memcmp(mem + 32, "0123456712345", 13) == 0,
          "offset = prefix size");
    /* Both: dictionary older than the prefix. */
    p.dict = dict; p.dict_len = 4;   /* "0123" */
    p.prefix_len = 2;                /* "UV" (mem[30..31]) */
    p.dst = mem + 32;
    k.n = 0;
    put_sequence(&k, "", 0, 1, 6, 8);
    put_sequence(&k, "12345", 5, 0, 0, 0);
    p.src_len = k.n;
    r = ref_decode(&p);
    CHECK(r.status == REF_OK && memcmp(mem + 32, "0123UV01", 8) == 0,
          "match through dictionary, then prefix, then output");
    buf_free(&k);
}

/* In-place decoding (docs/fix-history.md#klz4-2020-inplace): the block sits at the
 * end of the output buffer, with the margin erofs and upstream use,
 * (compressed size >> 8) + 32; the last literals overlap their destination. */
static void test_in_place(void)
{
    static const size_t sizes[] = { 1000, 5000, 70000 };
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i], bound = ref_compress_bound(n), blen, margin, j;
        uint8_t *data = malloc(n), *block = malloc(bound), *area;
        ref_prng rng = { n };
        ref_decode_params p = strict();
        ref_decode_result r;
        for (j = 0; j < n; j++)   /* incompressible tail: one long final literal run */
            data[j] = j < n / 2 ? (uint8_t)(j % 7) : (uint8_t)ref_prng_next(&rng);
        blen = ref_compress(data, n, block, bound, 1);
        margin = (blen >> 8) + 32;
        area = malloc(n + margin);
        memcpy(area + n + margin - blen, block, blen);
        p.src = area + n + margin - blen;
        p.src_len = blen;
        p.dst = area;
        p.dst_cap = n;
        r = ref_decode(&p);
        CHECK(r.status == REF_OK && r.written == n && memcmp(area, data, n) == 0,
              "in-place decode of %zu bytes: %s", n, ref_status_name(r.status));
        free(data);
        free(block);
        free(area);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    test_spec_examples();
    test_matches();
    test_malformed_blocks();
    test_bad_parameters();
    test_length_overflow();
    test_partial();
    test_known_size();
    test_history();
    test_in_place();
    return check_summary(argv[0]);
}
