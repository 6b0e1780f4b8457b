/* lz4gate finding KLZ4-ACCEL-WRAP: LZ4_compress_fast with a huge acceleration
 * (2^28) emits matches with offset 0, which no correct decoder accepts.
 * Written for lz4gate (our own code). Exit: 1 defect shown, 0 not shown,
 * 2 could not run. Build: see docs/findings/KLZ4-ACCEL-WRAP.md
 *   kernel tree:   cc -std=gnu11 -fno-strict-aliasing -DREPRO_KERNEL
 *                  -I<lz4gate>/harness/subjects/kshim -I<tree>/include
 *                  repro.c <tree>/lib/lz4/lz4_compress.c <tree>/lib/lz4/lz4_decompress.c
 *   upstream tree: cc -I<tree>/lib repro.c <tree>/lib/lz4.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef REPRO_KERNEL
#include <linux/types.h>
#include <linux/lz4.h>
#define COMPRESS(s, d, n, cap, acc) LZ4_compress_fast(s, d, n, cap, acc, wrkmem)
#else
#include "lz4.h"
#define COMPRESS(s, d, n, cap, acc) LZ4_compress_fast(s, d, n, cap, acc)
#define LZ4_MEM_COMPRESS 16384   /* unused: upstream keeps its state on the stack */
#endif

#define N 5000

/* Walk the block's sequences (format: token, literal length chain, literals,
 * 2-byte offset, match length chain); return the position of the first
 * offset-0 match in the compressed data, -1 if none, -2 if malformed. */
static long first_offset0(const unsigned char *b, long size)
{
	long p = 0;

	while (p < size) {
		unsigned token = b[p++];
		long len = token >> 4;

		if (len == 15) {
			unsigned s;
			do {
				if (p >= size)
					return -2;
				s = b[p++];
				len += s;
			} while (s == 255);
		}
		p += len;
		if (p == size)
			return -1;          /* last sequence: literals only */
		if (p + 2 > size)
			return -2;
		if ((b[p] | b[p + 1]) == 0)
			return p;
		p += 2;
		if ((token & 15) == 15) {
			unsigned s;
			do {
				if (p >= size)
					return -2;
				s = b[p++];
			} while (s == 255);
		}
	}
	return -2;
}

static int try_accel(const char *src, char *dst, int cap, int acc, void *wrkmem)
{
	char *back = malloc(N);
	int n, ok;
	long at;

	(void)wrkmem;
	if (!back)
		return 2;
	n = COMPRESS(src, dst, N, cap, acc);
	if (n <= 0) {
		printf("  acceleration %d: compression failed (%d)\n", acc, n);
		free(back);
		return 2;
	}
	at = first_offset0((const unsigned char *)dst, n);
	ok = LZ4_decompress_safe(dst, back, n, N) == N && memcmp(back, src, N) == 0;
	printf("  acceleration %d: %d bytes, %s, round trip %s\n", acc, n,
	       at >= 0 ? "offset-0 match" : at == -1 ? "no offset-0 match" : "malformed block",
	       ok ? "exact" : "WRONG");
	free(back);
	return at != -1 || !ok;
}

int main(void)
{
	static const char words[] = "the quick brown fox jumps over the lazy dog; ";
	int cap = LZ4_compressBound(N), i, shown, control;
	char *src = malloc(N), *dst = malloc((size_t)cap);
	void *wrkmem = malloc(LZ4_MEM_COMPRESS);

	if (!src || !dst || !wrkmem || cap <= 0) {
		printf("could not run: no memory\n");
		return 2;
	}
	for (i = 0; i < N; i++)
		src[i] = words[i % (int)(sizeof(words) - 1)];
	printf("LZ4_compress_fast on %d bytes of text, capacity %d:\n", N, cap);
	control = try_accel(src, dst, cap, 65537, wrkmem);
	if (control) {
		printf("could not run: the control (acceleration 65537) fails already\n");
		return 2;
	}
	/* 2^28 and 3 * 2^29: acceleration << 6 is 0 modulo 2^32. */
	shown = try_accel(src, dst, cap, 1 << 28, wrkmem);
	shown |= try_accel(src, dst, cap, 1610612736, wrkmem);
	if (shown == 2 || shown == 3) {
		printf("could not run: compression failed\n");
		return 2;
	}
	printf(shown ? "DEFECT shown: the compressor emits blocks with offset-0 matches\n"
		     : "not shown: every block is valid\n");
	free(src);
	free(dst);
	free(wrkmem);
	return shown;
}
