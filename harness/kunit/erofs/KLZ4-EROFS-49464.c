/*
 * KLZ4-EROFS-49464 (CVE-2022-49464; fix dcbe6803fffd "erofs: fix
 * buffer copy overflow of ztailpacking feature"): the checks of the
 * case's kunit tests. lz4gate's own code; harness/kunit/emit_erofs.py puts
 * it in the EROFS suite, which a copy of fs/erofs/decompressor.c includes.
 *
 * An uncompressed ("shifted") pcluster whose output straddles two pages is
 * copied in two parts. Before the fix, z_erofs_shifted_transform() copied
 * pageofs_out bytes into the second page, which is the rest of a full
 * block; with ztailpacking the tail pcluster is shorter than a block
 * (outputsize < PAGE_SIZE), so it read past the inline data (KASAN:
 * use-after-free read in z_erofs_shifted_transform) and wrote that many
 * bytes into the second output page. The fix copies outputsize - righthalf.
 *
 * 6.12 has no z_erofs_shifted_transform(): z_erofs_transform_plain()
 * replaced it and bounds every copy by outputsize. The bug is given to a
 * copy of 6.12 as a port (the length of the second page's part becomes
 * pageofs_out again); see KLZ4-EROFS-49464.bug.json.
 *
 * tc 1: a 100-byte tail pcluster inline at offset 200 of a metadata page,
 * decoded to offset 4050: 46 bytes to the first output page, 54 to the
 * second. The compressed page is the first of two adjacent pages the test
 * owns, so the buggy over-read (4050 bytes from offset 246, 200 bytes past
 * the page) stays in the test's memory; the output pages are poisoned and
 * every byte outside the 100 must stay so. Buggy: bytes 54..4049 of the
 * second page are written.
 * tc 2: a full 4096-byte block to the same offset, which the old code
 * already got right (the bug is only for blocks shorter than a page); it
 * passes with and without the bug and shows the port changes nothing else.
 */

static void klz4e_49464_copy(struct kunit *test, unsigned int pageofs_in,
			     unsigned int size)
{
	struct page *in = klz4e_pages2(test, 0x5a);
	struct page *out[2] = { klz4e_page(test, KLZ4E_POISON),
				klz4e_page(test, KLZ4E_POISON) };
	struct page *pagepool = NULL;
	const unsigned int pageofs_out = 4050, right = PAGE_SIZE - pageofs_out;
	struct z_erofs_decompress_req rq = {
		.sb = klz4e_sb(test, true),
		.in = &in,
		.out = out,
		.inpages = 1,
		.outpages = 2,
		.pageofs_in = pageofs_in,
		.inputsize = size,
		.pageofs_out = pageofs_out,
		.outputsize = size,
		.alg = Z_EROFS_COMPRESSION_SHIFTED,
		.gfp = GFP_KERNEL,
	};
	const u8 *o0 = page_address(out[0]), *o1 = page_address(out[1]);
	u8 *kin = page_address(in);
	unsigned int i;
	int ret;

	/* The pcluster's bytes never equal the poison (they are < 0x80). */
	for (i = 0; i < size; i++)
		kin[pageofs_in + i] = i & 0x7f;
	ret = z_erofs_transform_plain(&rq, &pagepool);
	erofs_release_pages(&pagepool);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, klz4e_untouched(o0, 0, pageofs_out),
			      "first output page written before pageofs_out");
	KUNIT_EXPECT_TRUE_MSG(test, !memcmp(o0 + pageofs_out, kin + pageofs_in, right),
			      "first output page: wrong %u bytes", right);
	KUNIT_EXPECT_TRUE_MSG(test, !memcmp(o1, kin + pageofs_in + right, size - right),
			      "second output page: wrong %u bytes", size - right);
	KUNIT_EXPECT_TRUE_MSG(test, klz4e_untouched(o1, size - right, PAGE_SIZE),
			      "second output page written past the pcluster's %u bytes (the copy read past the inline data)",
			      size - right);
}

static void klz4e_49464_tail(struct kunit *test)
{
	klz4e_49464_copy(test, 200, 100);
}

static void klz4e_49464_block(struct kunit *test)
{
	klz4e_49464_copy(test, 0, PAGE_SIZE);
}

