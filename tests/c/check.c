/* The counters of check.h, one pair per test program. */
#include "check.h"

int check_failures;
int check_count;

void check_failed(void)
{
    const char *first = getenv("LZ4GATE_CHECK_FIRST");
    if (first && *first == '1') {
        fflush(stderr);
        exit(1);
    }
}

int check_summary(const char *program)
{
    printf("%s: %d checks, %d failed\n", program, check_count, check_failures);
    return check_failures ? 1 : 0;
}
