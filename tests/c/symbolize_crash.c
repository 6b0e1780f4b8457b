/*
 * A program that faults the way the runners' subjects do, for
 * tests/test_symbolize.py: argv[1] "heap" writes one byte past a heap block
 * from an inlined helper (an inline frame, and an allocation stack), "segv"
 * writes through a bad pointer, "memcpy" passes a negative size to memcpy
 * (an interceptor frame without a source file).
 */
#include <stdlib.h>
#include <string.h>

static inline __attribute__((always_inline)) void poke(volatile unsigned char *p, size_t at)
{
	p[at] = 1;
}

__attribute__((noinline)) static void heap(size_t n)
{
	unsigned char *p = malloc(n);

	poke(p, n);
	free(p);
}

__attribute__((noinline)) static void copy(char *dst, const char *src, long n)
{
	memcpy(dst, src, (size_t)n);
}

int main(int argc, char **argv)
{
	char buf[8] = "abcdefg";

	if (argc > 1 && !strcmp(argv[1], "heap"))
		heap(24);
	else if (argc > 1 && !strcmp(argv[1], "segv"))
		*(volatile char *)(argc * 16) = 0;
	else
		copy(buf, buf + 1, -argc);
	return 0;
}
