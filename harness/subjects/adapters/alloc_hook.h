/*
 * alloc_hook.h: force-included (-include) into the library sources of
 * upstream and ref subjects (harness/subjects/streaming.py), so that
 * their malloc / calloc / realloc / free go through alloc_hook.c, which
 * counts them and makes the N-th fail (subject.h: alloc_fail_at). That is
 * how an allocation failure reaches the code that must handle it: the
 * HEAPMODE states of LZ4_compress_HC (ULZ4-2021-HCNULL), the stream
 * constructors, every LZ4F context and CDict (ULZ4-2025-62813).
 *
 * <stdlib.h> comes first, so its declarations keep their names; every call
 * site after it expands to the counting functions. The adapters are not
 * built with this header: their own memory never fails.
 */
#ifndef LZ4GATE_ALLOC_HOOK_H
#define LZ4GATE_ALLOC_HOOK_H

#include <stdlib.h>

void *lz4gate_hook_malloc(size_t size);
void *lz4gate_hook_calloc(size_t n, size_t size);
void *lz4gate_hook_realloc(void *p, size_t size);
void lz4gate_hook_free(void *p);

#define malloc(size) lz4gate_hook_malloc(size)
#define calloc(n, size) lz4gate_hook_calloc(n, size)
#define realloc(p, size) lz4gate_hook_realloc(p, size)
#define free(p) lz4gate_hook_free(p)

#endif /* LZ4GATE_ALLOC_HOOK_H */
