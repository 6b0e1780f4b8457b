/*
 * lz4gate: a pool of kept large allocations for the allocators lz4gate
 * gives subject code (the kernel shim's vmalloc, kshim/linux/vmalloc.h, and
 * the upstream subjects' allocator hook, alloc_hook.c).
 *
 * Why: LZ4F contexts take up to 2 x 4 MiB, LZ4_compress_HC 256 KiB per call
 * and the kernel's unlz4 2 x 8 MiB per call; a fresh large malloc under ASan
 * is an mmap, page faults and shadow written at malloc and again at free
 * (legacy_decode ran at 0.03x of its peer, frame_roundtrip spent most of its
 * time there; issue 15). Detection stays that of an exact allocation:
 *   - the block handed out ends at the kept allocation's end, rounded down
 *     to 16 bytes; the up to 15 bytes after it are poisoned
 *     (ASAN_POISON_MEMORY_REGION, exact to the byte at a granule's tail),
 *     then comes ASan's own redzone: a read or write past the block is
 *     reported;
 *   - the bytes of the allocation before the block are poisoned (an access
 *     there is a use-after-poison report);
 *   - a block taken back is poisoned whole (a use after free is reported).
 * Under MSan a block is uninitialised again each time it is handed out.
 * Fuzz targets are single-threaded; with every slot busy the caller falls
 * back to malloc. Plain C over the C library: it compiles in the kernel
 * shim's dialect and in the adapters'.
 */
#ifndef LZ4GATE_BLOCK_POOL_H
#define LZ4GATE_BLOCK_POOL_H

#include <stddef.h>

/* Declared, not taken from <stdlib.h>: in the kernel shim's translation
 * units glibc's <endian.h> must stay out (kshim/linux/kshim_libc_alloc.h). */
void *malloc(size_t size);
void free(void *ptr);

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BLOCK_POOL_ASAN 1
#endif
#if __has_feature(memory_sanitizer)
#define BLOCK_POOL_MSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(BLOCK_POOL_ASAN)
#define BLOCK_POOL_ASAN 1
#endif
#if defined(BLOCK_POOL_ASAN)
#include <sanitizer/asan_interface.h>
#define BLOCK_POOL_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define BLOCK_POOL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define BLOCK_POOL_POISON(p, n) ((void)(p), (void)(n))
#define BLOCK_POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#if defined(BLOCK_POOL_MSAN)
#include <sanitizer/msan_interface.h>
#endif

/* Sizes from here up come from the pool. */
#define BLOCK_POOL_MIN ((size_t)64 << 10)

struct block_pool_slot {
    unsigned char *mem;     /* the kept allocation, cap bytes, poisoned but the block */
    size_t cap;
    unsigned char *block;   /* handed out, or NULL */
    size_t size;
};

/* A block of size bytes at the end of the smallest free slot that holds it,
 * else of an empty or regrown one; NULL when every slot is busy. */
static inline void *block_pool_get(struct block_pool_slot *pool, int slots, size_t size)
{
    struct block_pool_slot *s = NULL;
    int i;
    for (i = 0; i < slots; i++)     /* the smallest that fits */
        if (!pool[i].block && pool[i].mem && pool[i].cap >= size && (!s || pool[i].cap < s->cap))
            s = &pool[i];
    for (i = 0; !s && i < slots; i++)   /* else an empty one */
        if (!pool[i].block && !pool[i].mem)
            s = &pool[i];
    for (i = 0; !s && i < slots; i++)   /* else a free one, regrown */
        if (!pool[i].block)
            s = &pool[i];
    if (!s)
        return NULL;
    if (!s->mem || s->cap < size) {
        free(s->mem);
        s->mem = malloc(size);
        s->cap = s->mem ? size : 0;
        if (!s->mem)
            return NULL;
        BLOCK_POOL_POISON(s->mem, s->cap);
    }
    s->block = s->mem + ((s->cap - size) & ~(size_t)15);
    s->size = size;
    BLOCK_POOL_UNPOISON(s->block, size);
#if defined(BLOCK_POOL_MSAN)
    __msan_poison(s->block, size);
#endif
    return s->block;
}

/* The slot that handed p out, or NULL. */
static inline struct block_pool_slot *block_pool_slot_of(struct block_pool_slot *pool, int slots,
                                                         const void *p)
{
    int i;
    for (i = 0; p && i < slots; i++)
        if (pool[i].block == p)
            return &pool[i];
    return NULL;
}

/* 1 if p was handed out by the pool (it is taken back, poisoned whole). */
static inline int block_pool_put(struct block_pool_slot *pool, int slots, const void *p)
{
    struct block_pool_slot *s = block_pool_slot_of(pool, slots, p);
    if (!s)
        return 0;
    BLOCK_POOL_POISON(s->block, s->size);
    s->block = NULL;
    return 1;
}

#endif
