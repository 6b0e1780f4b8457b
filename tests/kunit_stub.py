"""A user-space stand-in for the kernel headers the generated KUnit suite
includes (kunit/test.h, linux/lz4.h, ...), written by the tests into a
temporary folder, so the suite compiles and runs without a kernel tree.

linux/lz4.h maps the kernel's LZ4 functions onto the system liblz4 (the
kernel's compressors take a wrkmem argument liblz4 has not: klz4_stub_*
drop it). With -DSTUB_BROKEN=N one entry point is broken on purpose (the
tests show the suite fails then). main() runs the suite as KUnit would and
prints KTAP v1, the format harness/kunit/ktap.py reads."""
import os
import shutil
import subprocess

KUNIT_H = r"""
#ifndef STUB_KUNIT_TEST_H
#define STUB_KUNIT_TEST_H
#include <linux/kernel.h>
#include <setjmp.h>
#define KUNIT_PARAM_DESC_SIZE 128
struct kunit {
	const char *name;
	const void *param_value;
	int failed, skipped;
	char skip_reason[256];
	jmp_buf abort;
};
struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
	char *module_name;
};
struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};
#define KUNIT_FAIL(test, fmt, ...) do {						\
	printf("            # %s: EXPECTATION FAILED\n            " fmt "\n",	\
	       (test)->name, ##__VA_ARGS__);					\
	(test)->failed = 1;							\
} while (0)
#define kunit_skip(test, fmt, ...) do {						\
	snprintf((test)->skip_reason, sizeof((test)->skip_reason), fmt, ##__VA_ARGS__); \
	(test)->skipped = 1;							\
	longjmp((test)->abort, 1);						\
} while (0)
#define KUNIT_ARRAY_PARAM(name, array, get_desc)				\
	static const void *name##_gen_params(const void *prev, char *desc)	\
	{									\
		typeof((array)[0]) *next = prev ? ((typeof(next))prev) + 1 : (array); \
		if (next - (array) < ARRAY_SIZE(array)) {			\
			get_desc(next, desc);					\
			return next;						\
		}								\
		return NULL;							\
	}
#define kunit_test_suite(s) struct kunit_suite *stub_suite = &(s)
#endif
"""

KERNEL_H = r"""
#ifndef STUB_LINUX_KERNEL_H
#define STUB_LINUX_KERNEL_H
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define BITS_PER_LONG (8 * (int)sizeof(long))
/* #if IS_ENABLED(CONFIG_X): 1 for the options the stub provides (below),
 * 0 for the others (an undefined name in #if). */
#define IS_ENABLED(x) STUB_ENABLED_##x
#define STUB_ENABLED_CONFIG_CRYPTO 1
#define IS_BUILTIN(x) 0
#define pr_info printf
#define MODULE_DESCRIPTION(x)
#define MODULE_LICENSE(x)
#endif
"""

VMALLOC_H = r"""
#include <stdlib.h>
#define vmalloc(n) malloc(n)
#define vzalloc(n) calloc(1, n)
#define vfree(p) free(p)
"""

LZ4_H = r"""
#ifndef STUB_LINUX_LZ4_H
#define STUB_LINUX_LZ4_H
#define LZ4_MEM_COMPRESS 16384
#define LZ4HC_MEM_COMPRESS 262192
#define LZ4_compress_default klz4_stub_compress_default
#define LZ4_compress_fast klz4_stub_compress_fast
#define LZ4_compress_HC klz4_stub_compress_HC
#define LZ4_compress_destSize klz4_stub_compress_destSize
#define LZ4_decompress_safe klz4_stub_decompress_safe
#define LZ4_decompress_safe_partial klz4_stub_decompress_safe_partial
#define LZ4_decompress_fast klz4_stub_decompress_fast
#define LZ4_decompress_safe_usingDict klz4_stub_decompress_safe_usingDict
int LZ4_compress_default(const char *s, char *d, int n, int cap, void *w);
int LZ4_compress_fast(const char *s, char *d, int n, int cap, int acc, void *w);
int LZ4_compress_HC(const char *s, char *d, int n, int cap, int level, void *w);
int LZ4_compress_destSize(const char *s, char *d, int *n, int cap, void *w);
int LZ4_decompress_safe(const char *s, char *d, int n, int cap);
int LZ4_decompress_safe_partial(const char *s, char *d, int n, int target, int cap);
int LZ4_decompress_fast(const char *s, char *d, int original);
int LZ4_decompress_safe_usingDict(const char *s, char *d, int n, int cap,
				  const char *dict, int dict_len);
#endif
"""

# The kernel functions on liblz4. STUB_BROKEN: 1 = decompress_safe accepts
# everything (returns the capacity), 2 = compressors write one byte past the
# capacity, 3 = decompress_safe_partial ignores the target.
LZ4_IMPL = r"""
#define LZ4_DISABLE_DEPRECATE_WARNINGS
#include <lz4.h>
#include <lz4hc.h>
#ifndef STUB_BROKEN
#define STUB_BROKEN 0
#endif
static int spill(char *d, int cap, int r)
{
	if (STUB_BROKEN == 2)
		d[cap] = 0;
	return r;
}
int klz4_stub_compress_default(const char *s, char *d, int n, int cap, void *w)
{ (void)w; return spill(d, cap, LZ4_compress_default(s, d, n, cap)); }
int klz4_stub_compress_fast(const char *s, char *d, int n, int cap, int acc, void *w)
{ (void)w; return spill(d, cap, LZ4_compress_fast(s, d, n, cap, acc)); }
int klz4_stub_compress_HC(const char *s, char *d, int n, int cap, int level, void *w)
{ (void)w; return spill(d, cap, LZ4_compress_HC(s, d, n, cap, level)); }
int klz4_stub_compress_destSize(const char *s, char *d, int *n, int cap, void *w)
{ (void)w; return spill(d, cap, LZ4_compress_destSize(s, d, n, cap)); }
int klz4_stub_decompress_safe(const char *s, char *d, int n, int cap)
{
	int r = LZ4_decompress_safe(s, d, n, cap);
	return STUB_BROKEN == 1 && r < 0 ? cap : r;
}
int klz4_stub_decompress_safe_partial(const char *s, char *d, int n, int target, int cap)
{ return LZ4_decompress_safe_partial(s, d, n, STUB_BROKEN == 3 ? cap : target, cap); }
int klz4_stub_decompress_fast(const char *s, char *d, int original)
{ return LZ4_decompress_fast(s, d, original); }
int klz4_stub_decompress_safe_usingDict(const char *s, char *d, int n, int cap,
					const char *dict, int dict_len)
{ return LZ4_decompress_safe_usingDict(s, d, n, cap, dict, dict_len); }
"""

MAIN = r"""
#include <kunit/test.h>
extern struct kunit_suite *stub_suite;
/* Arguments: the cases to run (all without). */
static int chosen(const char *name, int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return argc < 2;
}

int main(int argc, char **argv)
{
	struct kunit_case *c;
	int ncases = 0, i = 0;
	for (c = stub_suite->test_cases; c->run_case; c++)
		ncases += chosen(c->name, argc, argv);
	printf("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: %s\n    1..%d\n",
	       stub_suite->name, ncases);
	for (c = stub_suite->test_cases; c->run_case; c++) {
		char desc[KUNIT_PARAM_DESC_SIZE];
		if (!chosen(c->name, argc, argv))
			continue;
		const void *p = NULL;
		int n = 0, case_failed = 0;

		printf("        KTAP version 1\n        # Subtest: %s\n", c->name);
		while ((p = c->generate_params(p, desc)) != NULL) {
			struct kunit t = { .name = c->name, .param_value = p };
			if (!setjmp(t.abort))
				c->run_case(&t);
			n++;
			case_failed |= t.failed;
			if (t.skipped)
				printf("        ok %d %s # SKIP %s\n", n, desc, t.skip_reason);
			else
				printf("        %s %d %s\n", t.failed ? "not ok" : "ok", n, desc);
		}
		printf("    %s %d %s\n", case_failed ? "not ok" : "ok", ++i, c->name);
	}
	printf("ok 1 %s\n", stub_suite->name);
	return 0;
}
"""

# The suite's generated data against the regression runner's
# (harness/runners/common/testdata.c): the same bytes for every kind.
GEN_CHECK = r"""
#include "lz4_kunit.c"
#include "testdata.h"
int main(void)
{
	static const struct { const char *name; enum klz4_gen kind; } kinds[] = {
		{ "random", KLZ4_RANDOM }, { "text", KLZ4_TEXT }, { "mixed", KLZ4_MIXED },
		{ "unique", KLZ4_UNIQUE },
	};
	static const size_t sizes[] = { 0, 1, 3, 255, 256, 257, 1000, 70000 };
	size_t k, z, seed, bad = 0;
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		for (z = 0; z < ARRAY_SIZE(sizes); z++)
			for (seed = 0; seed < 3; seed++) {
				u8 *a = calloc(1, sizes[z] + 1), *b = calloc(1, sizes[z] + 1);
				testdata_fill(b, sizes[z], kinds[k].name, seed);
				klz4_gen_fill(a, sizes[z], kinds[k].kind, seed);
				if (memcmp(a, b, sizes[z])) {
					printf("differs: %s %zu seed %zu\n", kinds[k].name, sizes[z], seed);
					bad++;
				}
				free(a);
				free(b);
			}
	printf("%zu differ\n", bad);
	return bad != 0;
}
"""

# The crypto API over the stub's LZ4 functions, as crypto/lz4.c and lz4hc.c
# behave since their fixes. STUB_BROKEN 4: decompress returns the decoder's
# own value (KLZ4-2017-CRYPTO-ERR); 5: decompress ignores slen and compress
# ignores *dlen (KLZ4-2013-CRYPTO-DEC).
CRYPTO_H = r"""
#ifndef STUB_LINUX_CRYPTO_H
#define STUB_LINUX_CRYPTO_H
#include <linux/kernel.h>
#ifndef STUB_BROKEN
#define STUB_BROKEN 0
#endif
#include <linux/lz4.h>
#define MAX_ERRNO 4095
#define ERR_PTR(e) ((void *)(long)(e))
#define PTR_ERR(p) ((long)(p))
#define IS_ERR(p) ((unsigned long)(p) >= (unsigned long)-MAX_ERRNO)
#define LZ4_compressBound(n) ((int)((n) + (n) / 255 + 16))
struct crypto_comp { int hc; };
static inline struct crypto_comp *crypto_alloc_comp(const char *name, u32 type, u32 mask)
{
	struct crypto_comp *t;

	(void)type; (void)mask;
	if (strcmp(name, "lz4") && strcmp(name, "lz4hc"))
		return ERR_PTR(-ENOENT);
	t = malloc(sizeof(*t));
	t->hc = !strcmp(name, "lz4hc");
	return t;
}
static inline void crypto_free_comp(struct crypto_comp *t) { free(t); }
static inline int crypto_comp_compress(struct crypto_comp *t, const u8 *s, unsigned int n,
				       u8 *d, unsigned int *dlen)
{
	static char w[LZ4HC_MEM_COMPRESS];
	int cap = STUB_BROKEN == 5 ? LZ4_compressBound(n) : (int)*dlen;
	int r = t->hc ? LZ4_compress_HC((const char *)s, (char *)d, n, cap, 9, w)
		      : LZ4_compress_default((const char *)s, (char *)d, n, cap, w);

	if (!r)
		return -EINVAL;
	*dlen = r;
	return 0;
}
static inline int crypto_comp_decompress(struct crypto_comp *t, const u8 *s, unsigned int n,
					 u8 *d, unsigned int *dlen)
{
	int r = STUB_BROKEN == 5 ? LZ4_decompress_fast((const char *)s, (char *)d, *dlen)
				 : LZ4_decompress_safe((const char *)s, (char *)d, n, *dlen);

	(void)t;
	if (r < 0)
		return STUB_BROKEN == 4 ? r : -EINVAL;
	*dlen = r;
	return 0;
}
#endif
"""

FILES = {"kunit/test.h": KUNIT_H, "linux/kernel.h": KERNEL_H, "linux/string.h": "",
         "linux/vmalloc.h": VMALLOC_H, "linux/lz4.h": LZ4_H, "linux/crypto.h": CRYPTO_H,
         "linux/err.h": ""}
CFLAGS = ["-std=gnu11", "-O1", "-Wall", "-Werror", "-Wno-sign-compare",
          "-DKBUILD_MODNAME=\"lz4gate\""]


def write_stub(folder):
    """The stub headers under folder/include, the sources beside them."""
    inc = os.path.join(folder, "include")
    for rel, text in FILES.items():
        os.makedirs(os.path.dirname(os.path.join(inc, rel)), exist_ok=True)
        with open(os.path.join(inc, rel), "w") as f:
            f.write(text)
    for name, text in (("stub_lz4.c", LZ4_IMPL), ("stub_main.c", MAIN)):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    return inc


def compile_cmd(folder, suite_c, out, broken=0):
    inc = os.path.join(folder, "include")
    return (["gcc"] + CFLAGS + ["-I", inc, "-DSTUB_BROKEN=%d" % broken, suite_c,
                                os.path.join(folder, "stub_lz4.c"),
                                os.path.join(folder, "stub_main.c"), "-o", out, "-llz4"])


def check_generated_data(folder, suite_c, testdata_dir):
    """(compile process, run process or None) of GEN_CHECK."""
    src = os.path.join(folder, "gen_check.c")
    with open(src, "w") as f:
        f.write(GEN_CHECK)
    exe = os.path.join(folder, "gen_check")
    cc = subprocess.run(["gcc"] + CFLAGS + ["-Wno-unused-function", "-Wno-unused-variable",
                                            "-I", os.path.join(folder, "include"),
                                            "-I", os.path.dirname(suite_c), "-I", testdata_dir,
                                            src, os.path.join(testdata_dir, "testdata.c"),
                                            os.path.join(folder, "stub_lz4.c"), "-o", exe,
                                            "-llz4"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if cc.returncode != 0:
        return cc, None
    return cc, subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=60)


def have_liblz4():
    return bool(shutil.which("gcc")) and os.path.exists("/usr/include/lz4hc.h")


def build_and_run(folder, suite_c, broken=0, cases=()):
    """(compile process, run process or None); only the KUnit cases named
    in `cases` when given."""
    exe = os.path.join(folder, "suite%d" % broken)
    cc = subprocess.run(compile_cmd(folder, suite_c, exe, broken), stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, universal_newlines=True)
    if cc.returncode != 0:
        return cc, None
    run = subprocess.run([exe] + list(cases), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, timeout=60)
    return cc, run
