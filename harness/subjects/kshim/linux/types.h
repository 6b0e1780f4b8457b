/* lz4gate kshim: kernel integer types (as in asm-generic/int-ll64.h). */
#ifndef LZ4GATE_KSHIM_TYPES_H
#define LZ4GATE_KSHIM_TYPES_H

#include <linux/compiler_types.h>

typedef unsigned char       u8;
typedef unsigned short      u16;
typedef unsigned int        u32;
typedef unsigned long long  u64;
typedef signed char         s8;
typedef signed short        s16;
typedef signed int          s32;
typedef signed long long    s64;

typedef u8  __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s8  __s8;
typedef s16 __s16;
typedef s32 __s32;
typedef s64 __s64;

typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;

typedef unsigned int gfp_t;

/* uintN_t, size_t, uintptr_t, bool come from <stdint.h>, <stddef.h> and
 * <stdbool.h> (the kernel defines its own; same sizes, and on -m32 its
 * uintptr_t is unsigned long where glibc's is unsigned int). */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ && \
	defined(__LITTLE_ENDIAN)
#  error "kshim: big-endian host, but __LITTLE_ENDIAN is defined (glibc <endian.h>); kernel code would take little-endian paths"
#endif

#endif
