/* lz4gate kshim: branch hints and barriers. */
#ifndef LZ4GATE_KSHIM_COMPILER_H
#define LZ4GATE_KSHIM_COMPILER_H

#include <linux/compiler_types.h>

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier()   __asm__ __volatile__("" : : : "memory")
#define READ_ONCE(x)  (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) \
	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

#endif
