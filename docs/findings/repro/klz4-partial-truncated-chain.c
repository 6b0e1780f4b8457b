/* lz4gate finding KLZ4-PARTIAL-TRUNCATED-CHAIN: a block cut inside a
 * literal-length chain is "decoded" by LZ4_decompress_safe_partial, which
 * copies the length bytes out as if they were literals.
 * Written for lz4gate (our own code). Exit: 1 defect shown, 0 not shown,
 * 2 could not run. Build: see docs/findings/KLZ4-PARTIAL-TRUNCATED-CHAIN.md
 *   upstream tree: cc -I<tree>/lib repro.c <tree>/lib/lz4.c
 *   kernel tree:   cc -std=gnu11 -fno-strict-aliasing -DREPRO_KERNEL
 *                  -I<lz4gate>/harness/subjects/kshim -I<tree>/include
 *                  repro.c <tree>/lib/lz4/lz4_decompress.c */
#include <stdio.h>
#include <string.h>
#ifdef REPRO_KERNEL
#include <linux/types.h>
#include <linux/lz4.h>
#else
#include "lz4.h"
#endif

int main(void)
{
	/* Token 0xF0: 15 literals and a length chain. The chain FF FF 0A says
	 * 15 + 255 + 255 + 10 = 535 literals, starting at byte 4; the block
	 * ends 13 bytes later (cut inside the literals). */
	static const char block[] = "\xF0\xFF\xFF\x0A" "ABCDEFGHIJKLM";
	const int size = (int)sizeof(block) - 1;    /* 17 bytes */
	const char *literals = block + 4;
	char dst[16];
	int want = 10, ret, i;

	memset(dst, '.', sizeof(dst));
	ret = LZ4_decompress_safe_partial(block, dst, size, want, want);
	if (ret < 0) {
		printf("not shown: LZ4_decompress_safe_partial rejects the truncated block (%d)\n", ret);
		return 0;
	}
	if (ret > want) {
		printf("could not run: returned %d > target %d\n", ret, want);
		return 2;
	}
	printf("LZ4_decompress_safe_partial returned %d bytes:", ret);
	for (i = 0; i < ret; i++)
		printf(" %02X", (unsigned char)dst[i]);
	printf("\n");
	/* Correct answers: a reject, or a prefix of the real literals. */
	if (memcmp(dst, literals, (size_t)ret) != 0) {
		printf("DEFECT: the output is not the block's literals (%02X %02X ... are its "
		       "length bytes): the truncated chain was read as data\n",
		       (unsigned char)block[2], (unsigned char)block[3]);
		return 1;
	}
	printf("not shown: the output is a prefix of the block's literals\n");
	return 0;
}
