/*
 * Run one check in a child process, so that a crash, a sanitizer report or
 * a hang is a result for that check, not the end of the run.
 */
#ifndef LZ4GATE_ISOLATE_H
#define LZ4GATE_ISOLATE_H

enum verdict { V_PASS = 0, V_FAIL, V_CRASH, V_TIMEOUT, V_NOT_APPLICABLE };

typedef struct isolate_result {
    enum verdict verdict;
    char evidence[512];    /* the check's message, or the first sanitizer line */
    char ubsan[512];       /* first UBSan "runtime error:" line, if any (subject code) */
    char report[4096];     /* a crash: the sanitizer's report from its first line, and the
                            * buffer map (guard.h), for the reports to explain it */
} isolate_result;

/* The check: returns 0 for pass; on failure fills msg (cap bytes). */
typedef int (*check_fn)(const void *arg, char *msg, unsigned cap);

/* fork, run fn(arg) in the child with a timeout (seconds; 0 = none). When
 * no_fork is set (debugging), runs in this process instead. */
isolate_result isolate_run(check_fn fn, const void *arg, unsigned timeout, int no_fork);

const char *verdict_name(enum verdict v);

/* The last isolate_run's child: what it wrote to stderr (its first and last
 * 16 KiB) and how it ended (its exit status, or minus the signal that ended
 * it); for runners that interpret the output themselves (regress_batch.c). */
const char *isolate_last_stderr(void);
int isolate_last_status(void);

#endif
