/*
 * alloc_hook.c: the allocation counter behind alloc_hook.h, and the
 * subject slots that arm it (subject.h: alloc_fail_at, alloc_calls). One
 * counter per subject object (its symbols are made local with the rest of
 * subject.o), so the two subjects of a pair target count apart.
 */
#include <stdlib.h>

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

void *lz4gate_hook_malloc(size_t size) { return fails() ? NULL : malloc(size); }
void *lz4gate_hook_calloc(size_t n, size_t size) { return fails() ? NULL : calloc(n, size); }

/* A failed realloc leaves the block as it was (C11 7.22.3.5). */
void *lz4gate_hook_realloc(void *p, size_t size) { return fails() ? NULL : realloc(p, size); }

void lz4gate_hook_free(void *p) { free(p); }

void lz4gate_alloc_fail_at(unsigned long n)
{
    calls = 0;
    fail_at = n;
}

unsigned long lz4gate_alloc_calls(void) { return calls; }
