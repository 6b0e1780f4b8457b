/* lz4gate kshim: the C library allocator, declared without <stdlib.h>.
 * <stdlib.h> pulls in glibc's <endian.h>, which defines both
 * __LITTLE_ENDIAN and __BIG_ENDIAN; kernel code expects exactly one of
 * them (linux/kconfig.h), so subject translation units must not see it. */
#ifndef LZ4GATE_KSHIM_LIBC_ALLOC_H
#define LZ4GATE_KSHIM_LIBC_ALLOC_H

#include <stddef.h>

void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void free(void *ptr);

#endif
