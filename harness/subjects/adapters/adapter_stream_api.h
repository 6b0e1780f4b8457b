/*
 * adapter_stream_api.h: the streaming block API (LZ4_stream_t,
 * LZ4_streamHC_t, LZ4_streamDecode_t) as upstream's lz4.h / lz4hc.h and a
 * Linux tree's linux/lz4.h (4.11+) both declare it, made into the stream_*
 * and dstream_* slots of subject.h for adapter_stream_upstream.c and
 * adapter_stream_kernel.c.
 *
 * Included after the tree's headers, with the HAVE_<SYMBOL> macros of the
 * compile probes (harness/subjects/streaming.py). The includer defines
 *   STREAM_NEW(type)        a fresh stream of that type, or NULL: upstream's
 *                           LZ4_create* (its allocation can fail), the
 *                           kernel's caller-allocated state
 *   STREAM_DELETE(type, p)  its counterpart
 * Every slot calls the entry point with the caller's arguments: nothing is
 * checked, clamped or mapped here (subject.h).
 */
#ifndef LZ4GATE_ADAPTER_STREAM_API_H
#define LZ4GATE_ADAPTER_STREAM_API_H

#include "subject.h"

/* Which stream calls exist: the fast stream needs a compressor, a reset
 * and loadDict; HC the same; decoding setStreamDecode + safe_continue. */
#if (defined(HAVE_LZ4_COMPRESS_FAST_CONTINUE) || defined(HAVE_STREAM_LIMITEDOUTPUT_CONTINUE)) && \
    defined(HAVE_LZ4_RESETSTREAM) && defined(HAVE_LZ4_LOADDICT)
#define STREAM_FAST 1
#endif
#if (defined(HAVE_LZ4_COMPRESS_HC_CONTINUE) || defined(HAVE_STREAMHC_LIMITEDOUTPUT_CONTINUE)) && \
    defined(HAVE_LZ4_RESETSTREAMHC) && defined(HAVE_LZ4_LOADDICTHC)
#define STREAM_HC 1
#endif
#if defined(HAVE_LZ4_SETSTREAMDECODE) && defined(HAVE_LZ4_DECOMPRESS_SAFE_CONTINUE)
#define STREAM_DECODE 1
#endif

#if defined(STREAM_FAST) || defined(STREAM_HC)
/* The handle: which kind of stream, and the tree's own state. */
struct api_stream {
    int hc;
    void *state;
};

/* A stream kind the caps do not announce was asked for: a harness bug. */
static void api_no_such_stream(void)
{
    abort();
}

static void *api_stream_create(int hc)
{
    struct api_stream *st = malloc(sizeof *st);
    if (!st)
        abort();
    st->hc = hc;
    st->state = NULL;
#if defined(STREAM_HC)
    if (hc)
        st->state = STREAM_NEW(LZ4_streamHC_t);
#endif
#if defined(STREAM_FAST)
    if (!hc)
        st->state = STREAM_NEW(LZ4_stream_t);
#endif
    if (!st->state) {
        free(st);      /* the tree's allocation failed */
        return NULL;
    }
    return st;
}

static void api_stream_free(void *p)
{
    struct api_stream *st = p;
    if (!st)
        return;
#if defined(STREAM_HC)
    if (st->hc)
        STREAM_DELETE(LZ4_streamHC_t, st->state);
#endif
#if defined(STREAM_FAST)
    if (!st->hc)
        STREAM_DELETE(LZ4_stream_t, st->state);
#endif
    free(st);
}

static void api_stream_reset(void *p, int level, int fast)
{
    struct api_stream *st = p;
    (void)level;
    (void)fast;
    if (st->hc) {
#if defined(HAVE_LZ4_RESETSTREAMHC_FAST)
        if (fast) {
            LZ4_resetStreamHC_fast(st->state, level);
            return;
        }
#endif
#if defined(STREAM_HC)
        LZ4_resetStreamHC(st->state, level);
        return;
#endif
    } else {
#if defined(HAVE_LZ4_RESETSTREAM_FAST)
        if (fast) {
            LZ4_resetStream_fast(st->state);
            return;
        }
#endif
#if defined(STREAM_FAST)
        LZ4_resetStream(st->state);
        return;
#endif
    }
    api_no_such_stream();
}

static int api_stream_load_dict(void *p, const char *dict, int size)
{
    struct api_stream *st = p;
#if defined(STREAM_HC)
    if (st->hc)
        return LZ4_loadDictHC(st->state, dict, size);
#endif
#if defined(STREAM_FAST)
    if (!st->hc)
        return LZ4_loadDict(st->state, dict, size);
#endif
    api_no_such_stream();
    return 0;
}

static int api_stream_compress(void *p, const char *src, char *dst, int n, int cap, int accel)
{
    struct api_stream *st = p;
    (void)accel;
    if (st->hc) {
#if defined(HAVE_LZ4_COMPRESS_HC_CONTINUE)
        return LZ4_compress_HC_continue(st->state, src, dst, n, cap);
#elif defined(HAVE_STREAMHC_LIMITEDOUTPUT_CONTINUE)
        return LZ4_compressHC_limitedOutput_continue(st->state, src, dst, n, cap);
#endif
    } else {
#if defined(HAVE_LZ4_COMPRESS_FAST_CONTINUE)
        return LZ4_compress_fast_continue(st->state, src, dst, n, cap, accel);
#elif defined(HAVE_STREAM_LIMITEDOUTPUT_CONTINUE)
        return LZ4_compress_limitedOutput_continue(st->state, src, dst, n, cap);
#endif
    }
    api_no_such_stream();
    return 0;
}
#endif /* STREAM_FAST || STREAM_HC */

#if (defined(STREAM_FAST) && defined(HAVE_LZ4_SAVEDICT)) || \
    (defined(STREAM_HC) && defined(HAVE_LZ4_SAVEDICTHC))
#define STREAM_SAVE 1
static int api_stream_save_dict(void *p, char *safe, int size)
{
    struct api_stream *st = p;
#if defined(STREAM_HC) && defined(HAVE_LZ4_SAVEDICTHC)
    if (st->hc)
        return LZ4_saveDictHC(st->state, safe, size);
#endif
#if defined(STREAM_FAST) && defined(HAVE_LZ4_SAVEDICT)
    if (!st->hc)
        return LZ4_saveDict(st->state, safe, size);
#endif
    api_no_such_stream();
    return 0;
}
#endif

#if (defined(STREAM_FAST) && defined(HAVE_LZ4_ATTACH_DICTIONARY)) || \
    (defined(STREAM_HC) && defined(HAVE_LZ4_ATTACH_HC_DICTIONARY))
#define STREAM_ATTACH 1
static void api_stream_attach(void *p, const void *d)
{
    struct api_stream *st = p;
    const struct api_stream *dict = d;
#if defined(STREAM_HC) && defined(HAVE_LZ4_ATTACH_HC_DICTIONARY)
    if (st->hc) {
        LZ4_attach_HC_dictionary(st->state, dict ? dict->state : NULL);
        return;
    }
#endif
#if defined(STREAM_FAST) && defined(HAVE_LZ4_ATTACH_DICTIONARY)
    if (!st->hc) {
        LZ4_attach_dictionary(st->state, dict ? dict->state : NULL);
        return;
    }
#endif
    api_no_such_stream();
}
#endif

#if defined(STREAM_DECODE)
static void *api_dstream_create(void)
{
    return STREAM_NEW(LZ4_streamDecode_t);
}

static void api_dstream_free(void *ds)
{
    if (ds)
        STREAM_DELETE(LZ4_streamDecode_t, ds);
}

static int api_dstream_set(void *ds, const char *dict, int size)
{
    return LZ4_setStreamDecode(ds, dict, size);
}

static int api_dstream_decompress(void *ds, const char *src, char *dst, int n, int cap)
{
    return LZ4_decompress_safe_continue(ds, src, dst, n, cap);
}
#endif

/* Fill the stream slots the tree has, and their capability bits. */
static void api_stream_fill(struct lz4_subject *s)
{
#if defined(STREAM_FAST) || defined(STREAM_HC)
    s->stream_create = api_stream_create;
    s->stream_free = api_stream_free;
    s->stream_reset = api_stream_reset;
    s->stream_load_dict = api_stream_load_dict;
    s->stream_compress = api_stream_compress;
#endif
#if defined(STREAM_FAST)
    s->caps |= CAP_STREAM_COMPRESS;
#if defined(HAVE_LZ4_ATTACH_DICTIONARY)
    s->caps |= CAP_STREAM_ATTACH;
#endif
#endif
#if defined(STREAM_HC)
    s->caps |= CAP_STREAM_HC;
#if defined(HAVE_LZ4_ATTACH_HC_DICTIONARY)
    s->caps |= CAP_STREAM_HC_ATTACH;
#endif
#endif
    /* One bit for both kinds: the fast reset of each kind the tree streams. */
#if (defined(STREAM_FAST) || defined(STREAM_HC)) && \
    (!defined(STREAM_FAST) || defined(HAVE_LZ4_RESETSTREAM_FAST)) && \
    (!defined(STREAM_HC) || defined(HAVE_LZ4_RESETSTREAMHC_FAST))
    s->caps |= CAP_STREAM_RESET_FAST;
#endif
#if defined(STREAM_SAVE) && (!defined(STREAM_FAST) || defined(HAVE_LZ4_SAVEDICT)) && \
    (!defined(STREAM_HC) || defined(HAVE_LZ4_SAVEDICTHC))
    s->stream_save_dict = api_stream_save_dict;
    s->caps |= CAP_STREAM_SAVE_DICT;
#endif
#if defined(STREAM_ATTACH)
    s->stream_attach = api_stream_attach;
#endif
#if defined(STREAM_DECODE)
    s->dstream_create = api_dstream_create;
    s->dstream_free = api_dstream_free;
    s->dstream_set = api_dstream_set;
    s->dstream_decompress = api_dstream_decompress;
    s->caps |= CAP_STREAM_DECOMPRESS;
#endif
    (void)s;
}

#endif /* LZ4GATE_ADAPTER_STREAM_API_H */
