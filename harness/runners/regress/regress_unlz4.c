/*
 * The unlz4 entry of the regression-case runner (regress.h): the kernel's
 * legacy-frame decoder (lib/decompress_unlz4.c).
 * Buffer mode: the whole input in one buffer ending at a guard page, in_len =
 * its size. Fill mode (mode=fill): no input buffer, a fill callback hands out
 * what is asked for while input is left. Output goes to a flush callback,
 * collected here. Keys: input=, output= (the bytes flushed), expect=.
 */
#include <stdio.h>
#include <string.h>

#include "case_parse.h"
#include "guard.h"
#include "regress.h"

/* The callbacks have no context argument: one call at a time, through
 * these. */
static buf flushed;
static const unsigned char *fill_src;
static size_t fill_left;
static case_result *current;

static long collect_flush(void *chunk, unsigned long size)
{
    buf_append(&flushed, chunk, size, 0);
    return (long)size;
}

static long serve_fill(void *chunk, unsigned long size)
{
    size_t n = size < fill_left ? size : fill_left;   /* read(2)-like: what is left */
    memcpy(chunk, fill_src, n);
    fill_src += n;
    fill_left -= n;
    return (long)n;
}

static void note_error(char *msg)
{
    snprintf(current->evidence, sizeof current->evidence, "unlz4 error: %s", msg);
}

case_result regress_unlz4_entry(const struct lz4_subject *s, int argc, char **argv)
{
    case_result res = { CASE_FAIL, FAIL_NONE, "", 0 };
    buf in = { NULL, 0, 0 }, expected = { NULL, 0, 0 };
    const char *expect = case_arg(argc, argv, "expect"), *v = case_arg(argc, argv, "input");
    guard_buf gin;
    long pos = 0;
    int r, ok;
    if (!v)
        case_die("missing input", "");
    case_parse_data(&in, v);
    if ((v = case_arg(argc, argv, "output")) != NULL)
        case_parse_data(&expected, v);
    if (!expect)
        case_die("missing expect", "");
    gin = guard_dup(in.p, in.n);
    current = &res;
    if ((v = case_arg(argc, argv, "mode")) != NULL && !strcmp(v, "fill")) {
        fill_src = gin.data;
        fill_left = in.n;
        r = s->unlz4(NULL, 0, serve_fill, collect_flush, NULL, &pos, note_error);
    } else {
        r = s->unlz4(gin.data, (long)in.n, NULL, collect_flush, NULL, &pos, note_error);
    }
    res.returned = r;
    ok = case_return_expected(expect, r, (long long)in.n, (long long)flushed.n);
    if (!ok)    /* unlz4 returns 0 or -1 */
        res.cls = case_return_class(expect, r, (long long)in.n, (long long)flushed.n,
                                    CASE_RETURNS_STATUS);
    if (ok && expected.n &&
        (flushed.n != expected.n || memcmp(flushed.p, expected.p, expected.n) != 0)) {
        ok = 0;
        res.cls = flushed.n != expected.n ? FAIL_WRONG_LENGTH : FAIL_WRONG_OUTPUT;
        snprintf(res.evidence, sizeof res.evidence, "returned %d but flushed %zu bytes that "
                 "differ from the expected %zu", r, flushed.n, expected.n);
    }
    if (!ok && !res.evidence[0])
        snprintf(res.evidence, sizeof res.evidence, "returned %d (expected %s), pos %ld", r,
                 expect, pos);
    res.verdict = ok ? CASE_PASS : CASE_FAIL;
    guard_free(&gin);
    buf_free(&in);
    buf_free(&expected);
    buf_free(&flushed);
    return res;
}
