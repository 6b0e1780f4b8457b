/*
 * Adapter for a Linux tree's LZ4 (lib/lz4, include/linux/lz4.h,
 * lib/decompress_unlz4.c), compiled in userspace through harness/kshim/.
 *
 * Both API generations (docs/fix-history.md#old-kernel-api-g1, #current-kernel-api-g2-and-g3):
 *  - kernel 4.11 and later: LZ4_* as upstream has them, the compressors
 *    with caller-supplied wrkmem (adapter_lz4_api.h);
 *  - kernel 3.11-4.10: lz4_compress / lz4hc_compress / lz4_decompress /
 *    lz4_decompress_unknownoutputsize, 0/-1 returns, sizes through pointers.
 * Which entry points exist comes from compile probes (HAVE_<SYMBOL>); the
 * order of LZ4_compress_fast's last two arguments differs between the 2017
 * patch set (wrkmem, acceleration) and mainline (acceleration, wrkmem):
 * HAVE_KERNEL_FAST_MAINLINE_ORDER says which.
 *
 * wrkmem is malloc'd once per wrapper (adapter_lz4_api.h says why) at
 * exactly the size the header asks for, so an overrun of it is an ASan
 * report; stream states per call (adapter_stream_api.h). Nothing is
 * checked or clamped here (subject.h).
 */
#include <stdlib.h>    /* before any kernel header (kshim_libc_alloc.h) */

#include <linux/types.h>   /* G1's linux/lz4.h uses size_t and includes nothing */
#include <linux/lz4.h>
#if defined(HAVE_UNLZ4)
#include <linux/decompress/unlz4.h>
#endif

/* Any entry point of the 4.11+ API (a compressor-only tree too: build.py
 * MODERN_API). */
#if defined(HAVE_LZ4_DECOMPRESS_SAFE) || defined(HAVE_LZ4_DECOMPRESS_SAFE_PARTIAL) || \
    defined(HAVE_LZ4_COMPRESS_DEFAULT) || defined(HAVE_LZ4_COMPRESS_FAST) || \
    defined(HAVE_LZ4_COMPRESS_DESTSIZE)
#define KERNEL_GENERATION GEN_KERNEL
#define HAVE_LZ4_COMPRESSBOUND 1   /* a static inline of every 4.11+ linux/lz4.h */
#else
#define KERNEL_GENERATION GEN_KERNEL_OLD
#endif
#define LZ4_API_WRKMEM 1

#include "adapter_lz4_api.h"
#include "subject.h"

#ifndef SUBJECT_NAME
#define SUBJECT_NAME "kernel"
#endif

/* ---- kernel 3.11-4.10 API ---------------------------------------------- */
/* 3.11 declared char * buffers, 3.12+ unsigned char *: the void * casts
 * below convert to either. */

#if defined(HAVE_LZ4_COMPRESS)
static int k_old_compress(const unsigned char *s, size_t n, unsigned char *d, size_t *dlen)
COMPRESSOR_BODY(LZ4_MEM_COMPRESS, lz4_compress((const void *)s, n, (void *)d, dlen, w))
#else
#define k_old_compress NULL
#endif

#if defined(HAVE_LZ4HC_COMPRESS)
static int k_old_hc_compress(const unsigned char *s, size_t n, unsigned char *d, size_t *dlen)
COMPRESSOR_BODY(LZ4HC_MEM_COMPRESS, lz4hc_compress((const void *)s, n, (void *)d, dlen, w))
#else
#define k_old_hc_compress NULL
#endif

#if defined(HAVE_LZ4_DECOMPRESS)
static int k_old_decompress(const unsigned char *s, size_t *slen, unsigned char *d, size_t dlen)
{ return lz4_decompress((const void *)s, slen, (void *)d, dlen); }
#else
#define k_old_decompress NULL
#endif

#if defined(HAVE_LZ4_DECOMPRESS_UNKNOWNOUTPUTSIZE)
static int k_old_decompress_unknown(const unsigned char *s, size_t slen, unsigned char *d,
                                    size_t *dlen)
{ return lz4_decompress_unknownoutputsize((const void *)s, slen, (void *)d, dlen); }
#else
#define k_old_decompress_unknown NULL
#endif

/* The legacy-frame decoder (lib/decompress_unlz4.c). From 3.19 on it has
 * the slot's signature and is the slot; 3.11-3.18 declared int sizes
 * (in_len, *posp, the callbacks' sizes and results), which the probe
 * HAVE_KERNEL_UNLZ4_INT detects. That API's callbacks get no context, so
 * the caller's are kept here for the duration of the call; sizes are
 * converted as a caller of that API converts them, nothing is checked. */
#if defined(HAVE_UNLZ4) && defined(HAVE_KERNEL_UNLZ4_INT)
static unlz4_fill_fn k_fill;
static unlz4_flush_fn k_flush;
static int k_fill_int(void *buf, unsigned int size) { return (int)k_fill(buf, size); }
static int k_flush_int(void *buf, unsigned int size) { return (int)k_flush(buf, size); }

static int k_unlz4(unsigned char *input, long in_len, unlz4_fill_fn fill, unlz4_flush_fn flush,
                   unsigned char *output, long *posp, unlz4_error_fn error)
{
    int pos = 0, ret;
    k_fill = fill;
    k_flush = flush;
    ret = unlz4(input, (int)in_len, fill ? k_fill_int : NULL, flush ? k_flush_int : NULL,
                output, posp ? &pos : NULL, error);
    if (posp)
        *posp = pos;
    return ret;
}
#elif defined(HAVE_UNLZ4)
#define k_unlz4 unlz4
#else
#define k_unlz4 NULL
#endif

void kernel_stream_fill(struct lz4_subject *s);   /* adapter_stream_kernel.c */

const struct lz4_subject *lz4gate_subject(void)
{
    static struct lz4_subject s = {
        .name = SUBJECT_NAME,
        .generation = KERNEL_GENERATION,
        LZ4_API_SLOTS,
        .old_compress = k_old_compress,
        .old_hc_compress = k_old_hc_compress,
        .old_decompress = k_old_decompress,
        .old_decompress_unknown = k_old_decompress_unknown,
        .unlz4 = k_unlz4,
    };
    static int filled;
    if (!filled) {
        s.caps = slot_caps(&s);
        kernel_stream_fill(&s);   /* adapter_stream_kernel.c */
        filled = 1;
    }
    return &s;
}
