/*
 * KLZ4-EROFS-45999 (CVE-2026-45999; fix 21e161de2dc6 "erofs: fix
 * unsigned underflow in z_erofs_lz4_handle_overlap()"): the checks of the
 * case's kunit tests. lz4gate's own code; harness/kunit/emit_erofs.py puts
 * it in the EROFS suite, which a copy of fs/erofs/decompressor.c includes.
 *
 * The in-place test of z_erofs_lz4_handle_overlap() reads
 * rq->out[rq->outpages - rq->inpages + i]; before the fix nothing kept
 * outpages >= inpages (a crafted extent with m_llen < m_plen), so the
 * unsigned index wrapped to about 2^32 and the read went far past out[].
 * The fix only lets in-place decoding be considered when
 * outpages >= inpages; otherwise the compressed data is copied to the
 * global buffer (maptype 2), and the LZ4 decoder reports the corruption.
 *
 * tc 1 calls z_erofs_lz4_handle_overlap() itself with outpages 0 and
 * inpages 1, and points rq->out so that out[0xffffffff] (the index the
 * wrapped subtraction makes) is a slot the test owns, holding in[0]: the
 * buggy code reads it, finds the "in-place" layout and returns maptype 3;
 * the fixed code never reads out[] and copies to the global buffer
 * (maptype 2). No crash either way: the wrong maptype is the evidence.
 *
 * tc 2 is the reported shape through z_erofs_lz4_decompress(): one output
 * page of 100 bytes, two compressed pages (4192 bytes after the zero
 * padding), in-place I/O. Fixed: -EFSCORRUPTED, no byte of the output page
 * past 100 written. Buggy: out[0xffffffff] is 32 GiB past the array; UML
 * panics ("Segfault with no mm"), which ends the boot and fails the case.
 * tc 2 therefore runs after tc 1.
 */

static void klz4e_45999_guard(struct kunit *test)
{
	struct page *in = klz4e_page(test, 0);
	struct page **slot = kunit_kcalloc(test, 1, sizeof(*slot), GFP_KERNEL);
	struct z_erofs_decompress_req rq = {
		.in = &in,
		.inpages = 1,
		.outpages = 0,
		.pageofs_in = PAGE_SIZE - 64,
		.inputsize = 64,
		.pageofs_out = 0,
		.outputsize = 16,
		.alg = Z_EROFS_COMPRESSION_LZ4,
		.inplace_io = true,
		.partial_decoding = false,
		.gfp = GFP_KERNEL,
	};
	unsigned int margin = rq.pageofs_in;
	int maptype = -1;
	bool copied;
	u8 *src;

	KUNIT_ASSERT_NOT_NULL(test, slot);
	KUNIT_ASSERT_EQ(test, z_erofs_gbuf_growsize(1), 0);
	memset(page_address(in) + rq.pageofs_in, 0x11, rq.inputsize);
	*slot = in;
	/*
	 * outpages - inpages + 0 == 0xffffffff: let that element of out[] be
	 * *slot (the address computation wraps modulo the word size, so this
	 * holds for 32-bit kernels too). The fixed code never reads out[].
	 */
	rq.out = (struct page **)((unsigned long)slot -
				  (unsigned long)U32_MAX * sizeof(*slot));

	src = z_erofs_lz4_handle_overlap(&rq, kmap_local_page(in), page_address(in),
					 &margin, &maptype, true);
	if (IS_ERR(src)) {
		KUNIT_FAIL(test, "tc 1: z_erofs_lz4_handle_overlap() failed: %ld",
			   PTR_ERR(src));
		return;
	}
	if (maptype == 2) {
		/* The global buffer's lock is held until z_erofs_put_gbuf(). */
		copied = !memchr_inv(src, 0x11, rq.inputsize);
		z_erofs_put_gbuf(src);
		KUNIT_EXPECT_TRUE_MSG(test, copied,
				      "tc 1: the global buffer does not hold the %u compressed bytes",
				      rq.inputsize);
		return;
	}
	KUNIT_FAIL(test,
		   "tc 1: outpages 0 < inpages 1 was taken for in-place decoding (maptype %d, expected 2): out[outpages - inpages] was read at index %u",
		   maptype, rq.outpages - rq.inpages);
}

static void klz4e_45999_decompress(struct kunit *test)
{
	struct page *in[2] = { klz4e_page(test, 0), klz4e_page(test, 0x11) };
	struct page *out[1] = { klz4e_page(test, KLZ4E_POISON) };
	struct page *pagepool = NULL;
	struct z_erofs_decompress_req rq = {
		.sb = klz4e_sb(test, true),
		.in = in,
		.out = out,
		.inpages = 2,
		.outpages = 1,
		.pageofs_in = 0,
		.pageofs_out = 0,
		.inputsize = 2 * PAGE_SIZE,	/* m_plen: two blocks */
		.outputsize = 100,		/* m_llen < m_plen */
		.alg = Z_EROFS_COMPRESSION_LZ4,
		.inplace_io = true,
		.partial_decoding = false,
		.gfp = GFP_KERNEL,
	};
	int ret;

	KUNIT_ASSERT_EQ(test, z_erofs_gbuf_growsize(2), 0);
	/*
	 * Zero padding up to 4000, then bytes that are not a valid block
	 * (token 0x11: one literal, then offset 0x1111 before the output):
	 * 4192 compressed bytes ending on the block boundary (may_inplace).
	 */
	memset(page_address(in[0]) + 4000, 0x11, PAGE_SIZE - 4000);
	ret = z_erofs_lz4_decompress(&rq, &pagepool);
	erofs_release_pages(&pagepool);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EFSCORRUPTED,
			    "tc 2: 4192 compressed bytes for a 100-byte extent");
	KUNIT_EXPECT_TRUE_MSG(test, klz4e_untouched(page_address(out[0]), 100, PAGE_SIZE),
			      "tc 2: the output page was written past its 100 bytes");
}

