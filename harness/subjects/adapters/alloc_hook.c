/*
 * alloc_hook.c: the allocation counter behind alloc_hook.h, and the
 * subject slots that arm it (subject.h: alloc_fail_at, alloc_calls). One
 * counter per subject object (its symbols are made local with the rest of
 * subject.o), so the two subjects of a pair target count apart.
 *
 * Large blocks (BLOCK_POOL_MIN and up) come from a few kept allocations,
 * as the kernel shim's vmalloc does (block_pool.h: why, and how detection
 * stays that of an exact allocation).
 */
#include <stdlib.h>
#include <string.h>

#include "block_pool.h"
#include "subject.h"

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

enum { POOL_SLOTS = 6 };
static struct block_pool_slot pool[POOL_SLOTS];

static void *hook_alloc(size_t size)
{
    void *p = size >= BLOCK_POOL_MIN ? block_pool_get(pool, POOL_SLOTS, size) : NULL;
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
    p = n * size >= BLOCK_POOL_MIN ? block_pool_get(pool, POOL_SLOTS, n * size) : NULL;
    if (!p)
        return calloc(n, size);
    memset(p, 0, n * size);
    return p;
}

/* A failed realloc leaves the block as it was (C11 7.22.3.5). */
void *lz4gate_hook_realloc(void *p, size_t size)
{
    struct block_pool_slot *s = block_pool_slot_of(pool, POOL_SLOTS, p);
    void *q;
    if (fails())
        return NULL;
    if (!s)                     /* its size is malloc's to know: stays malloc's */
        return realloc(p, size);
    q = hook_alloc(size);
    if (!q)
        return NULL;
    memcpy(q, p, s->size < size ? s->size : size);
    lz4gate_hook_free(p);
    return q;
}

void lz4gate_hook_free(void *p)
{
    if (!block_pool_put(pool, POOL_SLOTS, p))
        free(p);
}

void lz4gate_alloc_fail_at(unsigned long n)
{
    calls = 0;
    fail_at = n;
}

unsigned long lz4gate_alloc_calls(void) { return calls; }
