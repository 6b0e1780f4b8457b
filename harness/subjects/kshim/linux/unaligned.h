/* lz4gate kshim: kernels from 6.12 include <linux/unaligned.h> instead. */
#include <asm/unaligned.h>
