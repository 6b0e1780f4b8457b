/* lz4gate kshim: vmalloc family over the C library allocator. */
#ifndef LZ4GATE_KSHIM_VMALLOC_H
#define LZ4GATE_KSHIM_VMALLOC_H

#include <linux/types.h>
#include <linux/kshim_libc_alloc.h>

static inline void *vmalloc(unsigned long size)
{
	if (kshim_alloc_fails())
		return NULL;
	return malloc(size);
}

static inline void *vzalloc(unsigned long size)
{
	if (kshim_alloc_fails())
		return NULL;
	return calloc(1, size);
}

static inline void vfree(const void *p)
{
	free((void *)p);
}

#endif
