/* lz4gate kshim: vmalloc family over the C library allocator. Large
 * blocks (BLOCK_POOL_MIN and up) come from a small pool of kept
 * allocations (adapters/block_pool.h says why, and how an over- or
 * under-run and a use after vfree are still reported). */
#ifndef LZ4GATE_KSHIM_VMALLOC_H
#define LZ4GATE_KSHIM_VMALLOC_H

#include <linux/types.h>
#include <linux/kshim_libc_alloc.h>
#include <linux/string.h>

/* The pool (block_pool.h, beside the adapters: one implementation for the
 * kernel shim and the upstream subjects' allocator hook). */
#include "../../adapters/block_pool.h"

#define KSHIM_VPOOL_SLOTS 4
/* Weak: one pool for every translation unit of a subject (as
 * kshim_alloc_calls in linux/kshim_libc_alloc.h). */
__attribute__((weak)) struct block_pool_slot kshim_vpool[KSHIM_VPOOL_SLOTS];

static inline void *vmalloc(unsigned long size)
{
	void *p;
	if (kshim_alloc_fails())
		return NULL;
	p = size >= BLOCK_POOL_MIN ? block_pool_get(kshim_vpool, KSHIM_VPOOL_SLOTS, size) : NULL;
	return p ? p : malloc(size);
}

static inline void *vzalloc(unsigned long size)
{
	void *p;
	if (kshim_alloc_fails())
		return NULL;
	p = size >= BLOCK_POOL_MIN ? block_pool_get(kshim_vpool, KSHIM_VPOOL_SLOTS, size) : NULL;
	if (!p)
		return calloc(1, size);
	memset(p, 0, size);
	return p;
}

static inline void vfree(const void *p)
{
	if (!block_pool_put(kshim_vpool, KSHIM_VPOOL_SLOTS, p))
		free((void *)p);
}

#endif
