/* lz4gate kshim: vmalloc family over the C library allocator.
 *
 * Large blocks (KSHIM_VPOOL_MIN and up) come from a small pool of kept
 * allocations: the kernel's unlz4 takes 2 x 8 MiB per call, and a fresh
 * 8 MiB malloc under ASan is an mmap, page faults and 1 MiB of shadow
 * written at malloc and again at free (legacy_decode ran at 0.03x of its
 * peer, issue 15). The detection stays that of an exact allocation:
 *   - the block handed out ends at the pooled allocation's end, rounded
 *     down to 16 bytes (vmalloc's memory is aligned); the up to 15 bytes
 *     after it are poisoned (ASAN_POISON_MEMORY_REGION, exact to the byte
 *     at a granule's tail), then comes ASan's own redzone: a read or write
 *     past the block is reported;
 *   - the bytes of the allocation before the block are poisoned (an access
 *     before it is a use-after-poison report);
 *   - vfree poisons the whole block (a use after vfree is reported).
 * Under MSan the block is marked uninitialised again at each vmalloc.
 * Fuzz targets are single-threaded; a pool with every slot busy falls back
 * to malloc. */
#ifndef LZ4GATE_KSHIM_VMALLOC_H
#define LZ4GATE_KSHIM_VMALLOC_H

#include <linux/types.h>
#include <linux/kshim_libc_alloc.h>
#include <linux/string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KSHIM_ASAN 1
#endif
#if __has_feature(memory_sanitizer)
#define KSHIM_MSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(KSHIM_ASAN)
#define KSHIM_ASAN 1
#endif
#if defined(KSHIM_ASAN)
#include <sanitizer/asan_interface.h>
#define KSHIM_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define KSHIM_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define KSHIM_POISON(p, n) ((void)(p), (void)(n))
#define KSHIM_UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#if defined(KSHIM_MSAN)
#include <sanitizer/msan_interface.h>
#endif

#define KSHIM_VPOOL_MIN (64ul << 10)
#define KSHIM_VPOOL_SLOTS 4

struct kshim_vpool_slot {
	unsigned char *mem;	/* the kept allocation, `cap` bytes, poisoned but the block */
	unsigned long cap;
	unsigned char *block;	/* handed out (busy) or NULL */
	unsigned long size;
};
/* Weak: one pool for every translation unit of a subject (as
 * kshim_alloc_calls in linux/kshim_libc_alloc.h). */
__attribute__((weak)) struct kshim_vpool_slot kshim_vpool[KSHIM_VPOOL_SLOTS];

/* A block of `size` bytes at the end of a free slot holding at least that
 * much (the smallest such), or of a new allocation; NULL if every slot is
 * busy. */
static inline void *kshim_vpool_get(unsigned long size)
{
	struct kshim_vpool_slot *s = NULL;
	unsigned long off;
	int i;
	for (i = 0; i < KSHIM_VPOOL_SLOTS; i++) {	/* the smallest that fits */
		struct kshim_vpool_slot *t = &kshim_vpool[i];
		if (!t->block && t->mem && t->cap >= size && (!s || t->cap < s->cap))
			s = t;
	}
	for (i = 0; !s && i < KSHIM_VPOOL_SLOTS; i++) {	/* else an empty one */
		if (!kshim_vpool[i].block && !kshim_vpool[i].mem)
			s = &kshim_vpool[i];
	}
	for (i = 0; !s && i < KSHIM_VPOOL_SLOTS; i++) {	/* else a free one, regrown */
		if (!kshim_vpool[i].block)
			s = &kshim_vpool[i];
	}
	if (!s)
		return NULL;
	if (!s->mem || s->cap < size) {
		free(s->mem);
		s->mem = malloc(size);
		s->cap = s->mem ? size : 0;
		if (!s->mem)
			return NULL;
		KSHIM_POISON(s->mem, s->cap);
	}
	off = (s->cap - size) & ~15ul;
	s->block = s->mem + off;
	s->size = size;
	KSHIM_UNPOISON(s->block, size);
#if defined(KSHIM_MSAN)
	__msan_poison(s->block, size);
#endif
	return s->block;
}

/* 1 if p was handed out by the pool (it is taken back, poisoned). */
static inline int kshim_vpool_put(const void *p)
{
	int i;
	for (i = 0; p && i < KSHIM_VPOOL_SLOTS; i++) {
		if (kshim_vpool[i].block == p) {
			KSHIM_POISON(kshim_vpool[i].block, kshim_vpool[i].size);
			kshim_vpool[i].block = NULL;
			return 1;
		}
	}
	return 0;
}

static inline void *vmalloc(unsigned long size)
{
	void *p;
	if (kshim_alloc_fails())
		return NULL;
	p = size >= KSHIM_VPOOL_MIN ? kshim_vpool_get(size) : NULL;
	return p ? p : malloc(size);
}

static inline void *vzalloc(unsigned long size)
{
	void *p;
	if (kshim_alloc_fails())
		return NULL;
	p = size >= KSHIM_VPOOL_MIN ? kshim_vpool_get(size) : NULL;
	if (!p)
		return calloc(1, size);
	memset(p, 0, size);
	return p;
}

static inline void vfree(const void *p)
{
	if (!kshim_vpool_put(p))
		free((void *)p);
}

#endif
