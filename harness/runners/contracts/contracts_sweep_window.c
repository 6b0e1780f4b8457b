/*
 * Boundary sweep of the match window (issue 25, "Find one-line bugs without
 * luck"): data whose only repeats at a distance of 64 KiB or so sit at
 * exactly D = 65534, 65535, 65536 and 65537 bytes, through every compressor
 * form a subject has (contracts_sweep.h, written here). An offset is 16 bits
 * and 0 is invalid, so the farthest a match may reach is 65535 bytes
 * (spec, "Compressed block format": offset); a compressor that takes the
 * match at 65536 writes offset 0 (65536 & 0xFFFF), one at 65537 offset 1,
 * and ref's strict decode of the block then fails or differs from the input.
 *
 * The data, for each D: a 32-byte segment S of "unique" bytes, zeros up to
 * position D, S again, then 64 unique bytes (so that the end-of-block rules
 * stay far from the repeat). Zeros, not unique filler: a run is coded as one
 * long match, so a hash-table compressor inserts almost nothing between the
 * two copies of S and still holds S's first position when it reaches the
 * second, whatever its hash function; with 64 KiB of unique filler the
 * candidate survives only by luck of the hash. The zero run is shorter than
 * 65534 bytes: no other repeat reaches that far.
 *
 * Forms with history split the data: the dictionary (a separate buffer) or
 * the first block ends 4096 bytes before the second S (a large history), or
 * just after the first S plus 16 zeros (a small one); either way the repeat
 * crosses the boundary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contracts_sweep.h"
#include "guard.h"
#include "testdata.h"

static const struct lz4_subject *subject;

/* ---- the compressor forms (contracts_sweep.h) ------------------------------ */

/* check.variant of a sweep compressor check: the form. */
enum sweep_form { SF_DEFAULT, SF_FAST, SF_HC, SF_DEST_SIZE, SF_USING_DICT, SF_STREAM,
                  SF_STREAM_HC, SF_STREAM_HC_DICT };

static const int fast_accels[] = { 1, 2, 8 };
/* Level 2 is lz4 1.10's "mid" compressor, 3..9 the hash-chain one, 10..12
 * the optimal parser (lz4hc.h). */
static const int stream_hc_levels[] = { 2, 3, 9, 12 };

static int form_has_history(int form)
{
    return form == SF_USING_DICT || form == SF_STREAM || form == SF_STREAM_HC ||
           form == SF_STREAM_HC_DICT;
}

/* PREFIX.FORM[level=N], one check per HC stream level. */
static void add_stream_hc_levels(contract_add_fn add, const char *prefix, const char *form,
                                 check_fn fn, int variant)
{
    char id[96];
    size_t i;
    for (i = 0; i < sizeof stream_hc_levels / sizeof stream_hc_levels[0]; i++) {
        snprintf(id, sizeof id, "%s.%s[level=%d]", prefix, form, stream_hc_levels[i]);
        add(id, CAP_STREAM_HC, fn, variant, stream_hc_levels[i]);
    }
}

void sweep_add_compressors(contract_add_fn add, const char *prefix, check_fn fn)
{
    char id[96];
    size_t i;
    int level;
    snprintf(id, sizeof id, "%s.compress_default", prefix);
    add(id, CAP_COMPRESS_DEFAULT, fn, SF_DEFAULT, 0);
    for (i = 0; i < sizeof fast_accels / sizeof fast_accels[0]; i++) {
        snprintf(id, sizeof id, "%s.compress_fast[accel=%d]", prefix, fast_accels[i]);
        add(id, CAP_COMPRESS_FAST, fn, SF_FAST, fast_accels[i]);
    }
    for (level = 1; level <= 12; level++) {
        snprintf(id, sizeof id, "%s.compress_hc[level=%d]", prefix, level);
        add(id, CAP_COMPRESS_HC, fn, SF_HC, level);
    }
    snprintf(id, sizeof id, "%s.compress_dest_size", prefix);
    add(id, CAP_COMPRESS_DEST_SIZE, fn, SF_DEST_SIZE, 0);
    snprintf(id, sizeof id, "%s.compress_using_dict", prefix);
    add(id, CAP_COMPRESS_USING_DICT, fn, SF_USING_DICT, 0);
    snprintf(id, sizeof id, "%s.stream", prefix);
    add(id, CAP_STREAM_COMPRESS, fn, SF_STREAM, 0);
    add_stream_hc_levels(add, prefix, "stream_hc", fn, SF_STREAM_HC);
    add_stream_hc_levels(add, prefix, "stream_hc_dict", fn, SF_STREAM_HC_DICT);
}

void sweep_add_history_compressors(contract_add_fn add, const char *prefix, check_fn fn)
{
    char id[96];
    snprintf(id, sizeof id, "%s.compress_using_dict", prefix);
    add(id, CAP_COMPRESS_USING_DICT, fn, SF_USING_DICT, 0);
    snprintf(id, sizeof id, "%s.stream", prefix);
    add(id, CAP_STREAM_COMPRESS, fn, SF_STREAM, 0);
    add_stream_hc_levels(add, prefix, "stream_hc_dict", fn, SF_STREAM_HC_DICT);
}

/* One block: src[0..n) compressed by c's form (st: its stream, or NULL)
 * into a guarded buffer of compressBound bytes; it must decode (ref strict)
 * to src with hist[0..hist_len) before it as history. part names the block
 * in the message. */
static check_result sweep_block(const check *c, void *st, const unsigned char *src, size_t n,
                                const unsigned char *hist, size_t hist_len, const char *part,
                                char *why, unsigned cap)
{
    const size_t bound = n + n / 255 + 16;
    guard_buf out = guard_alloc(bound, 0xA5);
    const char *s = (const char *)src;
    char *d = (char *)out.data;
    int consumed = (int)n, r = 0;
    check_result res;
    switch ((enum sweep_form)c->variant) {
    case SF_DEFAULT: r = subject->compress_default(s, d, (int)n, (int)bound); break;
    case SF_FAST: r = subject->compress_fast(s, d, (int)n, (int)bound, c->accel_or_level); break;
    case SF_HC: r = subject->compress_hc(s, d, (int)n, (int)bound, c->accel_or_level); break;
    case SF_DEST_SIZE: r = subject->compress_dest_size(s, d, &consumed, (int)bound); break;
    case SF_USING_DICT:
        r = subject->compress_using_dict((const char *)hist, (int)hist_len, s, d, (int)n,
                                         (int)bound, 1);
        break;
    case SF_STREAM: case SF_STREAM_HC: case SF_STREAM_HC_DICT:
        r = subject->stream_compress(st, s, d, (int)n, (int)bound, 1);
        break;
    }
    if (r <= 0 || (size_t)r > bound) {
        res = check_fail(why, cap, r > 0 ? FAIL_RETURN_ABOVE_CAPACITY : FAIL_FAILS_WITHIN_BOUND,
                         "%s: returned %d into the bound %zu", part, r, bound);
    } else if ((size_t)consumed != n) {   /* destSize with target = bound: all of it */
        res = check_fail(why, cap, consumed >= 0 && (size_t)consumed < n ? FAIL_DEST_SIZE_SHORT
                                                                         : FAIL_BAD_CONSUMED,
                         "%s: target = bound %zu, consumed %d of %zu", part, bound, consumed, n);
    } else {
        /* Only the last 64 KiB of history is reachable (REF_MAX_DICT). */
        size_t keep = hist_len < 65536 ? hist_len : 65536;
        char ref_says[200];
        res = contract_ref_decodes_to(out.data, (size_t)r, src, n,
                                      keep ? (const char *)hist + hist_len - keep : NULL, keep,
                                      ref_says, sizeof ref_says);
        if (check_failed(res))
            snprintf(why, cap, "%s: %s", part, ref_says);
    }
    guard_free(&out);
    return res;
}

/* Input in through c's form; st: the form's stream (NULL for the one-shot
 * forms), made once per check and reset for every input. */
static check_result sweep_form_run(const check *c, void *st, const sweep_input *in, char *why,
                                   unsigned cap)
{
    /* The data in one guarded buffer: a stream's two blocks lie one after
     * the other in it (the "prefix" history of lz4.h); the dictionary of a
     * dictionary form is a separate copy (the external-dictionary path). */
    guard_buf src = guard_dup(in->data, in->n);
    guard_buf dict = guard_dup(in->data, form_has_history(c->variant) ? in->split : 0);
    const size_t split = in->split, rest = in->n - in->split;
    check_result res = CHECK_PASS;
    guard_label(&dict, "dictionary");
    switch ((enum sweep_form)c->variant) {
    case SF_DEFAULT: case SF_FAST: case SF_HC: case SF_DEST_SIZE:
        res = sweep_block(c, NULL, src.data, in->n, NULL, 0, "the block", why, cap);
        break;
    case SF_USING_DICT:
        res = sweep_block(c, NULL, src.data + split, rest, dict.data, split,
                          "the block after the dictionary", why, cap);
        break;
    case SF_STREAM: case SF_STREAM_HC: case SF_STREAM_HC_DICT:
        /* A stream is reset before use, as kernel callers do (the kernel
         * has no constructor: adapter_stream_kernel.c); for HC,
         * LZ4_resetStreamHC sets the level. */
        subject->stream_reset(st, c->variant == SF_STREAM ? 0 : c->accel_or_level, 0);
        if (c->variant == SF_STREAM_HC_DICT) {
            subject->stream_load_dict(st, (const char *)dict.data, (int)split);
            res = sweep_block(c, st, src.data + split, rest, dict.data, split,
                              "the block after the loaded dictionary", why, cap);
        } else {
            res = sweep_block(c, st, src.data, split, NULL, 0, "block 1 of 2", why, cap);
            if (!check_failed(res))
                res = sweep_block(c, st, src.data + split, rest, src.data, split,
                                  "block 2 of 2", why, cap);
        }
        break;
    }
    guard_free(&src);
    guard_free(&dict);
    return res;
}

check_result sweep_run_compressor(const struct lz4_subject *s, const check *c,
                                  sweep_input_fn gen, char *msg, unsigned cap)
{
    const int streaming = c->variant == SF_STREAM || c->variant == SF_STREAM_HC ||
                          c->variant == SF_STREAM_HC_DICT;
    sweep_input in;
    void *st = NULL;
    size_t i;
    check_result res = CHECK_PASS;
    subject = s;
    if (streaming && !(st = subject->stream_create(c->variant != SF_STREAM)))
        return check_fail(msg, cap, FAIL_CREATE_FAILED, "stream_create returned NULL");
    for (i = 0; !check_failed(res) && gen(i, form_has_history(c->variant), &in); i++) {
        char why[400];
        res = sweep_form_run(c, st, &in, why, sizeof why);
        if (check_failed(res))
            snprintf(msg, cap, "%s: %s", in.what, why);
    }
    if (st)
        subject->stream_free(st);
    return res;
}

/* ---- the window class ------------------------------------------------------- */

#define SEGMENT 32   /* the repeated bytes */
#define TAIL 64      /* unique bytes after the repeat */

static const size_t distances[] = { 65534, 65535, 65536, 65537 };

/* Splits of a form with history: the history ends this far before the
 * second S (a large dictionary), or just after the first S (a small one). */
#define SPLIT_BEFORE_REPEAT 4096
#define SPLIT_SMALL (SEGMENT + 16)

static int window_input(size_t i, int with_history, sweep_input *in)
{
    static unsigned char data[65537 + SEGMENT + TAIL];
    static unsigned char *unique;
    const size_t per = with_history ? 2 : 1;
    size_t d;
    if (i >= per * (sizeof distances / sizeof distances[0]))
        return 0;
    if (!unique)
        unique = testdata_make("unique", SEGMENT + TAIL, 25);
    d = distances[i / per];
    memcpy(data, unique, SEGMENT);
    memset(data + SEGMENT, 0, d - SEGMENT);
    memcpy(data + d, unique, SEGMENT + TAIL);
    in->data = data;
    in->n = d + SEGMENT + TAIL;
    in->split = i % per ? SPLIT_SMALL : d - SPLIT_BEFORE_REPEAT;
    if (with_history)
        snprintf(in->what, sizeof in->what, "repeat at distance %zu (%zu bytes, history %zu "
                 "bytes, the repeat %zu bytes into the next)", d, in->n, in->split,
                 d - in->split);
    else
        snprintf(in->what, sizeof in->what, "repeat at distance %zu (%zu bytes)", d, in->n);
    return 1;
}

static check_result chk_window(const void *arg, char *msg, unsigned cap)
{
    return sweep_run_compressor(subject, arg, window_input, msg, cap);
}

void contracts_add_sweep_window(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    sweep_add_compressors(add, "sweep.window", chk_window);
}
