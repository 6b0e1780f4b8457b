/*
 * The end of the fixed part of the generated KUnit suite (harness/kunit/emit.py
 * puts it after suite_crypto.c): one row, to the runner of its entry point.
 */

static void klz4_run_row(struct kunit *test)
{
	const struct klz4_row *row = test->param_value;

	if (row->entry == KLZ4_SKIP)
		kunit_skip(test, "%s", row->skip);
	if (row->bits && row->bits != BITS_PER_LONG)
		kunit_skip(test, "needs a %u-bit kernel", row->bits);
	switch (row->entry) {
	case KLZ4_COMPRESS_DEFAULT:
	case KLZ4_COMPRESS_FAST:
	case KLZ4_COMPRESS_HC:
	case KLZ4_COMPRESS_DEST_SIZE:
		klz4_compress(test, row);
		break;
	case KLZ4_UNLZ4:
	case KLZ4_UNLZ4_FILL:
#ifdef KLZ4_HAVE_UNLZ4
		klz4_unlz4(test, row);
#else
		kunit_skip(test, "unlz4 needs CONFIG_DECOMPRESS_LZ4=y and a built-in suite");
#endif
		break;
	case KLZ4_CRYPTO_COMPRESS:
	case KLZ4_CRYPTO_DECOMPRESS:
#if IS_ENABLED(CONFIG_CRYPTO)
		if (row->entry == KLZ4_CRYPTO_COMPRESS)
			klz4_crypto_compress(test, row);
		else
			klz4_crypto_decompress(test, row);
#else
		kunit_skip(test, "the crypto API rows need CONFIG_CRYPTO");
#endif
		break;
	default:
		klz4_decode(test, row);
	}
}
