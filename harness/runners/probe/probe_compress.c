/*
 * The difference probe's compressor calls (probe.h): block, streaming and
 * frame compressors, each output judged valid by ref. A compressor may
 * return 0 below compressBound (the API's "cannot compress within
 * dstCapacity"), so a failure there is valid; at or above the bound it is
 * not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "probe.h"
#include "testdata.h"

#define KB 1024

static void stream_dict_calls(const struct probe_input *in, int hc, int level,
                              unsigned char *dst);

static int bound_of(size_t n)
{
    return (int)(n + n / 255 + 16);
}

/* One block call's record: valid when it decodes to the input (or the
 * call failed below the bound). */
static void block_record(const char *call, int r, const unsigned char *dst, int cap,
                         const struct probe_input *in, const unsigned char *dict, size_t dict_n)
{
    int valid;
    if (dict_n > 64 * KB) {     /* the window: a block sees the last 64 KiB */
        dict += dict_n - 64 * KB;
        dict_n = 64 * KB;
    }
    if (r <= 0)
        valid = r == 0 && cap < bound_of(in->n);
    else
        valid = r <= cap && probe_block_valid(dst, (size_t)r, in->data, in->n, dict, dict_n);
    probe_emit(call, "compress", valid, r, dst, r > 0 ? (size_t)r : 0);
}

/* compress_default at the bound, at the size it made and one byte less:
 * the limits of the output checks. */
static void default_calls(const struct probe_input *in, unsigned char *dst)
{
    const struct lz4_subject *s = probe_subject;
    int bound = bound_of(in->n), caps[3], i, made;
    char call[128];
    made = s->compress_default((const char *)in->data, (char *)dst, (int)in->n, bound);
    caps[0] = bound;
    caps[1] = made;
    caps[2] = made - 1;
    for (i = 0; i < 3; i++) {
        int r;
        if (caps[i] < 0)
            continue;
        r = s->compress_default((const char *)in->data, (char *)dst, (int)in->n, caps[i]);
        snprintf(call, sizeof call, "compress_default[%s,cap=%s]", in->name,
                 i == 0 ? "bound" : i == 1 ? "made" : "made-1");
        block_record(call, r, dst, caps[i], in, NULL, 0);
    }
}

/* LZ4_compress_destSize (level 0) or LZ4_compress_HC_destSize at level. */
static void dest_size_calls(const struct probe_input *in, unsigned char *dst, int level)
{
    const struct lz4_subject *s = probe_subject;
    int targets[] = { bound_of(in->n), (int)in->n / 2, (int)in->n - 1, 100, 20, 13, 5, 1 };
    char call[128];
    size_t t;
    for (t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        int src_n = (int)in->n, r, valid;
        if (targets[t] <= 0)
            continue;
        r = level ? s->compress_hc_dest_size((const char *)in->data, (char *)dst, &src_n,
                                             targets[t], level)
                  : s->compress_dest_size((const char *)in->data, (char *)dst, &src_n,
                                          targets[t]);
        /* 0 is a failure, after which *srcSizePtr is not specified (lz4.h,
         * lz4hc.h: it is updated "on success") */
        valid = r == 0 || (r > 0 && r <= targets[t] && src_n >= 0 && (size_t)src_n <= in->n &&
                           probe_block_valid(dst, (size_t)r, in->data, (size_t)src_n, NULL, 0));
        if (level)
            snprintf(call, sizeof call, "compress_hc_dest_size[%s,level=%d,target=%d]",
                     in->name, level, targets[t]);
        else
            snprintf(call, sizeof call, "compress_dest_size[%s,target=%d]", in->name,
                     targets[t]);
        probe_emit(call, "compress", valid, r > 0 ? (long long)r * 100000000LL + src_n : r, dst,
                   r > 0 ? (size_t)r : 0);
    }
}

static void dict_calls(const struct probe_input *in, unsigned char *dst)
{
    static const size_t dict_sizes[] = { 1, 4, 64 * KB - 2, 64 * KB - 1, 64 * KB, 64 * KB + 1,
                                         100000 };
    const struct lz4_subject *s = probe_subject;
    unsigned char *dict = testdata_make("text", 100000, 99);
    char call[128];
    size_t d;
    /* the dictionary ends with the input's start: matches reach into it */
    memcpy(dict + 100000 - (in->n < 2000 ? in->n : 2000), in->data, in->n < 2000 ? in->n : 2000);
    for (d = 0; d < sizeof dict_sizes / sizeof dict_sizes[0]; d++) {
        const unsigned char *dp = dict + 100000 - dict_sizes[d];
        int r = s->compress_using_dict((const char *)dp, (int)dict_sizes[d],
                                       (const char *)in->data, (char *)dst, (int)in->n,
                                       bound_of(in->n), 1);
        snprintf(call, sizeof call, "compress_using_dict[%s,dict=%zu]", in->name, dict_sizes[d]);
        block_record(call, r, dst, bound_of(in->n), in, dp, dict_sizes[d]);
    }
    free(dict);
}

void probe_block_compressors(const struct probe_input *in)
{
    static const int accels[] = { 1, 2, 3, 9, 65537, 100000, -5 };
    const struct lz4_subject *s = probe_subject;
    int bound = bound_of(in->n), level, r;
    unsigned char *dst = xmalloc((size_t)bound + 64);
    char call[128];
    size_t a;
    if (s->caps & CAP_COMPRESS_DEFAULT)
        default_calls(in, dst);
    if (s->caps & CAP_COMPRESS_FAST)
        for (a = 0; a < sizeof accels / sizeof accels[0]; a++) {
            r = s->compress_fast((const char *)in->data, (char *)dst, (int)in->n, bound,
                                 accels[a]);
            snprintf(call, sizeof call, "compress_fast[%s,accel=%d]", in->name, accels[a]);
            block_record(call, r, dst, bound, in, NULL, 0);
        }
    if (s->caps & CAP_COMPRESS_DEST_SIZE)
        dest_size_calls(in, dst, 0);
    if (s->caps & CAP_COMPRESS_HC_DEST_SIZE)   /* mid, hash chain, optimal (lz4hc.c) */
        for (level = 2; level <= 12; level += level == 2 ? 7 : 3)
            dest_size_calls(in, dst, level);
    if (s->caps & CAP_COMPRESS_HC)
        for (level = -1; level <= 13; level++) {
            int made;
            r = s->compress_hc((const char *)in->data, (char *)dst, (int)in->n, bound, level);
            snprintf(call, sizeof call, "compress_hc[%s,level=%d]", in->name, level);
            block_record(call, r, dst, bound, in, NULL, 0);
            made = r;
            if (made > 0 && s->compress_hc_ext_state) {
                /* the exact size, through the state kept by the adapter */
                r = s->compress_hc_ext_state((const char *)in->data, (char *)dst, (int)in->n,
                                             made, level);
                snprintf(call, sizeof call, "compress_hc_ext_state[%s,level=%d,cap=made]",
                         in->name, level);
                block_record(call, r, dst, made, in, NULL, 0);
                r = s->compress_hc_ext_state((const char *)in->data, (char *)dst, (int)in->n,
                                             made - 1, level);
                snprintf(call, sizeof call, "compress_hc_ext_state[%s,level=%d,cap=made-1]",
                         in->name, level);
                block_record(call, r, dst, made - 1, in, NULL, 0);
            }
        }
    if (s->caps & CAP_COMPRESS_USING_DICT)
        dict_calls(in, dst);
    free(dst);
}

/* A stream of 4 blocks of the input (contiguous: each block's history is
 * the input before it), fast at accelerations 1 and 4 or HC at 3 levels. */
void probe_stream_compressors(const struct probe_input *in)
{
    static const int params[][2] = { { 0, 1 }, { 0, 4 }, { 1, 2 }, { 1, 9 }, { 1, 12 } };
    const struct lz4_subject *s = probe_subject;
    size_t piece = in->n / 4 + 1, p;
    unsigned char *dst = xmalloc((size_t)bound_of(in->n) + 64);
    char call[128];
    if (in->n < 64)
        goto out;
    for (p = 0; p < sizeof params / sizeof params[0]; p++) {
        int hc = params[p][0];
        void *st;
        size_t off;
        if (!(s->caps & (hc ? CAP_STREAM_HC : CAP_STREAM_COMPRESS)))
            continue;
        st = s->stream_create(hc);
        if (!st)
            continue;
        s->stream_reset(st, hc ? params[p][1] : 0, 0);
        for (off = 0; off < in->n; off += piece) {
            size_t n = in->n - off < piece ? in->n - off : piece;
            size_t hist = off > 64 * KB ? 64 * KB : off;
            struct probe_input blk = *in;
            int r = s->stream_compress(st, (const char *)in->data + off, (char *)dst, (int)n,
                                       bound_of(n), hc ? 1 : params[p][1]);
            blk.data = in->data + off;
            blk.n = n;
            snprintf(call, sizeof call, "stream_compress[%s,hc=%d,param=%d,at=%zu]", in->name,
                     hc, params[p][1], off);
            block_record(call, r, dst, bound_of(n), &blk, in->data + off - hist, hist);
        }
        s->stream_free(st);
        if (in->n >= 1000 && in->n <= 70000)
            stream_dict_calls(in, hc, hc ? params[p][1] : 0, dst);
    }
out:
    free(dst);
}

/* A stream with a loaded dictionary (and, where the tree has it, the same
 * dictionary attached from a second stream), then the stream reused after
 * a failed call and a fast reset (the HC state's dirty flag). */
static void stream_dict_calls(const struct probe_input *in, int hc, int level,
                              unsigned char *dst)
{
    static const size_t dict_sizes[] = { 4, 16383, 16384, 16385, 64 * KB - 1, 64 * KB, 70000 };
    const struct lz4_subject *s = probe_subject;
    unsigned char *dict = testdata_make("text", 70000, 97);
    char call[160];
    size_t d;
    int r;
    memcpy(dict + 70000 - (in->n < 2000 ? in->n : 2000), in->data, in->n < 2000 ? in->n : 2000);
    for (d = 0; d < sizeof dict_sizes / sizeof dict_sizes[0]; d++) {
        const unsigned char *dp = dict + 70000 - dict_sizes[d];
        void *st = s->stream_create(hc), *dst_st = NULL;
        if (!st)
            continue;
        s->stream_reset(st, level, 0);
        s->stream_load_dict(st, (const char *)dp, (int)dict_sizes[d]);
        r = s->stream_compress(st, (const char *)in->data, (char *)dst, (int)in->n,
                               bound_of(in->n), 1);
        snprintf(call, sizeof call, "stream_load_dict[%s,hc=%d,level=%d,dict=%zu]", in->name,
                 hc, level, dict_sizes[d]);
        block_record(call, r, dst, bound_of(in->n), in, dp, dict_sizes[d]);
        if ((s->caps & (hc ? CAP_STREAM_HC_ATTACH : CAP_STREAM_ATTACH)) &&
            (dst_st = s->stream_create(hc))) {
            s->stream_reset(dst_st, level, 0);
            s->stream_load_dict(dst_st, (const char *)dp, (int)dict_sizes[d]);
            s->stream_reset(st, level, 0);
            s->stream_attach(st, dst_st);
            r = s->stream_compress(st, (const char *)in->data, (char *)dst, (int)in->n,
                                   bound_of(in->n), 1);
            snprintf(call, sizeof call, "stream_attach[%s,hc=%d,level=%d,dict=%zu]", in->name,
                     hc, level, dict_sizes[d]);
            block_record(call, r, dst, bound_of(in->n), in, dp, dict_sizes[d]);
            s->stream_attach(st, NULL);
            s->stream_free(dst_st);
        }
        if (s->caps & CAP_STREAM_RESET_FAST) {
            r = s->stream_compress(st, (const char *)in->data, (char *)dst, (int)in->n,
                                   (int)in->n / 3, 1);
            s->stream_reset(st, level, 1);
            r = s->stream_compress(st, (const char *)in->data, (char *)dst, (int)in->n,
                                   bound_of(in->n), 1);
            snprintf(call, sizeof call, "stream_after_failure[%s,hc=%d,level=%d,dict=%zu]",
                     in->name, hc, level, dict_sizes[d]);
            block_record(call, r, dst, bound_of(in->n), in, NULL, 0);
        }
        s->stream_free(st);
    }
    free(dict);
}

/* Begin, Update in pieces (each followed by LZ4F_flush when flush is
 * set), End. */
static void frame_stream(const struct probe_input *in, const struct subject_frame_prefs *p,
                         size_t piece, int flush, const char *label, unsigned char *dst,
                         size_t cap)
{
    const struct lz4_subject *s = probe_subject;
    void *cctx = s->frame_cctx_create();
    long long r;
    size_t made = 0, off;
    char call[160];
    int valid = 0;
    if (!cctx)
        return;
    r = s->frame_compress_begin(cctx, dst, cap, p, NULL, 0);
    if (r >= 0) {
        made = (size_t)r;
        for (off = 0; off < in->n && r >= 0; off += piece) {
            size_t n = in->n - off < piece ? in->n - off : piece;
            r = s->frame_compress_update(cctx, dst + made, cap - made, in->data + off, n);
            if (r >= 0)
                made += (size_t)r;
            if (r >= 0 && flush && (r = s->frame_compress_flush(cctx, dst + made,
                                                                 cap - made)) >= 0)
                made += (size_t)r;
        }
        if (r >= 0)
            r = s->frame_compress_end(cctx, dst + made, cap - made);
        if (r >= 0) {
            made += (size_t)r;
            valid = probe_frame_valid(dst, made, in->data, in->n, NULL, 0);
        }
    }
    s->frame_cctx_free(cctx);
    snprintf(call, sizeof call, "frame_stream[%s,%s,piece=%zu%s]", in->name, label, piece,
             flush ? ",flush" : "");
    probe_emit(call, "compress", valid, r < 0 ? -1 : (long long)made, dst, r < 0 ? 0 : made);
}

void probe_frame_compressors(const struct probe_input *in)
{
    /* level, block size id, independent, content checksum, block checksum,
     * content size, auto flush, favorDecSpeed (which the optimal parser,
     * levels 10 to 12, reads) */
    static const int prefs[][8] = { { 0, 0, 0, 0, 0, 0, 0, 0 }, { -1, 4, 1, 1, 0, 1, 0, 0 },
                                    { 1, 4, 0, 0, 1, 0, 1, 0 }, { 2, 5, 0, 1, 1, 1, 0, 0 },
                                    { 3, 4, 0, 0, 0, 0, 1, 0 }, { 9, 7, 1, 1, 0, 0, 0, 0 },
                                    { 12, 4, 0, 1, 1, 1, 1, 0 }, { 10, 4, 0, 0, 0, 0, 0, 1 },
                                    { 12, 5, 1, 1, 0, 1, 0, 1 } };
    static const size_t pieces[] = { 7, 1000, 65537 };
    const struct lz4_subject *s = probe_subject;
    /* room for LZ4F_compressBound of a 4 MiB block held back */
    size_t cap = in->n + in->n / 8 + 4 * KB * KB + 64 * KB, i, k;
    unsigned char *dst = xmalloc(cap);
    char call[160], label[64];
    for (i = 0; i < sizeof prefs / sizeof prefs[0]; i++) {
        struct subject_frame_prefs p;
        memset(&p, 0, sizeof p);
        p.level = prefs[i][0];
        p.block_size_id = prefs[i][1];
        p.block_independent = prefs[i][2];
        p.content_checksum = prefs[i][3];
        p.block_checksum = prefs[i][4];
        p.content_size = prefs[i][5] ? in->n : 0;
        p.auto_flush = prefs[i][6];
        p.favor_dec_speed = prefs[i][7];
        snprintf(label, sizeof label, "prefs=%zu", i);
        if (s->caps & CAP_FRAME_COMPRESS) {
            size_t bound = s->frame_compress_bound(in->n, &p);
            long long r = s->frame_compress(in->data, in->n, dst, bound < cap ? bound : cap, &p);
            int valid = r >= 0 && probe_frame_valid(dst, (size_t)r, in->data, in->n, NULL, 0);
            snprintf(call, sizeof call, "frame_compress[%s,%s]", in->name, label);
            probe_emit(call, "compress", valid, r < 0 ? -1 : r, dst, r < 0 ? 0 : (size_t)r);
        }
        if ((s->caps & CAP_FRAME_COMPRESS_STREAM) && in->n >= 1000)
            for (k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
                frame_stream(in, &p, pieces[k], 0, label, dst, cap);
                if ((s->caps & CAP_FRAME_FLUSH) && pieces[k] < 65536)
                    frame_stream(in, &p, pieces[k], 1, label, dst, cap);
            }
    }
    free(dst);
}
