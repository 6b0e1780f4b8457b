/* lz4gate kshim: unaligned access without alignment assumptions.
 * get_unaligned()/put_unaligned() copy sizeof(*ptr) bytes with memcpy;
 * the _le/_be helpers assemble bytes explicitly (host-endian independent).
 * Neither performs a misaligned typed load, so UBSan's alignment check
 * stays quiet on them exactly as the kernel's packed-struct version. */
#ifndef LZ4GATE_KSHIM_ASM_UNALIGNED_H
#define LZ4GATE_KSHIM_ASM_UNALIGNED_H

#include <linux/compiler.h>
#include <linux/types.h>
/* The kernel's x86 <asm/unaligned.h> reached <linux/kernel.h> (through
 * linux/unaligned/access_ok.h) until 5.15; the lz4defs.h of 4.11-5.x
 * relies on it for __ffs()/__fls() and includes no bitops header itself. */
#include <linux/kernel.h>
#include <string.h>

/* type of an lvalue with qualifiers dropped (const U16 -> U16) */
#define __kshim_unqual_typeof(x) __typeof__(_Generic((x), \
	char: (char)0, signed char: (signed char)0, \
	unsigned char: (unsigned char)0, \
	short: (short)0, unsigned short: (unsigned short)0, \
	int: (int)0, unsigned int: (unsigned int)0, \
	long: (long)0, unsigned long: (unsigned long)0, \
	long long: (long long)0, unsigned long long: (unsigned long long)0, \
	default: (x)))

#define get_unaligned(ptr) __extension__ ({ \
	__kshim_unqual_typeof(*(ptr)) __kv; \
	memcpy(&__kv, (ptr), sizeof(__kv)); \
	__kv; })

#define put_unaligned(val, ptr) do { \
	__kshim_unqual_typeof(*(ptr)) __kv = (val); \
	memcpy((ptr), &__kv, sizeof(__kv)); \
	} while (0)

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = (const u8 *)p;
	return (u16)(b[0] | (b[1] << 8));
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = (const u8 *)p;
	return (u32)b[0] | ((u32)b[1] << 8) | ((u32)b[2] << 16) |
	       ((u32)b[3] << 24);
}

static inline u64 get_unaligned_le64(const void *p)
{
	const u8 *b = (const u8 *)p;
	return (u64)get_unaligned_le32(b) | ((u64)get_unaligned_le32(b + 4) << 32);
}

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = (const u8 *)p;
	return (u16)((b[0] << 8) | b[1]);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = (const u8 *)p;
	return ((u32)b[0] << 24) | ((u32)b[1] << 16) | ((u32)b[2] << 8) |
	       (u32)b[3];
}

static inline u64 get_unaligned_be64(const void *p)
{
	const u8 *b = (const u8 *)p;
	return ((u64)get_unaligned_be32(b) << 32) | (u64)get_unaligned_be32(b + 4);
}

static inline void put_unaligned_le16(u16 v, void *p)
{
	u8 *b = (u8 *)p;
	b[0] = (u8)v;
	b[1] = (u8)(v >> 8);
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = (u8 *)p;
	b[0] = (u8)v;
	b[1] = (u8)(v >> 8);
	b[2] = (u8)(v >> 16);
	b[3] = (u8)(v >> 24);
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	put_unaligned_le32((u32)v, p);
	put_unaligned_le32((u32)(v >> 32), (u8 *)p + 4);
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = (u8 *)p;
	b[0] = (u8)(v >> 8);
	b[1] = (u8)v;
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = (u8 *)p;
	b[0] = (u8)(v >> 24);
	b[1] = (u8)(v >> 16);
	b[2] = (u8)(v >> 8);
	b[3] = (u8)v;
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	put_unaligned_be32((u32)(v >> 32), p);
	put_unaligned_be32((u32)v, (u8 *)p + 4);
}

#endif
