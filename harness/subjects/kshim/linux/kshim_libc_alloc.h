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

/* Allocation failure (lz4gate, subject.h alloc_fail_at): kmalloc and vmalloc
 * count their calls and the kshim_alloc_fail_at-th returns NULL, as the
 * kernel's allocators may; 0: none fails. Weak, so that every translation
 * unit including this shares one pair (adapter_stream_kernel.c sets them). */
__attribute__((weak)) unsigned long kshim_alloc_calls;
__attribute__((weak)) unsigned long kshim_alloc_fail_at;

static inline int kshim_alloc_fails(void)
{
	return ++kshim_alloc_calls == kshim_alloc_fail_at;
}

#endif
