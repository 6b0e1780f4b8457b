/* lz4gate finding ULZ4-LZ4F-BSID: LZ4F_compressBegin accepts a
 * frameInfo.blockSizeID outside the valid set (0, 4..7) and writes a frame
 * header that no decoder accepts, its own included.
 * Written for lz4gate (our own code). Exit: 1 defect shown, 0 not shown,
 * 2 could not run. Build (see docs/findings/ULZ4-LZ4F-BSID.md):
 *   cc -I<tree>/lib repro.c <tree>/lib/lz4frame.c <tree>/lib/lz4.c
 *      <tree>/lib/lz4hc.c <tree>/lib/xxhash.c */
#include <stdio.h>
#include <string.h>
#include "lz4frame.h"

int main(void)
{
	LZ4F_compressionContext_t cctx;
	LZ4F_decompressionContext_t dctx;
	LZ4F_preferences_t prefs;
	unsigned char frame[64], out[64];
	size_t hdr, end, size, in_size, out_size, r;
	unsigned code;
	int i, bad_id = 9;

	if (LZ4F_isError(LZ4F_createCompressionContext(&cctx, LZ4F_VERSION)) ||
	    LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION))) {
		printf("could not run: no LZ4F context\n");
		return 2;
	}
	memset(&prefs, 0, sizeof(prefs));
	/* 9 is not a block size id (valid: 0 = default, 4..7 = 64 KB..4 MB):
	 * an application passing a configured or miscomputed value. */
	prefs.frameInfo.blockSizeID = bad_id;   /* int to enum: r123-r128 name the type differently */
	hdr = LZ4F_compressBegin(cctx, frame, sizeof(frame), &prefs);
	if (LZ4F_isError(hdr)) {
		printf("not shown: LZ4F_compressBegin rejects block size id 9 (%s)\n",
		       LZ4F_getErrorName(hdr));
		return 0;
	}
	end = LZ4F_compressEnd(cctx, frame + hdr, sizeof(frame) - hdr, NULL);
	if (LZ4F_isError(end) || hdr < 7) {
		printf("could not run: LZ4F_compressEnd failed\n");
		return 2;
	}
	size = hdr + end;
	printf("LZ4F_compressBegin(blockSizeID 9) accepted; the empty frame (%u bytes):",
	       (unsigned)size);
	for (i = 0; i < (int)size; i++)
		printf(" %02X", frame[i]);
	/* Frame descriptor: magic (4), FLG, BD; BD bits 6-4 are the block
	 * maximum size code, valid 4..7 (frame format, "Block Maximum Size"). */
	code = (frame[5] >> 4) & 7;
	printf("\n  BD byte %02X: block maximum size code %u (valid: 4..7)\n", frame[5], code);
	in_size = size;
	out_size = sizeof(out);
	r = LZ4F_decompress(dctx, out, &out_size, frame, &in_size, NULL);
	if (LZ4F_isError(r))
		printf("  LZ4F_decompress on that frame: %s\n", LZ4F_getErrorName(r));
	else
		printf("  LZ4F_decompress on that frame: accepted (%u bytes consumed)\n",
		       (unsigned)in_size);
	LZ4F_freeCompressionContext(cctx);
	LZ4F_freeDecompressionContext(dctx);
	if (code < 4 || LZ4F_isError(r)) {
		printf("DEFECT shown: an invalid block size id is written into the frame "
		       "instead of being rejected\n");
		return 1;
	}
	printf("not shown: the frame is valid\n");
	return 0;
}
