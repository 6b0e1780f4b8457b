/* lz4gate kshim: kmalloc family over the C library allocator. */
#ifndef LZ4GATE_KSHIM_SLAB_H
#define LZ4GATE_KSHIM_SLAB_H

#include <linux/types.h>
#include <linux/kshim_libc_alloc.h>

#define GFP_KERNEL ((gfp_t)0)
#define GFP_ATOMIC ((gfp_t)0)
#define GFP_NOFS   ((gfp_t)0)
#define __GFP_ZERO ((gfp_t)1)

static inline void *kmalloc(size_t size, gfp_t flags)
{
	if (kshim_alloc_fails())
		return NULL;
	return (flags & __GFP_ZERO) ? calloc(1, size) : malloc(size);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	(void)flags;
	if (kshim_alloc_fails())
		return NULL;
	return calloc(1, size);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#endif
