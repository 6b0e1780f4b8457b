/*
 * The difference probe's decoder calls (probe.h): ref's blocks and frames
 * of each input, whole, truncated and with bytes changed, through every
 * decoder entry point. A decoder's result is digested as its output on
 * success and as "error" (-1, no bytes) on failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "frame_make.h"
#include "probe.h"
#include "ref_calls.h"
#include "testdata.h"

#define KB 1024

static void decode_record(const char *call, int r, const unsigned char *out)
{
    probe_emit(call, "decode", -1, r < 0 ? -1 : r, out, r > 0 ? (size_t)r : 0);
}

/* decompress_safe / partial / fast / using_dict of one block. */
static void block_calls(const char *label, const unsigned char *blk, size_t n, size_t orig_n)
{
    const struct lz4_subject *s = probe_subject;
    size_t caps[] = { orig_n, orig_n ? orig_n - 1 : 0, orig_n + 100 }, c;
    size_t targets[] = { 0, 1, orig_n / 2, orig_n ? orig_n - 1 : 0, orig_n }, t;
    unsigned char *out = xmalloc(orig_n + 200);
    char call[160];
    int r;
    for (c = 0; c < 3 && (s->caps & CAP_DECOMPRESS_SAFE); c++) {
        r = s->decompress_safe((const char *)blk, (char *)out, (int)n, (int)caps[c]);
        snprintf(call, sizeof call, "decompress_safe[%s,cap=%zu]", label, caps[c]);
        decode_record(call, r, out);
    }
    for (t = 0; t < 5 && (s->caps & CAP_DECOMPRESS_PARTIAL); t++) {
        r = s->decompress_safe_partial((const char *)blk, (char *)out, (int)n, (int)targets[t],
                                       (int)orig_n);
        snprintf(call, sizeof call, "decompress_partial[%s,target=%zu]", label, targets[t]);
        decode_record(call, r, out);
        r = s->decompress_safe_partial((const char *)blk, (char *)out, (int)n, (int)targets[t],
                                       (int)targets[t]);
        snprintf(call, sizeof call, "decompress_partial[%s,target=cap=%zu]", label, targets[t]);
        decode_record(call, r, out);
    }
    free(out);
}

/* Every truncation of short blocks, 24 of longer ones, and 16 changed
 * bytes: the decoders' error paths. */
static void damaged_calls(const char *name, const unsigned char *blk, size_t n, size_t orig_n)
{
    unsigned char *copy = xmalloc(n + 1);
    char label[96];
    size_t step = n <= 48 ? 1 : n / 24, k;
    for (k = 0; k < n; k += step) {
        snprintf(label, sizeof label, "%s,cut=%zu", name, k);
        block_calls(label, blk, k, orig_n);
    }
    for (k = 0; k < 16 && n; k++) {
        size_t at = (k * 7919) % n;
        memcpy(copy, blk, n);
        copy[at] ^= (unsigned char)(k & 1 ? 0xFF : 0x01);
        snprintf(label, sizeof label, "%s,flip=%zu", name, at);
        block_calls(label, copy, n, orig_n);
    }
    free(copy);
}

/* A block made with a dictionary, decoded with it separate and with it
 * right before the output (the contiguous, prefix form). */
static void dict_calls(const struct probe_input *in, const unsigned char *blk_unused)
{
    static const size_t dict_sizes[] = { 1, 4, 64 * KB - 2, 64 * KB - 1, 64 * KB, 64 * KB + 1,
                                         100000 };
    const struct lz4_subject *s = probe_subject;
    size_t d, cap = in->n + in->n / 255 + 16;
    unsigned char *blk = xmalloc(cap), *dict = testdata_make("text", 100000, 98);
    unsigned char *joined = xmalloc(100000 + in->n + 100);
    char call[160];
    (void)blk_unused;
    memcpy(dict + 100000 - (in->n < 3000 ? in->n : 3000), in->data,
           in->n < 3000 ? in->n : 3000);
    for (d = 0; d < sizeof dict_sizes / sizeof dict_sizes[0]; d++) {
        const unsigned char *dp = dict + 100000 - dict_sizes[d];
        ref_encode_result e = ref_encode_with(in->data, in->n, blk, cap, 1, REF_ENCODE_LIMITED,
                                              dp, dict_sizes[d]);
        int r;
        if (!e.ok)
            continue;
        memcpy(joined, dp, dict_sizes[d]);
        if (s->caps & CAP_DECOMPRESS_USING_DICT) {
            r = s->decompress_safe_using_dict((const char *)blk, (char *)joined + 100000,
                                              (int)e.written, (int)in->n, (const char *)dp,
                                              (int)dict_sizes[d]);
            snprintf(call, sizeof call, "decompress_using_dict[%s,dict=%zu,separate]",
                     in->name, dict_sizes[d]);
            decode_record(call, r, joined + 100000);
            r = s->decompress_safe_using_dict((const char *)blk, (char *)joined + dict_sizes[d],
                                              (int)e.written, (int)in->n, (const char *)joined,
                                              (int)dict_sizes[d]);
            snprintf(call, sizeof call, "decompress_using_dict[%s,dict=%zu,contiguous]",
                     in->name, dict_sizes[d]);
            decode_record(call, r, joined + dict_sizes[d]);
        }
        if (s->caps & CAP_DECOMPRESS_FAST_USING_DICT) {   /* returns the input it read */
            r = s->decompress_fast_using_dict((const char *)blk, (char *)joined + 100000,
                                              (int)in->n, (const char *)dp, (int)dict_sizes[d]);
            snprintf(call, sizeof call, "decompress_fast_using_dict[%s,dict=%zu,separate]",
                     in->name, dict_sizes[d]);
            probe_emit(call, "decode", -1, r, r >= 0 ? joined + 100000 : NULL,
                       r >= 0 ? in->n : 0);
            r = s->decompress_fast_using_dict((const char *)blk, (char *)joined + dict_sizes[d],
                                              (int)in->n, (const char *)joined,
                                              (int)dict_sizes[d]);
            snprintf(call, sizeof call, "decompress_fast_using_dict[%s,dict=%zu,contiguous]",
                     in->name, dict_sizes[d]);
            probe_emit(call, "decode", -1, r, r >= 0 ? joined + dict_sizes[d] : NULL,
                       r >= 0 ? in->n : 0);
        }
        if (s->caps & CAP_STREAM_DECOMPRESS) {
            void *ds = s->dstream_create();
            if (ds) {
                s->dstream_set(ds, (const char *)dp, (int)dict_sizes[d]);
                r = s->dstream_decompress(ds, (const char *)blk, (char *)joined + 100000,
                                          (int)e.written, (int)in->n);
                snprintf(call, sizeof call, "dstream[%s,dict=%zu]", in->name, dict_sizes[d]);
                decode_record(call, r, joined + 100000);
                s->dstream_free(ds);
            }
        }
    }
    free(blk);
    free(dict);
    free(joined);
}

/* 4 linked blocks (each with the input before it as history), decoded
 * block after block by a streaming decoder into one buffer. */
static void stream_calls(const struct probe_input *in)
{
    const struct lz4_subject *s = probe_subject;
    size_t piece = in->n / 4 + 1, off, cap = piece + piece / 255 + 16;
    unsigned char *blk = xmalloc(cap), *out = xmalloc(in->n + 16);
    char call[160];
    void *ds;
    if (!(s->caps & CAP_STREAM_DECOMPRESS) || in->n < 64 || !(ds = s->dstream_create()))
        goto out;
    s->dstream_set(ds, NULL, 0);
    for (off = 0; off < in->n; off += piece) {
        size_t n = in->n - off < piece ? in->n - off : piece;
        size_t hist = off > 64 * KB ? 64 * KB : off;
        ref_encode_result e = ref_encode_with(in->data + off, n, blk, cap, 1, REF_ENCODE_LIMITED,
                                              in->data + off - hist, hist);
        int r = s->dstream_decompress(ds, (const char *)blk, (char *)out + off, (int)e.written,
                                      (int)n);
        snprintf(call, sizeof call, "dstream_continue[%s,at=%zu]", in->name, off);
        decode_record(call, r, out + off);
        if (r < 0)
            break;
    }
    s->dstream_free(ds);
out:
    free(blk);
    free(out);
}

void probe_block_decoders(const struct probe_input *in)
{
    const struct lz4_subject *s = probe_subject;
    size_t cap = in->n + in->n / 255 + 16;
    unsigned char *blk = xmalloc(cap), *out = xmalloc(in->n + 16);
    ref_encode_result e = ref_encode_with(in->data, in->n, blk, cap, 1, REF_ENCODE_LIMITED,
                                          NULL, 0);
    char call[160];
    if (e.ok) {
        block_calls(in->name, blk, e.written, in->n);
        if (in->n <= 70000)
            damaged_calls(in->name, blk, e.written, in->n);
        if (s->caps & CAP_DECOMPRESS_FAST) {
            int r = s->decompress_fast((const char *)blk, (char *)out, (int)in->n);
            snprintf(call, sizeof call, "decompress_fast[%s]", in->name);
            probe_emit(call, "decode", -1, r, r >= 0 ? out : NULL, r >= 0 ? in->n : 0);
        }
        dict_calls(in, blk);
        stream_calls(in);
    }
    free(blk);
    free(out);
}

/* ref's frames of the input, decoded whole and in pieces; their headers
 * read back by LZ4F_getFrameInfo after every prefix. */
void probe_frame_decoders(const struct probe_input *in)
{
    static const size_t pieces[] = { 1, 2, 3, 5, 7, 4096 };
    const struct lz4_subject *s = probe_subject;
    ref_frame_prefs p;
    unsigned char *frame = NULL, *out = xmalloc(in->n + 16);
    size_t fn, k, cut;
    char call[160];
    int variant;
    for (variant = 0; variant < 4; variant++) {
        ref_frame_prefs_default(&p);
        p.block_max = 4 + variant % 4;
        p.linked_blocks = variant & 1;
        p.block_checksum = variant >= 2;
        p.content_size = variant != 1;
        p.dict_id_present = variant == 3;
        p.dict_id = 0x1234567;
        fn = frame_make(&p, in->data, in->n, &frame);
        if (!fn)
            continue;
        for (k = 0; k < sizeof pieces / sizeof pieces[0] && (s->caps & CAP_FRAME_DECOMPRESS);
             k++) {
            void *dctx = s->frame_dctx_create();
            size_t at = 0, made = 0, calls = 0;
            long long r = 1;
            if (!dctx)
                continue;
            if (pieces[k] < 7 && fn > 3000)         /* small pieces: headers and small frames */
                cut = 3000;
            else
                cut = fn;
            while (at < cut && r > 0 && calls++ < 4 * fn + 16) {   /* (a stuck decoder) */
                size_t src_len = cut - at < pieces[k] ? cut - at : pieces[k];
                size_t dst_len = in->n + 16 - made;
                r = s->frame_decompress(dctx, out + made, &dst_len, frame + at, &src_len,
                                        NULL, 0);
                at += src_len;
                made += dst_len;
            }
            s->frame_dctx_free(dctx);
            snprintf(call, sizeof call, "frame_decompress[%s,variant=%d,piece=%zu]", in->name,
                     variant, pieces[k]);
            probe_emit(call, "decode", -1, r < 0 ? -1 : (long long)(made * 2 + (r == 0)), out,
                       made);
        }
        for (cut = 0; cut <= 23 && cut <= fn && (s->caps & CAP_FRAME_INFO); cut++) {
            struct subject_frame_info info;
            size_t src_len = cut;
            long long r;
            memset(&info, 0, sizeof info);
            r = s->frame_get_info(frame, &src_len, &info);
            snprintf(call, sizeof call, "frame_get_info[%s,variant=%d,prefix=%zu]", in->name,
                     variant, cut);
            probe_emit(call, "api", -1, r < 0 ? -1 : (long long)src_len * 1000 + r,
                       r < 0 ? NULL : (const unsigned char *)&info, r < 0 ? 0 : sizeof info);
        }
        free(frame);
        frame = NULL;
    }
    free(out);
}
