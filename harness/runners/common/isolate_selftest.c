/*
 * Self-test of isolate.c: a check that writes much more to stderr than a
 * pipe holds (200 KiB; a pipe holds 64 KiB on Linux) must still come back
 * at once with its own verdict, not as a TIMEOUT after its alarm; a check
 * that crashes comes back as CRASH with the report line it wrote last to
 * stderr; FAIL keeps its message and its class (fail_class.h). isolate_each gives each job of a run the
 * result isolate_run would, in job order, runs silent passes in one worker
 * process and starts a fresh one after anything else.
 *
 * Build and run (exit 0: every test passed):
 *   cc -std=gnu11 -Wall -Wextra -Werror -Iharness/runners/common \
 *      harness/runners/common/isolate_selftest.c harness/runners/common/isolate.c \
 *      harness/runners/common/fail_class.c -o build/isolate_selftest && build/isolate_selftest
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include "isolate.h"

#define NOISE (200 * 1024)
#define ALARM_SECONDS 10   /* a test that waits for it has failed */

static void noise(size_t n)
{
    static const char line[] = "lz4gate isolate selftest: stderr noise 0123456789abcdefghij\n";
    while (n >= sizeof line - 1) {
        fputs(line, stderr);
        n -= sizeof line - 1;
    }
    fflush(stderr);
}

static check_result noisy_pass(const void *arg, char *msg, unsigned cap)
{
    (void)arg; (void)msg; (void)cap;
    noise(NOISE);
    return CHECK_PASS;
}

static check_result noisy_fail(const void *arg, char *msg, unsigned cap)
{
    (void)arg;
    noise(NOISE);
    return check_fail(msg, cap, FAIL_REJECTS_VALID, "the expected failure message");
}

/* A report line after the noise, as a sanitizer writes it before abort. */
static check_result noisy_crash(const void *arg, char *msg, unsigned cap)
{
    (void)arg; (void)msg; (void)cap;
    noise(NOISE);
    fputs("selftest.c:1:1: runtime error: the expected report line\n", stderr);
    fflush(stderr);
    abort();   /* not a signal ASan reports itself: the line above is the report */
}

static check_result hangs(const void *arg, char *msg, unsigned cap)
{
    (void)arg; (void)msg; (void)cap;
    for (;;)
        pause();
    return CHECK_PASS;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int failures;

/* A FAIL carries the class its check named: noisy_fail's rejects_valid. */
static int class_ok(const isolate_result *r, enum fail_class want)
{
    return r->verdict != V_FAIL || r->cls == want;
}

static void expect(const char *name, check_fn fn, unsigned timeout, enum verdict want,
                   const char *evidence_has, double max_seconds)
{
    double t0 = now(), took;
    isolate_result r = isolate_run(fn, NULL, timeout, 0);
    took = now() - t0;
    if (r.verdict != want || !strstr(r.evidence, evidence_has) || took > max_seconds ||
        !class_ok(&r, FAIL_REJECTS_VALID)) {
        printf("FAIL %s: %s (%s) after %.1f s; want %s with \"%s\" within %.0f s\n", name,
               verdict_name(r.verdict), r.evidence, took, verdict_name(want), evidence_has,
               max_seconds);
        failures++;
    } else {
        printf("ok   %s: %s after %.1f s\n", name, verdict_name(r.verdict), took);
    }
}

/* ---- isolate_each ------------------------------------------------------ */

enum { JOBS = 9 };
/* A shared page: results noted in a worker reach the parent. */
static struct shared {
    pid_t ran_in[JOBS];        /* the process each job ran in */
    int failures;
    size_t reported;
} *sh;
#define ran_in (sh->ran_in)
static int poisoned;           /* set by a failing job: the next must not see it */

static check_result quiet_pass(const void *arg, char *msg, unsigned cap)
{
    (void)msg; (void)cap;
    ran_in[*(const int *)arg] = getpid();
    if (poisoned)
        return check_fail(msg, cap, FAIL_CHECK_INCOMPLETE, "a failed job's state leaked into "
                          "this one");
    return CHECK_PASS;
}

static check_result poisoning_fail(const void *arg, char *msg, unsigned cap)
{
    ran_in[*(const int *)arg] = getpid();
    poisoned = 1;
    return check_fail(msg, cap, FAIL_WRONG_OUTPUT, "the expected failure message");
}

static check_result report_crash(const void *arg, char *msg, unsigned cap)
{
    (void)msg; (void)cap;
    ran_in[*(const int *)arg] = getpid();
    fputs("selftest.c:2:2: runtime error: the crash of job 4\n", stderr);
    fflush(stderr);
    abort();
}

static check_result slow_hang(const void *arg, char *msg, unsigned cap)
{
    ran_in[*(const int *)arg] = getpid();
    return hangs(arg, msg, cap);
}

static const struct {
    check_fn fn;
    enum verdict want;
    const char *evidence_has;
} plan[JOBS] = {
    { quiet_pass, V_PASS, "" },
    { quiet_pass, V_PASS, "" },
    { poisoning_fail, V_FAIL, "the expected failure message" },
    { quiet_pass, V_PASS, "" },
    { report_crash, V_CRASH, "runtime error: the crash of job 4" },
    { NULL, V_NOT_APPLICABLE, "" },
    { quiet_pass, V_PASS, "" },
    { slow_hang, V_TIMEOUT, "no result after 1 s" },
    { quiet_pass, V_PASS, "" },
};

static void note_result(size_t i, const isolate_result *r, void *ctx)
{
    (void)ctx;
    if (i != sh->reported) {
        printf("FAIL isolate_each: job %zu reported after %zu jobs\n", i, sh->reported);
        sh->failures++;
    }
    sh->reported = i + 1;
    if (r->verdict != plan[i].want || !strstr(r->evidence, plan[i].evidence_has) ||
        !class_ok(r, FAIL_WRONG_OUTPUT)) {
        printf("FAIL isolate_each job %zu: %s (%s); want %s with \"%s\"\n", i,
               verdict_name(r->verdict), r->evidence, verdict_name(plan[i].want),
               plan[i].evidence_has);
        sh->failures++;
    } else {
        printf("ok   isolate_each job %zu: %s\n", i, verdict_name(r->verdict));
    }
}

static void expect_each(void)
{
    static const int index[JOBS] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    isolate_job jobs[JOBS];
    int i;
    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    for (i = 0; i < JOBS; i++) {
        jobs[i].fn = plan[i].fn;
        jobs[i].arg = &index[i];
        jobs[i].timeout = plan[i].fn == slow_hang ? 1 : ALARM_SECONDS;
    }
    isolate_each(jobs, JOBS, note_result, NULL, 0);
    failures += sh->failures;
    if (sh->reported != JOBS) {
        printf("FAIL isolate_each: %zu of %d jobs reported\n", sh->reported, JOBS);
        failures++;
    }
    if (getenv("LZ4GATE_FORK_EACH"))
        return;
    /* silent passes share a worker; a job after a fail, a crash or a hang
     * runs in a fresh one */
    if (ran_in[0] != ran_in[1] || ran_in[2] != ran_in[1] || ran_in[3] == ran_in[2] ||
        ran_in[4] != ran_in[3] || ran_in[6] == ran_in[4] || ran_in[8] == ran_in[7] ||
        ran_in[0] == getpid()) {
        printf("FAIL isolate_each: jobs ran in processes %d %d %d %d %d - %d %d %d\n",
               (int)ran_in[0], (int)ran_in[1], (int)ran_in[2], (int)ran_in[3],
               (int)ran_in[4], (int)ran_in[6], (int)ran_in[7], (int)ran_in[8]);
        failures++;
    }
}

int main(void)
{
    expect("200 KiB of stderr, then pass", noisy_pass, ALARM_SECONDS, V_PASS, "", 5);
    expect("200 KiB of stderr, then fail", noisy_fail, ALARM_SECONDS, V_FAIL,
           "the expected failure message", 5);
    expect("200 KiB of stderr, then a crash", noisy_crash, ALARM_SECONDS, V_CRASH,
           "runtime error: the expected report line", 5);
    expect("a hang", hangs, 1, V_TIMEOUT, "no result after 1 s", 5);
    expect_each();
    printf("%s\n", failures ? "isolate selftest FAILED" : "isolate selftest passed");
    return failures ? 1 : 0;
}
