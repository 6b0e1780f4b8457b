/* Self-test of the kernel header shim (not of any subject).
 *
 * Build and run, for each compiler and -m64/-m32:
 *   cc -std=gnu11 -O2 -Wall -Wextra -Werror -Wundef -Wshadow \
 *      -Wstrict-prototypes -Wmissing-prototypes \
 *      -fsanitize=address,undefined -fno-sanitize-recover=all \
 *      -I harness/kshim harness/kshim/selftest.c -o kshim-selftest
 *   ./kshim-selftest        # prints "kshim-selftest: N passed, 0 failed"
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/fs.h>
#include <linux/unaligned.h>
#include <linux/compiler_attributes.h>
#include <stdio.h>

static int passed, failed;

#define CHECK(cond) do { \
	if (cond) { \
		passed++; \
	} else { \
		failed++; \
		printf("kshim-selftest: FAIL line %d: %s\n", __LINE__, #cond); \
	} } while (0)

int exported_fn(int x);
int exported_fn(int x)
{
	return x + 1;
}
EXPORT_SYMBOL(exported_fn);
EXPORT_SYMBOL_GPL(exported_fn);
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("kshim selftest");

static int __init init_fn(void)
{
	return 7;
}

static void test_unaligned(void)
{
	unsigned char buf[24];
	size_t i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i + 1);

	/* generic accessors through const and non-const, misaligned */
	CHECK(get_unaligned((const u16 *)(buf + 1)) == get_unaligned_le16(buf + 1));
	CHECK(get_unaligned((const u32 *)(buf + 3)) == get_unaligned_le32(buf + 3));
	CHECK(get_unaligned((u64 *)(buf + 5)) == get_unaligned_le64(buf + 5));
	CHECK(get_unaligned((const size_t *)(buf + 7)) ==
	      (sizeof(size_t) == 8 ? (size_t)get_unaligned_le64(buf + 7)
				   : (size_t)get_unaligned_le32(buf + 7)));

	/* byte-exact little/big endian helpers */
	CHECK(get_unaligned_le16(buf) == 0x0201);
	CHECK(get_unaligned_be16(buf) == 0x0102);
	CHECK(get_unaligned_le32(buf + 1) == 0x05040302);
	CHECK(get_unaligned_be32(buf + 1) == 0x02030405);
	CHECK(get_unaligned_le64(buf) == 0x0807060504030201ULL);
	CHECK(get_unaligned_be64(buf) == 0x0102030405060708ULL);

	put_unaligned((u32)0xAABBCCDD, (u32 *)(buf + 9));
	CHECK(get_unaligned_le32(buf + 9) == 0xAABBCCDD);   /* LE host */
	CHECK(buf[8] == 9 && buf[13] == 14);                 /* neighbours kept */

	put_unaligned_le16(0x1234, buf + 1);
	CHECK(buf[1] == 0x34 && buf[2] == 0x12);
	put_unaligned_be16(0x1234, buf + 1);
	CHECK(buf[1] == 0x12 && buf[2] == 0x34);
	put_unaligned_le32(0x01020304, buf + 3);
	CHECK(buf[3] == 4 && buf[6] == 1);
	put_unaligned_be32(0x01020304, buf + 3);
	CHECK(buf[3] == 1 && buf[6] == 4);
	put_unaligned_le64(0x0102030405060708ULL, buf + 11);
	CHECK(get_unaligned_be64(buf + 11) == 0x0807060504030201ULL);
	put_unaligned_be64(0x0102030405060708ULL, buf + 11);
	CHECK(get_unaligned_le64(buf + 11) == 0x0807060504030201ULL);
}

static void test_bits_and_minmax(void)
{
	size_t s1 = 3, s2 = 5;
	int i = 0;

	CHECK(__ffs(8UL) == 3 && __ffs(1UL) == 0);
	CHECK(__fls(8UL) == 3 && __fls(~0UL) == BITS_PER_LONG - 1);
	CHECK(fls(0) == 0 && fls(1) == 1 && fls(0x80000000u) == 32);
	CHECK(ffs(8) == 4);                  /* the C library's */
	CHECK(BITS_PER_LONG == (int)(sizeof(long) * 8));

	CHECK(min(s1, s2) == 3 && max(s1, s2) == 5);
	CHECK(min_t(int, -1, 2u) == -1 && max_t(unsigned int, -1, 2u) == ~0u);
	CHECK(min(i++, 10) == 0 && i == 1);   /* each operand evaluated once */
	CHECK(clamp(15, 0, 10) == 10 && clamp(-5, 0, 10) == 0);
	CHECK(min3(4, 2, 3) == 2 && max3(4, 2, 9) == 9);
	BUILD_BUG_ON(sizeof(u64) != 8);
	BUILD_BUG_ON(sizeof(u32) != 4);
	CHECK(BUILD_BUG_ON_ZERO(0) == 0);
}

static void test_misc(void)
{
	char arr[16];
	void *p;

	CHECK(sizeof(u8) == 1 && sizeof(u16) == 2 && sizeof(s32) == 4);
	CHECK(sizeof(__le32) == 4 && sizeof(__be64) == 8);
	CHECK(ARRAY_SIZE(arr) == 16);
	CHECK(likely(1) && !unlikely(0));
	CHECK(exported_fn(1) == 2 && init_fn() == 7);
#ifdef CONFIG_64BIT
	CHECK(sizeof(void *) == 8);
#else
	CHECK(sizeof(void *) == 4);
#endif
#if defined(__LITTLE_ENDIAN) && !defined(__BIG_ENDIAN)
	CHECK(1);
#else
	CHECK(!"exactly __LITTLE_ENDIAN expected on this host");
#endif
#ifdef assert
	CHECK(!"the shim must not define assert()");
#endif
	p = kmalloc(10, GFP_KERNEL);
	CHECK(p != NULL);
	kfree(p);
	p = kzalloc(10, GFP_KERNEL);
	CHECK(p != NULL && ((char *)p)[9] == 0);
	kfree(p);
	p = vmalloc(10);
	CHECK(p != NULL);
	vfree(p);
	p = vzalloc(10);
	CHECK(p != NULL && ((char *)p)[0] == 0);
	vfree(p);
	pr_err("never printed %d\n", 1);
	memset(arr, 0, sizeof(arr));
	CHECK(arr[15] == 0);
}

int main(void)
{
	test_unaligned();
	test_bits_and_minmax();
	test_misc();
	printf("kshim-selftest: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
