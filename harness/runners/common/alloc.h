/*
 * alloc.h: allocation for lz4gate's own programs (runners, generators,
 * tests, bench): out of memory is not a result there, so it stops the
 * program with exit status 2 and one line. (Subject code and the buffers
 * handed to subjects are allocated elsewhere, exactly, so ASan sees them.)
 */
#ifndef LZ4GATE_ALLOC_H
#define LZ4GATE_ALLOC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "lz4gate: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

static inline void *xrealloc(void *old, size_t n)
{
    void *p = realloc(old, n ? n : 1);
    if (!p) {
        fprintf(stderr, "lz4gate: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

static inline void *xmemdup(const void *src, size_t n)
{
    void *p = xmalloc(n);
    if (n)
        memcpy(p, src, n);
    return p;
}

#endif /* LZ4GATE_ALLOC_H */
