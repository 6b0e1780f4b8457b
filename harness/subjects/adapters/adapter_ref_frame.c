/*
 * The reference frame codec (ref/lz4frame_ref.h) behind the frame slots of
 * the subject table, with LZ4F's calling conventions (lz4frame.h), so that
 * frame contract checks, fuzz targets and regression cases run on ref like
 * on any subject. Filled in by adapter_ref.c.
 *
 * Conventions where LZ4F leaves a choice: errors are -(1 + ref_frame_status)
 * (negative, as LZ4F errors are after the subject.h mapping); the hint is 1
 * while a frame is incomplete and 0 at its end. The decoder is
 * ref_frame_stream, made on the first call with that call's dictionary (a
 * frame with a Dict-ID needs one: FRAME_DICT_AVAILABLE).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lz4frame_ref.h"
#include "lz4ref.h"
#include "subject.h"

void ref_adapter_frame_fill(struct lz4_subject *s);

static long long frame_error(ref_frame_status st) { return -1 - (long long)st; }

/* ---- decompression ------------------------------------------------------- */

struct ref_dctx {
    ref_frame_stream *stream;
};

static void *rf_dctx_create(void)
{
    return calloc(1, sizeof(struct ref_dctx));
}

static void rf_dctx_free(void *p)
{
    struct ref_dctx *d = p;
    if (d)
        ref_frame_stream_free(d->stream);
    free(d);
}

static void rf_dctx_reset(void *p)
{
    struct ref_dctx *d = p;
    ref_frame_stream_free(d->stream);
    d->stream = NULL;
}

/* The hint: 0 when everything fed so far ends exactly at the end of a frame
 * and all its output has been taken (LZ4F returns 0 at each frame end);
 * otherwise 1. The reference stream decodes across frames rather than
 * stopping at each end; callers that feed concatenated frames see the same
 * bytes either way. */
static long long rf_decompress(void *p, unsigned char *dst, size_t *dst_len,
                               const unsigned char *src, size_t *src_len,
                               const unsigned char *dict, size_t dict_len)
{
    struct ref_dctx *d = p;
    size_t consumed = 0, written = 0;
    ref_frame_status st;
    if (!d->stream) {
        ref_frame_options o;
        ref_frame_options_default(&o);
        o.dict = dict;
        o.dict_len = dict ? dict_len : 0;
        d->stream = ref_frame_stream_new(&o);
        if (!d->stream)
            return frame_error(REF_FRAME_ERR_NO_MEMORY);
    }
    st = ref_frame_stream_decode(d->stream, src, *src_len, &consumed, dst, *dst_len, &written);
    *src_len = consumed;
    *dst_len = written;
    if (st != REF_FRAME_OK)
        return frame_error(st);
    return ref_frame_stream_at_frame_end(d->stream) ? 0 : 1;
}

static const char *rf_error_name(long long r)
{
    return r < 0 ? ref_frame_status_name((ref_frame_status)(-1 - r)) : "no error";
}

/* ---- compression ----------------------------------------------------------- */

static void to_ref(const struct subject_frame_prefs *sp, ref_frame_prefs *p)
{
    ref_frame_prefs_default(p);
    p->content_checksum = 0;   /* LZ4F's default: none (the lz4 tool turns it on) */
    p->linked_blocks = 1;      /* LZ4F's default: linked */
    if (!sp)
        return;
    p->block_max = sp->block_size_id ? sp->block_size_id : 4;   /* LZ4F default: 64 KiB */
    p->linked_blocks = !sp->block_independent;
    p->content_checksum = sp->content_checksum;
    p->block_checksum = sp->block_checksum;
    p->content_size = sp->content_size != 0;
    p->dict_id_present = sp->dict_id != 0;
    p->dict_id = sp->dict_id;
    /* LZ4F: a negative level is an acceleration (INT_MIN included) */
    p->acceleration = sp->level >= 0 ? 1 : sp->level < -65537 ? 65537 : -sp->level;
}

static size_t rf_compress_bound(size_t n, const struct subject_frame_prefs *sp)
{
    ref_frame_prefs p;
    to_ref(sp, &p);
    return ref_frame_bound(n, &p);
}

static long long rf_compress(const unsigned char *src, size_t n, unsigned char *dst, size_t cap,
                             const struct subject_frame_prefs *sp)
{
    ref_frame_prefs p;
    size_t r;
    to_ref(sp, &p);
    if (sp && sp->content_size && sp->content_size != n)
        return frame_error(REF_FRAME_ERR_CONTENT_SIZE);
    r = ref_frame_encode(&p, src, n, dst, cap);
    return r ? (long long)r : frame_error(REF_FRAME_ERR_OUTPUT_FULL);
}

/* Like LZ4F: input is buffered up to a full block (or flushed at every
 * Update with auto_flush). */
struct ref_cctx {
    ref_frame_encoder enc;
    unsigned char *dict;   /* the encoder keeps a pointer: our own copy */
    unsigned char *block;  /* enc.block_max bytes */
    size_t buffered;
    int auto_flush;
};

static void *rf_cctx_create(void) { return calloc(1, sizeof(struct ref_cctx)); }

static void rf_cctx_free(void *p)
{
    struct ref_cctx *c = p;
    if (c) {
        free(c->dict);
        free(c->block);
    }
    free(c);
}

static long long rf_begin(void *p, unsigned char *dst, size_t cap,
                          const struct subject_frame_prefs *sp, const unsigned char *dict,
                          size_t dict_len)
{
    struct ref_cctx *c = p;
    ref_frame_prefs prefs;
    size_t r;
    to_ref(sp, &prefs);
    free(c->dict);
    c->dict = NULL;
    if (dict) {
        c->dict = malloc(dict_len ? dict_len : 1);
        if (!c->dict)
            return frame_error(REF_FRAME_ERR_NO_MEMORY);
        memcpy(c->dict, dict, dict_len);
        prefs.dict = c->dict;
        prefs.dict_len = dict_len;
    }
    r = ref_frame_begin(&c->enc, &prefs, sp ? sp->content_size : 0, dst, cap);
    if (!r)
        return frame_error(REF_FRAME_ERR_OUTPUT_FULL);
    free(c->block);
    c->block = malloc(c->enc.block_max);
    if (!c->block)
        return frame_error(REF_FRAME_ERR_NO_MEMORY);
    c->buffered = 0;
    c->auto_flush = sp && sp->auto_flush;
    return (long long)r;
}

/* Write the buffered input as one block; bytes written or -1. */
static long long flush_block(struct ref_cctx *c, unsigned char *dst, size_t cap)
{
    size_t r;
    if (!c->buffered)
        return 0;
    r = ref_frame_put_block(&c->enc, c->block, c->buffered, dst, cap);
    c->buffered = 0;
    return r ? (long long)r : -1;
}

static long long rf_update(void *p, unsigned char *dst, size_t cap, const unsigned char *src,
                           size_t n)
{
    struct ref_cctx *c = p;
    size_t out = 0;
    long long r;
    while (n) {
        size_t take = c->enc.block_max - c->buffered;
        if (take > n)
            take = n;
        memcpy(c->block + c->buffered, src, take);
        c->buffered += take;
        src += take;
        n -= take;
        if (c->buffered == c->enc.block_max) {
            if ((r = flush_block(c, dst + out, cap - out)) < 0)
                return frame_error(REF_FRAME_ERR_OUTPUT_FULL);
            out += (size_t)r;
        }
    }
    if (c->auto_flush) {
        if ((r = flush_block(c, dst + out, cap - out)) < 0)
            return frame_error(REF_FRAME_ERR_OUTPUT_FULL);
        out += (size_t)r;
    }
    return (long long)out;
}

static long long rf_end(void *p, unsigned char *dst, size_t cap)
{
    struct ref_cctx *c = p;
    long long r = flush_block(c, dst, cap);
    size_t e;
    if (r < 0)
        return frame_error(REF_FRAME_ERR_OUTPUT_FULL);
    e = ref_frame_end(&c->enc, dst + r, cap - (size_t)r);
    return e ? r + (long long)e : frame_error(REF_FRAME_ERR_OUTPUT_FULL);
}

/* Update may flush what earlier Updates buffered (up to a block). */
static size_t rf_update_bound(size_t n, const struct subject_frame_prefs *sp)
{
    ref_frame_prefs p;
    to_ref(sp, &p);
    return ref_frame_bound(n + ref_frame_block_max(p.block_max), &p);
}

/* ---- unlz4: the kernel's legacy-stream API on the reference decoder ---------
 * The contract of lib/decompress_unlz4.c's unlz4() as Linux 6.1 behaves
 * (compared by fuzz/legacy_decode.c): a legacy magic number first; then
 * chunk sizes and chunks, each decoded to at most 8 MiB; a magic number
 * between chunks starts a new member. Fill mode ends when fill() returns 0
 * at a chunk boundary; buffer mode ends when fewer than 4 bytes are left or
 * at a zero word (padding, KLZ4-UNLZ4-PAD), and here, unlike the kernel,
 * checks every size against what is left (KLZ4-UNLZ4-CHUNK). Returns 0 or
 * -1 (with error() called). */
#define LEGACY_CHUNK ((size_t)8 << 20)

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int rf_unlz4(unsigned char *input, long in_len, unlz4_fill_fn fill, unlz4_flush_fn flush,
                    unsigned char *output, long *posp, unlz4_error_fn error)
{
    size_t bound = ref_compress_bound(LEGACY_CHUNK), left = in_len > 0 ? (size_t)in_len : 0;
    unsigned char *in = fill ? malloc(bound) : input, *out = flush ? malloc(LEGACY_CHUNK) : NULL;
    unsigned char *outp = output;
    int ret = -1, first = 1;
    if ((fill && !in) || (flush && !out) || (!fill && !input) || (!flush && !output)) {
        error((char *)"NULL buffer or out of memory");
        goto done;
    }
    if (posp)
        *posp = 0;
    for (;;) {
        uint32_t v;
        ref_decode_result r;
        if (fill) {
            long got = fill(in, 4);
            if (got == 0 && !first)
                break;
            if (got < 4) {
                error((char *)"data corrupted");
                goto done;
            }
        } else if (left < 4) {
            if (first) {
                error((char *)"invalid header");
                goto done;
            }
            break;
        }
        v = le32(in);
        if (first && v != REF_LEGACY_MAGIC) {
            error((char *)"invalid header");
            goto done;
        }
        if (!fill) {
            in += 4;
            left -= 4;
        }
        if (posp)
            *posp += 4;
        first = 0;
        if (v == REF_LEGACY_MAGIC)
            continue;
        if (!fill && v == 0)
            break;   /* padding: the caller goes on after it */
        if (v > bound || (!fill && v > left)) {
            error((char *)"chunk length is longer than the input or the maximum");
            goto done;
        }
        if (fill && fill(in, v) < (long)v) {
            error((char *)"data corrupted");
            goto done;
        }
        r = ref_decode_block(in, v, flush ? out : outp, LEGACY_CHUNK);
        if (r.status != REF_OK) {
            /* ref_decode_block is strict; established decoders accept the
             * profile's latitudes: decode again as they do. */
            ref_decode_params p;
            memset(&p, 0, sizeof p);
            p.src = in; p.src_len = v; p.dst = flush ? out : outp; p.dst_cap = LEGACY_CHUNK;
            p.profile = REF_PROFILE_COMPATIBLE;
            r = ref_decode(&p);
        }
        if (r.status != REF_OK) {
            error((char *)"Decoding failed");
            goto done;
        }
        if (flush && flush(out, r.written) != (long)r.written)
            goto done;
        if (!flush)
            outp += r.written;
        if (posp)
            *posp += v;
        if (!fill) {
            in += v;
            left -= v;
            if (left == 0)
                break;
        }
    }
    ret = 0;
done:
    if (fill)
        free(in);
    free(out);
    return ret;
}

/* LZ4F_getFrameInfo by ref's header parser; an incomplete header is
 * LZ4F's frameHeader_incomplete: nothing consumed, an error. */
static long long rf_get_info(const unsigned char *src, size_t *src_len,
                             struct subject_frame_info *info)
{
    ref_frame_info_t r;
    switch (ref_frame_info(src, *src_len, &r)) {
    case REF_INFO_OK:
        break;
    case REF_INFO_INCOMPLETE:
        *src_len = 0;
        return frame_error(REF_FRAME_ERR_TRUNCATED);
    default:
        *src_len = 0;
        return frame_error(REF_FRAME_ERR_UNKNOWN_MAGIC);
    }
    info->skippable = r.skippable;
    info->block_size_id = r.skippable ? 0 : r.block_size_id;
    info->block_independent = r.independent;
    info->content_checksum = r.content_checksum;
    info->block_checksum = r.block_checksum;
    info->content_size = (long long)r.content_size;
    info->dict_id = r.dict_id;
    *src_len = r.header_len;
    return r.skippable ? (long long)r.content_size : 4;   /* the next field: a block size */
}

void ref_adapter_frame_fill(struct lz4_subject *s)
{
    s->frame_get_info = rf_get_info;
    s->frame_dctx_create = rf_dctx_create;
    s->frame_dctx_free = rf_dctx_free;
    s->frame_dctx_reset = rf_dctx_reset;
    s->frame_decompress = rf_decompress;
    s->frame_error_name = rf_error_name;
    s->frame_compress_bound = rf_compress_bound;
    s->frame_compress = rf_compress;
    s->frame_cctx_create = rf_cctx_create;
    s->frame_cctx_free = rf_cctx_free;
    s->frame_compress_begin = rf_begin;
    s->frame_compress_update = rf_update;
    s->frame_compress_end = rf_end;
    s->frame_compress_update_bound = rf_update_bound;
    s->unlz4 = rf_unlz4;
    s->caps |= CAP_UNLZ4 | CAP_FRAME_DECOMPRESS | CAP_FRAME_RESET | CAP_FRAME_DECOMPRESS_DICT |
               CAP_FRAME_COMPRESS | CAP_FRAME_COMPRESS_STREAM | CAP_FRAME_COMPRESS_CDICT |
               CAP_FRAME_INFO;
}
