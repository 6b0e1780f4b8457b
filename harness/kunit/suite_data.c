/*
 * The first part of the generated KUnit suite (harness/kunit/emit.py puts
 * it after the file header, before suite_runtime.c): the headers, and the
 * generated data of lz4gate's regression runner, the same bytes as
 * harness/runners/common/testdata.c makes of (kind, size, seed).
 */
#include <kunit/test.h>
#include <linux/crypto.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/lz4.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

/*
 * unlz4() lives in lib/decompress_unlz4.c, a lib-y object of the init
 * section: only a built-in suite can link it, and only at boot.
 */
#if IS_ENABLED(CONFIG_DECOMPRESS_LZ4) && IS_BUILTIN(CONFIG_LZ4_KUNIT_TEST)
#include <linux/decompress/unlz4.h>
#define KLZ4_HAVE_UNLZ4 1
#endif

/* Generated data of lz4gate's regression runner (its testdata kinds). */
enum klz4_gen {
	KLZ4_NONE,
	KLZ4_RANDOM,
	KLZ4_TEXT,
	KLZ4_MIXED,
	KLZ4_UNIQUE,
};

static u8 klz4_next_byte(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (u8)(*x >> 24);
}

/* Bytes in which no 4-byte window occurs twice: a byte that would repeat one is drawn again. */
static int klz4_gen_unique(u8 *d, size_t n, u64 *x)
{
	size_t slots = 1, i, h;
	u32 *set, w;
	u8 *used;

	while (slots < 4 * n + 16)
		slots <<= 1;
	set = vzalloc(slots * sizeof(*set));
	used = vzalloc(slots);
	if (!set || !used) {
		vfree(set);
		vfree(used);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		for (;;) {
			d[i] = klz4_next_byte(x);
			if (i < 3)
				break;
			w = (u32)d[i - 3] << 24 | (u32)d[i - 2] << 16 | (u32)d[i - 1] << 8 | d[i];
			h = (w * 2654435761u) & (slots - 1);
			while (used[h] && set[h] != w)
				h = (h + 1) & (slots - 1);
			if (!used[h]) {
				used[h] = 1;
				set[h] = w;
				break;
			}
		}
	}
	vfree(set);
	vfree(used);
	return 0;
}

/* The same bytes as the regression runner makes of (kind, n, seed). */
static int klz4_gen_fill(u8 *d, size_t n, enum klz4_gen kind, u64 seed)
{
	static const char *const words[] = { "lz4 ", "vendored ", "kernel ", "copy ", "fix ",
					     "upstream ", "block ", "the " };
	u64 x = 0x9E3779B97F4A7C15ull ^ seed;
	const char *w;
	size_t i = 0;
	u8 r;

	if (kind == KLZ4_UNIQUE)
		return klz4_gen_unique(d, n, &x);
	while (i < n) {
		r = klz4_next_byte(&x);
		if (kind == KLZ4_RANDOM) {
			d[i++] = r;
		} else if (kind == KLZ4_TEXT) {
			for (w = words[x % 8]; *w && i < n; w++)
				d[i++] = *w;
		} else {
			d[i] = (i / 256) % 2 ? d[i - 256] : r;
			i++;
		}
	}
	return 0;
}
