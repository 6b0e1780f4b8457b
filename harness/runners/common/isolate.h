/*
 * Run one check in a child process, so that a crash, a sanitizer report or
 * a hang is a result for that check, not the end of the run.
 */
#ifndef LZ4GATE_ISOLATE_H
#define LZ4GATE_ISOLATE_H

#include <stddef.h>

#include "fail_class.h"

enum verdict { V_PASS = 0, V_FAIL, V_CRASH, V_TIMEOUT, V_NOT_APPLICABLE };

typedef struct isolate_result {
    enum verdict verdict;
    enum fail_class cls;   /* V_FAIL: the class the check named (fail_class.h) */
    char evidence[512];    /* the check's message, or the first sanitizer line */
    char ubsan[512];       /* first UBSan "runtime error:" line, if any (subject code) */
    char report[4096];     /* a crash: the sanitizer's report from its first line, and the
                            * buffer map (guard.h), for the reports to explain it */
} isolate_result;

/* The check: returns CHECK_PASS, or its failure's class with a message in
 * msg (cap bytes; check_fail writes both). */
typedef check_result (*check_fn)(const void *arg, char *msg, unsigned cap);

/* fork, run fn(arg) in the child with a timeout (seconds; 0 = none). When
 * no_fork is set (debugging), runs in this process instead. */
isolate_result isolate_run(check_fn fn, const void *arg, unsigned timeout, int no_fork);

/* A run of checks: job i's check, its argument and its timeout (seconds;
 * 0 = none); fn NULL: not run, reported as n/a. */
typedef struct isolate_job {
    check_fn fn;
    const void *arg;
    unsigned timeout;
} isolate_job;

/* Job i's result, called once per job in job order, in the process that has
 * it (a worker for a check that ran to its end, else this one); it prints
 * the job's record (stdout is flushed after it). isolate_last_stderr() and
 * isolate_last_status() describe job i during the call. */
typedef void (*isolate_done_fn)(size_t i, const isolate_result *r, void *ctx);

/* Every job, each isolated like isolate_run: a crash, a sanitizer report or
 * a hang is that job's result. Jobs share a worker process while they pass
 * with nothing but buffer-map lines on stderr; anything else ends the
 * worker, and the next job starts in a fresh one (isolate.c). no_fork: run
 * them in this process (debugging); LZ4GATE_FORK_EACH=1: a child per job. */
void isolate_each(const isolate_job *jobs, size_t n, isolate_done_fn done, void *ctx,
                  int no_fork);

const char *verdict_name(enum verdict v);

/* Names the step a check is at ("allocation 7 failing, frame 3"), as a
 * line "lz4gate-step TEXT" on stderr: when the check crashes, its record
 * carries the last one (the report's first line, and after the evidence),
 * so that a crash in a sweep of many steps says which one. */
void isolate_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last isolate_run's child: what it wrote to stderr (its first and last
 * 16 KiB) and how it ended (its exit status, or minus the signal that ended
 * it); for runners that interpret the output themselves (regress_batch.c). */
const char *isolate_last_stderr(void);
int isolate_last_status(void);

#endif
