/* lz4gate findings KLZ4-PARTIAL-OFFSET0 / ULZ4-PARTIAL-OFFSET0: a match with
 * offset 0 (invalid in the block format) is accepted, and on some paths the
 * "decoded" bytes are whatever the destination buffer held before.
 * Written for lz4gate (our own code). Exit: 1 defect shown, 0 not shown,
 * 2 could not run. Build: see docs/findings/PARTIAL-OFFSET0.md
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
/* LZ4_decompress_fast is deprecated (and tested on purpose). Not with
 * LZ4_DISABLE_DEPRECATE_WARNINGS: some 2016 snapshots break on it. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* What the caller's buffer held before the call: stands for a previous
 * file's page, a key, anything the decoder must not hand back. */
static const char secret[] = "SECRET-";

/* 8 literals "abcdefgh", offset 0, an 8-byte match, 12 literals "1".."2". */
static const char blk28[] = "\x84" "abcdefgh" "\x00\x00" "\xC0" "123456789012";
/* 4 literals, offset 0, an 8-byte match, 5 literals (17 bytes decoded). */
static const char blk17[] = "\x44" "\x49\x87\x29\x26" "\x00\x00" "\x50"
			    "\x90\x2B\x15\x6A\xC3";

enum { SAFE_PARTIAL, FAST };
struct call {
	const char *what;
	const char *blk;
	int blk_size, lits, decoded, target, mode;
};

static const struct call calls[] = {
	{"LZ4_decompress_safe_partial, whole block (target 28)", blk28, 24, 8, 28, 28, SAFE_PARTIAL},
	{"LZ4_decompress_safe_partial, target 12 (inside the match)", blk28, 24, 8, 28, 12, SAFE_PARTIAL},
	{"LZ4_decompress_safe_partial, 17-byte block (match near the end)", blk17, 13, 4, 17, 17, SAFE_PARTIAL},
	{"LZ4_decompress_fast, whole block", blk28, 24, 8, 28, 28, FAST},
};

/* One call on a destination full of old data; 1 if the returned bytes of the
 * match are not zeros (what LZ4_decompress_safe writes) but old data. */
static int run(const struct call *c)
{
	char dst[64];
	int i, ret, n, stale = 0, other = 0;

	for (i = 0; i < (int)sizeof(dst); i++)
		dst[i] = secret[i % (int)(sizeof(secret) - 1)];
	if (c->mode == FAST)
		ret = LZ4_decompress_fast(c->blk, dst, c->decoded);
	else
		ret = LZ4_decompress_safe_partial(c->blk, dst, c->blk_size, c->target, c->target);
	if (ret < 0) {
		printf("  %s: rejected (%d)\n", c->what, ret);
		return 0;
	}
	/* The match's 8 bytes follow the literals; partial decoding may stop
	 * inside it (then n < 8). */
	n = (c->mode == FAST ? c->decoded : ret) - c->lits;
	n = n < 0 ? 0 : (n > 8 ? 8 : n);
	for (i = c->lits; i < c->lits + n; i++) {
		if (dst[i] != 0 && strchr(secret, dst[i]) != NULL)
			stale++;
		else if (dst[i] != 0)
			other++;
	}
	printf("  %s: returned %d, match bytes:", c->what, ret);
	for (i = c->lits; i < c->lits + n; i++)
		printf(" %02X", (unsigned char)dst[i]);
	printf(" \"");
	for (i = c->lits; i < c->lits + n; i++)
		putchar(dst[i] >= 0x20 && dst[i] < 0x7F ? dst[i] : '.');
	printf("\"\n");
	if (stale || other)
		printf("    DEFECT: %d of %d bytes are the buffer's old contents, %d other non-zero (zeros or a reject are correct)\n",
		       stale, n, other);
	return stale || other;
}

int main(void)
{
	char dst[64];
	int i, shown = 0, ret;

	if (sizeof(blk28) != 25 || sizeof(blk17) != 14) {
		printf("could not run: test blocks mis-sized\n");
		return 2;
	}
	printf("offset-0 match, destination pre-filled with \"%s...\":\n", secret);
	for (i = 0; i < (int)(sizeof(calls) / sizeof(calls[0])); i++)
		shown |= run(&calls[i]);
	/* Control: the full decoder either rejects or writes zeros. */
	memset(dst, 'S', sizeof(dst));
	ret = LZ4_decompress_safe(blk28, dst, 24, 28);
	if (ret == 28 && memcmp(dst + 8, "\0\0\0\0\0\0\0\0", 8) != 0)
		printf("  control LZ4_decompress_safe: old bytes too\n");
	else
		printf("  control LZ4_decompress_safe: %s\n", ret < 0 ? "rejected" : "zeros");
	printf(shown ? "DEFECT shown: decoded output carries stale destination bytes\n"
		     : "not shown: every path rejects offset 0 or writes zeros\n");
	return shown;
}
