/*
 * alloc_hook.c: the allocation counter behind alloc_hook.h, and the
 * subject slots that arm it (subject.h: alloc_fail_at, alloc_calls). One
 * counter per subject object (its symbols are made local with the rest of
 * subject.o), so the two subjects of a pair target count apart.
 *
 * Large blocks (POOL_MIN and up) come from a few kept allocations (as the
 * kernel shim's vmalloc, kshim/linux/vmalloc.h): LZ4F's contexts take up
 * to 2 x 4 MiB and LZ4_compress_HC 256 KiB per call, and a fresh large
 * malloc under ASan is an mmap, page faults and shadow written at malloc
 * and at free (most of frame_roundtrip's time, issue 15). Detection stays
 * that of an exact allocation: the block ends at the kept allocation's end
 * rounded down to 16 bytes, the bytes after it are poisoned up to ASan's
 * own redzone, the bytes before it poisoned, and a freed block poisoned
 * whole (a use after free is a use-after-poison report; freeing a block
 * twice reaches free() with a pointer malloc never returned, also a
 * report). Under MSan a block is uninitialised again at each allocation.
 * Fuzz targets are single-threaded; with every slot busy, plain malloc.
 */
#include <stdlib.h>
#include <string.h>

#include "subject.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOOK_ASAN 1
#endif
#if __has_feature(memory_sanitizer)
#define HOOK_MSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(HOOK_ASAN)
#define HOOK_ASAN 1
#endif
#if defined(HOOK_ASAN)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#if defined(HOOK_MSAN)
#include <sanitizer/msan_interface.h>
#endif

void *lz4gate_hook_malloc(size_t size);
void *lz4gate_hook_calloc(size_t n, size_t size);
void *lz4gate_hook_realloc(void *p, size_t size);
void lz4gate_hook_free(void *p);
void lz4gate_alloc_fail_at(unsigned long n);
unsigned long lz4gate_alloc_calls(void);

static unsigned long calls, fail_at;

/* Counts one allocation; 1 when it is the one to fail. */
static int fails(void)
{
    return ++calls == fail_at;
}

/* ---- the pool of large blocks ---------------------------------------- */

enum { POOL_SLOTS = 6 };
#define POOL_MIN ((size_t)64 << 10)

static struct {
    unsigned char *mem;     /* kept allocation of cap bytes, poisoned but the block */
    size_t cap;
    unsigned char *block;   /* handed out, or NULL */
    size_t size;
} pool[POOL_SLOTS];

/* A block of size bytes at the end of the smallest free slot that holds
 * it, else of an empty or regrown one; NULL when every slot is busy. */
static void *pool_get(size_t size)
{
    int i, k = -1;
    for (i = 0; i < POOL_SLOTS; i++)
        if (!pool[i].block && pool[i].mem && pool[i].cap >= size &&
            (k < 0 || pool[i].cap < pool[k].cap))
            k = i;
    for (i = 0; k < 0 && i < POOL_SLOTS; i++)
        if (!pool[i].block && !pool[i].mem)
            k = i;
    for (i = 0; k < 0 && i < POOL_SLOTS; i++)
        if (!pool[i].block)
            k = i;
    if (k < 0)
        return NULL;
    if (!pool[k].mem || pool[k].cap < size) {
        free(pool[k].mem);
        pool[k].mem = malloc(size);
        pool[k].cap = pool[k].mem ? size : 0;
        if (!pool[k].mem)
            return NULL;
        POISON(pool[k].mem, pool[k].cap);
    }
    pool[k].block = pool[k].mem + ((pool[k].cap - size) & ~(size_t)15);
    pool[k].size = size;
    UNPOISON(pool[k].block, size);
#if defined(HOOK_MSAN)
    __msan_poison(pool[k].block, size);
#endif
    return pool[k].block;
}

/* The slot that handed p out, or -1. */
static int pool_slot(const void *p)
{
    int i;
    for (i = 0; p && i < POOL_SLOTS; i++)
        if (pool[i].block == p)
            return i;
    return -1;
}

static void *hook_alloc(size_t size)
{
    void *p = size >= POOL_MIN ? pool_get(size) : NULL;
    return p ? p : malloc(size);
}

void *lz4gate_hook_malloc(size_t size) { return fails() ? NULL : hook_alloc(size); }

void *lz4gate_hook_calloc(size_t n, size_t size)
{
    void *p;
    if (fails())
        return NULL;
    if (size && n > (size_t)-1 / size)
        return NULL;
    p = n * size >= POOL_MIN ? pool_get(n * size) : NULL;
    if (!p)
        return calloc(n, size);
    memset(p, 0, n * size);
    return p;
}

/* A failed realloc leaves the block as it was (C11 7.22.3.5). */
void *lz4gate_hook_realloc(void *p, size_t size)
{
    int k = pool_slot(p);
    void *q;
    if (fails())
        return NULL;
    if (k < 0)                  /* its size is malloc's to know: stays malloc's */
        return realloc(p, size);
    q = hook_alloc(size);
    if (!q)
        return NULL;
    memcpy(q, p, pool[k].size < size ? pool[k].size : size);
    lz4gate_hook_free(p);
    return q;
}

void lz4gate_hook_free(void *p)
{
    int k = pool_slot(p);
    if (k < 0) {
        free(p);
        return;
    }
    POISON(pool[k].block, pool[k].size);
    pool[k].block = NULL;
}

void lz4gate_alloc_fail_at(unsigned long n)
{
    calls = 0;
    fail_at = n;
}

unsigned long lz4gate_alloc_calls(void) { return calls; }
