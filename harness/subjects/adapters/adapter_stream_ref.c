/*
 * The reference codec behind the streaming slots (subject.h stream_*,
 * dstream_*), so that the streaming targets and cases run on ref like on any
 * subject; filled in by adapter_ref.c. ref has no HC.
 *
 * History is kept by copy: a compression stream holds the last 64 KiB of
 * what it has seen (loaded dictionary, then every block it compressed),
 * which is the logical history lz4.h defines; the encoder (ref_encode with
 * that history as its dictionary) may use all of it, except across a jump:
 * a block that does not start where the previous one (or the dictionary)
 * ended keeps only the contiguous run before it, which is all a decoding
 * stream keeps there (the rule below; a synchronized ring's decoder loses a
 * loaded dictionary at its first wrap: sweep.stream.compress[mode=ring_sync]).
 * A decoding stream
 * follows LZ4_decompress_safe_continue's rule: output written right after
 * the previous output extends the prefix; anywhere else, the previous
 * prefix becomes the only external dictionary. Conventions as adapter_ref.c
 * (strict profile; errors are -(input position) - 1).
 *
 * States are allocated through the allocation counter (alloc_hook.c), so
 * that ref has allocations to fail like a subject; with the frame adapter
 * and ref's frame stream built with alloc_hook.h (subjects/streaming.py), every
 * allocation of ref is counted. The custom-memory frame slots are ref's
 * own frame contexts (ref has no LZ4F_CustomMem).
 *
 * Planted bugs for broken:MODE (the mode's name in adapter_broken.c's MODE_
 * table; subjects/streaming.py defines BROKEN_<mode> here), each one found
 * by a fuzz target or a regression case (tests/test_stream_alloc.py):
 *   stream_reset_noop     LZ4_resetStream keeps the history (stream_roundtrip)
 *   alloc_null_deref      the stream constructors use a failed allocation
 *                         (alloc_fail; ULZ4-2021-HCNULL's class)
 *   frame_mem_cdict_null  the custom-memory Begin copies the dictionary into
 *                         an allocation it does not check (ULZ4-2025-62813)
 *   compress_no_size_guard LZ4_compress_default reads the size it is given
 *                         before checking it against LZ4_MAX_INPUT_SIZE
 *                         (ULZ4-SVN-r107)
 *   stream_history_one_short  the decoding stream keeps 65534 bytes of an
 *                         output that moved, one less than offset 65535
 *                         reaches (the boundary sweep
 *                         sweep.stream.decode[mode=separate] catches it)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "lz4ref.h"
#include "subject.h"

void ref_stream_fill(struct lz4_subject *s);

/* alloc_hook.c */
void *lz4gate_hook_malloc(size_t size);
void lz4gate_hook_free(void *p);
void lz4gate_alloc_fail_at(unsigned long n);
unsigned long lz4gate_alloc_calls(void);

/* ---- history ------------------------------------------------------------ */

typedef struct window {
    uint8_t bytes[REF_MAX_DICT];
    size_t len;
} window;

/* Append n bytes, keeping the last 64 KiB. */
static void window_add(window *w, const uint8_t *p, size_t n)
{
    ref_history_append(w->bytes, &w->len, REF_MAX_DICT, p, n);
}

/* ---- compression ---------------------------------------------------------- */

struct r_stream {
    window hist;
    const char *run_end;   /* the last block (or dictionary) ends here ... */
    size_t run_len;        /* ... and is the end of a contiguous run this long */
};

/* The history a block at src may use: after a jump, the run before it; a
 * new run starts at src (a block that fails there and is tried again at
 * the same place keeps that history). */
static void stream_jump(struct r_stream *st, const char *src)
{
    if (src == st->run_end)
        return;
    if (st->run_end && st->run_len < st->hist.len) {
        memmove(st->hist.bytes, st->hist.bytes + st->hist.len - st->run_len, st->run_len);
        st->hist.len = st->run_len;
    }
    st->run_end = src;
    st->run_len = 0;
}

static void stream_start(struct r_stream *st, const char *end, size_t len)
{
    st->run_end = end;
    st->run_len = len;
}

static void *r_stream_create(int hc)
{
    struct r_stream *st;
    if (hc)
        abort();   /* the caps announce no HC stream */
    st = lz4gate_hook_malloc(sizeof *st);
#if defined(BROKEN_alloc_null_deref)
    st->hist.len = 0;   /* planted: no NULL check */
#else
    if (st)
        st->hist.len = 0;
#endif
    if (st)
        stream_start(st, NULL, 0);
    return st;
}

static void r_stream_free(void *st) { lz4gate_hook_free(st); }

static void r_stream_reset(void *p, int level, int fast)
{
    (void)level;
    (void)fast;
#if !defined(BROKEN_stream_reset_noop)   /* planted: the history survives */
    ((struct r_stream *)p)->hist.len = 0;
    stream_start(p, NULL, 0);
#else
    (void)p;
#endif
}

/* As LZ4_loadDict: the stream starts over with the dictionary's last 64 KiB
 * as history; returns the bytes kept. */
static int r_stream_load_dict(void *p, const char *dict, int size)
{
    struct r_stream *st = p;
    st->hist.len = 0;
    stream_start(st, NULL, 0);
    if (!dict || size <= 0)
        return 0;
    window_add(&st->hist, (const uint8_t *)dict, (size_t)size);
    stream_start(st, dict + size, st->hist.len);
    return (int)st->hist.len;
}

/* As LZ4_saveDict: the last min(size, history) bytes go to safe and become
 * the whole history; returns their number. */
static int r_stream_save_dict(void *p, char *safe, int size)
{
    struct r_stream *st = p;
    size_t n = size < 0 ? 0 : (size_t)size;
    if (n > st->hist.len)
        n = st->hist.len;
    if (n)
        memcpy(safe, st->hist.bytes + st->hist.len - n, n);
    memmove(st->hist.bytes, st->hist.bytes + st->hist.len - n, n);
    st->hist.len = n;
    stream_start(st, n ? safe + n : NULL, n);
    return (int)n;
}

/* As LZ4_attach_dictionary: the dictionary stream's history replaces this
 * stream's; NULL detaches (nothing is attached between calls here). */
static void r_stream_attach(void *p, const void *d)
{
    if (d) {
        ((struct r_stream *)p)->hist = ((const struct r_stream *)d)->hist;
        stream_start(p, NULL, 0);   /* a dictionary context: all of it, as before */
    }
}

static int r_stream_compress(void *p, const char *src, char *dst, int n, int cap,
                             int accel)
{
    struct r_stream *st = p;
    ref_encode_params e;
    ref_encode_result r;
    void *table;
    if (!src || n < 0 || cap <= 0)
        return 0;
    stream_jump(st, src);
    memset(&e, 0, sizeof e);
    e.src = (const uint8_t *)src;
    e.src_len = (size_t)n;
    e.dst = (uint8_t *)dst;
    e.dst_cap = (size_t)cap;
    e.acceleration = accel;
    e.dict = st->hist.bytes;
    e.dict_len = st->hist.len;
    e.mode = REF_ENCODE_LIMITED;
    table = malloc(REF_ENCODE_STATE_SIZE);   /* scratch, not a state of the stream */
    if (!table)
        abort();
    r = ref_encode(&e, table);
    free(table);
    if (!r.ok)
        return 0;
    window_add(&st->hist, (const uint8_t *)src, (size_t)n);
    stream_start(st, src + n, st->run_len + (size_t)n);
    return (int)r.written;
}

/* ---- decompression ----------------------------------------------------------- */

struct r_dstream {
    window ext;                  /* the external dictionary (a copy) */
    const uint8_t *prefix_end;   /* the previous output ends here ... */
    size_t prefix_len;           /* ... and is this long (contiguous) */
    int decoded;                 /* the prefix ends with output decoded here */
};

static void *r_dstream_create(void)
{
    struct r_dstream *d = lz4gate_hook_malloc(sizeof *d);
    if (d) {
        d->ext.len = 0;
        d->prefix_end = NULL;
        d->prefix_len = 0;
        d->decoded = 0;
    }
    return d;
}

static void r_dstream_free(void *d) { lz4gate_hook_free(d); }

/* As LZ4_setStreamDecode: the dictionary is the prefix of what follows. */
static int r_dstream_set(void *p, const char *dict, int size)
{
    struct r_dstream *d = p;
    d->ext.len = 0;
    d->prefix_end = dict && size > 0 ? (const uint8_t *)dict + size : NULL;
    d->prefix_len = dict && size > 0 ? (size_t)size : 0;
    d->decoded = 0;
    return 1;
}

static int r_dstream_decompress(void *p, const char *src, char *dst, int n, int cap)
{
    struct r_dstream *d = p;
    ref_decode_params q;
    ref_decode_result r;
    if (!src || n < 0 || cap < 0)
        return -1;
    if (d->prefix_len && d->prefix_end != (const uint8_t *)dst) {
        /* Not contiguous: the previous output becomes the dictionary. */
#if defined(BROKEN_stream_history_one_short)
        /* planted: of an output it decoded (not a dictionary it was set
         * to), 65534 bytes kept, one less than offset 65535 reaches */
        const size_t most = d->decoded ? REF_MAX_DICT - 2 : REF_MAX_DICT;
        size_t keep = d->prefix_len < most ? d->prefix_len : most;
#else
        size_t keep = d->prefix_len < REF_MAX_DICT ? d->prefix_len : REF_MAX_DICT;
#endif
        d->ext.len = 0;
        window_add(&d->ext, d->prefix_end - keep, keep);
        d->prefix_len = 0;
    }
    memset(&q, 0, sizeof q);
    q.src = (const uint8_t *)src;
    q.src_len = (size_t)n;
    q.dst = (uint8_t *)dst;
    q.dst_cap = (size_t)cap;
    q.prefix_len = d->prefix_len < REF_MAX_DICT ? d->prefix_len : REF_MAX_DICT;
    /* Only what the prefix leaves of the 64 KiB window reaches the dictionary. */
    if (q.prefix_len < REF_MAX_DICT && d->ext.len) {
        size_t room = REF_MAX_DICT - q.prefix_len;
        size_t keep = d->ext.len < room ? d->ext.len : room;
        q.dict = d->ext.bytes + d->ext.len - keep;
        q.dict_len = keep;
    }
    q.profile = REF_PROFILE_STRICT;
    q.target0 = REF_TARGET0_RETURNS_ZERO;
    r = ref_decode(&q);
    if (r.status != REF_OK)
        return r.consumed < INT32_MAX ? -(int)r.consumed - 1 : -1;
    d->prefix_end = (const uint8_t *)dst + r.written;
    d->prefix_len += r.written;
    d->decoded = 1;
    return (int)r.written;
}

/* ---- custom-memory frame contexts: ref's own ---------------------------------- */

static const struct lz4_subject *frames;

static void *r_mem_dctx_create(unsigned flags)
{
    (void)flags;
    return frames->frame_dctx_create();
}

static void *r_mem_cctx_create(unsigned flags)
{
    (void)flags;
    return frames->frame_cctx_create();
}

static void r_mem_cctx_free(void *c) { frames->frame_cctx_free(c); }

static long long r_mem_begin(void *c, unsigned char *dst, size_t cap,
                             const struct subject_frame_prefs *p, const unsigned char *dict,
                             size_t dict_len)
{
#if defined(BROKEN_frame_mem_cdict_null)
    if (dict) {   /* planted: a "CDict" copy whose allocation is not checked */
        uint8_t *copy = lz4gate_hook_malloc(dict_len ? dict_len : 1);
        long long r;
        memcpy(copy, dict, dict_len);
        r = frames->frame_compress_begin(c, dst, cap, p, copy, dict_len);
        lz4gate_hook_free(copy);
        return r;
    }
#endif
    return frames->frame_compress_begin(c, dst, cap, p, dict, dict_len);
}

static long long r_mem_update(void *c, unsigned char *dst, size_t cap,
                              const unsigned char *src, size_t n)
{
    return frames->frame_compress_update(c, dst, cap, src, n);
}

static long long r_mem_end(void *c, unsigned char *dst, size_t cap)
{
    return frames->frame_compress_end(c, dst, cap);
}

#if defined(BROKEN_compress_no_size_guard)
static int (*r_compress_default_checked)(const char *, char *, int, int);

/* planted: the input is read for the size given (a sum of every byte) before
 * the size is checked, as LZ4_compress() before r107 hashed inputs of any
 * size. */
static int r_compress_unguarded(const char *src, char *dst, int n, int cap)
{
    unsigned sum = 0;
    size_t i;
    for (i = 0; n != 0 && i < (size_t)(unsigned)n; i++)
        sum += ((const volatile unsigned char *)src)[i];   /* reads cannot be elided */
    return r_compress_default_checked(src, dst, n, cap) + (int)(sum & 0);
}
#endif

#if defined(BROKEN_alloc_null_deref)
static int (*r_plain_compress)(const char *, char *, int, int);

/* planted (ULZ4-2021-HCNULL's class): an "HC" compressor (ref's, level
 * ignored) whose heap state, as LZ4HC_HEAPMODE allocates it, is used
 * without a NULL check. */
static int r_hc_heapmode(const char *src, char *dst, int n, int cap, int level)
{
    struct r_stream *state = lz4gate_hook_malloc(sizeof *state);
    int r;
    (void)level;
    state->hist.len = 0;
    r = r_plain_compress(src, dst, n, cap);
    lz4gate_hook_free(state);
    return r;
}
#endif

void ref_stream_fill(struct lz4_subject *s)
{
#if defined(BROKEN_alloc_null_deref)
    r_plain_compress = s->compress_default;
    s->compress_hc = r_hc_heapmode;
    s->caps |= CAP_COMPRESS_HC;
#endif
#if defined(BROKEN_compress_no_size_guard)
    r_compress_default_checked = s->compress_default;
    s->compress_default = r_compress_unguarded;
#endif
    s->stream_create = r_stream_create;
    s->stream_free = r_stream_free;
    s->stream_reset = r_stream_reset;
    s->stream_load_dict = r_stream_load_dict;
    s->stream_save_dict = r_stream_save_dict;
    s->stream_attach = r_stream_attach;
    s->stream_compress = r_stream_compress;
    s->dstream_create = r_dstream_create;
    s->dstream_free = r_dstream_free;
    s->dstream_set = r_dstream_set;
    s->dstream_decompress = r_dstream_decompress;
    s->alloc_fail_at = lz4gate_alloc_fail_at;
    s->alloc_calls = lz4gate_alloc_calls;
    s->caps |= CAP_STREAM_COMPRESS | CAP_STREAM_SAVE_DICT | CAP_STREAM_ATTACH |
               CAP_STREAM_RESET_FAST | CAP_STREAM_DECOMPRESS | CAP_ALLOC_FAIL;
    if (s->frame_cctx_create && s->frame_dctx_create) {
        frames = s;
        /* broken:MODE replaces the frame decoder's slots with wrappers of
         * their own contexts, which a ref context is not (BROKEN_ANY) */
#if !defined(BROKEN_ANY)
        s->frame_mem_dctx_create = r_mem_dctx_create;
#else
        (void)r_mem_dctx_create;
#endif
        s->frame_mem_cctx_create = r_mem_cctx_create;
        s->frame_mem_cctx_free = r_mem_cctx_free;
        s->frame_mem_compress_begin = r_mem_begin;
        s->frame_mem_compress_update = r_mem_update;
        s->frame_mem_compress_end = r_mem_end;
        s->caps |= CAP_FRAME_CUSTOM_MEM;
    }
}
