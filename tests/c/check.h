/*
 * Minimal check helpers for the C tests of lz4gate (one program per
 * tests/c/test_*.c file; exit status 0 only when every check passed).
 * The counters live in check.c, so the shared test pieces (the tests/c
 * sources not named test_*, linked into every program) count in the program's
 * summary too. Test data comes from ref/prng.h, the one generator.
 */
#ifndef LZ4GATE_CHECK_H
#define LZ4GATE_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prng.h"

extern int check_failures;
extern int check_count;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        check_count++;                                                        \
        if (!(cond)) {                                                        \
            check_failures++;                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__,  \
                    #cond);                                                   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            check_failed();                                                   \
        }                                                                     \
    } while (0)

#define CHECK_EQ_SIZE(got, want, ...)                                         \
    do {                                                                      \
        size_t check_got_ = (size_t)(got), check_want_ = (size_t)(want);      \
        CHECK(check_got_ == check_want_, "got %zu, want %zu: %s",             \
              check_got_, check_want_, __VA_ARGS__);                          \
    } while (0)

/* After a failed check: with LZ4GATE_CHECK_FIRST=1 in the environment the
 * program stops at once (exit 1): tests/mutants.py only needs to know that
 * a mutant is killed, not every check it breaks. */
void check_failed(void);

/* Print a one-line summary and return the process exit status. */
int check_summary(const char *program);

#endif
