/*
 * Unit tests of the reference decoder: every error class and every named
 * check (checks.h), from hand-made blocks built from the spec's examples and
 * rules. Input and output live in exactly sized heap buffers so that
 * AddressSanitizer sees any access past them; `make mutants` rebuilds this
 * file with one check switched off and expects it to fail.
 */
#include <stdint.h>

#include "check.h"
#include "checks.h"
#include "lz4ref.h"

/* A block under construction. */
typedef struct block {
    uint8_t b[512];
    size_t n;
} block;

static void put(block *k, const void *bytes, size_t n)
{
    memcpy(k->b + k->n, bytes, n);
    k->n += n;
}

static void put_byte(block *k, unsigned v) { k->b[k->n++] = (uint8_t)v; }

/* Token + length chains + literals (+ offset when the sequence has a match). */
static void put_sequence(block *k, const char *lits, size_t nlit, int has_match,
                         unsigned offset, size_t mlen)
{
    size_t lcode = nlit < 15 ? nlit : 15;
    size_t mcode = 0;
    if (has_match)
        mcode = mlen - 4 < 15 ? mlen - 4 : 15;
    put_byte(k, (unsigned)(lcode << 4 | mcode));
    if (nlit >= 15) {
        size_t rest = nlit - 15;
        for (; rest >= 255; rest -= 255)
            put_byte(k, 255);
        put_byte(k, (unsigned)rest);
    }
    put(k, lits, nlit);
    if (!has_match)
        return;
    put_byte(k, offset & 255);
    put_byte(k, offset >> 8);
    if (mlen - 4 >= 15) {
        size_t rest = mlen - 4 - 15;
        for (; rest >= 255; rest -= 255)
            put_byte(k, 255);
        put_byte(k, (unsigned)rest);
    }
}

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
        block k = { {0}, 0 };
        outcome o;
        put_sequence(&k, lits, sizes[i], 0, 0, 0);
        o = run(&p, k.b, k.n, sizes[i]);
        EXPECT_OK(o, lits, sizes[i], "literal-only block, exact capacity");
        CHECK_EQ_SIZE(o.r.consumed, k.n, "consumes the whole block");
        o = run(&p, k.b, k.n, sizes[i] + 7);
        EXPECT_OK(o, lits, sizes[i], "literal-only block, larger capacity");
    }
    /* Example 1 byte by byte: 48 = 15 + 33. */
    {
        block k = { {0}, 0 };
        put_sequence(&k, lits, 48, 0, 0, 0);
        CHECK(k.b[0] == 0xF0 && k.b[1] == 33, "48 is coded as 15 + 33");
    }
    /* Example 2: 280 = 15 + 255 + 10; example 3: 15 = 15 + 0. */
    {
        block k = { {0}, 0 };
        put_sequence(&k, lits, 280, 0, 0, 0);
        CHECK(k.b[1] == 255 && k.b[2] == 10, "280 is coded as 15 + 255 + 10");
        k.n = 0;
        put_sequence(&k, lits, 15, 0, 0, 0);
        CHECK(k.b[1] == 0, "15 is coded as 15 + 0");
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
    block k = { {0}, 0 };
    outcome o;
    char want[200];
    size_t i;

    /* Offset 1, length 20: "the last byte is repeated matchlength times". */
    put_sequence(&k, "xy", 2, 1, 1, 20);
    put_sequence(&k, "tail!", 5, 0, 0, 0);
    memcpy(want, "xy", 2);
    memset(want + 2, 'y', 20);
    memcpy(want + 22, "tail!", 5);
    o = run(&p, k.b, k.n, 27);
    EXPECT_OK(o, want, 27, "overlapping match, offset 1");

    /* Offset 3, length 50, plus match length coded with 15 + 31. */
    k.n = 0;
    put_sequence(&k, "abc", 3, 1, 3, 50);
    put_sequence(&k, "12345", 5, 0, 0, 0);
    for (i = 0; i < 53; i++)
        want[i] = "abc"[i % 3];
    memcpy(want + 53, "12345", 5);
    o = run(&p, k.b, k.n, 58);
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
            o = run(&p, k.b, k.n, total);
            EXPECT_OK(o, w, total, "match length at a field boundary");
        }
    }

    /* Exactly at the end-of-block limits: match of 7 + 5 literals = 12. */
    k.n = 0;
    put_sequence(&k, "abcd", 4, 1, 4, 7);
    put_sequence(&k, "vwxyz", 5, 0, 0, 0);
    o = run(&p, k.b, k.n, 16);
    EXPECT_OK(o, "abcdabcdabcvwxyz", 16, "last match exactly 12 bytes before the end");
}

static void test_error_classes(void)
{
    ref_decode_params p = strict();
    ref_decode_params c = compatible();
    block k = { {0}, 0 };
    outcome o;

    o = run(&p, NULL, 0, 16);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_TOKEN, REF_CHECK_TOKEN_IN_INPUT, "empty input");

    put_byte(&k, 0xF0);
    o = run(&p, k.b, k.n, 64);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_LITERAL_LENGTH, REF_CHECK_LITLEN_IN_INPUT,
               "token F0 alone (history: ULZ4-2018-INPUTEDGE)");
    put_byte(&k, 0xFF);
    o = run(&p, k.b, k.n, 600);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_LITERAL_LENGTH, REF_CHECK_LITLEN_IN_INPUT,
               "length chain ends with 255");

    k.n = 0;
    put_byte(&k, 0x30);
    put(&k, "ab", 2);
    o = run(&p, k.b, k.n, 64);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_LITERALS, REF_CHECK_LITERALS_IN_INPUT,
               "3 literals announced, 2 present");

    k.n = 0;
    put_sequence(&k, "hello", 5, 0, 0, 0);
    o = run(&p, k.b, k.n, 4);
    EXPECT_ERR(o, REF_ERR_OUTPUT_OVERFLOW, REF_CHECK_LITERALS_IN_OUTPUT,
               "5 literals into capacity 4");
    o = run(&p, k.b, k.n, 0);
    EXPECT_ERR(o, REF_ERR_OUTPUT_OVERFLOW, REF_CHECK_LITERALS_IN_OUTPUT,
               "literals into capacity 0");

    /* Output exactly full after literals, but input left over. */
    k.n = 0;
    put_sequence(&k, "hello", 5, 1, 5, 8);
    put_sequence(&k, "world", 5, 0, 0, 0);
    o = run(&p, k.b, k.n, 5);
    EXPECT_ERR(o, REF_ERR_OUTPUT_FULL_INPUT_LEFT, REF_CHECK_OUTPUT_FULL_AT_END,
               "capacity reached after literals, offset follows");

    k.n = 0;
    put_byte(&k, 0x50);
    put(&k, "hello", 5);
    put_byte(&k, 0x01);
    o = run(&p, k.b, k.n, 64);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_OFFSET, REF_CHECK_OFFSET_IN_INPUT,
               "one offset byte instead of two");

    /* Offset 0: strict rejects; compatible writes zeros (liblz4 1.9.4). */
    k.n = 0;
    put_sequence(&k, "abcdefgh", 8, 1, 0, 4);
    put_sequence(&k, "ijklmnopqrst", 12, 0, 0, 0);
    o = run(&p, k.b, k.n, 100);
    EXPECT_ERR(o, REF_ERR_OFFSET_ZERO, REF_CHECK_OFFSET_NOT_ZERO, "offset 0, strict");
    o = run(&c, k.b, k.n, 100);
    EXPECT_OK(o, "abcdefgh\0\0\0\0ijklmnopqrst", 24, "offset 0, compatible: zeros");

    k.n = 0;
    put_sequence(&k, "abcd", 4, 1, 5, 4);
    put_sequence(&k, "ijklmnopqrst", 12, 0, 0, 0);
    o = run(&p, k.b, k.n, 100);
    EXPECT_ERR(o, REF_ERR_OFFSET_BEFORE_START, REF_CHECK_OFFSET_IN_HISTORY,
               "offset 5 after 4 bytes of output");
    o = run(&c, k.b, k.n, 100);
    EXPECT_ERR(o, REF_ERR_OFFSET_BEFORE_START, REF_CHECK_OFFSET_IN_HISTORY,
               "offset before start, compatible too");
    k.n = 0;
    put_sequence(&k, "", 0, 1, 65535, 4);
    put_sequence(&k, "ijklmnopqrst", 12, 0, 0, 0);
    o = run(&p, k.b, k.n, 100);
    EXPECT_ERR(o, REF_ERR_OFFSET_BEFORE_START, REF_CHECK_OFFSET_IN_HISTORY,
               "offset 65535 in the first sequence");

    k.n = 0;
    put_byte(&k, 0x4F);
    put(&k, "abcd", 4);
    put_byte(&k, 4);
    put_byte(&k, 0);
    o = run(&p, k.b, k.n, 100);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_MATCH_LENGTH, REF_CHECK_MATCHLEN_IN_INPUT,
               "match length 15 without its extra byte");
    put_byte(&k, 255);
    o = run(&p, k.b, k.n, 400);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_MATCH_LENGTH, REF_CHECK_MATCHLEN_IN_INPUT,
               "match length chain ends with 255");

    k.n = 0;
    put_sequence(&k, "abcd", 4, 1, 4, 30);
    put_sequence(&k, "ijklm", 5, 0, 0, 0);
    o = run(&p, k.b, k.n, 20);
    EXPECT_ERR(o, REF_ERR_OUTPUT_OVERFLOW, REF_CHECK_MATCH_IN_OUTPUT,
               "match of 30 into capacity 20");

    /* The last sequence must be literals only: a block ending on a match. */
    k.n = 0;
    put_sequence(&k, "abcd", 4, 1, 4, 30);
    o = run(&p, k.b, k.n, 100);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_TOKEN, REF_CHECK_TOKEN_IN_INPUT,
               "block ends after a match");
    o = run(&c, k.b, k.n, 100);
    EXPECT_ERR(o, REF_ERR_TRUNCATED_TOKEN, REF_CHECK_TOKEN_IN_INPUT,
               "block ends after a match, compatible too");

    /* Rule 2: fewer than 5 final literals. Rule 3: match too close. */
    k.n = 0;
    put_sequence(&k, "abcdefgh", 8, 1, 8, 16);
    put_sequence(&k, "wxyz", 4, 0, 0, 0);
    o = run(&p, k.b, k.n, 28);
    EXPECT_ERR(o, REF_ERR_LAST_LITERALS, REF_CHECK_EOB_LAST_LITERALS, "4 final literals");
    o = run(&c, k.b, k.n, 28);
    EXPECT_OK(o, "abcdefghabcdefghabcdefghwxyz", 28, "4 final literals, compatible");
    k.n = 0;
    put_sequence(&k, "abcdefgh", 8, 1, 8, 6);
    put_sequence(&k, "vwxyz", 5, 0, 0, 0);
    o = run(&p, k.b, k.n, 19);
    EXPECT_ERR(o, REF_ERR_LAST_MATCH_TOO_CLOSE, REF_CHECK_EOB_LAST_MATCH,
               "last match starts 11 bytes before the end");
    o = run(&c, k.b, k.n, 19);
    EXPECT_OK(o, "abcdefghabcdefvwxyz", 19, "match 11 from the end, compatible");
    /* Final literals of 0: rule 2 again (the block ends with token 0x00). */
    k.n = 0;
    put_sequence(&k, "abcdefgh", 8, 1, 8, 16);
    put_byte(&k, 0x00);
    o = run(&p, k.b, k.n, 24);
    EXPECT_ERR(o, REF_ERR_LAST_LITERALS, REF_CHECK_EOB_LAST_LITERALS, "empty final sequence");

    /* Parameters the decoder refuses outright. */
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
}

/* Length chains that overflow size_t: reachable only where size_t has 32
 * bits, with >= 16 843 009 bytes of 0xFF (history.md KLZ4-2014-4611). */
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
    block k = { {0}, 0 };
    outcome o;
    /* 8 literals + 16-byte match (offset 8) + 13 literals = 37 bytes. */
    const char *full = "abcdefgh" "abcdefghabcdefgh" "abcdefghijklm";
    put_sequence(&k, "abcdefgh", 8, 1, 8, 16);
    put_sequence(&k, "abcdefghijklm", 13, 0, 0, 0);
    o = run(&p, k.b, k.n, 40);
    EXPECT_OK(o, full, 37, "partial test block decodes whole");

    p.partial = 1;
    p.target = 5;        /* inside the first literal run */
    o = run(&p, k.b, k.n, 37);
    EXPECT_OK(o, full, 5, "partial: stop inside literals");
    p.target = 12;       /* inside the match */
    o = run(&p, k.b, k.n, 37);
    EXPECT_OK(o, full, 12, "partial: stop inside a match");
    p.target = 24;       /* exactly at the end of the match */
    o = run(&p, k.b, k.n, 37);
    EXPECT_OK(o, full, 24, "partial: stop at the end of a match");
    p.target = 1000;     /* beyond the end: whole block */
    o = run(&p, k.b, k.n, 40);
    EXPECT_OK(o, full, 37, "partial: target beyond the end");
    p.target = 20;       /* capacity smaller than target: capacity wins */
    o = run(&p, k.b, k.n, 10);
    EXPECT_OK(o, full, 10, "partial: min(target, capacity)");
    /* Input cut right after the bytes needed: still decodes the target. */
    p.target = 12;
    o = run(&p, k.b, 12, 37);
    EXPECT_OK(o, full, 12, "partial: input cut after the needed bytes");
    /* Target 0, both conventions. */
    p.target = 0;
    p.target0 = REF_TARGET0_RETURNS_ZERO;
    o = run(&p, k.b, k.n, 37);
    EXPECT_OK(o, "", 0, "partial target 0, upstream >= 1.9.2");
    p.target0 = REF_TARGET0_AS_EMPTY_OUTPUT;
    o = run(&p, k.b, k.n, 37);
    EXPECT_ERR(o, REF_ERR_OUTPUT_OVERFLOW, REF_CHECK_LITERALS_IN_OUTPUT,
               "partial target 0, kernel convention");
    {
        uint8_t z = 0;
        o = run(&p, &z, 1, 37);
        EXPECT_OK(o, "", 0, "partial target 0, kernel convention, block 00");
    }
}

static void test_known_size(void)
{
    ref_decode_params p = strict();
    block k = { {0}, 0 };
    outcome o;
    put_sequence(&k, "abcdefgh", 8, 1, 8, 16);
    put_sequence(&k, "ijklm", 5, 0, 0, 0);
    put(&k, "TRAILING", 8);   /* bytes after the block */
    p.stop_at_output_end = 1;
    o = run(&p, k.b, k.n, 29);
    EXPECT_OK(o, "abcdefghabcdefghabcdefghijklm", 29, "known-size decode");
    CHECK_EQ_SIZE(o.r.consumed, k.n - 8, "consumed stops before the trailing bytes");
    p.stop_at_output_end = 0;
    o = run(&p, k.b, k.n, 29);
    EXPECT_ERR(o, REF_ERR_OUTPUT_FULL_INPUT_LEFT, REF_CHECK_OUTPUT_FULL_AT_END,
               "same block with trailing bytes, exact-size input expected");
}

static void test_history(void)
{
    ref_decode_params p = strict();
    block k = { {0}, 0 };
    uint8_t dict[32], buf[64], out[64];
    ref_decode_result r;
    memcpy(dict, "0123456789ABCDEFGHIJKLMNOPQRSTUV", 32);

    /* External dictionary: match of 10 starting 4 bytes before the output's
     * start, so it crosses from the dictionary into the output and overlaps. */
    put_sequence(&k, "", 0, 1, 4, 10);
    put_sequence(&k, "endof", 5, 0, 0, 0);
    /* rule 3 needs 12 bytes after the match start: 10 + 5 = 15, fine. */
    p.src = k.b; p.src_len = k.n; p.dst = out; p.dst_cap = sizeof out;
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
    memcpy(buf, "0123456789ABCDEFGHIJKLMNOPQRSTUV", 32);
    p.dict = NULL; p.dict_len = 0;
    p.dst = buf + 32; p.dst_cap = 32; p.prefix_len = 32;
    r = ref_decode(&p);
    CHECK(r.status == REF_ERR_OFFSET_BEFORE_START, "offset = prefix size + 1");
    k.n = 0;
    put_sequence(&k, "", 0, 1, 32, 8);
    put_sequence(&k, "12345", 5, 0, 0, 0);
    p.src_len = k.n;
    r = ref_decode(&p);
    CHECK(r.status == REF_OK && memcmp(buf + 32, "0123456712345", 13) == 0,
          "offset = prefix size");
    /* Both: dictionary older than the prefix. */
    p.dict = dict; p.dict_len = 4;   /* "0123" */
    p.prefix_len = 2;                /* "UV" (buf[30..31]) */
    p.dst = buf + 32;
    k.n = 0;
    put_sequence(&k, "", 0, 1, 6, 8);
    put_sequence(&k, "12345", 5, 0, 0, 0);
    p.src_len = k.n;
    r = ref_decode(&p);
    CHECK(r.status == REF_OK && memcmp(buf + 32, "0123UV01", 8) == 0,
          "match through dictionary, then prefix, then output");
}

/* In-place decoding (history.md KLZ4-2020-INPLACE): the block sits at the
 * end of the output buffer, with the margin erofs and upstream use,
 * (compressed size >> 8) + 32; the last literals overlap their destination. */
static void test_in_place(void)
{
    static const size_t sizes[] = { 1000, 5000, 70000 };
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i], bound = ref_compress_bound(n), blen, margin, j;
        uint8_t *data = malloc(n), *block = malloc(bound), *buf;
        unsigned long long seed = n;
        ref_decode_params p = strict();
        ref_decode_result r;
        for (j = 0; j < n; j++)   /* incompressible tail: one long final literal run */
            data[j] = j < n / 2 ? (uint8_t)(j % 7) : (uint8_t)check_rand(&seed);
        blen = ref_compress(data, n, block, bound, 1);
        margin = (blen >> 8) + 32;
        buf = malloc(n + margin);
        memcpy(buf + n + margin - blen, block, blen);
        p.src = buf + n + margin - blen;
        p.src_len = blen;
        p.dst = buf;
        p.dst_cap = n;
        r = ref_decode(&p);
        CHECK(r.status == REF_OK && r.written == n && memcmp(buf, data, n) == 0,
              "in-place decode of %zu bytes: %s", n, ref_status_name(r.status));
        free(data);
        free(block);
        free(buf);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    test_spec_examples();
    test_matches();
    test_error_classes();
    test_length_overflow();
    test_partial();
    test_known_size();
    test_history();
    test_in_place();
    return check_summary(argv[0]);
}
