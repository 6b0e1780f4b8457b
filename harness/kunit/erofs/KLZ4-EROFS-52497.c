/*
 * KLZ4-EROFS-52497 (CVE-2023-52497; fix 3c12466b6b7b "erofs: fix lz4
 * inplace decompression"): the checks of the
 * case's kunit tests. lz4gate's own code; harness/kunit/emit_erofs.py puts
 * it in the EROFS suite, which a copy of fs/erofs/decompressor.c includes.
 *
 * For in-place I/O whose compressed pages are the last pages of the output,
 * EROFS before the fix mapped the compressed pages a second time (kmap of
 * the one page, or vm_map_ram() of several) and decoded from that mapping
 * into the separate mapping of the output: one buffer seen through two
 * virtual addresses, so LZ4's memmove() of overlapping literals could copy
 * in the wrong direction (seen with FSRM "rep movsb"). The fix decodes from
 * inside the output mapping: maptype 3, src = out + (outpages - inpages)
 * pages.
 *
 * UML's memmove() copies forwards whenever the two addresses do not overlap
 * (and two mappings never do), so the corruption itself cannot appear here.
 * tc 1 checks what the fix guarantees instead: for such a request
 * z_erofs_lz4_handle_overlap() returns maptype 3 and a source inside the
 * destination mapping. tc 2 decodes a hand-made 70-byte block in place
 * through z_erofs_lz4_decompress() and compares the 8128 bytes; it passes
 * with and without the bug under UML (the symptom needs the hardware), and
 * is there to show the in-place path works on the tree.
 */

/*
 * 70 bytes: 16 literals "0123456789abcdef", a match of offset 16 and length
 * 8096 (15 + 31 * 255 + 172 + 4), 16 last literals "ABCDEFGHIJKLMNOP".
 */
#define KLZ4E_52497_OUT (2 * PAGE_SIZE - 64)

static size_t klz4e_52497_block(u8 *p)
{
	static const char lit1[] = "0123456789abcdef", lit2[] = "ABCDEFGHIJKLMNOP";
	size_t n = 0;

	p[n++] = 0xff;			/* 15+ literals, match 15+ */
	p[n++] = 0x01;			/* 16 literals */
	memcpy(p + n, lit1, 16);
	n += 16;
	p[n++] = 0x10;			/* offset 16 */
	p[n++] = 0x00;
	memset(p + n, 0xff, 31);
	n += 31;
	p[n++] = 172;			/* match length 8096 */
	p[n++] = 0xf0;			/* 15+ last literals */
	p[n++] = 0x01;			/* 16 */
	memcpy(p + n, lit2, 16);
	n += 16;
	return n;
}

static u8 klz4e_52497_byte(size_t i)
{
	static const char lit1[] = "0123456789abcdef", lit2[] = "ABCDEFGHIJKLMNOP";

	return i < KLZ4E_52497_OUT - 16 ? lit1[i % 16] : lit2[i - (KLZ4E_52497_OUT - 16)];
}

static void klz4e_52497_source(struct kunit *test)
{
	struct page *q = klz4e_page(test, KLZ4E_POISON), *p = klz4e_page(test, 0);
	struct page *out[2] = { q, p }, *in[1] = { p };
	struct z_erofs_decompress_req rq = {
		.in = in,
		.out = out,
		.inpages = 1,
		.outpages = 2,
		.pageofs_in = PAGE_SIZE - 70,
		.inputsize = 70,
		.pageofs_out = 0,
		.outputsize = KLZ4E_52497_OUT,
		.alg = Z_EROFS_COMPRESSION_LZ4,
		.inplace_io = true,
		.partial_decoding = false,
		.gfp = GFP_KERNEL,
	};
	unsigned int margin = rq.pageofs_in;
	int maptype = -1;
	void *dst, *src;
	bool inside;

	KUNIT_ASSERT_EQ(test, z_erofs_gbuf_growsize(1), 0);
	klz4e_52497_block(page_address(p) + rq.pageofs_in);
	/* The output mapping, as z_erofs_lz4_decompress() makes it. */
	dst = erofs_vm_map_ram(out, 2);
	KUNIT_ASSERT_NOT_NULL(test, dst);

	src = z_erofs_lz4_handle_overlap(&rq, kmap_local_page(p), dst, &margin, &maptype,
					 true);
	if (IS_ERR(src)) {
		vm_unmap_ram(dst, 2);
		KUNIT_FAIL(test, "tc 1: z_erofs_lz4_handle_overlap() failed: %ld",
			   PTR_ERR(src));
		return;
	}
	inside = maptype == 3 && src == dst + PAGE_SIZE;
	if (maptype == 0)
		kunmap_local(src);
	else if (maptype == 1)
		vm_unmap_ram(src, rq.inpages);
	else if (maptype == 2)
		z_erofs_put_gbuf(src);
	vm_unmap_ram(dst, 2);
	KUNIT_EXPECT_TRUE_MSG(test, inside,
			      "tc 1: in-place request decoded from maptype %d at %p, not from the output mapping (maptype 3 at %p)",
			      maptype, src, dst + PAGE_SIZE);
}

static void klz4e_52497_decode(struct kunit *test)
{
	struct page *q = klz4e_page(test, KLZ4E_POISON), *p = klz4e_page(test, 0);
	struct page *out[2] = { q, p }, *in[1] = { p };
	struct page *pagepool = NULL;
	struct z_erofs_decompress_req rq = {
		.sb = klz4e_sb(test, true),
		.in = in,
		.out = out,
		.inpages = 1,
		.outpages = 2,
		.pageofs_in = 0,
		.inputsize = PAGE_SIZE,		/* the zero padding is found */
		.pageofs_out = 0,
		.outputsize = KLZ4E_52497_OUT,
		.alg = Z_EROFS_COMPRESSION_LZ4,
		.inplace_io = true,
		.partial_decoding = false,
		.gfp = GFP_KERNEL,
	};
	size_t i, bad = KLZ4E_52497_OUT;
	int ret;

	KUNIT_ASSERT_EQ(test, z_erofs_gbuf_growsize(1), 0);
	KUNIT_ASSERT_EQ(test, klz4e_52497_block(page_address(p) + PAGE_SIZE - 70), 70);
	ret = z_erofs_lz4_decompress(&rq, &pagepool);
	erofs_release_pages(&pagepool);
	for (i = 0; i < KLZ4E_52497_OUT; i++) {
		const u8 *b = page_address(i < PAGE_SIZE ? q : p);

		if (b[i % PAGE_SIZE] != klz4e_52497_byte(i)) {
			bad = i;
			break;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "tc 2: in-place decoding failed");
	KUNIT_EXPECT_EQ_MSG(test, bad, (size_t)KLZ4E_52497_OUT,
			    "tc 2: first wrong byte of the in-place output");
}

