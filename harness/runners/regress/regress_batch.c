/*
 * The regression runner's batch mode (regress.c --batch): one test per line
 * of stdin, "ID<TAB>key=value<TAB>key=value...", each run in a forked child
 * with its own timeout (isolate.c), so a crash or a hang is that test's
 * result and the next test starts from the parent's untouched state. What
 * the child prints (its record, regress.c) comes first on stdout; then the
 * parent prints one closing line per test:
 *   {"batch":"ID","exit":N,"timeout":0|1,"stderr":"..."}
 * exit = the child's exit status, or minus the signal that ended it (as
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

#include "buf.h"
#include "isolate.h"
#include "jsonl.h"
#include "regress.h"

enum { MAX_ARGS = 64 };

typedef struct batch_test {
    const struct lz4_subject *s;
    regress_test_fn run;
    int argc;
    char *argv[MAX_ARGS];
} batch_test;

/* isolate.h's check: the test prints its record; stdout is flushed before
 * the child's _exit. */
static int run_one(const void *arg, char *msg, unsigned cap)
{
    const batch_test *t = arg;
    (void)msg;
    (void)cap;
    t->run(t->s, t->argc, (char **)t->argv);
    fflush(stdout);
    return 0;
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

int regress_batch(const struct lz4_subject *s, regress_test_fn run)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned timeout = 120;
    buf out = { 0 };

    while ((n = getline(&line, &cap, stdin)) > 0) {
        batch_test t;
        isolate_result r;
        const char *id;
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        if (!strncmp(line, "timeout=", 8)) {
            timeout = (unsigned)strtoul(line + 8, NULL, 10);
            continue;
        }
        t.s = s;
        t.run = run;
        id = split(line, &t);
        r = isolate_run(run_one, &t, timeout, 0);
        out.n = 0;
        buf_append(&out, "{\"batch\":", 9, 0);
        json_append_string(&out, id);
        {
            char num[64];
            int len = snprintf(num, sizeof num, ",\"exit\":%d,\"timeout\":%d,\"stderr\":",
                               isolate_last_status(), r.verdict == V_TIMEOUT);
            buf_append(&out, num, (size_t)len, 0);
        }
        json_append_string(&out, isolate_last_stderr());
        buf_append(&out, "}\n", 3, 0);      /* with the terminating NUL */
        fputs((const char *)out.p, stdout);
        fflush(stdout);
    }
    free(line);
    buf_free(&out);
    return 0;
}
