/*
 * replay_main.c: a main() for the fuzz targets without a fuzzing engine.
 *
 *   <target>-replay FILE|DIR...
 *   <target>-replay --each [--timeout SECONDS] FILE|DIR...
 *
 * Runs LLVMFuzzerTestOneInput once on every file named, and on every
 * regular file of every directory named (not recursive, in name order,
 * dot-files skipped). Stops at the first input that fails (the target
 * aborts, or a sanitizer stops the process) after naming it on stderr.
 * Prints "replay: N inputs ok" and exits 0 when all pass; exits 2 when an
 * argument cannot be read.
 *
 * --each runs every input in a child process of its own (fork: the
 * start-up is paid once, and no input sees another's state), so that a
 * failing input does not end the replay: crash triage replays hundreds of
 * crash files this way (harness/fuzzing/crash_triage.py). Around each
 * input's output it writes, on stderr,
 *     replay: [K] begin            (K: the input's number, from 1)
 *     replay: [K] end: STATUS      (ok, exit N, signal N, timeout, or
 *                                   unreadable: a FILE that is not there)
 * A child still running after SECONDS (default 120) is stopped by SIGALRM
 * ("timeout"). Prints "replay: N inputs, F failed" and exits 1 when an
 * input failed, 0 when none did.
 *
 *
 *   <target>-replay --applicable
 *
 * prints "applicable", or "n/a: WHY" when the subject has none of the
 * entry points the target exercises (fuzz/oracle_needs.c), and exits 0.
 *
 * Builds with any C11 compiler, 32- or 64-bit, with or without sanitizers
 * or coverage (it is how the seed corpora are replayed under gcov).
 */
#define _GNU_SOURCE 1
/* 64-bit file offsets and inode numbers in 32-bit builds too: readdir on a
 * large file system otherwise fails with EOVERFLOW. */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int fz_applicable(char *why, size_t cap);     /* fuzz/oracle_needs.c */

static char current[4096];

static void name_current(void)
{
    if (current[0]) {
        static const char pre[] = "replay: failing input: ";
        ssize_t w = write(2, pre, sizeof pre - 1);
        w = write(2, current, strlen(current));
        w = write(2, "\n", 1);
        (void)w;
    }
}

/* Sanitizers end the process through their own death path. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void on_signal(int sig)
{
    name_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long len;
    if (!f) {
        fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        fclose(f);
        return -1;
    }
    /* Exactly the file's size, as libFuzzer does: ASan sees over-reads. */
    buf = malloc(len ? (size_t)len : 1);
    if (!buf || (len && fread(buf, 1, (size_t)len, f) != (size_t)len)) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    snprintf(current, sizeof current, "%s", path);
    LLVMFuzzerTestOneInput(buf, (size_t)len);
    current[0] = 0;
    free(buf);
    return 0;
}

/* --each: the input in a child process; its status on stderr. */
static int each_mode;
static unsigned each_timeout = 120;
static unsigned long each_failed;

static void say(const char *text)
{
    ssize_t w = write(2, text, strlen(text));
    (void)w;
}

static int run_child(const char *path, unsigned long number)
{
    char line[128];
    int status;
    pid_t pid;

    snprintf(line, sizeof line, "replay: [%lu] begin\n", number);
    fflush(stdout);
    fflush(stderr);
    say(line);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "replay: cannot fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        signal(SIGALRM, SIG_DFL);
        alarm(each_timeout);
        if (!path) {             /* warm_up's trial: is the empty input safe? */
            static const uint8_t none[1];
            LLVMFuzzerTestOneInput(none, 0);
            _exit(0);            /* without a leak check (half a second here) */
        } else if (run_file(path) != 0) {
            _exit(2);
        }
        exit(0);                 /* through atexit: LeakSanitizer's check */
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "replay: cannot wait: %s\n", strerror(errno));
            return -1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        snprintf(line, sizeof line, "replay: [%lu] end: ok\n", number);
    else if (WIFEXITED(status))
        snprintf(line, sizeof line, "replay: [%lu] end: exit %d\n", number, WEXITSTATUS(status));
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        snprintf(line, sizeof line, "replay: [%lu] end: timeout\n", number);
    else
        snprintf(line, sizeof line, "replay: [%lu] end: signal %d\n", number,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        each_failed++;
    say(line);
    return 0;
}

void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out, size_t size)
    __attribute__((weak));
/* LeakSanitizer's: what is allocated between them is never reported. */
void __lsan_disable(void) __attribute__((weak));
void __lsan_enable(void) __attribute__((weak));

/* --each: the empty input first, as libFuzzer runs it before any other
 * (Fuzzer::ReadAndExecuteSeedCorpora), in a child and, when it passes
 * there, in this process: the children inherit what a target sets up on
 * its first call (the oracle's 16 MiB areas, fuzz/oracle_call.c) instead
 * of each paying for it (a crash file replays in ~25 ms instead of ~150),
 * and every input runs after the empty one, as in a fuzzing process. */
static void warm_up(void)
{
    static const uint8_t none[1];
    unsigned long failed = each_failed;
    if (run_child(NULL, 0) == 0 && each_failed == failed) {
        /* What the empty input allocates here, every child inherits: a
         * leak of it would be reported at the exit of each child, as if
         * each input leaked (a planted leak was pinned on every file). An
         * empty file given to replay is checked in its own child, as any
         * other input. */
        if (__lsan_disable)
            __lsan_disable();
        LLVMFuzzerTestOneInput(none, 0);
        if (__lsan_enable)
            __lsan_enable();
    }
    each_failed = failed;
    /* The sanitizer's symbolizer (llvm-symbolizer, with this program's
     * debug information loaded) started here serves every child in turn
     * (they run one at a time), instead of one started by each report
     * (half a second each). */
    if (__sanitizer_symbolize_pc) {
        char where[256];
        __sanitizer_symbolize_pc((void *)(uintptr_t)run_file, "%f", where, sizeof where);
    }
}

static int run_input(const char *path, unsigned long number)
{
    return each_mode ? run_child(path, number) : run_file(path);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL };
    unsigned long count = 0;
    size_t i;
    int a, first = 1;

    if (argc == 2 && strcmp(argv[1], "--applicable") == 0) {
        char why[512];
        if (fz_applicable(why, sizeof why))
            printf("applicable\n");
        else
            printf("n/a: %s\n", why);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--each") == 0) {
        each_mode = 1;
        first = 2;
        if (argc > 3 && strcmp(argv[2], "--timeout") == 0) {
            char *end;
            unsigned long t = strtoul(argv[3], &end, 10);
            if (*end || t == 0 || t > 86400) {
                fprintf(stderr, "replay: bad --timeout %s\n", argv[3]);
                return 2;
            }
            each_timeout = (unsigned)t;
            first = 4;
        }
    }
    if (argc <= first) {
        fprintf(stderr, "usage: %s [--each [--timeout SECONDS]] FILE|DIR...\n", argv[0]);
        return 2;
    }
    /* Under a sanitizer, its own handlers report SEGV, BUS, FPE and ILL
     * (with the access, the address and the stack the reports explain) and
     * call name_current on the way out; only an abort is ours to name. */
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (!__sanitizer_set_death_callback || sigs[i] == SIGABRT)
            signal(sigs[i], on_signal);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(name_current);

    if (each_mode)
        warm_up();
    for (a = first; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            if (!each_mode) {
                fprintf(stderr, "replay: %s: %s\n", argv[a], strerror(errno));
                return 2;
            }
            /* one input that could not be read; the others go on */
            fprintf(stderr, "replay: [%lu] begin\nreplay: %s: %s\nreplay: [%lu] end: "
                    "unreadable\n", count + 1, argv[a], strerror(errno), count + 1);
            each_failed++;
            count++;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            struct dirent **list;
            int n = scandir(argv[a], &list, NULL, by_name), k;
            if (n < 0) {
                fprintf(stderr, "replay: cannot list %s: %s\n", argv[a], strerror(errno));
                return 2;
            }
            for (k = 0; k < n; k++) {
                char path[4096];
                struct stat fst;
                if (list[k]->d_name[0] != '.') {
                    snprintf(path, sizeof path, "%s/%s", argv[a], list[k]->d_name);
                    if (stat(path, &fst) == 0 && S_ISREG(fst.st_mode)) {
                        if (run_input(path, count + 1) != 0)
                            return 2;
                        count++;
                    }
                }
                free(list[k]);
            }
            free(list);
        } else {
            if (run_input(argv[a], count + 1) != 0)
                return 2;
            count++;
        }
    }
    if (each_mode) {
        printf("replay: %lu inputs, %lu failed\n", count, each_failed);
        return each_failed ? 1 : 0;
    }
    printf("replay: %lu inputs ok\n", count);
    return 0;
}
