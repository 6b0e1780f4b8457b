/*
 * Streaming and allocation-failure slots for upstream lz4 trees (and the
 * system liblz4), filled into the table by adapter_upstream.c:
 *  - the streaming block API (adapter_stream_api.h): LZ4_stream_t,
 *    LZ4_streamHC_t and LZ4_streamDecode_t from the tree's constructors,
 *    whose allocation can fail;
 *  - the allocation counter (alloc_hook.c) behind the tree's malloc, when
 *    the recipe built the library with alloc_hook.h (HAVE_ALLOC_HOOK: not
 *    for the system library, whose allocations are out of reach);
 *  - LZ4F with a custom memory manager (LZ4F_*_advanced, lz4 1.9.4+).
 * Which entry points exist comes from compile probes
 * (harness/subjects/streaming.py), never from a version number.
 * Nothing is checked, clamped or mapped here beyond what subject.h says.
 */
/* Defined empty, as lz4hc.h and lz4frame_static.h define them (another value
 * is a redefinition warning). */
#define LZ4_STATIC_LINKING_ONLY      /* LZ4_resetStream_fast, LZ4_attach_dictionary */
#define LZ4_HC_STATIC_LINKING_ONLY   /* their HC counterparts */
#define LZ4F_STATIC_LINKING_ONLY     /* LZ4F_CustomMem, LZ4F_*_advanced */
#include <stdlib.h>
#include <string.h>

#include "lz4.h"
#if defined(HAVE_LZ4HC_H)
#include "lz4hc.h"
#endif
#if defined(HAVE_LZ4FRAME_H)
#include "lz4frame.h"
#endif

/* The tree's constructors (r118+); their allocation is the tree's own. */
#define STREAM_NEW(type) STREAM_NEW_##type()
#define STREAM_NEW_LZ4_stream_t() LZ4_createStream()
#define STREAM_NEW_LZ4_streamHC_t() LZ4_createStreamHC()
#define STREAM_NEW_LZ4_streamDecode_t() LZ4_createStreamDecode()
#define STREAM_DELETE(type, p) STREAM_DELETE_##type(p)
#define STREAM_DELETE_LZ4_stream_t(p) LZ4_freeStream(p)
#define STREAM_DELETE_LZ4_streamHC_t(p) LZ4_freeStreamHC(p)
#define STREAM_DELETE_LZ4_streamDecode_t(p) LZ4_freeStreamDecode(p)
#if !defined(HAVE_LZ4_CREATESTREAM) || !defined(HAVE_LZ4_FREESTREAM)
#undef HAVE_LZ4_COMPRESS_FAST_CONTINUE
#undef HAVE_STREAM_LIMITEDOUTPUT_CONTINUE
#endif
#if !defined(HAVE_LZ4_CREATESTREAMHC) || !defined(HAVE_LZ4_FREESTREAMHC)
#undef HAVE_LZ4_COMPRESS_HC_CONTINUE
#undef HAVE_STREAMHC_LIMITEDOUTPUT_CONTINUE
#endif
#if !defined(HAVE_LZ4_CREATESTREAMDECODE) || !defined(HAVE_LZ4_FREESTREAMDECODE)
#undef HAVE_LZ4_DECOMPRESS_SAFE_CONTINUE
#endif

#include "adapter_stream_api.h"
#include "subject.h"
#if defined(HAVE_LZ4FRAME_H)
#include "adapter_upstream_frame.h"
#endif

void upstream_stream_fill(struct lz4_subject *s);

/* alloc_hook.c */
void *lz4gate_hook_malloc(size_t size);
void *lz4gate_hook_calloc(size_t n, size_t size);
void lz4gate_hook_free(void *p);
void lz4gate_alloc_fail_at(unsigned long n);
unsigned long lz4gate_alloc_calls(void);

#if defined(HAVE_LZ4F_CREATECOMPRESSIONCONTEXT_ADVANCED) && \
    defined(HAVE_LZ4F_CREATEDECOMPRESSIONCONTEXT_ADVANCED) && \
    defined(HAVE_LZ4F_CREATECDICT_ADVANCED) && defined(HAVE_LZ4F_COMPRESSBEGIN_USINGCDICT)
#define FRAME_MEM 1

/* The custom memory manager: the counter's functions. */
static void *cm_alloc(void *opaque, size_t size)
{
    (void)opaque;
    return lz4gate_hook_malloc(size);
}

static void *cm_calloc(void *opaque, size_t size)
{
    (void)opaque;
    return lz4gate_hook_calloc(1, size);
}

static void cm_free(void *opaque, void *p)
{
    (void)opaque;
    lz4gate_hook_free(p);
}

static LZ4F_CustomMem custom_mem(unsigned flags)
{
    LZ4F_CustomMem m;
    m.customAlloc = cm_alloc;
    m.customCalloc = (flags & 1) ? cm_calloc : NULL;
    m.customFree = cm_free;
    m.opaqueState = NULL;
    return m;
}

static void *f_mem_dctx_create(unsigned flags)
{
    return LZ4F_createDecompressionContext_advanced(custom_mem(flags), LZ4F_VERSION);
}

/* A cctx, its memory manager, and the CDict of its last Begin. */
struct mem_cctx {
    LZ4F_cctx *cctx;
    LZ4F_CDict *cdict;
    LZ4F_CustomMem mem;
};

static void *f_mem_cctx_create(unsigned flags)
{
    struct mem_cctx *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->mem = custom_mem(flags);
    c->cctx = LZ4F_createCompressionContext_advanced(c->mem, LZ4F_VERSION);
    if (!c->cctx) {
        free(c);
        return NULL;
    }
    return c;
}

static void f_mem_cctx_free(void *p)
{
    struct mem_cctx *c = p;
    if (!c)
        return;
    LZ4F_freeCDict(c->cdict);
    LZ4F_freeCompressionContext(c->cctx);
    free(c);
}

static long long f_mem_compress_begin(void *p, unsigned char *dst, size_t cap,
                                       const struct subject_frame_prefs *fp,
                                       const unsigned char *dict, size_t dict_len)
{
    struct mem_cctx *c = p;
    LZ4F_preferences_t prefs;
    upstream_lz4f_prefs(fp, &prefs);
    LZ4F_freeCDict(c->cdict);
    c->cdict = NULL;
    if (dict) {
        c->cdict = LZ4F_createCDict_advanced(c->mem, dict, dict_len);
        if (!c->cdict)   /* subject.h: the constructor's NULL, as LZ4F's error */
            return -(long long)LZ4F_ERROR_allocation_failed;
        return upstream_lz4f_result(LZ4F_compressBegin_usingCDict(c->cctx, dst, cap, c->cdict, &prefs));
    }
    return upstream_lz4f_result(LZ4F_compressBegin(c->cctx, dst, cap, &prefs));
}

static long long f_mem_compress_update(void *p, unsigned char *dst, size_t cap,
                                        const unsigned char *src, size_t n)
{
    return upstream_lz4f_result(LZ4F_compressUpdate(((struct mem_cctx *)p)->cctx, dst, cap, src, n, NULL));
}

static long long f_mem_compress_end(void *p, unsigned char *dst, size_t cap)
{
    return upstream_lz4f_result(LZ4F_compressEnd(((struct mem_cctx *)p)->cctx, dst, cap, NULL));
}
#endif /* FRAME_MEM */

void upstream_stream_fill(struct lz4_subject *s)
{
    api_stream_fill(s);
    /* The counter exists in every upstream subject; it reaches the library
     * only when the recipe hooked its allocator. */
    s->alloc_fail_at = lz4gate_alloc_fail_at;
    s->alloc_calls = lz4gate_alloc_calls;
#if defined(HAVE_ALLOC_HOOK)
    s->caps |= CAP_ALLOC_FAIL;
#endif
#if defined(FRAME_MEM)
    s->frame_mem_dctx_create = f_mem_dctx_create;
    s->frame_mem_cctx_create = f_mem_cctx_create;
    s->frame_mem_cctx_free = f_mem_cctx_free;
    s->frame_mem_compress_begin = f_mem_compress_begin;
    s->frame_mem_compress_update = f_mem_compress_update;
    s->frame_mem_compress_end = f_mem_compress_end;
    s->caps |= CAP_FRAME_CUSTOM_MEM;
#endif
}
