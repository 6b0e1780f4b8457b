/*
 * Adapter for upstream lz4 release trees (and the system liblz4): fills the
 * subject table from lz4.h / lz4hc.h.
 *
 * Which entry points exist is decided by compile probes run by
 * harness/subjects.py, passed in as HAVE_<SYMBOL> macros; nothing here
 * depends on a version number. Every slot calls the real function with the
 * caller's arguments unchanged (subject.h: no extra checks, no clamping).
 */
#define LZ4_DISABLE_DEPRECATE_WARNINGS 1 /* we test deprecated entry points on purpose */
#define LZ4_HC_STATIC_LINKING_ONLY 1
#include <stdlib.h>

#include "lz4.h"
#if defined(HAVE_LZ4_COMPRESS_HC) || defined(HAVE_LZ4_COMPRESSHC2_LIMITEDOUTPUT)
#include "lz4hc.h"
#endif

#include "subject.h"

#ifndef SUBJECT_NAME
#define SUBJECT_NAME "upstream"
#endif
#ifndef SUBJECT_VERSION
#define SUBJECT_VERSION ""
#endif
#ifndef SUBJECT_ENTRY
#define SUBJECT_ENTRY lz4gate_subject
#endif

#if defined(HAVE_LZ4_COMPRESSBOUND)
static int a_compress_bound(int n) { return LZ4_compressBound(n); }
#endif

/* Decoders: the modern names, or their r1xx ancestors with the same
 * contracts (LZ4_uncompress_unknownOutputSize is the safe decoder,
 * LZ4_uncompress the exact-output-size one). */
#if defined(HAVE_LZ4_DECOMPRESS_SAFE)
static int a_decompress_safe(const char *s, char *d, int n, int cap)
{ return LZ4_decompress_safe(s, d, n, cap); }
#elif defined(HAVE_LZ4_UNCOMPRESS_UNKNOWNOUTPUTSIZE)
static int a_decompress_safe(const char *s, char *d, int n, int cap)
{ return LZ4_uncompress_unknownOutputSize(s, d, n, cap); }
#endif

#if defined(HAVE_LZ4_DECOMPRESS_SAFE_PARTIAL)
static int a_decompress_safe_partial(const char *s, char *d, int n, int target, int cap)
{ return LZ4_decompress_safe_partial(s, d, n, target, cap); }
#endif

#if defined(HAVE_LZ4_DECOMPRESS_FAST)
static int a_decompress_fast(const char *s, char *d, int original)
{ return LZ4_decompress_fast(s, d, original); }
#elif defined(HAVE_LZ4_UNCOMPRESS)
static int a_decompress_fast(const char *s, char *d, int original)
{ return LZ4_uncompress(s, d, original); }
#endif

#if defined(HAVE_LZ4_DECOMPRESS_SAFE_USINGDICT)
static int a_decompress_safe_using_dict(const char *s, char *d, int n, int cap,
                                        const char *dict, int dict_size)
{ return LZ4_decompress_safe_usingDict(s, d, n, cap, dict, dict_size); }
#endif

/* Compressors. */
#if defined(HAVE_LZ4_COMPRESS_DEFAULT)
static int a_compress_default(const char *s, char *d, int n, int cap)
{ return LZ4_compress_default(s, d, n, cap); }
#elif defined(HAVE_LZ4_COMPRESS_LIMITEDOUTPUT)
static int a_compress_default(const char *s, char *d, int n, int cap)
{ return LZ4_compress_limitedOutput(s, d, n, cap); }
#endif

#if defined(HAVE_LZ4_COMPRESS_FAST)
static int a_compress_fast(const char *s, char *d, int n, int cap, int accel)
{ return LZ4_compress_fast(s, d, n, cap, accel); }
#endif

#if defined(HAVE_LZ4_COMPRESS_DESTSIZE)
static int a_compress_dest_size(const char *s, char *d, int *n, int target)
{ return LZ4_compress_destSize(s, d, n, target); }
#endif

#if defined(HAVE_LZ4_COMPRESS_HC)
static int a_compress_hc(const char *s, char *d, int n, int cap, int level)
{ return LZ4_compress_HC(s, d, n, cap, level); }
#elif defined(HAVE_LZ4_COMPRESSHC2_LIMITEDOUTPUT)
static int a_compress_hc(const char *s, char *d, int n, int cap, int level)
{ return LZ4_compressHC2_limitedOutput(s, d, n, cap, level); }
#endif

#if defined(HAVE_LZ4_LOADDICT) && defined(HAVE_LZ4_COMPRESS_FAST_CONTINUE)
/* The stream lives in malloc'd memory so ASan bounds it exactly. */
static int a_compress_using_dict(const char *dict, int dict_size, const char *s, char *d,
                                 int n, int cap, int accel)
{
    int r;
    LZ4_stream_t *stream = malloc(sizeof *stream);
    if (!stream)
        abort();
    LZ4_resetStream(stream);
    LZ4_loadDict(stream, dict, dict_size);
    r = LZ4_compress_fast_continue(stream, s, d, n, cap, accel);
    free(stream);
    return r;
}
#endif

#if defined(HAVE_LZ4FRAME)
void upstream_frame_fill(struct lz4_subject *s);
#endif

static const char *subject_version(void)
{
#if defined(LZ4_VERSION_STRING)
    return LZ4_VERSION_STRING;
#else
    return SUBJECT_VERSION;
#endif
}

const struct lz4_subject *SUBJECT_ENTRY(void)
{
    static struct lz4_subject s;
    if (s.name)
        return &s;
    s.version = subject_version();
#if defined(HAVE_LZ4_DECOMPRESS_SAFE)
    s.generation = GEN_UPSTREAM;
#else
    s.generation = GEN_UPSTREAM_OLD;
#endif
#define FILL(slot, fn, cap) (s.slot = fn, s.caps |= (cap))
#if defined(HAVE_LZ4_COMPRESSBOUND)
    FILL(compress_bound, a_compress_bound, CAP_COMPRESS_BOUND);
#endif
#if defined(HAVE_LZ4_DECOMPRESS_SAFE) || defined(HAVE_LZ4_UNCOMPRESS_UNKNOWNOUTPUTSIZE)
    FILL(decompress_safe, a_decompress_safe, CAP_DECOMPRESS_SAFE);
#endif
#if defined(HAVE_LZ4_DECOMPRESS_SAFE_PARTIAL)
    FILL(decompress_safe_partial, a_decompress_safe_partial, CAP_DECOMPRESS_PARTIAL);
#endif
#if defined(HAVE_LZ4_DECOMPRESS_FAST) || defined(HAVE_LZ4_UNCOMPRESS)
    FILL(decompress_fast, a_decompress_fast, CAP_DECOMPRESS_FAST);
#endif
#if defined(HAVE_LZ4_DECOMPRESS_SAFE_USINGDICT)
    FILL(decompress_safe_using_dict, a_decompress_safe_using_dict, CAP_DECOMPRESS_USING_DICT);
#endif
#if defined(HAVE_LZ4_COMPRESS_DEFAULT) || defined(HAVE_LZ4_COMPRESS_LIMITEDOUTPUT)
    FILL(compress_default, a_compress_default, CAP_COMPRESS_DEFAULT);
#endif
#if defined(HAVE_LZ4_COMPRESS_FAST)
    FILL(compress_fast, a_compress_fast, CAP_COMPRESS_FAST);
#endif
#if defined(HAVE_LZ4_COMPRESS_DESTSIZE)
    FILL(compress_dest_size, a_compress_dest_size, CAP_COMPRESS_DEST_SIZE);
#endif
#if defined(HAVE_LZ4_COMPRESS_HC) || defined(HAVE_LZ4_COMPRESSHC2_LIMITEDOUTPUT)
    FILL(compress_hc, a_compress_hc, CAP_COMPRESS_HC);
#endif
#if defined(HAVE_LZ4_LOADDICT) && defined(HAVE_LZ4_COMPRESS_FAST_CONTINUE)
    FILL(compress_using_dict, a_compress_using_dict, CAP_COMPRESS_USING_DICT);
#endif
#undef FILL
#if defined(HAVE_LZ4FRAME)
    upstream_frame_fill(&s);   /* adapter_upstream_frame.c */
#endif
    s.name = SUBJECT_NAME;
    return &s;
}
