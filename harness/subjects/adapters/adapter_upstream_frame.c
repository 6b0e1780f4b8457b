/*
 * Adapter for an upstream tree's frame API (lib/lz4frame.c), filled into the
 * subject table by adapter_upstream.c when the tree has lz4frame.h.
 *
 * Which entry points exist comes from compile probes (HAVE_LZ4F_*), and so
 * does every difference between the frame API's versions (r123 .. 1.10:
 * recipes/upstream.py FRAME_SOURCE_PROBES); nothing depends on a version
 * number. Results keep LZ4F's meaning: a size_t that LZ4F_isError() flags
 * becomes -code, so "negative" is exactly "LZ4F_isError"; nothing else is
 * mapped, checked or clamped (subject.h).
 *
 * Contexts are held as LZ4F_compressionContext_t / LZ4F_decompressionContext_t,
 * the types every version declares (void * in r123-r128, pointers to the
 * incomplete LZ4F_cctx / LZ4F_dctx later).
 */
#define LZ4F_STATIC_LINKING_ONLY /* empty: as lz4frame_static.h (1.8.2+) defines it */
#include <stdlib.h>
#include <string.h>

/* lz4frame_static.h (r126+) includes lz4frame.h; up to v1.8.1 it, not
 * lz4frame.h, declares the CDict and dictionary entry points. */
#if defined(HAVE_LZ4FRAME_STATIC_H)
#include "lz4frame_static.h"
#else
#include "lz4frame.h"
#endif

#include "subject.h"
#include "adapter_upstream_frame.h"

/* r123-r128 name the frame enums without the LZ4F_ prefix (r129 added it and
 * kept the old names as aliases): the same types and values. (Defined after
 * the headers, so no declaration is renamed.) */
#if !defined(HAVE_LZ4F_PREFIXED_ENUMS)
#define LZ4F_blockSizeID_t blockSizeID_t
#define LZ4F_blockIndependent blockIndependent
#define LZ4F_blockLinked blockLinked
#define LZ4F_contentChecksumEnabled contentChecksumEnabled
#define LZ4F_noContentChecksum noContentChecksum
#endif

void upstream_frame_fill(struct lz4_subject *s);

long long upstream_lz4f_result(size_t r)
{
    return LZ4F_isError(r) ? -(long long)((size_t)0 - r) : (long long)r;
}

/* The preferences, as far as the tree's LZ4F_preferences_t has fields for
 * them: frameInfo.contentSize (r128+), dictID and blockChecksumFlag (1.8.0+)
 * are probed members. A tree without a field makes frames without that
 * header feature, which is all its API can be asked for; the frames are
 * still checked in full by the callers (ref decodes them). */
void upstream_lz4f_prefs(const struct subject_frame_prefs *p, LZ4F_preferences_t *out)
{
    memset(out, 0, sizeof *out);
    if (!p)
        return;
    out->frameInfo.blockSizeID = (LZ4F_blockSizeID_t)p->block_size_id;
    out->frameInfo.blockMode = p->block_independent ? LZ4F_blockIndependent : LZ4F_blockLinked;
    out->frameInfo.contentChecksumFlag = p->content_checksum ? LZ4F_contentChecksumEnabled
                                                             : LZ4F_noContentChecksum;
#if defined(HAVE_LZ4F_FRAMEINFO_BLOCKCHECKSUMFLAG)
    out->frameInfo.blockChecksumFlag = p->block_checksum ? LZ4F_blockChecksumEnabled
                                                         : LZ4F_noBlockChecksum;
#endif
#if defined(HAVE_LZ4F_FRAMEINFO_CONTENTSIZE)
    out->frameInfo.contentSize = p->content_size;
#endif
#if defined(HAVE_LZ4F_FRAMEINFO_DICTID)
    out->frameInfo.dictID = p->dict_id;
#endif
    out->compressionLevel = p->level;
    out->autoFlush = (unsigned)p->auto_flush;
#if defined(HAVE_LZ4F_PREFS_FAVORDECSPEED)
    out->favorDecSpeed = (unsigned)p->favor_dec_speed;
#endif
}

#if defined(HAVE_LZ4F_DECOMPRESS)
static void *f_dctx_create(void)
{
    LZ4F_decompressionContext_t d = NULL;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
        return NULL;
    return d;
}

static void f_dctx_free(void *d) { LZ4F_freeDecompressionContext(d); }

static long long f_decompress(void *d, unsigned char *dst, size_t *dst_len,
                              const unsigned char *src, size_t *src_len,
                              const unsigned char *dict, size_t dict_len)
{
#if defined(HAVE_LZ4F_DECOMPRESS_USINGDICT)
    if (dict)
        return upstream_lz4f_result(LZ4F_decompress_usingDict(d, dst, dst_len, src, src_len, dict, dict_len,
                                                NULL));
#else
    (void)dict_len;
    if (dict)
        abort();   /* the caps say there is no dictionary entry point */
#endif
    return upstream_lz4f_result(LZ4F_decompress(d, dst, dst_len, src, src_len, NULL));
}

static const char *f_error_name(long long r)
{
    return LZ4F_getErrorName((size_t)r);   /* (size_t)-code: the LZ4F error value */
}
#endif

#if defined(HAVE_LZ4F_RESETDECOMPRESSIONCONTEXT)
static void f_dctx_reset(void *d) { LZ4F_resetDecompressionContext(d); }
#endif

#if defined(HAVE_LZ4F_COMPRESSFRAME)
static size_t f_compress_bound(size_t n, const struct subject_frame_prefs *p)
{
    LZ4F_preferences_t prefs;
    upstream_lz4f_prefs(p, &prefs);
    return LZ4F_compressFrameBound(n, &prefs);
}

static long long f_compress(const unsigned char *src, size_t n, unsigned char *dst, size_t cap,
                            const struct subject_frame_prefs *p)
{
    LZ4F_preferences_t prefs;
    upstream_lz4f_prefs(p, &prefs);
    return upstream_lz4f_result(LZ4F_compressFrame(dst, cap, src, n, &prefs));
}
#endif

#if defined(HAVE_LZ4F_COMPRESSBEGIN)
/* The cctx and the CDict it was begun with, freed together. */
struct frame_cctx {
    LZ4F_compressionContext_t cctx;
#if defined(HAVE_LZ4F_COMPRESSBEGIN_USINGCDICT)
    LZ4F_CDict *cdict;
#endif
};

static void *f_cctx_create(void)
{
    struct frame_cctx *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    if (LZ4F_isError(LZ4F_createCompressionContext(&c->cctx, LZ4F_VERSION))) {
        free(c);
        return NULL;
    }
    return c;
}

static void f_cctx_free(void *p)
{
    struct frame_cctx *c = p;
#if defined(HAVE_LZ4F_COMPRESSBEGIN_USINGCDICT)
    LZ4F_freeCDict(c->cdict);
#endif
    LZ4F_freeCompressionContext(c->cctx);
    free(c);
}

static long long f_begin(void *p, unsigned char *dst, size_t cap,
                         const struct subject_frame_prefs *fp, const unsigned char *dict,
                         size_t dict_len)
{
    struct frame_cctx *c = p;
    LZ4F_preferences_t prefs;
    upstream_lz4f_prefs(fp, &prefs);
#if defined(HAVE_LZ4F_COMPRESSBEGIN_USINGCDICT)
    if (dict) {
        LZ4F_freeCDict(c->cdict);
        c->cdict = LZ4F_createCDict(dict, dict_len);
        return upstream_lz4f_result(LZ4F_compressBegin_usingCDict(c->cctx, dst, cap, c->cdict, &prefs));
    }
#else
    (void)dict_len;
    if (dict)
        abort();   /* the caps say there is no CDict entry point */
#endif
    return upstream_lz4f_result(LZ4F_compressBegin(c->cctx, dst, cap, &prefs));
}

static long long f_update(void *p, unsigned char *dst, size_t cap, const unsigned char *src,
                          size_t n)
{
    return upstream_lz4f_result(LZ4F_compressUpdate(((struct frame_cctx *)p)->cctx, dst, cap, src, n, NULL));
}

static size_t f_update_bound(size_t n, const struct subject_frame_prefs *p)
{
    LZ4F_preferences_t prefs;
    upstream_lz4f_prefs(p, &prefs);
    return LZ4F_compressBound(n, &prefs);
}

static long long f_end(void *p, unsigned char *dst, size_t cap)
{
    return upstream_lz4f_result(LZ4F_compressEnd(((struct frame_cctx *)p)->cctx, dst, cap, NULL));
}

#if defined(HAVE_LZ4F_FLUSH)
static long long f_flush(void *p, unsigned char *dst, size_t cap)
{
    return upstream_lz4f_result(LZ4F_flush(((struct frame_cctx *)p)->cctx, dst, cap, NULL));
}
#endif
#endif

#if defined(HAVE_LZ4F_GETFRAMEINFO)
/* The fields the tree's LZ4F_frameInfo_t has (probed members); -1 for the
 * others. */
static long long f_get_info(const unsigned char *src, size_t *src_len,
                            struct subject_frame_info *info)
{
    LZ4F_decompressionContext_t d = NULL;
    LZ4F_frameInfo_t fi;
    size_t r;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
        return -1;
    memset(&fi, 0, sizeof fi);
    r = LZ4F_getFrameInfo(d, &fi, src, src_len);
    LZ4F_freeDecompressionContext(d);
    info->block_size_id = (long long)fi.blockSizeID;
    info->block_independent = fi.blockMode == LZ4F_blockIndependent;
    info->content_checksum = fi.contentChecksumFlag == LZ4F_contentChecksumEnabled;
    info->skippable = info->block_checksum = info->content_size = info->dict_id = -1;
#if defined(HAVE_LZ4F_FRAMEINFO_FRAMETYPE)
    info->skippable = fi.frameType == LZ4F_skippableFrame;
#endif
#if defined(HAVE_LZ4F_FRAMEINFO_BLOCKCHECKSUMFLAG)
    info->block_checksum = fi.blockChecksumFlag == LZ4F_blockChecksumEnabled;
#endif
#if defined(HAVE_LZ4F_FRAMEINFO_CONTENTSIZE)
    info->content_size = (long long)fi.contentSize;
#endif
#if defined(HAVE_LZ4F_FRAMEINFO_DICTID)
    info->dict_id = fi.dictID;
#endif
    return upstream_lz4f_result(r);
}
#endif

void upstream_frame_fill(struct lz4_subject *s)
{
#define FILL(slot, fn, cap) (s->slot = fn, s->caps |= (cap))
#if defined(HAVE_LZ4F_DECOMPRESS)
    s->frame_dctx_create = f_dctx_create;
    s->frame_dctx_free = f_dctx_free;
    s->frame_error_name = f_error_name;
    FILL(frame_decompress, f_decompress, CAP_FRAME_DECOMPRESS);
#if defined(HAVE_LZ4F_DECOMPRESS_USINGDICT)
    s->caps |= CAP_FRAME_DECOMPRESS_DICT;
#endif
#if defined(HAVE_LZ4F_RESETDECOMPRESSIONCONTEXT)
    FILL(frame_dctx_reset, f_dctx_reset, CAP_FRAME_RESET);
#endif
#if defined(HAVE_LZ4F_GETFRAMEINFO)
    FILL(frame_get_info, f_get_info, CAP_FRAME_INFO);
#endif
#endif
#if defined(HAVE_LZ4F_COMPRESSFRAME)
    s->frame_compress_bound = f_compress_bound;
    FILL(frame_compress, f_compress, CAP_FRAME_COMPRESS);
#endif
#if defined(HAVE_LZ4F_COMPRESSBEGIN)
    s->frame_cctx_create = f_cctx_create;
    s->frame_cctx_free = f_cctx_free;
    s->frame_compress_begin = f_begin;
    s->frame_compress_update = f_update;
    s->frame_compress_update_bound = f_update_bound;
    FILL(frame_compress_end, f_end, CAP_FRAME_COMPRESS_STREAM);
#if defined(HAVE_LZ4F_FLUSH)
    FILL(frame_compress_flush, f_flush, CAP_FRAME_FLUSH);
#endif
#if defined(HAVE_LZ4F_COMPRESSBEGIN_USINGCDICT)
    s->caps |= CAP_FRAME_COMPRESS_CDICT;
#endif
#endif
#undef FILL
}
