/*
 * adapter_lz4_api.h: the LZ4_* block API as upstream's lz4.h and a Linux
 * tree's linux/lz4.h (4.11+) both declare it, made into subject slots for
 * adapter_upstream.c and adapter_kernel.c. The two differ in one way: the
 * kernel's compressors take caller-supplied work memory (wrkmem) as their
 * last argument; the kernel adapter defines LZ4_API_WRKMEM to pass it.
 *
 * Included after lz4.h (and <stdlib.h>), with the HAVE_<SYMBOL> macros of
 * the adapter's compile probes. An entry point the tree lacks leaves its
 * slot NULL (subject.h: a slot is filled only when the subject has it).
 * Every wrapper calls the entry point with the caller's arguments:
 * nothing is checked or clamped here.
 */
#ifndef LZ4GATE_ADAPTER_LZ4_API_H
#define LZ4GATE_ADAPTER_LZ4_API_H

#include "subject.h"

/* Work memory and stream states: malloc'd at exactly the size the header
 * asks for, so an overrun of them is an ASan report. */
static inline void *adapter_alloc(size_t size)
{
    void *p = malloc(size);
    if (!p)
        abort();
    return p;
}

/* The body of a compressor wrapper: `call` (with w, the work memory of
 * `size` bytes, when the API takes one; WRKMEM is its argument). */
/* The work memory of each wrapper is allocated once and kept: the kernel
 * compressors initialise it themselves on every call (as zram's per-CPU
 * buffers are reused), so a fresh allocation per call only cost fresh pages
 * (ASan's quarantine; the HC one is 256 KiB, mmap'd per call) and was most
 * of compress_roundtrip's time on the kernel (issue 15). A compressor that
 * depended on its previous call's state would still be caught: the
 * determinism check runs the same call twice. Fuzz targets are
 * single-threaded. */
#if defined(LZ4_API_WRKMEM)
#define COMPRESSOR_BODY(size, call) \
    { static void *w; if (!w) w = adapter_alloc(size); return (call); }
#define WRKMEM , w
#else
#define COMPRESSOR_BODY(size, call) { return (call); }
#define WRKMEM
#endif

/* ---- decoders ------------------------------------------------------------ */

#if defined(HAVE_LZ4_DECOMPRESS_SAFE)
static int api_decompress_safe(const char *s, char *d, int n, int cap)
{ return LZ4_decompress_safe(s, d, n, cap); }
#else
#define api_decompress_safe NULL
#endif

#if defined(HAVE_LZ4_DECOMPRESS_SAFE_PARTIAL)
static int api_decompress_safe_partial(const char *s, char *d, int n, int target, int cap)
{ return LZ4_decompress_safe_partial(s, d, n, target, cap); }
#else
#define api_decompress_safe_partial NULL
#endif

#if defined(HAVE_LZ4_DECOMPRESS_FAST)
static int api_decompress_fast(const char *s, char *d, int original)
{ return LZ4_decompress_fast(s, d, original); }
#else
#define api_decompress_fast NULL
#endif

#if defined(HAVE_LZ4_DECOMPRESS_SAFE_USINGDICT)
static int api_decompress_safe_using_dict(const char *s, char *d, int n, int cap,
                                          const char *dict, int dict_size)
{ return LZ4_decompress_safe_usingDict(s, d, n, cap, dict, dict_size); }
#else
#define api_decompress_safe_using_dict NULL
#endif

/* LZ4_decompress_fast_usingDict (lz4.h r131+; deprecated since 1.9.0,
 * tested on purpose as LZ4_decompress_fast is). */
#if defined(HAVE_LZ4_DECOMPRESS_FAST_USINGDICT)
static int api_decompress_fast_using_dict(const char *s, char *d, int original,
                                          const char *dict, int dict_size)
{ return LZ4_decompress_fast_usingDict(s, d, original, dict, dict_size); }
#else
#define api_decompress_fast_using_dict NULL
#endif

/* ---- compressors ----------------------------------------------------------- */

#if defined(HAVE_LZ4_COMPRESSBOUND)
static int api_compress_bound(int n) { return LZ4_compressBound(n); }
#else
#define api_compress_bound NULL
#endif

#if defined(HAVE_LZ4_COMPRESS_DEFAULT)
static int api_compress_default(const char *s, char *d, int n, int cap)
COMPRESSOR_BODY(LZ4_MEM_COMPRESS, LZ4_compress_default(s, d, n, cap WRKMEM))
#else
#define api_compress_default NULL
#endif

#if !defined(HAVE_LZ4_COMPRESS_FAST)
#define api_compress_fast NULL
#elif defined(LZ4_API_WRKMEM) && !defined(HAVE_KERNEL_FAST_MAINLINE_ORDER)
/* The kernel's 2017 patch set: (..., wrkmem, acceleration). */
static int api_compress_fast(const char *s, char *d, int n, int cap, int accel)
COMPRESSOR_BODY(LZ4_MEM_COMPRESS, LZ4_compress_fast(s, d, n, cap, w, accel))
#else
static int api_compress_fast(const char *s, char *d, int n, int cap, int accel)
COMPRESSOR_BODY(LZ4_MEM_COMPRESS, LZ4_compress_fast(s, d, n, cap, accel WRKMEM))
#endif

#if defined(HAVE_LZ4_COMPRESS_DESTSIZE)
static int api_compress_dest_size(const char *s, char *d, int *n, int target)
COMPRESSOR_BODY(LZ4_MEM_COMPRESS, LZ4_compress_destSize(s, d, n, target WRKMEM))
#else
#define api_compress_dest_size NULL
#endif

#if defined(HAVE_LZ4_COMPRESS_HC)
static int api_compress_hc(const char *s, char *d, int n, int cap, int level)
COMPRESSOR_BODY(LZ4HC_MEM_COMPRESS, LZ4_compress_HC(s, d, n, cap, level WRKMEM))
#else
#define api_compress_hc NULL
#endif

/* LZ4_compress_HC_extStateHC with one state allocated once (what
 * LZ4_compress_HC does inside, minus its per-call 256 KiB allocation under
 * LZ4HC_HEAPMODE: 35% of compress_roundtrip's time, issue 15). The entry
 * point initialises the state itself (LZ4_initStreamHC) on every call. */
#if defined(HAVE_LZ4_SIZEOFSTATEHC) && !defined(LZ4_API_WRKMEM) && \
    (defined(HAVE_LZ4_COMPRESS_HC_EXTSTATEHC) || defined(HAVE_LZ4_COMPRESS_HC_DESTSIZE))
/* The one HC state of the entry points that take the caller's (each
 * initialises it on every call, so they can share it). */
static void *adapter_hc_state(void)
{
    static void *state;
    if (!state)
        state = adapter_alloc((size_t)LZ4_sizeofStateHC());
    return state;
}
#endif

#if defined(HAVE_LZ4_COMPRESS_HC_EXTSTATEHC) && defined(HAVE_LZ4_SIZEOFSTATEHC) && \
    !defined(LZ4_API_WRKMEM)
static int api_compress_hc_ext_state(const char *s, char *d, int n, int cap, int level)
{
    return LZ4_compress_HC_extStateHC(adapter_hc_state(), s, d, n, cap, level);
}
#else
#define api_compress_hc_ext_state NULL
#endif

/* LZ4_compress_HC_destSize on the same state. */
#if defined(HAVE_LZ4_COMPRESS_HC_DESTSIZE) && defined(HAVE_LZ4_SIZEOFSTATEHC) && \
    !defined(LZ4_API_WRKMEM)
static int api_compress_hc_dest_size(const char *s, char *d, int *n, int target, int level)
{
    return LZ4_compress_HC_destSize(adapter_hc_state(), s, d, n, target, level);
}
#else
#define api_compress_hc_dest_size NULL
#endif

/* loadDict + compress_fast_continue on a stream just reset (LZ4_resetStream
 * clears the whole state: the allocation is kept, as the work memory). */
#if defined(HAVE_LZ4_LOADDICT) && defined(HAVE_LZ4_COMPRESS_FAST_CONTINUE)
static int api_compress_using_dict(const char *dict, int dict_size, const char *s, char *d,
                                   int n, int cap, int accel)
{
    static LZ4_stream_t *stream;
    if (!stream)
        stream = adapter_alloc(sizeof *stream);
    LZ4_resetStream(stream);
    LZ4_loadDict(stream, dict, dict_size);
    return LZ4_compress_fast_continue(stream, s, d, n, cap, accel);
}
#else
#define api_compress_using_dict NULL
#endif

/* ---- the table --------------------------------------------------------------- */

/* The LZ4_* slots, in a table's initializer: { ..., LZ4_API_SLOTS, ... }. */
#define LZ4_API_SLOTS                                                   \
    .compress_bound = api_compress_bound,                               \
    .decompress_safe = api_decompress_safe,                             \
    .decompress_safe_partial = api_decompress_safe_partial,             \
    .decompress_fast = api_decompress_fast,                             \
    .decompress_safe_using_dict = api_decompress_safe_using_dict,       \
    .compress_default = api_compress_default,                           \
    .compress_fast = api_compress_fast,                                 \
    .compress_dest_size = api_compress_dest_size,                       \
    .compress_hc = api_compress_hc,                                     \
    .compress_hc_ext_state = api_compress_hc_ext_state,                 \
    .compress_using_dict = api_compress_using_dict,                     \
    .compress_hc_dest_size = api_compress_hc_dest_size,                 \
    .decompress_fast_using_dict = api_decompress_fast_using_dict

/* The capability bits of the filled slots of the block and old kernel
 * APIs and unlz4, one slot each (the frame adapters set the frame bits). */
static subject_caps slot_caps(const struct lz4_subject *t)
{
    return (t->compress_hc_dest_size ? CAP_COMPRESS_HC_DEST_SIZE : 0u) |
           (t->decompress_fast_using_dict ? CAP_DECOMPRESS_FAST_USING_DICT : 0u) |
           (t->compress_bound ? CAP_COMPRESS_BOUND : 0u) |
           (t->decompress_safe ? CAP_DECOMPRESS_SAFE : 0u) |
           (t->decompress_safe_partial ? CAP_DECOMPRESS_PARTIAL : 0u) |
           (t->decompress_fast ? CAP_DECOMPRESS_FAST : 0u) |
           (t->decompress_safe_using_dict ? CAP_DECOMPRESS_USING_DICT : 0u) |
           (t->compress_default ? CAP_COMPRESS_DEFAULT : 0u) |
           (t->compress_fast ? CAP_COMPRESS_FAST : 0u) |
           (t->compress_dest_size ? CAP_COMPRESS_DEST_SIZE : 0u) |
           (t->compress_hc ? CAP_COMPRESS_HC : 0u) |
           (t->compress_using_dict ? CAP_COMPRESS_USING_DICT : 0u) |
           (t->old_compress ? CAP_OLD_KERNEL_COMPRESS : 0u) |
           (t->old_hc_compress ? CAP_OLD_KERNEL_HC_COMPRESS : 0u) |
           (t->old_decompress ? CAP_OLD_KERNEL_DECOMPRESS : 0u) |
           (t->old_decompress_unknown ? CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN : 0u) |
           (t->unlz4 ? CAP_UNLZ4 : 0u);
}

#endif /* LZ4GATE_ADAPTER_LZ4_API_H */
