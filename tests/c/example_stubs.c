/*
 * The example stub headers of docs/examples/stubs/ (README "Project
 * APIs"): each header compiles on its own under lz4gate's warnings, and the
 * helpers a copy relies on give the values the names promise. Exit status 0
 * when they all do; the first wrong one is printed.
 */
#include <stdio.h>

#include <asm/unaligned.h>
#include <common.h>
#include <compiler.h>
#include <image.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <sys/zfs_context.h>
#include <sys/zio_compress.h>

#define EXPECT(cond) do { if (!(cond)) { printf("wrong: %s\n", #cond); return 1; } } while (0)

int main(void)
{
	static const u8 bytes[9] = { 0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	u8 out[9] = { 0 };
	u32 host;
	kmem_cache_t *cache;
	void *obj;

	BUILD_BUG_ON(sizeof(u64) != 8);
	EXPECT(get_unaligned_le16(bytes + 1) == 0x2211);
	EXPECT(get_unaligned_le32(bytes + 1) == 0x44332211u);
	host = get_unaligned((const u32 *)(bytes + 1));   /* a const source */
	put_unaligned(host, (u32 *)(out + 3));
	EXPECT(memcmp(out + 3, bytes + 1, 4) == 0);
	EXPECT(min(3, 5) == 3 && max(3, 5) == 5 && MIN(7, 2) == 2);
	EXPECT(likely(1) && !unlikely(0));
	EXPECT(LZ4F_MAGIC == 0x184D2204);       /* frame format: Magic Number */
	EXPECT(BE_IN32(bytes + 1) == 0x11223344u);
	EXPECT(BE_32(host) == 0x11223344u);     /* host order read back as big-endian */
	cache = kmem_cache_create("c", 24, 0, NULL, NULL, NULL, NULL, NULL, 0);
	EXPECT(cache != NULL);
	obj = kmem_cache_alloc(cache, KM_SLEEP);
	EXPECT(obj != NULL);
	memset(obj, 0xA5, 24);
	kmem_cache_free(cache, obj);
	kmem_cache_destroy(cache);
	ASSERT(0);                              /* off, as in a production build */
	return 0;
}
