/*
 * The fixed part of the generated KUnit suite (harness/kunit/emit.py puts
 * it after suite_data.c, before the data tables). lz4gate's own code: one
 * runner per kind of entry point, driven by struct klz4_row.
 */

/* Bytes kept after every output buffer; a write into them is a failure. */
#define KLZ4_TAIL 64
#define KLZ4_POISON 0xA5

enum klz4_entry {
	KLZ4_SKIP,
	KLZ4_DECOMPRESS_SAFE,
	KLZ4_DECOMPRESS_SAFE_PARTIAL,
	KLZ4_DECOMPRESS_FAST,
	KLZ4_DECOMPRESS_USING_DICT,
	KLZ4_COMPRESS_DEFAULT,
	KLZ4_COMPRESS_FAST,
	KLZ4_COMPRESS_HC,
	KLZ4_COMPRESS_DEST_SIZE,
	KLZ4_UNLZ4,
	KLZ4_UNLZ4_FILL,
	KLZ4_CRYPTO_COMPRESS,
	KLZ4_CRYPTO_DECOMPRESS,
};

enum klz4_expect {
	KLZ4_ANY,		/* any return value; only a crash fails */
	KLZ4_REJECT,		/* return < 0 */
	KLZ4_EQUAL,		/* return == value */
	KLZ4_NOT_NEGATIVE,	/* return >= 0 */
	KLZ4_ROUNDTRIP,		/* compressors: 0, or a block that decodes back */
	KLZ4_ERRNO,		/* crypto API: a negative errno, -MAX_ERRNO..-1 */
};

/**
 * struct klz4_seg - one piece of a test buffer
 * @bytes: the bytes, or NULL for a run or generated data
 * @len: number of bytes
 * @fill: the byte of a run
 * @gen: the kind of generated data (KLZ4_NONE: bytes or a run)
 * @seed: the seed of generated data
 */
struct klz4_seg {
	const u8 *bytes;
	u32 len;
	u8 fill;
	enum klz4_gen gen;
	u64 seed;
};

/**
 * struct klz4_blob - a test buffer as segments, expanded at run time
 * @segs: the segments, in order
 * @nsegs: how many
 */
struct klz4_blob {
	const struct klz4_seg *segs;
	u32 nsegs;
};

/**
 * struct klz4_row - one test of a regression case (regress/cases/ID.json)
 * @tc_id: the test's tcId
 * @entry: the entry point called
 * @skip: why the suite cannot run this test (entry is KLZ4_SKIP)
 * @bits: 32 or 64 when the test needs that word size, else 0
 * @in_place: decode with the block at the end of the output buffer
 * @input: decoders: the block; compressors: the data
 * @output: the bytes the output must start with (may be empty)
 * @dict: the dictionary of LZ4_decompress_safe_usingDict()
 * @src_size: size passed as the input size
 * @capacity: size passed as the output capacity
 * @target: target size of LZ4_decompress_safe_partial()
 * @original: size passed to LZ4_decompress_fast()
 * @decoded: the decoded size (in-place margin)
 * @acceleration: of LZ4_compress_fast()
 * @level: of LZ4_compress_HC()
 * @cap_from: compressors: first capacity tried
 * @cap_to: compressors: last capacity tried
 * @expect: what the return value must be
 * @value: for KLZ4_EQUAL
 * @alg: the crypto API's algorithm name ("lz4", "lz4hc") of a glue row
 */
struct klz4_row {
	u32 tc_id;
	enum klz4_entry entry;
	const char *skip;
	u8 bits;
	bool in_place;
	struct klz4_blob input, output, dict;
	int src_size, capacity, target, original, decoded;
	int acceleration, level, cap_from, cap_to;
	enum klz4_expect expect;
	long long value;
	const char *alg;
};

/* The LZ4 API takes char buffers. */
#define KLZ4_CSRC(p) ((const char *)(p))
#define KLZ4_DST(p) ((char *)(p))

#define KLZ4_BYTES(a) { .bytes = (a), .len = sizeof(a) }
#define KLZ4_RUN(b, n) { .fill = (b), .len = (n) }
#define KLZ4_GEN(kind, n, s) { .gen = (kind), .len = (n), .seed = (s) }
#define KLZ4_BLOB(s) { .segs = (s), .nsegs = ARRAY_SIZE(s) }

/* One KUnit case per regression case, one parameter per row. */
#define KLZ4_CASE(id, gen)						\
	{ .run_case = klz4_run_row, .name = (id),			\
	  .generate_params = (gen), .module_name = KBUILD_MODNAME }

static void klz4_row_desc(const struct klz4_row *row, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "tc %u", row->tc_id);
}

static size_t klz4_blob_size(const struct klz4_blob *b)
{
	size_t n = 0;
	u32 i;

	for (i = 0; i < b->nsegs; i++)
		n += b->segs[i].len;
	return n;
}

static int klz4_blob_fill(u8 *dst, const struct klz4_blob *b)
{
	const struct klz4_seg *seg;
	u32 i;

	for (i = 0; i < b->nsegs; i++) {
		seg = &b->segs[i];
		if (seg->bytes)
			memcpy(dst, seg->bytes, seg->len);
		else if (seg->gen == KLZ4_NONE)
			memset(dst, seg->fill, seg->len);
		else if (klz4_gen_fill(dst, seg->len, seg->gen, seg->seed))
			return -ENOMEM;
		dst += seg->len;
	}
	return 0;
}

/* vmalloc'd copy of @b in a buffer of at least @room bytes (+ tail). */
static u8 *klz4_blob_alloc(const struct klz4_blob *b, size_t room)
{
	size_t n = klz4_blob_size(b);
	u8 *p = vmalloc(max(n, room) + KLZ4_TAIL);

	if (p) {
		memset(p, KLZ4_POISON, max(n, room) + KLZ4_TAIL);
		if (klz4_blob_fill(p, b)) {
			vfree(p);
			p = NULL;
		}
	}
	return p;
}

static bool klz4_tail_intact(const u8 *p, size_t room)
{
	size_t i;

	for (i = 0; i < KLZ4_TAIL; i++)
		if (p[room + i] != KLZ4_POISON)
			return false;
	return true;
}

static bool klz4_return_ok(const struct klz4_row *row, long long r)
{
	switch (row->expect) {
	case KLZ4_REJECT:
		return r < 0;
	case KLZ4_EQUAL:
		return r == row->value;
	case KLZ4_NOT_NEGATIVE:
		return r >= 0;
	default:
		return true;
	}
}

static int klz4_call_decoder(const struct klz4_row *row, const u8 *src, u8 *dst,
			     const u8 *dict, int dict_len)
{
	switch (row->entry) {
	case KLZ4_DECOMPRESS_SAFE:
		return LZ4_decompress_safe(KLZ4_CSRC(src), KLZ4_DST(dst), row->src_size,
					   row->capacity);
	case KLZ4_DECOMPRESS_SAFE_PARTIAL:
		return LZ4_decompress_safe_partial(KLZ4_CSRC(src), KLZ4_DST(dst), row->src_size,
						   row->target, row->capacity);
	case KLZ4_DECOMPRESS_FAST:
		return LZ4_decompress_fast(KLZ4_CSRC(src), KLZ4_DST(dst), row->original);
	default:
		return LZ4_decompress_safe_usingDict(KLZ4_CSRC(src), KLZ4_DST(dst), row->src_size,
						     row->capacity, KLZ4_CSRC(dict), dict_len);
	}
}

static void klz4_decode(struct kunit *test, const struct klz4_row *row)
{
	size_t in_len = klz4_blob_size(&row->input);
	size_t want_len = klz4_blob_size(&row->output);
	size_t room = row->capacity > 0 ? row->capacity : 64;
	u8 *in, *out, *src, *want = NULL, *dict = NULL;
	int r;

	if (row->in_place)
		room = row->decoded + (in_len >> 8) + 32;
	in = klz4_blob_alloc(&row->input, 0);
	out = vmalloc(room + KLZ4_TAIL);
	if (want_len)
		want = klz4_blob_alloc(&row->output, 0);
	if (row->dict.nsegs)
		dict = klz4_blob_alloc(&row->dict, 0);
	if (!in || !out || (want_len && !want) || (row->dict.nsegs && !dict)) {
		KUNIT_FAIL(test, "tc %u: out of memory", row->tc_id);
		goto out;
	}
	memset(out, KLZ4_POISON, room + KLZ4_TAIL);
	src = in;
	if (row->in_place) {
		src = out + room - in_len;
		memcpy(src, in, in_len);
	}
	r = klz4_call_decoder(row, src, out, dict, klz4_blob_size(&row->dict));
	if (!klz4_return_ok(row, r))
		KUNIT_FAIL(test, "tc %u: returned %d (src_size %d, capacity %d, target %d)",
			   row->tc_id, r, row->src_size, row->capacity, row->target);
	else if (r > 0 && want && memcmp(out, want, min_t(size_t, r, want_len)))
		KUNIT_FAIL(test, "tc %u: returned %d but the output differs", row->tc_id, r);
	else if (!row->in_place && !klz4_tail_intact(out, room))
		KUNIT_FAIL(test, "tc %u: returned %d and wrote past the capacity", row->tc_id, r);
out:
	vfree(dict);
	vfree(want);
	vfree(out);
	vfree(in);
}

static int klz4_call_compressor(const struct klz4_row *row, const u8 *src, u8 *dst,
				int cap, int *consumed, void *wrkmem)
{
	switch (row->entry) {
	case KLZ4_COMPRESS_DEFAULT:
		return LZ4_compress_default(KLZ4_CSRC(src), KLZ4_DST(dst), row->src_size, cap,
					    wrkmem);
	case KLZ4_COMPRESS_FAST:
		return LZ4_compress_fast(KLZ4_CSRC(src), KLZ4_DST(dst), row->src_size, cap,
					 row->acceleration, wrkmem);
	case KLZ4_COMPRESS_HC:
		return LZ4_compress_HC(KLZ4_CSRC(src), KLZ4_DST(dst), row->src_size, cap,
				       row->level, wrkmem);
	default:
		return LZ4_compress_destSize(KLZ4_CSRC(src), KLZ4_DST(dst), consumed, cap, wrkmem);
	}
}

/* One capacity: 0, or a block within @cap that decodes to what it consumed. */
static bool klz4_compress_once(struct kunit *test, const struct klz4_row *row,
			       const u8 *data, size_t len, int cap, void *wrkmem)
{
	size_t room = cap > 0 ? cap : 0;
	u8 *dst = vmalloc(room + KLZ4_TAIL), *back = vmalloc(len + 1);
	int consumed = row->src_size, r, d;
	bool ok = false;

	if (!dst || !back) {
		KUNIT_FAIL(test, "tc %u: out of memory", row->tc_id);
		goto out;
	}
	memset(dst, KLZ4_POISON, room + KLZ4_TAIL);
	r = klz4_call_compressor(row, data, dst, cap, &consumed, wrkmem);
	if (r < 0 || r > cap || !klz4_tail_intact(dst, room)) {
		KUNIT_FAIL(test, "tc %u: capacity %d: returned %d%s", row->tc_id, cap, r,
			   klz4_tail_intact(dst, room) ? "" : ", wrote past the capacity");
		goto out;
	}
	if (r > 0) {
		d = LZ4_decompress_safe(KLZ4_CSRC(dst), KLZ4_DST(back), r, consumed);
		if (d != consumed || memcmp(back, data, consumed)) {
			KUNIT_FAIL(test,
				   "tc %u: capacity %d: %d-byte block does not decode to the input (%d)",
				   row->tc_id, cap, r, d);
			goto out;
		}
	}
	ok = true;
out:
	vfree(back);
	vfree(dst);
	return ok;
}

static void klz4_compress(struct kunit *test, const struct klz4_row *row)
{
	size_t len = klz4_blob_size(&row->input);
	bool hc = row->entry == KLZ4_COMPRESS_HC;
	void *wrkmem = vmalloc(hc ? LZ4HC_MEM_COMPRESS : LZ4_MEM_COMPRESS);
	u8 *data = klz4_blob_alloc(&row->input, 0);
	int cap;

	if (!wrkmem || !data) {
		KUNIT_FAIL(test, "tc %u: out of memory", row->tc_id);
		goto out;
	}
	for (cap = row->cap_from; cap <= row->cap_to; cap++)
		if (!klz4_compress_once(test, row, data, len, cap, wrkmem))
			break;
out:
	vfree(data);
	vfree(wrkmem);
}

#ifdef KLZ4_HAVE_UNLZ4
/* The callbacks of unlz4() take no context: one call at a time, through these. */
static u8 *klz4_flushed;
static size_t klz4_flushed_len, klz4_flush_room;
static const u8 *klz4_fill_src;
static size_t klz4_fill_left;

static long klz4_flush(void *chunk, unsigned long size)
{
	if (klz4_flushed_len < klz4_flush_room)
		memcpy(klz4_flushed + klz4_flushed_len, chunk,
		       min_t(size_t, size, klz4_flush_room - klz4_flushed_len));
	klz4_flushed_len += size;
	return size;
}

static long klz4_fill(void *chunk, unsigned long size)
{
	size_t n = min_t(size_t, size, klz4_fill_left);

	memcpy(chunk, klz4_fill_src, n);
	klz4_fill_src += n;
	klz4_fill_left -= n;
	return n;
}

static void klz4_unlz4_error(char *msg)
{
	pr_info("lz4gate unlz4 error: %s\n", msg);
}

/*
 * unlz4() is __init: it is only called while the kernel boots, since the
 * suite is then an init-section suite (see the end of the file).
 */
static void __ref klz4_unlz4(struct kunit *test, const struct klz4_row *row)
{
	size_t in_len = klz4_blob_size(&row->input);
	size_t want_len = klz4_blob_size(&row->output);
	u8 *in = klz4_blob_alloc(&row->input, 0);
	u8 *want = want_len ? klz4_blob_alloc(&row->output, 0) : NULL;
	long pos = 0;
	int r;

	klz4_flush_room = want_len + 4096;
	klz4_flushed = vmalloc(klz4_flush_room);
	klz4_flushed_len = 0;
	if (!in || !klz4_flushed || (want_len && !want)) {
		KUNIT_FAIL(test, "tc %u: out of memory", row->tc_id);
		goto out;
	}
	if (row->entry == KLZ4_UNLZ4_FILL) {
		klz4_fill_src = in;
		klz4_fill_left = in_len;
		r = unlz4(NULL, 0, klz4_fill, klz4_flush, NULL, &pos, klz4_unlz4_error);
	} else {
		r = unlz4(in, in_len, NULL, klz4_flush, NULL, &pos, klz4_unlz4_error);
	}
	if (!klz4_return_ok(row, r))
		KUNIT_FAIL(test, "tc %u: returned %d, pos %ld", row->tc_id, r, pos);
	else if (want && (klz4_flushed_len != want_len ||
			  memcmp(klz4_flushed, want, want_len)))
		KUNIT_FAIL(test,
			   "tc %u: returned %d but flushed %zu bytes that differ from the expected %zu",
			   row->tc_id, r, klz4_flushed_len, want_len);
out:
	vfree(klz4_flushed);
	klz4_flushed = NULL;
	vfree(want);
	vfree(in);
}
#endif
