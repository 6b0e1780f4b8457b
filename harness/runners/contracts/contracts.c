/*
 * API contract tests: every entry point a subject has, against the contract
 * of its API generation (docs/fix-history.md#kernel-lz4-generations), with
 * guard pages right after the input and output buffers (guard.h) as well as
 * the sanitizers. The checks
 * live in one file per part of the API (contracts.h); this file keeps the
 * table and runs it.
 *
 * Each check runs in a child process (isolate.h) and prints one JSON
 * record per line:
 *   {"subject":..,"generation":..,"check":..,"verdict":..,"evidence":..,"ubsan":..}
 * harness/runners/contracts/run.py builds the subject, runs this program and
 * classifies the records (known findings, report).
 *
 * Usage: contracts [--list] [--no-fork] [--only PREFIX] [--id ID]...
 * (--id, repeatable: exactly those checks; harness/runners/contracts/run.py
 * runs the checks whose pass it has not kept, harness/result_memo.py)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contracts.h"
#include "isolate.h"
#include "jsonl.h"
#include "subject.h"

/* Room for every check of every part (220 with the sweeps); tests/test_contracts.py
 * builds the runner with a smaller table to see the bound hold. */
#ifndef MAX_CHECKS
#define MAX_CHECKS 320
#endif
static check checks[MAX_CHECKS];
static int nchecks;

/* The contract_add_fn of every part. A table too small or an id too long
 * is a bug of lz4gate: stop before any check runs. */
static void add(const char *id, subject_caps caps, check_fn fn, int variant, int accel_or_level)
{
    check *c;
    if (nchecks == MAX_CHECKS) {
        fprintf(stderr, "contracts: more than %d checks registered (at %s); raise MAX_CHECKS "
                "in contracts.c\n", MAX_CHECKS, id);
        exit(2);
    }
    c = &checks[nchecks++];
    if ((size_t)snprintf(c->id, sizeof c->id, "%s", id) >= sizeof c->id) {
        fprintf(stderr, "contracts: check id longer than %zu bytes: %s\n", sizeof c->id - 1, id);
        exit(2);
    }
    if (strpbrk(id, " \t\n")) {   /* records and --check take an id as one word */
        fprintf(stderr, "contracts: check id with a blank: '%s'\n", id);
        exit(2);
    }
    c->caps = caps;
    c->fn = fn;
    c->variant = variant;
    c->accel_or_level = accel_or_level;
}

static void build_table(const struct lz4_subject *subject)
{
    contracts_add_compress(subject, add);
    contracts_add_decode(subject, add);
    contracts_add_old_api(subject, add);
    contracts_add_frame_decode(subject, add);
    contracts_add_frame_compress(subject, add);
    contracts_add_sweep_window(subject, add);
    contracts_add_sweep_end(subject, add);
    contracts_add_sweep_lengths(subject, add);
    contracts_add_sweep_capacity(subject, add);
    contracts_add_sweep_input(subject, add);
    contracts_add_sweep_dict(subject, add);
    contracts_add_sweep_stream(subject, add);
    contracts_add_sweep_stream_empty(subject, add);
    contracts_add_sweep_header(subject, add);
    contracts_add_sweep_alloc(subject, add);
}

static const struct lz4_subject *subject;

/* isolate_done_fn: the record of check picked[i]. */
static void report(size_t i, const isolate_result *r, void *ctx)
{
    const check *c = ((const check **)ctx)[i];
    isolate_result na;
    if (r->verdict == V_NOT_APPLICABLE) {
        /* the first entry point of the check's that the subject lacks */
        subject_caps missing = c->caps & ~subject->caps;
        na = *r;
        snprintf(na.evidence, sizeof na.evidence, "no %s entry point",
                 subject_cap_name(missing & (~missing + 1ull)));
        r = &na;
    }
    print_record(subject, c->id, r);
}

/* Whether id is one of the --id arguments (none given: every id is). */
static int picked_by_id(const char *id, char **ids, int nids)
{
    int k;
    for (k = 0; k < nids; k++)
        if (!strcmp(ids[k], id))
            return 1;
    return nids == 0;
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    char **ids = calloc((size_t)argc, sizeof *ids);
    int i, list = 0, no_fork = 0, nids = 0;
    isolate_job *jobs;
    const check **picked;
    size_t n = 0;
    if (!ids) {
        fprintf(stderr, "contracts: out of memory\n");
        return 2;
    }
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--no-fork"))
            no_fork = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--id") && i + 1 < argc)
            ids[nids++] = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--list] [--no-fork] [--only PREFIX] [--id ID]...\n",
                    argv[0]);
            return 2;
        }
    }
    subject = lz4gate_subject();
    build_table(subject);
    jobs = calloc((size_t)nchecks + 1, sizeof *jobs);
    picked = calloc((size_t)nchecks + 1, sizeof *picked);
    if (!jobs || !picked) {
        fprintf(stderr, "contracts: out of memory\n");
        return 2;
    }
    for (i = 0; i < nchecks; i++) {
        const check *c = &checks[i];
        if ((only && strncmp(c->id, only, strlen(only)) != 0) || !picked_by_id(c->id, ids, nids))
            continue;
        if (list) {
            printf("%s\n", c->id);
            continue;
        }
        picked[n] = c;
        /* a check whose entry points the subject lacks is not run (n/a) */
        if ((subject->caps & c->caps) == c->caps) {
            jobs[n].fn = c->fn;
            jobs[n].arg = c;
            jobs[n].timeout = 120;
        }
        n++;
    }
    isolate_each(jobs, n, report, (void *)picked, no_fork);
    free(jobs);
    free(picked);
    free(ids);
    return 0;
}
