/*
 * Boundary sweep of the end-of-block rules (issue 25, "Find one-line bugs
 * without luck"). Spec, "End of block conditions": the last sequence holds
 * only literals (rule 1), the last 5 bytes are always literals (rule 2),
 * and the last match starts at least 12 bytes before the end (rule 3).
 *
 * Compressors (one check per form, contracts_sweep.h): small data of
 * "unique" bytes with one repeat placed at the tail, starting s bytes
 * before the end and ending f bytes before it, for s around 12 and f around
 * 5, so that the natural last match starts 13, 12 or 11 bytes before the
 * end and leaves 4, 5 or 6 literals (and runs that a compressor must cut).
 * Every block must be one ref's STRICT profile accepts: a compressor that
 * keeps the match at 11, or leaves 4 literals, writes a block the spec lets
 * decoders reject.
 *
 * Decoders: hand-made blocks (the token writer below) whose last match
 * starts 13, 12 or 11 bytes before the end and whose final literal run is
 * 0, 4, 5 or 6 bytes, without and with a dictionary, through
 * decompress_safe (exact and ample capacity), decompress_safe_partial
 * (targets around the end), decompress_fast and decompress_safe_using_dict,
 * guard pages after input and output. The verdict is judge.h's: the spec
 * lets a decoder accept or reject a block that breaks rule 2 or 3 (ref's
 * profile table), never reject a valid one, read or write outside its
 * buffers, or produce other bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts_sweep.h"
#include "guard.h"
#include "judge.h"
#include "testdata.h"

static const struct lz4_subject *subject;

/* ---- compressor inputs ------------------------------------------------------- */

/* Where the tail repeat starts (bytes before the end) and how many bytes
 * follow it; its length is the difference (>= 4, a match's minimum). */
static const size_t repeat_starts[] = { 16, 13, 12, 11, 10 };
static const size_t repeat_finals[] = { 0, 4, 5, 6 };
/* 48 bytes: a fast compressor still searches every position at the tail
 * (its step grows after 64 misses). One size keeps the class cheap: an HC
 * call costs its 256 KiB state's set-up whatever the input. */
static const size_t end_sizes[] = { 48 };
/* The repeat copies the data from here: early, so that any search finds it. */
#define REPEAT_SOURCE 8

/* The i-th (size, start, final) combination with a repeat of >= 4 bytes. */
static int end_shape(size_t i, size_t *n, size_t *s, size_t *f)
{
    size_t a, b, c, k = 0;
    for (a = 0; a < sizeof end_sizes / sizeof end_sizes[0]; a++)
        for (b = 0; b < sizeof repeat_starts / sizeof repeat_starts[0]; b++)
            for (c = 0; c < sizeof repeat_finals / sizeof repeat_finals[0]; c++) {
                /* a repeat of >= 4 bytes whose source (and the byte
                 * after it) lies before the byte before the repeat */
                if (repeat_starts[b] < repeat_finals[c] + 4 ||
                    REPEAT_SOURCE + 2 * repeat_starts[b] + 2 > end_sizes[a])
                    continue;
                if (k++ == i) {
                    *n = end_sizes[a];
                    *s = repeat_starts[b];
                    *f = repeat_finals[c];
                    return 1;
                }
            }
    return 0;
}

static int end_input(size_t i, int with_history, sweep_input *in)
{
    static unsigned char data[48];   /* the largest end_sizes */
    size_t n, s, f, len;
    (void)with_history;
    if (!end_shape(i, &n, &s, &f))
        return 0;
    len = s - f;
    {
        unsigned char *u = testdata_make("unique", n, 12 + i);
        memcpy(data, u, n);
        free(u);
    }
    memcpy(data + n - s, data + REPEAT_SOURCE, len);
    /* The repeat extends neither backward nor forward: the natural match
     * is exactly [n - s, n - f). */
    if (data[n - s - 1] == data[REPEAT_SOURCE - 1])
        data[n - s - 1] ^= 0x5A;
    if (f && data[n - f] == data[REPEAT_SOURCE + len])
        data[n - f] ^= 0x5A;
    in->data = data;
    in->n = n;
    in->split = n / 2;
    snprintf(in->what, sizeof in->what, "%zu bytes, a %zu-byte repeat starting %zu bytes "
             "before the end, %zu bytes after it%s", n, len, s, f,
             with_history ? " (history: the first half)" : "");
    return 1;
}

static check_result chk_end_compressor(const void *arg, char *msg, unsigned cap)
{
    return sweep_run_compressor(subject, arg, end_input, msg, cap);
}

/* ---- hand-made blocks (contracts.h: block_put_sequence) -------------------------- */

static const size_t last_match_starts[] = { 13, 12, 11 };
static const size_t last_literals[] = { 0, 4, 5, 6 };
static const size_t literals_before[] = { 0, 15 };   /* 15: a length byte */
/* Shapes beyond that grid, {k, s, f}: a 14-literal sequence with a 4-byte
 * match that starts 32, 31 or 30 bytes before the end (k + s), then f
 * literals. lz4's safe loop copies such a short sequence with fixed 16 +
 * 18-byte copies when at least 32 bytes of output remain; a decoder that
 * takes that shortcut at 31 writes one byte past the output (make mutate:
 * lz4 1.10.0's shortoend `oend - 14 - 18` made `- 17`). */
static const size_t shortcut_shapes[][3] = { { 14, 18, 14 }, { 14, 17, 13 }, { 14, 16, 12 } };
#define DICT_LEN 64
#define FIRST_LITERALS 32
#define FIRST_MATCH 20

typedef struct end_block {
    block_writer w;
    size_t n;            /* decoded size */
    size_t start, final; /* the last match starts `start` bytes before the end */
    char what[160];
} end_block;

/* Block i (i < end_block_count) for a decoder with (dict) or without an
 * external dictionary: 32 literals, a 20-byte match, k literals, the last
 * match (into the output, or into the dictionary), f literals. */
static void make_end_block(size_t i, int dict, const unsigned char *lit, end_block *e)
{
    const size_t nk = sizeof literals_before / sizeof literals_before[0];
    const size_t nf = sizeof last_literals / sizeof last_literals[0];
    const size_t grid = nk * nf * (sizeof last_match_starts / sizeof last_match_starts[0]);
    size_t k, f, s, at;
    if (i < grid) {
        k = literals_before[i % nk];
        f = last_literals[i / nk % nf];
        s = last_match_starts[i / nk / nf];
    } else {
        k = shortcut_shapes[i - grid][0];
        s = shortcut_shapes[i - grid][1];
        f = shortcut_shapes[i - grid][2];
    }
    e->w.n = 0;
    block_put_sequence(&e->w, lit, FIRST_LITERALS, FIRST_LITERALS, FIRST_MATCH);
    at = FIRST_LITERALS + FIRST_MATCH + k;   /* output position of the last match */
    /* Its source: 40 bytes back in the output, or 20 bytes before the end
     * of the dictionary (s - f <= 13 bytes: all inside it). */
    block_put_sequence(&e->w, lit + FIRST_LITERALS, k, (unsigned)(dict ? at + 20 : 40), s - f);
    block_put_sequence(&e->w, lit + FIRST_LITERALS + k, f, 0, 0);
    e->n = at + s;
    e->start = s;
    e->final = f;
    snprintf(e->what, sizeof e->what, "block (%zu bytes out): last match %zu bytes before the "
             "end, %zu final literals, %zu literals before it%s", e->n, s, f, k,
             dict ? ", match in the dictionary" : "");
}

static size_t end_block_count(void)
{
    return (sizeof literals_before / sizeof literals_before[0]) *
           (sizeof last_literals / sizeof last_literals[0]) *
           (sizeof last_match_starts / sizeof last_match_starts[0]) +
           sizeof shortcut_shapes / sizeof shortcut_shapes[0];
}

/* check.variant of the decoder checks. */
enum end_decoder { ED_SAFE, ED_PARTIAL, ED_FAST, ED_USING_DICT };

/* One call of c's decoder on block e: capacity cap (fast: the original
 * size), partial target; judged against ref (judge.h). */
static check_result end_call(const check *c, const end_block *e, const unsigned char *dict,
                             size_t cap, size_t target, char *msg, unsigned msg_cap)
{
    const int with_dict = c->variant == ED_USING_DICT;
    guard_buf in = guard_dup(e->w.b, e->w.n), out = guard_alloc(cap, 0xA5);
    guard_buf gd = guard_dup(dict, with_dict ? DICT_LEN : 0);
    unsigned char *ref_out = xmalloc(cap);
    ref_decode_params p;
    ref_decode_result last;
    judge_ref ref;
    judgement v;
    size_t len = 0;
    int r = -1;
    check_result res = CHECK_PASS;
    const char *src = (const char *)in.data;
    char *dst = (char *)out.data;

    char label[96];
    /* The block in the buffer map, so that a fault report names it. */
    snprintf(label, sizeof label, "input(last_match_%zu_before_end,final_literals_%zu,%s)",
             e->start, e->final, with_dict ? "dictionary" : "no_dictionary");
    guard_label(&in, label);
    guard_label(&gd, "dictionary");
    memset(&p, 0, sizeof p);
    p.src = e->w.b;
    p.src_len = e->w.n;
    p.dst = ref_out;
    p.dst_cap = cap;
    p.dict = with_dict ? dict : NULL;
    p.dict_len = with_dict ? DICT_LEN : 0;
    p.partial = c->variant == ED_PARTIAL;
    p.target = target;
    p.stop_at_output_end = c->variant == ED_FAST;
    ref = judge_ref_block(&p, &last);
    switch ((enum end_decoder)c->variant) {
    case ED_SAFE: r = subject->decompress_safe(src, dst, (int)e->w.n, (int)cap); break;
    case ED_PARTIAL:
        r = subject->decompress_safe_partial(src, dst, (int)e->w.n, (int)target, (int)cap);
        /* Its input is the whole block (judge.h). */
        ref.strict_ok = judge_partial_strict_ok(
            ref.strict_ok, judge_block_strict_whole(e->w.b, e->w.n, NULL, 0) == 1);
        break;
    case ED_FAST: r = subject->decompress_fast(src, dst, (int)cap); break;
    case ED_USING_DICT:
        r = subject->decompress_safe_using_dict(src, dst, (int)e->w.n, (int)cap,
                                                (const char *)gd.data, DICT_LEN);
        break;
    }
    if (c->variant == ED_SAFE)   /* a project API that reports no size (subject.h) */
        r = subject_decoded_size(subject, r, (int)cap, ref.compat_ok ? (long long)ref.len : -1);
    if (r >= 0)
        len = c->variant == ED_FAST ? cap : (size_t)r;
    if (r >= 0 && len > cap) {
        res = check_fail(msg, msg_cap, FAIL_RETURN_ABOVE_CAPACITY, "%s: capacity %zu: returned %d",
                         e->what, cap, r);
    } else if ((v = judge_output(&ref, r >= 0, out.data, len)) != JUDGE_PASS) {
        /* a partial decode past its target says more than the bytes */
        enum fail_class cls = c->variant == ED_PARTIAL && r >= 0 && len > target
                                  ? FAIL_RETURN_ABOVE_TARGET
                                  : contract_judged_class(v, &ref, len);
        res = check_fail(msg, msg_cap, cls, "%s; %s %zu: returned %d, ref strict %s, "
                         "compatible %s (%zu bytes): %s", e->what,
                         c->variant == ED_FAST ? "original size" : "capacity", cap, r,
                         ref.strict_ok ? "accepts" : "rejects",
                         ref.compat_ok ? "accepts" : "rejects", ref.len,
                         contract_class_name(judgement_class(v)));
        if (c->variant == ED_PARTIAL) {
            size_t used = strlen(msg);
            snprintf(msg + used, msg_cap - used, " (target %zu)", target);
        }
    } else if (c->variant == ED_FAST && r >= 0 && ref.compat_ok && (size_t)r != last.consumed) {
        /* LZ4_decompress_fast returns the input bytes it read. */
        res = check_fail(msg, msg_cap, FAIL_BAD_CONSUMED, "%s; original size %zu: returned %d, "
                         "ref reads %zu bytes", e->what, cap, r, last.consumed);
    }
    free(ref_out);
    guard_free(&in);
    guard_free(&out);
    guard_free(&gd);
    return res;
}

static check_result chk_end_decoder(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    unsigned char *lit = testdata_make("unique", 128, 13);
    unsigned char *dict = testdata_make("unique", DICT_LEN, 14);
    size_t i;
    check_result res = CHECK_PASS;
    for (i = 0; i < end_block_count() && !check_failed(res); i++) {
        end_block e;
        make_end_block(i, c->variant == ED_USING_DICT, lit, &e);
        switch ((enum end_decoder)c->variant) {
        case ED_SAFE: case ED_USING_DICT:
            /* Exact capacity: a rule tested against the capacity is the
             * rule; ample capacity: it no longer is. */
            res = end_call(c, &e, dict, e.n, 0, msg, cap);
            if (!check_failed(res))
                res = end_call(c, &e, dict, e.n + 32, 0, msg, cap);
            break;
        case ED_PARTIAL: {
            /* Targets in the last match, at its start and end, in the last
             * literals, at the end and beyond (capacity: the decoded size,
             * and ample once). */
            const size_t targets[] = { e.n - e.start, e.n - e.start + 1, e.n - e.final,
                                       e.n - 1, e.n };
            size_t t;
            for (t = 0; t < sizeof targets / sizeof targets[0] && !check_failed(res); t++)
                res = end_call(c, &e, dict, e.n, targets[t], msg, cap);
            if (!check_failed(res))
                res = end_call(c, &e, dict, e.n + 32, e.n + 32, msg, cap);
            break;
        }
        case ED_FAST:
            res = end_call(c, &e, dict, e.n, 0, msg, cap);
            break;
        }
    }
    free(lit);
    free(dict);
    return res;
}

void contracts_add_sweep_end(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    sweep_add_compressors(add, "sweep.end", chk_end_compressor);
    add("sweep.end.decompress_safe", CAP_DECOMPRESS_SAFE, chk_end_decoder, ED_SAFE, 0);
    add("sweep.end.decompress_safe_partial", CAP_DECOMPRESS_PARTIAL, chk_end_decoder,
        ED_PARTIAL, 0);
    add("sweep.end.decompress_fast", CAP_DECOMPRESS_FAST, chk_end_decoder, ED_FAST, 0);
    add("sweep.end.decompress_safe_using_dict", CAP_DECOMPRESS_USING_DICT, chk_end_decoder,
        ED_USING_DICT, 0);
}
