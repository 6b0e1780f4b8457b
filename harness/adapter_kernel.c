/*
 * Adapter for a Linux tree's LZ4 (lib/lz4, include/linux/lz4.h,
 * lib/decompress_unlz4.c), compiled in userspace through harness/kshim/.
 *
 * Both API generations (history.md §7.1, §7.2):
 *  - kernel 4.11 and later: LZ4_* with caller-supplied wrkmem;
 *  - kernel 3.11-4.10: lz4_compress / lz4hc_compress / lz4_decompress /
 *    lz4_decompress_unknownoutputsize, 0/-1 returns, sizes through pointers.
 * Which entry points exist comes from compile probes (HAVE_<SYMBOL>); the
 * order of LZ4_compress_fast's last two arguments differs between the 2017
 * patch set (wrkmem, acceleration) and mainline (acceleration, wrkmem):
 * HAVE_KERNEL_FAST_MAINLINE_ORDER says which.
 *
 * wrkmem and stream states are malloc'd per call at exactly the size the
 * header asks for, so an overrun of them is an ASan report. Nothing is
 * checked or clamped here (subject.h).
 */
#include <stdlib.h>    /* before any kernel header: mm.h redefines malloc/free */

#include <linux/lz4.h>
#if defined(HAVE_UNLZ4)
#include <linux/decompress/unlz4.h>
#endif

#include "subject.h"

#ifndef SUBJECT_NAME
#define SUBJECT_NAME "kernel"
#endif

static void *work(size_t size)
{
    void *p = malloc(size);
    if (!p)
        abort();
    return p;
}

/* ---- kernel 4.11+ API --------------------------------------------------- */

#if defined(HAVE_LZ4_DECOMPRESS_SAFE)
static int k_compress_bound(int n) { return LZ4_compressBound((size_t)n); }
#endif

#if defined(HAVE_LZ4_DECOMPRESS_SAFE)
static int k_decompress_safe(const char *s, char *d, int n, int cap)
{ return LZ4_decompress_safe(s, d, n, cap); }
#endif
#if defined(HAVE_LZ4_DECOMPRESS_SAFE_PARTIAL)
static int k_decompress_safe_partial(const char *s, char *d, int n, int target, int cap)
{ return LZ4_decompress_safe_partial(s, d, n, target, cap); }
#endif
#if defined(HAVE_LZ4_DECOMPRESS_FAST)
static int k_decompress_fast(const char *s, char *d, int original)
{ return LZ4_decompress_fast(s, d, original); }
#endif
#if defined(HAVE_LZ4_DECOMPRESS_SAFE_USINGDICT)
static int k_decompress_safe_using_dict(const char *s, char *d, int n, int cap,
                                        const char *dict, int dict_size)
{ return LZ4_decompress_safe_usingDict(s, d, n, cap, dict, dict_size); }
#endif

#if defined(HAVE_LZ4_COMPRESS_DEFAULT)
static int k_compress_default(const char *s, char *d, int n, int cap)
{
    void *w = work(LZ4_MEM_COMPRESS);
    int r = LZ4_compress_default(s, d, n, cap, w);
    free(w);
    return r;
}
#endif
#if defined(HAVE_LZ4_COMPRESS_FAST)
static int k_compress_fast(const char *s, char *d, int n, int cap, int accel)
{
    void *w = work(LZ4_MEM_COMPRESS);
#if defined(HAVE_KERNEL_FAST_MAINLINE_ORDER)
    int r = LZ4_compress_fast(s, d, n, cap, accel, w);
#else
    int r = LZ4_compress_fast(s, d, n, cap, w, accel);
#endif
    free(w);
    return r;
}
#endif
#if defined(HAVE_LZ4_COMPRESS_DESTSIZE)
static int k_compress_dest_size(const char *s, char *d, int *n, int target)
{
    void *w = work(LZ4_MEM_COMPRESS);
    int r = LZ4_compress_destSize(s, d, n, target, w);
    free(w);
    return r;
}
#endif
#if defined(HAVE_LZ4_COMPRESS_HC)
static int k_compress_hc(const char *s, char *d, int n, int cap, int level)
{
    void *w = work(LZ4HC_MEM_COMPRESS);
    int r = LZ4_compress_HC(s, d, n, cap, level, w);
    free(w);
    return r;
}
#endif
#if defined(HAVE_LZ4_LOADDICT) && defined(HAVE_LZ4_COMPRESS_FAST_CONTINUE)
static int k_compress_using_dict(const char *dict, int dict_size, const char *s, char *d,
                                 int n, int cap, int accel)
{
    LZ4_stream_t *stream = work(sizeof *stream);
    int r;
    LZ4_resetStream(stream);
    LZ4_loadDict(stream, dict, dict_size);
    r = LZ4_compress_fast_continue(stream, s, d, n, cap, accel);
    free(stream);
    return r;
}
#endif

/* ---- kernel 3.11-4.10 API ---------------------------------------------- */
/* 3.11 declared char * buffers, 3.12+ unsigned char *: the void * casts
 * below convert to either. */

#if defined(HAVE_LZ4_COMPRESS)
static int k_old_compress(const unsigned char *s, size_t n, unsigned char *d, size_t *dlen)
{
    void *w = work(LZ4_MEM_COMPRESS);
    int r = lz4_compress((const void *)s, n, (void *)d, dlen, w);
    free(w);
    return r;
}
#endif
#if defined(HAVE_LZ4HC_COMPRESS)
static int k_old_hc_compress(const unsigned char *s, size_t n, unsigned char *d, size_t *dlen)
{
    void *w = work(LZ4HC_MEM_COMPRESS);
    int r = lz4hc_compress((const void *)s, n, (void *)d, dlen, w);
    free(w);
    return r;
}
#endif
#if defined(HAVE_LZ4_DECOMPRESS)
static int k_old_decompress(const unsigned char *s, size_t *slen, unsigned char *d, size_t dlen)
{ return lz4_decompress((const void *)s, slen, (void *)d, dlen); }
#endif
#if defined(HAVE_LZ4_DECOMPRESS_UNKNOWNOUTPUTSIZE)
static int k_old_decompress_unknown(const unsigned char *s, size_t slen, unsigned char *d,
                                    size_t *dlen)
{ return lz4_decompress_unknownoutputsize((const void *)s, slen, (void *)d, dlen); }
#endif

const struct lz4_subject *lz4gate_subject(void)
{
    static struct lz4_subject s;
    if (s.name)
        return &s;
    s.version = "";
#if defined(HAVE_LZ4_DECOMPRESS_SAFE)
    s.generation = GEN_KERNEL;
#else
    s.generation = GEN_KERNEL_OLD;
#endif
#define FILL(slot, fn, cap) (s.slot = fn, s.caps |= (cap))
#if defined(HAVE_LZ4_DECOMPRESS_SAFE)
    FILL(compress_bound, k_compress_bound, CAP_COMPRESS_BOUND);
    FILL(decompress_safe, k_decompress_safe, CAP_DECOMPRESS_SAFE);
#endif
#if defined(HAVE_LZ4_DECOMPRESS_SAFE_PARTIAL)
    FILL(decompress_safe_partial, k_decompress_safe_partial, CAP_DECOMPRESS_PARTIAL);
#endif
#if defined(HAVE_LZ4_DECOMPRESS_FAST)
    FILL(decompress_fast, k_decompress_fast, CAP_DECOMPRESS_FAST);
#endif
#if defined(HAVE_LZ4_DECOMPRESS_SAFE_USINGDICT)
    FILL(decompress_safe_using_dict, k_decompress_safe_using_dict, CAP_DECOMPRESS_USING_DICT);
#endif
#if defined(HAVE_LZ4_COMPRESS_DEFAULT)
    FILL(compress_default, k_compress_default, CAP_COMPRESS_DEFAULT);
#endif
#if defined(HAVE_LZ4_COMPRESS_FAST)
    FILL(compress_fast, k_compress_fast, CAP_COMPRESS_FAST);
#endif
#if defined(HAVE_LZ4_COMPRESS_DESTSIZE)
    FILL(compress_dest_size, k_compress_dest_size, CAP_COMPRESS_DEST_SIZE);
#endif
#if defined(HAVE_LZ4_COMPRESS_HC)
    FILL(compress_hc, k_compress_hc, CAP_COMPRESS_HC);
#endif
#if defined(HAVE_LZ4_LOADDICT) && defined(HAVE_LZ4_COMPRESS_FAST_CONTINUE)
    FILL(compress_using_dict, k_compress_using_dict, CAP_COMPRESS_USING_DICT);
#endif
#if defined(HAVE_LZ4_COMPRESS)
    FILL(old_compress, k_old_compress, CAP_OLD_KERNEL_COMPRESS);
#endif
#if defined(HAVE_LZ4HC_COMPRESS)
    FILL(old_hc_compress, k_old_hc_compress, CAP_OLD_KERNEL_HC_COMPRESS);
#endif
#if defined(HAVE_LZ4_DECOMPRESS)
    FILL(old_decompress, k_old_decompress, CAP_OLD_KERNEL_DECOMPRESS);
#endif
#if defined(HAVE_LZ4_DECOMPRESS_UNKNOWNOUTPUTSIZE)
    FILL(old_decompress_unknown, k_old_decompress_unknown, CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN);
#endif
#if defined(HAVE_UNLZ4)
    FILL(unlz4, unlz4, CAP_UNLZ4);
#endif
#undef FILL
    s.name = SUBJECT_NAME;
    return &s;
}
