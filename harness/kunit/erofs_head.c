/*
 * The fixed first part of lz4gate's EROFS KUnit suite (harness/kunit/
 * emit_erofs.py puts it after the header, before the cases' checks in
 * harness/kunit/erofs/). lz4gate's own code. The generated suite is
 * included at the end of a copy of fs/erofs/decompressor.c (with
 * CONFIG_EROFS_FS=y and CONFIG_EROFS_FS_ZIP=y), so that it can call the
 * file's static functions: z_erofs_lz4_handle_overlap(),
 * z_erofs_lz4_decompress(), z_erofs_transform_plain().
 *
 * No disk image, no mount: every check builds a struct
 * z_erofs_decompress_req by hand, with a super_block and an erofs_sb_info
 * that hold only what decompressor.c reads (s_blocksize, s_id,
 * feature_incompat).
 */
#include <kunit/test.h>
#include <kunit/resource.h>
#include <linux/highmem.h>
#include <linux/vmalloc.h>

#define KLZ4E_POISON 0xA5

struct klz4e_param {
	unsigned int tc;
	void (*run)(struct kunit *test);
};

static void klz4e_desc(const struct klz4e_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "tc %u", p->tc);
}

static void klz4e_run(struct kunit *test)
{
	const struct klz4e_param *p = test->param_value;

	p->run(test);
}

/* One KUnit case per lz4gate case id, one parameter per row (tc N). */
#define KLZ4E_CASE(id, gen) \
	{ .run_case = klz4e_run, .name = (id), .generate_params = (gen) }

static void klz4e_free_page(void *page)
{
	__free_page(page);
}

static void klz4e_free_pages1(void *page)
{
	__free_pages(page, 1);
}

/* A page filled with @fill, freed when the test ends. */
static struct page *klz4e_page(struct kunit *test, u8 fill)
{
	struct page *page = alloc_page(GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, klz4e_free_page, page), 0);
	memset(page_address(page), fill, PAGE_SIZE);
	return page;
}

/*
 * Two physically adjacent pages (page, page + 1), so that a read past the
 * first one stays in memory the test owns; freed when the test ends.
 */
static struct page *klz4e_pages2(struct kunit *test, u8 fill)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, klz4e_free_pages1, page), 0);
	memset(page_address(page), fill, 2 * PAGE_SIZE);
	return page;
}

/* The super_block of a request: only what decompressor.c reads. */
static struct super_block *klz4e_sb(struct kunit *test, bool zero_padding)
{
	struct super_block *sb = kunit_kzalloc(test, sizeof(*sb), GFP_KERNEL);
	struct erofs_sb_info *sbi = kunit_kzalloc(test, sizeof(*sbi), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sb);
	KUNIT_ASSERT_NOT_NULL(test, sbi);
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_fs_info = sbi;
	strscpy(sb->s_id, "lz4gate", sizeof(sb->s_id));
	sbi->blkszbits = PAGE_SHIFT;
	if (zero_padding)
		sbi->feature_incompat = EROFS_FEATURE_INCOMPAT_ZERO_PADDING;
	return sb;
}

/* No byte of p[from..to) changed since it was poisoned. */
static bool klz4e_untouched(const u8 *p, size_t from, size_t to)
{
	return !memchr_inv(p + from, KLZ4E_POISON, to - from);
}
