/*
 * Stub of a file system's kernel-and-user context header, for its LZ4 copy
 * built in user space (docs/adapters.md, acceptance rows of OpenZFS).
 * Written by lz4gate from the names the copy uses: fixed-width types, libc
 * string and allocation calls, an object cache over malloc, assertions off
 * (as in a production build), and the byte-order helpers. Pass its folder
 * with --include.
 */
#ifndef FS_STUB_ZFS_CONTEXT_H
#define FS_STUB_ZFS_CONTEXT_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ASSERT(x) ((void)0)
#define ASSERT3U(a, op, b) ((void)0)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define _LITTLE_ENDIAN 1
#define BE_32(x) __builtin_bswap32(x)
#else
#define _BIG_ENDIAN 1
#define BE_32(x) (x)
#endif
/* A big-endian 32-bit load from any address, byte by byte. */
#define BE_IN32(p) \
	((uint32_t)((const uint8_t *)(p))[0] << 24 | \
	 (uint32_t)((const uint8_t *)(p))[1] << 16 | \
	 (uint32_t)((const uint8_t *)(p))[2] << 8 | \
	 (uint32_t)((const uint8_t *)(p))[3])

/* kmem caches: fixed-size objects over malloc (KM_SLEEP never fails in a
 * kernel; here a failed malloc returns NULL to the copy). */
#define KM_SLEEP 0
#define KM_NOSLEEP 1
typedef struct kmem_cache {
	size_t size;
} kmem_cache_t;

static inline kmem_cache_t *kmem_cache_create(const char *name, size_t size,
    size_t align, void *ctor, void *dtor, void *reclaim, void *priv,
    void *vmp, int flags)
{
	kmem_cache_t *c = malloc(sizeof (*c));

	(void) name, (void) align, (void) ctor, (void) dtor, (void) reclaim;
	(void) priv, (void) vmp, (void) flags;
	if (c != NULL)
		c->size = size;
	return (c);
}

static inline void kmem_cache_destroy(kmem_cache_t *c)
{
	free(c);
}

static inline void *kmem_cache_alloc(kmem_cache_t *c, int flags)
{
	(void) flags;
	return (malloc(c->size));
}

static inline void kmem_cache_free(kmem_cache_t *c, void *p)
{
	(void) c;
	free(p);
}

#endif
