/*
 * Streaming and allocation-failure slots for a Linux tree (4.11+), filled
 * into the table by adapter_kernel.c:
 *  - the streaming block API of linux/lz4.h (adapter_stream_api.h): the
 *    kernel has no constructors, its callers allocate the states, so the
 *    adapter does, exactly sized (ASan sees an overrun of them); the caller
 *    resets a new stream before use (stream_reset, dstream_set), as kernel
 *    users do (LZ4_resetStream, LZ4_setStreamDecode);
 *  - the kshim's allocation counter (linux/kshim_libc_alloc.h): kmalloc and
 *    vmalloc of the tree's code, i.e. lib/decompress_unlz4.c's buffers.
 * Which entry points exist comes from compile probes
 * (harness/subjects/streaming.py).
 */
#include <stdlib.h>    /* before any kernel header (kshim_libc_alloc.h) */
#include <string.h>

#include <linux/lz4.h>
#include <linux/kshim_libc_alloc.h>

#define STREAM_NEW(type) ((type *)malloc(sizeof(type)))
#define STREAM_DELETE(type, p) free(p)

#include "adapter_stream_api.h"
#include "subject.h"

void kernel_stream_fill(struct lz4_subject *s);

static void k_alloc_fail_at(unsigned long n)
{
    kshim_alloc_calls = 0;
    kshim_alloc_fail_at = n;
}

static unsigned long k_alloc_calls(void) { return kshim_alloc_calls; }

void kernel_stream_fill(struct lz4_subject *s)
{
    api_stream_fill(s);
    s->alloc_fail_at = k_alloc_fail_at;
    s->alloc_calls = k_alloc_calls;
#if defined(HAVE_UNLZ4)
    s->caps |= CAP_ALLOC_FAIL;   /* the only kernel LZ4 code that allocates */
#endif
}
