/*
 * replay_main.c: a main() for the fuzz targets without a fuzzing engine.
 *
 *   <target>-replay FILE|DIR...
 *
 * Runs LLVMFuzzerTestOneInput once on every file named, and on every
 * regular file of every directory named (not recursive, in name order,
 * dot-files skipped). Stops at the first input that fails (the target
 * aborts, or a sanitizer stops the process) after naming it on stderr.
 * Prints "replay: N inputs ok" and exits 0 when all pass; exits 2 when an
 * argument cannot be read.
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
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL };
    unsigned long count = 0;
    size_t i;
    int a;

    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
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

    for (a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[a], strerror(errno));
            return 2;
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
                        if (run_file(path) != 0)
                            return 2;
                        count++;
                    }
                }
                free(list[k]);
            }
            free(list);
        } else {
            if (run_file(argv[a]) != 0)
                return 2;
            count++;
        }
    }
    printf("replay: %lu inputs ok\n", count);
    return 0;
}
