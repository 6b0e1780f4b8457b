/*
 * Stub environment for a boot loader's decoder-only LZ4 copy built in user
 * space (docs/adapters.md, acceptance rows of U-Boot). Written by lz4gate
 * from the names the copy uses; every header of this folder includes it.
 * Pass the folder with --include (it is searched before the tree's own
 * include/, which still supplies the project's lz4 header).
 */
#ifndef BOOT_ENV_H
#define BOOT_ENV_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define BUILD_BUG_ON(cond) ((void)sizeof(char[1 - 2 * !!(cond)]))

/* Byte-wise little-endian loads: no alignment or host order assumed. */
static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | b[1] << 8);
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

/*
 * Host-order unaligned access of *p's own type, through memcpy (the cast
 * drops a const of *p, so the loaded copy is writable).
 */
#define get_unaligned(p) \
	({ __typeof__((__typeof__(*(p)))0) v_; memcpy(&v_, (p), sizeof(v_)); v_; })
#define put_unaligned(v, p) \
	do { __typeof__(*(p)) v_ = (v); memcpy((p), &v_, sizeof(v_)); } while (0)

/* The LZ4 frame format's magic number (frame format, "Magic Number"). */
#define LZ4F_MAGIC 0x184D2204

#endif
