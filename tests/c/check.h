/*
 * Minimal check helpers for the C tests of lz4gate (one program per
 * tests/c/test_*.c file; exit status 0 only when every check passed).
 */
#ifndef LZ4GATE_CHECK_H
#define LZ4GATE_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        check_count++;                                                        \
        if (!(cond)) {                                                        \
            check_failures++;                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__,  \
                    #cond);                                                   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

#define CHECK_EQ_SIZE(got, want, ...)                                         \
    do {                                                                      \
        size_t check_got_ = (size_t)(got), check_want_ = (size_t)(want);      \
        CHECK(check_got_ == check_want_, "got %zu, want %zu: %s",             \
              check_got_, check_want_, __VA_ARGS__);                          \
    } while (0)

/* Print a one-line summary and return the process exit status. */
static inline int check_summary(const char *program)
{
    printf("%s: %d checks, %d failed\n", program, check_count, check_failures);
    return check_failures ? 1 : 0;
}

/* Deterministic test data (xorshift64*), so failures reproduce. */
static inline unsigned long long check_rand(unsigned long long *s)
{
    unsigned long long x = *s ? *s : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

#endif
