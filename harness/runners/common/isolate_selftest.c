/*
 * Self-test of isolate.c: a check that writes much more to stderr than a
 * pipe holds (200 KiB; a pipe holds 64 KiB on Linux) must still come back
 * at once with its own verdict, not as a TIMEOUT after its alarm; a check
 * that crashes comes back as CRASH with the report line it wrote last to
 * stderr; FAIL keeps its message.
 *
 * Build and run (exit 0: every test passed):
 *   cc -std=gnu11 -Wall -Wextra -Werror -Iharness/runners/common \
 *      harness/runners/common/isolate_selftest.c harness/runners/common/isolate.c \
 *      -o build/isolate_selftest && build/isolate_selftest
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

static int noisy_pass(const void *arg, char *msg, unsigned cap)
{
    (void)arg; (void)msg; (void)cap;
    noise(NOISE);
    return 0;
}

static int noisy_fail(const void *arg, char *msg, unsigned cap)
{
    (void)arg;
    noise(NOISE);
    snprintf(msg, cap, "the expected failure message");
    return 1;
}

/* A report line after the noise, as a sanitizer writes it before abort. */
static int noisy_crash(const void *arg, char *msg, unsigned cap)
{
    (void)arg; (void)msg; (void)cap;
    noise(NOISE);
    fputs("selftest.c:1:1: runtime error: the expected report line\n", stderr);
    fflush(stderr);
    abort();   /* not a signal ASan reports itself: the line above is the report */
}

static int hangs(const void *arg, char *msg, unsigned cap)
{
    (void)arg; (void)msg; (void)cap;
    for (;;)
        pause();
    return 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int failures;

static void expect(const char *name, check_fn fn, unsigned timeout, enum verdict want,
                   const char *evidence_has, double max_seconds)
{
    double t0 = now(), took;
    isolate_result r = isolate_run(fn, NULL, timeout, 0);
    took = now() - t0;
    if (r.verdict != want || !strstr(r.evidence, evidence_has) || took > max_seconds) {
        printf("FAIL %s: %s (%s) after %.1f s; want %s with \"%s\" within %.0f s\n", name,
               verdict_name(r.verdict), r.evidence, took, verdict_name(want), evidence_has,
               max_seconds);
        failures++;
    } else {
        printf("ok   %s: %s after %.1f s\n", name, verdict_name(r.verdict), took);
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
    printf("%s\n", failures ? "isolate selftest FAILED" : "isolate selftest passed");
    return failures ? 1 : 0;
}
