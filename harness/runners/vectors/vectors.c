/*
 * Known-answer vectors: runs every vector of corpus/vectors/ (written by
 * make_vectors.c and described by its index.json; vector_load.h reads them)
 * on the subject linked into this program.
 *
 * For each vector and each decoder entry point the subject has:
 *   decompress_safe             whole-block vectors without a dictionary
 *   decompress_safe_partial     target = capacity (vectors without a
 *                               dictionary and with capacity > 0)
 *   decompress_safe_using_dict  vectors with a dictionary
 * the block is copied to a buffer that ends at a guard page (guard.h),
 * the output buffer ends at one too, and the call runs in a child process
 * (isolate.h). It runs twice, into an output buffer filled with 0x00
 * and one filled with 0xFF: the result must not depend on what the buffer
 * held (the information leak the spec warns about for offset 0).
 *
 * Verdict: ref's one rule (harness/runners/common/judge.h), and both
 * runs agree:
 *   the subject accepts (returns r >= 0): a profile whose expectation is
 *   "valid" has output_size r and the SHA-256 of the r bytes written;
 *   the subject rejects (r < 0): fine unless the strict profile expects
 *   "valid" (for a partial decode: and ref strict accepts the whole block,
 *   not only its part up to the target).
 * One exception: a partial decode of a block that is
 * "malformed" (no profile accepts it even with ample capacity: truncated,
 * bad offset...) may also return its first r bytes, r <= prefix_size, as far
 * as the block defines them before its defect: upstream's
 * LZ4_decompress_safe_partial returns what it decoded when the input ends,
 * the kernel's does for some truncations, the reference rejects; none of
 * these is wrong, producing bytes the block does not define is; and a
 * prefix shorter than the capacity must end where the input runs out
 * (defined_prefix.h, ends_where_input_does: ULZ4-2026-1753). The prefix
 * is recomputed with the reference decoder and checked against the index.
 * That exception is the row PARTIAL_EARLY_END of ref's latitude table
 * (ref/profile.c); the runner refuses to start if the row is missing.
 * Otherwise FAIL (or CRASH: a guard page, ASan, a signal). One JSON record
 * per line, the same fields as the contract runner (jsonl.h):
 *   {"subject","generation","check":"vector.<id>.<entry point>","verdict",
 *    "evidence","ubsan"}
 *
 * Usage: vectors [--list] [--no-fork] [--only PREFIX] [--dir DIR]
 *   DIR defaults to corpus/vectors (run from the top of lz4gate).
 * Exit status: 0 when every record was printed (verdicts are in the records),
 * 2 when the index or a vector file cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "defined_prefix.h"
#include "guard.h"
#include "isolate.h"
#include "jsonl.h"
#include "lz4ref.h"
#include "sha256.h"
#include "subject.h"
#include "vector_load.h"
#include "judge.h"

static const struct lz4_subject *S;

enum entry_point { EP_SAFE, EP_PARTIAL, EP_USING_DICT, EP_COUNT };
static const char *const ep_names[EP_COUNT] = {
    "decompress_safe", "decompress_safe_partial", "decompress_safe_using_dict"
};
static const unsigned ep_caps[EP_COUNT] = {
    CAP_DECOMPRESS_SAFE, CAP_DECOMPRESS_PARTIAL, CAP_DECOMPRESS_USING_DICT
};

/* ---- the check ---------------------------------------------------------- */

typedef struct job {
    const vector *v;
    enum entry_point ep;
    char id[160];
} job;

static int call(const job *j, const guard_buf *in, const guard_buf *dict, guard_buf *out)
{
    const vector *v = j->v;
    int cap = (int)v->capacity;
    switch (j->ep) {
    case EP_SAFE:
        return S->decompress_safe((const char *)in->data, (char *)out->data, (int)v->block_len,
                                  cap);
    case EP_PARTIAL:
        return S->decompress_safe_partial((const char *)in->data, (char *)out->data,
                                          (int)v->block_len, cap, cap);
    case EP_USING_DICT:
        return S->decompress_safe_using_dict((const char *)in->data, (char *)out->data,
                                             (int)v->block_len, cap,
                                             (const char *)dict->data, (int)v->dict_len);
    case EP_COUNT:
        break;
    }
    return -1;
}

static void describe(char *buf, size_t cap, const expectation *e)
{
    static const char *const names[2] = { "strict", "compatible" };
    size_t n = 0;
    int i;
    buf[0] = 0;
    for (i = 0; i < 2 && n < cap; i++) {
        const expect *x = &e->prof[i];
        int w = x->valid ? snprintf(buf + n, cap - n, "%s%s: valid, %zu bytes (%.12s)",
                                    i ? "; " : "", names[i], x->output_size, x->sha)
                         : snprintf(buf + n, cap - n, "%s%s: invalid (%s)", i ? "; " : "",
                                    names[i], x->status);
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

/* The latitude this runner applies (ref/profile.c), looked up in main. */
static const ref_latitude *early_end;

static check_result chk_vector(const void *arg, char *msg, unsigned cap)
{
    const job *j = arg;
    const vector *v = j->v;
    const expectation *e = j->ep == EP_PARTIAL ? &v->partial : &v->whole;
    guard_buf in = guard_dup(v->block, v->block_len);
    guard_buf dict = guard_dup(v->dict ? v->dict : (const unsigned char *)"", v->dict_len);
    guard_buf o0 = guard_alloc(v->capacity, 0x00), o1 = guard_alloc(v->capacity, 0xFF);
    char want[300], got_sha[65] = "";
    int r0, r1;
    check_result res = CHECK_PASS;

    guard_label(&dict, "dictionary");
    r0 = call(j, &in, &dict, &o0);
    r1 = call(j, &in, &dict, &o1);
    if (j->ep == EP_SAFE) {     /* a project API that reports no size (subject.h) */
        long long size = e->prof[1].valid ? (long long)e->prof[1].output_size : -1;
        r0 = subject_decoded_size(S, r0, (int)v->capacity, size);
        r1 = subject_decoded_size(S, r1, (int)v->capacity, size);
    }

    describe(want, sizeof want, e);
    if (r0 != r1 || (r0 > 0 && (size_t)r0 <= v->capacity &&
                     memcmp(o0.data, o1.data, (size_t)r0) != 0)) {
        snprintf(msg, cap, "the result depends on the output buffer's previous content: "
                 "returned %d into 0x00 bytes, %d into 0xFF bytes%s", r0, r1,
                 r0 == r1 ? ", different bytes" : "");
        res = CHECK_FAIL(FAIL_STALE_OUTPUT);
    } else if (r0 >= 0 && j->ep == EP_PARTIAL && e->malformed) {
        /* Malformed block, partial decode: a prefix of what it defines. */
        if ((size_t)r0 > e->prefix_size ||
            (r0 > 0 && memcmp(o0.data, v->prefix, (size_t)r0) != 0)) {
            if ((size_t)r0 <= v->capacity)
                sha256_hex(o0.data, (size_t)r0, got_sha);
            snprintf(msg, cap, "malformed block accepted: returned %d (output %.12s), not a "
                     "prefix of the %zu bytes it defines before its defect (%.12s), which "
                     "is all %s allows", r0, got_sha, e->prefix_size, e->prefix_sha,
                     early_end->name);
            /* the spec's latitude for a malformed block, except a size
             * above the capacity: callers read that much, whatever the input */
            res = CHECK_FAIL((size_t)r0 > v->capacity ? FAIL_RETURN_ABOVE_CAPACITY
                                                      : FAIL_MALFORMED_WRONG_OUTPUT);
        } else if ((size_t)r0 < v->capacity &&
                   !ends_where_input_does(v->block, v->block_len, v->capacity, (size_t)r0)) {
            snprintf(msg, cap, "malformed block accepted: returned %d of the %zu bytes it "
                     "defines before its defect, and the block does not end there: input "
                     "the decoder had to read is left (%s ends only where the input runs "
                     "out)", r0, e->prefix_size, early_end->name);
            res = CHECK_FAIL(FAIL_MALFORMED_WRONG_OUTPUT);
        }
    } else if (r0 >= 0 && (size_t)r0 > v->capacity) {
        snprintf(msg, cap, "accepted: returned %d, more than the capacity %zu", r0,
                 v->capacity);
        res = CHECK_FAIL(FAIL_RETURN_ABOVE_CAPACITY);
    } else {
        /* ref's one verdict (judge.h): the output is compared with the
         * compatible profile's, which is the strict one's where both accept
         * (and the only one where strict rejects). */
        const expect *x = &e->prof[1];
        int same = 0, strict_ok = e->prof[0].valid;
        judgement jv;
        if (r0 >= 0) {
            sha256_hex(o0.data, (size_t)r0, got_sha);
            same = x->valid && x->output_size == (size_t)r0 && !strcmp(x->sha, got_sha);
        } else if (j->ep == EP_PARTIAL && strict_ok) {
            /* A partial decode's input is the whole block: strict valid up
             * to the target is not enough (inv-last-literals-*: lz4 >= 1.9.2
             * rejects the block, which the spec allows). */
            int whole = judge_block_strict_whole(v->block, v->block_len, NULL, 0);
            if (whole < 0)
                fatal("out of memory");
            strict_ok = judge_partial_strict_ok(strict_ok, whole);
        }
        jv = judge_decode(r0 >= 0, same, strict_ok, x->valid);
        switch (jv) {
        case JUDGE_PASS:
            break;
        case JUDGE_REJECTS_VALID:
            snprintf(msg, cap, "rejected: returned %d; expected %s", r0, want);
            res = CHECK_FAIL(judgement_class(jv));
            break;
        case JUDGE_ACCEPTS_INVALID:
        case JUDGE_WRONG_OUTPUT:
        case JUDGE_OTHER_OUTPUT:
            snprintf(msg, cap, "accepted: returned %d (output %.12s); expected %s", r0,
                     got_sha, want);
            /* ref's valid output, another size returned: the length is wrong;
             * an offset-0 block decoded to other bytes than ref compatible's
             * zeros is its own class (block format, offset 0; the fuzz
             * oracle's too) */
            res = CHECK_FAIL(jv == JUDGE_WRONG_OUTPUT && x->output_size != (size_t)r0
                             ? FAIL_WRONG_LENGTH
                             : jv == JUDGE_OTHER_OUTPUT && !strcmp(e->prof[0].status,
                                                                   "offset_zero")
                             ? FAIL_OFFSET0_OUTPUT : judgement_class(jv));
            break;
        }
    }
    guard_free(&in);
    guard_free(&dict);
    guard_free(&o0);
    guard_free(&o1);
    return res;
}

/* ---- main ----------------------------------------------------------------- */

static int applies(const vector *v, enum entry_point ep)
{
    switch (ep) {
    case EP_SAFE: return v->dict == NULL;
    case EP_PARTIAL: return v->dict == NULL && v->partial.present && v->capacity > 0;
    case EP_USING_DICT: return v->dict != NULL;
    case EP_COUNT: break;
    }
    return 0;
}

/* isolate_done_fn: the record of job i. */
static void report(size_t i, const isolate_result *r, void *ctx)
{
    const job *j = &((const job *)ctx)[i];
    isolate_result na;
    if (r->verdict == V_NOT_APPLICABLE) {
        na = *r;
        snprintf(na.evidence, sizeof na.evidence, "no %s entry point",
                 subject_cap_name(ep_caps[j->ep]));
        r = &na;
    }
    print_record(S, j->id, r);
}

int main(int argc, char **argv)
{
    int i, list = 0, no_fork = 0;
    const char *only = NULL, *dir = "corpus/vectors";
    vector *vs;
    size_t n, k, picked = 0;
    job *all;
    isolate_job *jobs;

    early_end = ref_latitude_named("PARTIAL_EARLY_END");
    if (!early_end) {
        fprintf(stderr, "vectors: ref/profile.c has no PARTIAL_EARLY_END latitude\n");
        return 2;
    }
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--no-fork"))
            no_fork = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--list] [--no-fork] [--only PREFIX] [--dir DIR]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!sha256_self_test())
        fatal("SHA-256 self-test failed");
    S = lz4gate_subject();
    vs = load_vectors(dir, &n);
    all = xmalloc((n * EP_COUNT + 1) * sizeof *all);
    jobs = xmalloc((n * EP_COUNT + 1) * sizeof *jobs);
    for (k = 0; k < n; k++) {
        int ep;
        for (ep = 0; ep < EP_COUNT; ep++) {
            job *j = &all[picked];
            if (!applies(&vs[k], (enum entry_point)ep))
                continue;
            snprintf(j->id, sizeof j->id, "vector.%s.%s", vs[k].id, ep_names[ep]);
            if (only && strncmp(j->id, only, strlen(only)) != 0)
                continue;
            if (list) {
                printf("%s\n", j->id);
                continue;
            }
            j->v = &vs[k];
            j->ep = (enum entry_point)ep;
            /* an entry point the subject lacks: not run (n/a) */
            jobs[picked].fn = (S->caps & ep_caps[ep]) == ep_caps[ep] ? chk_vector : NULL;
            jobs[picked].arg = j;
            jobs[picked].timeout = 30;
            picked++;
        }
    }
    isolate_each(jobs, picked, report, all, no_fork);
    free(jobs);
    free(all);
    free_vectors(vs, n);
    return 0;
}
