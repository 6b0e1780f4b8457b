/*
 * The regression runner's batch mode (regress.c --batch): one test per line
 * of stdin, "ID<TAB>key=value<TAB>key=value...", each isolated with its own
 * timeout (isolate.c isolate_each), so a crash or a hang is that test's
 * result and the next test starts in a process that nothing failed in. What
 * test prints (its record, regress.c) comes first on stdout; then one
 * closing line per test:
 *   {"batch":"ID","exit":N,"timeout":0|1,"stderr":"..."}
 * exit = how the test's process ended: 0 for a test that ran to its end,
 * else the exit status, or minus the signal that ended it (as
 * Python's returncode), stderr = what the child wrote there (isolate.c keeps
 * its first and last 16 KiB). harness/runners/regress/run.py reads both.
 * A line "timeout=N" sets the timeout of the tests after it (seconds).
 * Starting a sanitizer or qemu-i386 program costs more than most tests:
 * this is what makes a configuration's 260 tests one start (issue 11).
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "isolate.h"
#include "jsonl.h"
#include "regress.h"

enum { MAX_ARGS = 64 };

typedef struct batch_test {
    const struct lz4_subject *s;
    regress_test_fn run;
    const char *id;         /* the line's first field (the line's own copy) */
    unsigned timeout;
    int argc;
    char *argv[MAX_ARGS];
} batch_test;

/* isolate.h's check: the test prints its record (stdout flushed, so it
 * comes before the closing line); the class of its failure when it did not
 * pass (the record names it too). */
static check_result run_one(const void *arg, char *msg, unsigned cap)
{
    const batch_test *t = arg;
    check_result r = t->run(t->s, t->argc, (char **)t->argv);
    fflush(stdout);
    if (check_failed(r))
        snprintf(msg, cap, "the test's record says FAIL");
    return r;
}

/* Split line at tabs into t->argv[1..]; argv[0] is the program's place
 * (case_arg reads from index 1). Returns the ID (the first field). */
static const char *split(char *line, batch_test *t)
{
    char *id = line, *p = strchr(line, '\t');
    t->argc = 1;
    t->argv[0] = "regress";
    while (p) {
        *p++ = '\0';
        if (t->argc == MAX_ARGS - 1) {
            fprintf(stderr, "regress --batch: test %s has more than %d arguments\n", id,
                    MAX_ARGS - 2);
            exit(2);
        }
        t->argv[t->argc++] = p;
        p = strchr(p, '\t');
    }
    t->argv[t->argc] = NULL;
    return id;
}

/* isolate_done_fn: the closing line of test i (after the record the test
 * printed itself, if it got that far). */
static void close_test(size_t i, const isolate_result *r, void *ctx)
{
    const batch_test *t = &((const batch_test *)ctx)[i];
    static buf out;
    char num[64];
    int len = snprintf(num, sizeof num, ",\"exit\":%d,\"timeout\":%d,\"stderr\":",
                       isolate_last_status(), r->verdict == V_TIMEOUT);
    out.n = 0;
    buf_append(&out, "{\"batch\":", 9, 0);
    json_append_string(&out, t->id);
    buf_append(&out, num, (size_t)len, 0);
    json_append_string(&out, isolate_last_stderr());
    buf_append(&out, "}\n", 3, 0);      /* with the terminating NUL */
    fputs((const char *)out.p, stdout);
}

int regress_batch(const struct lz4_subject *s, regress_test_fn run)
{
    char *line = NULL;
    size_t cap = 0, n = 0, room = 0, i;
    ssize_t got;
    unsigned timeout = 120;
    batch_test *tests = NULL;
    isolate_job *jobs;

    /* every line first: the tests then run one after another in a worker
     * process (isolate_each), a fresh one after any test that crashes or
     * writes to stderr */
    while ((got = getline(&line, &cap, stdin)) > 0) {
        batch_test *t;
        if (line[got - 1] == '\n')
            line[--got] = '\0';
        if (!strncmp(line, "timeout=", 8)) {
            timeout = (unsigned)strtoul(line + 8, NULL, 10);
            continue;
        }
        if (n == room) {
            room = room ? 2 * room : 256;
            tests = xrealloc(tests, room * sizeof *tests);
        }
        t = &tests[n++];
        t->s = s;
        t->run = run;
        t->timeout = timeout;
        t->id = split(xmemdup(line, (size_t)got + 1), t);
    }
    free(line);
    jobs = xmalloc((n + 1) * sizeof *jobs);
    for (i = 0; i < n; i++) {
        jobs[i].fn = run_one;
        jobs[i].arg = &tests[i];
        jobs[i].timeout = tests[i].timeout;
    }
    isolate_each(jobs, n, close_test, tests, 0);
    for (i = 0; i < n; i++)
        free((char *)tests[i].id);
    free(jobs);
    free(tests);
    return 0;
}
