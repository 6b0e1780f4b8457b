/*
 * Adapter for upstream lz4 release trees (and the system liblz4): fills the
 * subject table from lz4.h / lz4hc.h (adapter_lz4_api.h) and, when the tree
 * has lz4frame.h, lz4frame.h (adapter_upstream_frame.c).
 *
 * Which entry points exist is decided by compile probes run by
 * harness/subjects/recipes/upstream.py, passed in as HAVE_<SYMBOL> macros;
 * nothing here depends on a version number. Every slot calls the real
 * function with the caller's arguments unchanged (subject.h: no extra
 * checks, no clamping).
 */
/* Deprecated entry points are tested on purpose: the recipe builds this with
 * -Wno-deprecated-declarations (not LZ4_DISABLE_DEPRECATE_WARNINGS, which
 * some 2016 snapshots' lz4.h cannot take: recipes/upstream.py). */
#define LZ4_HC_STATIC_LINKING_ONLY 1
#include <stdlib.h>

#include "lz4.h"
#if defined(HAVE_LZ4_COMPRESS_HC) || defined(HAVE_LZ4_COMPRESSHC2_LIMITEDOUTPUT)
#include "lz4hc.h"
#endif

#ifndef SUBJECT_NAME
#define SUBJECT_NAME "upstream"
#endif
#ifndef SUBJECT_ENTRY
#define SUBJECT_ENTRY lz4gate_subject
#endif

/* A copy with any entry point of the r129+ API (decoder-only and
 * compressor-only copies too) is of that generation (build.py MODERN_API). */
#if defined(HAVE_LZ4_DECOMPRESS_SAFE) || defined(HAVE_LZ4_DECOMPRESS_SAFE_PARTIAL) || \
    defined(HAVE_LZ4_COMPRESS_DEFAULT) || defined(HAVE_LZ4_COMPRESS_FAST) || \
    defined(HAVE_LZ4_COMPRESS_DESTSIZE)
#define UPSTREAM_GENERATION GEN_UPSTREAM
#else
#define UPSTREAM_GENERATION GEN_UPSTREAM_OLD
#endif

/* r1xx trees name four entry points differently, with the same signatures
 * and contracts (LZ4_uncompress_unknownOutputSize is the safe decoder,
 * LZ4_uncompress the exact-output-size one): call them by the modern
 * names. (Defined after the headers, so no declaration is renamed.) */
#if !defined(HAVE_LZ4_DECOMPRESS_SAFE) && defined(HAVE_LZ4_UNCOMPRESS_UNKNOWNOUTPUTSIZE)
#define LZ4_decompress_safe LZ4_uncompress_unknownOutputSize
#define HAVE_LZ4_DECOMPRESS_SAFE 1
#endif
#if !defined(HAVE_LZ4_DECOMPRESS_FAST) && defined(HAVE_LZ4_UNCOMPRESS)
#define LZ4_decompress_fast LZ4_uncompress
#define HAVE_LZ4_DECOMPRESS_FAST 1
#endif
#if !defined(HAVE_LZ4_COMPRESS_DEFAULT) && defined(HAVE_LZ4_COMPRESS_LIMITEDOUTPUT)
#define LZ4_compress_default LZ4_compress_limitedOutput
#define HAVE_LZ4_COMPRESS_DEFAULT 1
#endif
#if !defined(HAVE_LZ4_COMPRESS_HC) && defined(HAVE_LZ4_COMPRESSHC2_LIMITEDOUTPUT)
#define LZ4_compress_HC LZ4_compressHC2_limitedOutput
#define HAVE_LZ4_COMPRESS_HC 1
#endif

#include "adapter_lz4_api.h"
#include "subject.h"

#if defined(HAVE_LZ4FRAME)
void upstream_frame_fill(struct lz4_subject *s);   /* adapter_upstream_frame.c */
#endif

void upstream_stream_fill(struct lz4_subject *s);   /* adapter_stream_upstream.c */

const struct lz4_subject *SUBJECT_ENTRY(void)
{
    static struct lz4_subject s = {
        .name = SUBJECT_NAME,
        .generation = UPSTREAM_GENERATION,
        LZ4_API_SLOTS,
    };
    static int filled;
    if (!filled) {
        s.caps = slot_caps(&s);
#if defined(HAVE_LZ4FRAME)
        upstream_frame_fill(&s);
#endif
        upstream_stream_fill(&s);   /* adapter_stream_upstream.c */
        filled = 1;
    }
    return &s;
}
