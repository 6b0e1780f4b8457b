/*
 * The crypto API rows of the generated KUnit suite (harness/kunit/emit.py
 * puts this after suite_runtime.c): crypto/lz4.c and crypto/lz4hc.c called
 * the way their users call them, through crypto_alloc_comp(). lz4gate's own
 * code; the cases are KLZ4-2013-CRYPTO-DEC and KLZ4-2017-CRYPTO-ERR.
 */

#if IS_ENABLED(CONFIG_CRYPTO)
/*
 * An error of the crypto API is a negative errno, never LZ4's own negative
 * return value (KLZ4-2017-CRYPTO-ERR).
 */
static bool klz4_is_errno(int r)
{
	return r < 0 && r >= -MAX_ERRNO;
}

/* No byte of p[from..to) changed since it was poisoned. */
static bool klz4_untouched(const u8 *p, size_t from, size_t to)
{
	for (; from < to; from++)
		if (p[from] != KLZ4_POISON)
			return false;
	return true;
}

/*
 * The transform of @row's algorithm; NULL (the row skipped) when this
 * kernel has no such algorithm.
 */
static struct crypto_comp *klz4_tfm(struct kunit *test, const struct klz4_row *row)
{
	struct crypto_comp *tfm = crypto_alloc_comp(row->alg, 0, 0);

	if (!IS_ERR(tfm))
		return tfm;
	if (PTR_ERR(tfm) == -ENOENT)
		kunit_skip(test, "no \"%s\" compression algorithm in this kernel", row->alg);
	KUNIT_FAIL(test, "tc %u: crypto_alloc_comp(\"%s\") failed: %ld", row->tc_id, row->alg,
		   PTR_ERR(tfm));
	return NULL;
}

/*
 * A block through crypto_comp_decompress() with *dlen = capacity. The input
 * is followed by capacity poisoned bytes of its own buffer, so a decoder that
 * ignores the input size (KLZ4-2013-CRYPTO-DEC) reads poison, not past the
 * allocation, and is seen by its result.
 */
static void klz4_crypto_decompress(struct kunit *test, const struct klz4_row *row)
{
	struct crypto_comp *tfm = klz4_tfm(test, row);
	size_t in_len = klz4_blob_size(&row->input);
	size_t want_len = klz4_blob_size(&row->output);
	size_t room = row->capacity;
	u8 *in = klz4_blob_alloc(&row->input, in_len + room);
	u8 *out = vmalloc(room + KLZ4_TAIL);
	u8 *want = want_len ? klz4_blob_alloc(&row->output, 0) : NULL;
	unsigned int dlen = row->capacity;
	int r;

	if (!tfm)
		goto out;
	if (!in || !out || (want_len && !want)) {
		KUNIT_FAIL(test, "tc %u: out of memory", row->tc_id);
		goto out;
	}
	memset(out, KLZ4_POISON, room + KLZ4_TAIL);
	r = crypto_comp_decompress(tfm, in, row->src_size, out, &dlen);
	if (row->expect == KLZ4_ERRNO && !klz4_is_errno(r))
		KUNIT_FAIL(test, "tc %u: %s: returned %d, not a negative errno (dlen %u)",
			   row->tc_id, row->alg, r, dlen);
	else if (row->expect != KLZ4_ERRNO &&
		 (r || dlen != row->decoded || (want && memcmp(out, want, min_t(size_t, dlen,
										 want_len)))))
		KUNIT_FAIL(test, "tc %u: %s: returned %d, dlen %u (expected 0, dlen %d, its bytes)",
			   row->tc_id, row->alg, r, dlen, row->decoded);
	else if (!klz4_tail_intact(out, room))
		KUNIT_FAIL(test, "tc %u: %s: returned %d and wrote past *dlen", row->tc_id,
			   row->alg, r);
out:
	vfree(want);
	vfree(out);
	vfree(in);
	if (tfm)
		crypto_free_comp(tfm);
}

/*
 * Data through crypto_comp_compress() with *dlen = capacity: an errno, or 0
 * and a block within *dlen that crypto_comp_decompress() turns back into the
 * data. The output buffer has room for the worst case (LZ4_compressBound),
 * poisoned past the capacity: a compressor that ignores *dlen
 * (KLZ4-2013-CRYPTO-DEC) is seen writing there.
 */
static void klz4_crypto_compress(struct kunit *test, const struct klz4_row *row)
{
	struct crypto_comp *tfm = klz4_tfm(test, row);
	size_t len = klz4_blob_size(&row->input);
	size_t room = max_t(size_t, row->capacity, LZ4_compressBound(len));
	u8 *data = klz4_blob_alloc(&row->input, 0);
	u8 *out = vmalloc(room + KLZ4_TAIL), *back = vmalloc(len + 1);
	unsigned int dlen = row->capacity, back_len = len + 1;
	int r;

	if (!tfm)
		goto out;
	if (!data || !out || !back) {
		KUNIT_FAIL(test, "tc %u: out of memory", row->tc_id);
		goto out;
	}
	memset(out, KLZ4_POISON, room + KLZ4_TAIL);
	r = crypto_comp_compress(tfm, data, row->src_size, out, &dlen);
	if (!klz4_untouched(out, row->capacity, room + KLZ4_TAIL)) {
		KUNIT_FAIL(test, "tc %u: %s: returned %d and wrote past *dlen (%d)", row->tc_id,
			   row->alg, r, row->capacity);
	} else if (r) {
		if (!klz4_is_errno(r))
			KUNIT_FAIL(test, "tc %u: %s: returned %d, not a negative errno", row->tc_id,
				   row->alg, r);
	} else if (dlen > row->capacity) {
		KUNIT_FAIL(test, "tc %u: %s: *dlen %u exceeds the capacity %d", row->tc_id,
			   row->alg, dlen, row->capacity);
	} else {
		r = crypto_comp_decompress(tfm, out, dlen, back, &back_len);
		if (r || back_len != row->src_size || memcmp(back, data, back_len))
			KUNIT_FAIL(test, "tc %u: %s: %u-byte block does not decode back (%d, %u)",
				   row->tc_id, row->alg, dlen, r, back_len);
	}
out:
	vfree(back);
	vfree(out);
	vfree(data);
	if (tfm)
		crypto_free_comp(tfm);
}
#endif
