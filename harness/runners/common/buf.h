/*
 * buf.h: the one growable byte buffer of lz4gate's own programs.
 */
#ifndef LZ4GATE_BUF_H
#define LZ4GATE_BUF_H

#include <stddef.h>
#include <string.h>

#include "alloc.h"

typedef struct buf {
    unsigned char *p;
    size_t n, cap;
} buf;

/* Room for `more` bytes after the end. */
static inline void buf_reserve(buf *b, size_t more)
{
    if (b->n + more > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + more)
            cap *= 2;
        b->p = xrealloc(b->p, cap);
        b->cap = cap;
    }
}

/* Append n bytes of src, or n copies of `value` when src is NULL. */
static inline void buf_append(buf *b, const void *src, size_t n, int value)
{
    buf_reserve(b, n);
    if (src)
        memcpy(b->p + b->n, src, n);
    else
        memset(b->p + b->n, value, n);
    b->n += n;
}

static inline void buf_free(buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

#endif /* LZ4GATE_BUF_H */
