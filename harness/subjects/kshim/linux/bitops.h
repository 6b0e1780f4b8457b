/* lz4gate kshim: bit scans (undefined for 0, as in the kernel). */
#ifndef LZ4GATE_KSHIM_BITOPS_H
#define LZ4GATE_KSHIM_BITOPS_H

#include <linux/compiler.h>
#include <linux/types.h>

#define BITS_PER_LONG      (__SIZEOF_LONG__ * 8)
#define BITS_PER_LONG_LONG 64
#define BIT(nr)            (1UL << (nr))

/* index of the least significant set bit; word != 0 */
static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* index of the most significant set bit; word != 0 */
static inline unsigned long __fls(unsigned long word)
{
	return (unsigned long)(BITS_PER_LONG - 1 - __builtin_clzl(word));
}

/* 1-based; 0 for x == 0 */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* ffs() is not defined here: glibc's <strings.h> (pulled in by <string.h>)
 * declares int ffs(int) with the same meaning. */

#endif
