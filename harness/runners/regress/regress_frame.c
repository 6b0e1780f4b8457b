/*
 * Frame entries of the regression-case runner (regress.h), with the
 * reference frame codec as the oracle and frame_driver.h feeding the
 * subject's streaming decoder:
 *
 *   entry=frame_decompress  input=SPEC [flip=OFF:MASK,...] [cut=EXPR]
 *         [in_chunk=N] [out_chunk=N] [dict=SPEC] [output=SPEC]
 *         expect=complete | error | not_complete | any
 *   entry=frame_reset_then_decode  input=SPEC (fed first, with flip/cut)
 *         input2=SPEC (decoded after LZ4F_resetDecompressionContext)
 *         expect=complete
 *   entry=frame_compress  data=SPEC [capacity=EXPR] + preferences
 *         expect=roundtrip (a frame that decodes to the data) | fits (an
 *         error or such a frame; never a write past the capacity)
 *   entry=frame_compress_stream  data=SPEC [chunk=N] [dict=SPEC]
 *         [levels=L,L,...] + preferences   expect=roundtrip | fits
 *         (one context, one frame per level: ULZ4-2021-974)
 *         [custom_mem=F]: the context and CDicts of LZ4F_*_advanced with a
 *         custom memory manager (F bit 0: customCalloc; ULZ4-2025-62813);
 *         with alloc_fail_at= a NULL context is the clean error
 * Preferences: block_size_id= independent=1 content_checksum=1
 * block_checksum=1 content_size=1 (the data size) level= auto_flush=1.
 * flip: XOR the byte at OFF (negative: from the end) with MASK (hex).
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "case_parse.h"
#include "frame_driver.h"
#include "guard.h"
#include "lz4frame_ref.h"
#include "regress.h"

/* ---- inputs ------------------------------------------------------------------ */

/* flip=OFF:MASK,...  and  cut=EXPR (keep the first EXPR bytes). */
static void mutate(buf *in, int argc, char **argv)
{
    const char *v;
    if ((v = case_arg(argc, argv, "flip")) != NULL) {
        char *copy = strdup(v), *save = NULL, *f;
        for (f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
            long long off;
            unsigned mask;
            if (sscanf(f, "%lld:%x", &off, &mask) != 2)
                case_die("bad flip (OFF:MASK)", f);
            if (off < 0)
                off += (long long)in->n;
            if (off < 0 || (size_t)off >= in->n)
                case_die("flip offset outside the input", f);
            in->p[off] ^= (unsigned char)mask;
        }
        free(copy);
    }
    if ((v = case_arg(argc, argv, "cut")) != NULL) {
        long long keep = case_size_expr(v, (long long)in->n, 0);
        if (keep < 0 || (size_t)keep > in->n)
            case_die("cut outside the input", v);
        in->n = (size_t)keep;
    }
}

/* An input to decode and, when it is known, the content it must decode to:
 * the data of a generated frame (frame:, legacy:), or output= (which
 * replaces it). */
typedef struct frame_input {
    buf bytes, content;
    int content_known;
} frame_input;

static void load_input(const char *key, frame_input *in, int argc, char **argv)
{
    const char *v = case_arg(argc, argv, key);
    memset(in, 0, sizeof *in);
    if (!v)
        case_die("missing", key);
    if (!strncmp(v, "frame:", 6) || !strncmp(v, "legacy:", 7)) {
        case_frame_data(v, &in->bytes, &in->content);
        in->content_known = 1;
    } else {
        case_parse_data(&in->bytes, v);
    }
}

static void free_input(frame_input *in)
{
    buf_free(&in->bytes);
    buf_free(&in->content);
}

/* ---- decoding -------------------------------------------------------------------- */

/* dict: dict= (LZ4F_decompress_usingDict), or empty (LZ4F_decompress). */
static frame_drive drive(const struct lz4_subject *s, void *dctx, const buf *in,
                         const buf *dict, buf *out, int argc, char **argv)
{
    const char *v;
    size_t in_chunk = (v = case_arg(argc, argv, "in_chunk")) ? strtoul(v, NULL, 0) : 0;
    size_t out_chunk = (v = case_arg(argc, argv, "out_chunk")) ? strtoul(v, NULL, 0) : out->n;
    return frame_drive_decode(s, dctx, in->p, in->n, in_chunk, out_chunk, dict->p, dict->n,
                              out->p, out->n);
}

static void describe(const struct lz4_subject *s, const frame_drive *d, const char *what,
                     case_result *res)
{
    snprintf(res->evidence, sizeof res->evidence, "%s%s%s%s, %zu bytes consumed, %zu written, "
             "%u frame ends, %lu calls", what, frame_drive_outcome_name(d->outcome),
             d->outcome == FRAME_DRIVE_ERROR ? ": " : "",
             d->outcome == FRAME_DRIVE_ERROR ? s->frame_error_name(d->error) : "",
             d->consumed, d->written, d->frames, d->calls);
}

static int outcome_ok(const char *expect, const frame_drive *d, const frame_input *in,
                      const unsigned char *out)
{
    const buf *content = &in->content;
    if (!strcmp(expect, "any"))
        return d->outcome != FRAME_DRIVE_CONTRACT && d->outcome != FRAME_DRIVE_STALLED;
    if (!strcmp(expect, "error"))
        return d->outcome == FRAME_DRIVE_ERROR;
    if (!strcmp(expect, "not_complete"))
        return d->outcome == FRAME_DRIVE_ERROR || d->outcome == FRAME_DRIVE_INCOMPLETE;
    if (!strcmp(expect, "complete"))
        return d->outcome == FRAME_DRIVE_COMPLETE &&
               (!in->content_known || (d->written == content->n &&
                                       (!content->n || !memcmp(out, content->p, content->n))));
    case_die("unknown expect for a frame entry", expect);
    return 0;
}

/* The class of a drive outcome_ok refused. A complete stream wanted: a
 * drive that did not complete fails by its outcome (frame_driver.h; one
 * left waiting for input it was given: a frame error), one that completed
 * by its content. An invalid stream: a decoder that completes or waits for
 * more accepted it; a stall or sizes beyond the room are failures of their
 * own whatever the input. */
static enum fail_class outcome_class(const char *expect, const frame_drive *d,
                                     const frame_input *in)
{
    enum fail_class c = frame_drive_outcome_class(d->outcome);
    if (!strcmp(expect, "complete")) {
        if (d->outcome == FRAME_DRIVE_INCOMPLETE)
            return FAIL_FRAME_ERROR;
        if (d->outcome == FRAME_DRIVE_COMPLETE)
            return d->written != in->content.n ? FAIL_WRONG_LENGTH : FAIL_WRONG_OUTPUT;
        return c;
    }
    return c != FAIL_NONE && d->outcome != FRAME_DRIVE_ERROR ? c : FAIL_ACCEPTS_INVALID;
}

/* frame_decompress, or with reset set frame_reset_then_decode. */
static case_result run_frame_decompress(const struct lz4_subject *s, int reset, int argc,
                                        char **argv)
{
    case_result res = { CASE_FAIL, FAIL_NONE, "", 0 };
    frame_input in, in2;
    buf dict = { NULL, 0, 0 }, out = { NULL, 0, 0 };
    const char *expect = case_arg(argc, argv, "expect"), *v;
    const frame_input *judged;
    void *dctx;
    frame_drive d;
    int ok;
    if (!expect)
        case_die("missing expect", "");
    load_input("input", &in, argc, argv);
    mutate(&in.bytes, argc, argv);
    if ((v = case_arg(argc, argv, "output")) != NULL) {
        buf_free(&in.content);
        case_parse_data(&in.content, v);
        in.content_known = 1;
    }
    if ((v = case_arg(argc, argv, "dict")) != NULL) {
        if (!(s->caps & CAP_FRAME_DECOMPRESS_DICT)) {
            res.verdict = CASE_NOT_APPLICABLE;
            snprintf(res.evidence, sizeof res.evidence, "no dictionary entry point");
            free_input(&in);
            return res;
        }
        case_parse_data(&dict, v);
    }
    if (reset)
        load_input("input2", &in2, argc, argv);
    judged = reset ? &in2 : &in;
    /* Output room: what the content needs, or generously for unknown data. */
    buf_append(&out, NULL, judged->content.n + in.bytes.n * 4 + 65536, 0);
    dctx = s->frame_dctx_create();
    if (!dctx)
        case_die("the subject could not create a decompression context", "");
    d = drive(s, dctx, &in.bytes, &dict, &out, argc, argv);
    if (reset) {
        char what[200];
        snprintf(what, sizeof what, "first input: %s; after reset, second input: ",
                 frame_drive_outcome_name(d.outcome));
        s->frame_dctx_reset(dctx);
        d = drive(s, dctx, &in2.bytes, &dict, &out, argc, argv);
        ok = outcome_ok(expect, &d, &in2, out.p);
        if (!ok) {
            describe(s, &d, what, &res);
            res.cls = outcome_class(expect, &d, &in2);
        }
    } else {
        ok = outcome_ok(expect, &d, &in, out.p);
        if (!ok) {
            describe(s, &d, "", &res);
            res.cls = outcome_class(expect, &d, &in);
        }
    }
    res.verdict = ok ? CASE_PASS : CASE_FAIL;
    res.returned = d.outcome == FRAME_DRIVE_ERROR ? d.error : (long long)d.written;
    s->frame_dctx_free(dctx);
    free_input(&in);
    if (reset)
        free_input(&in2);
    buf_free(&dict);
    buf_free(&out);
    return res;
}

/* ---- compression ----------------------------------------------------------------- */

static struct subject_frame_prefs read_prefs(size_t n, int argc, char **argv)
{
    struct subject_frame_prefs p;
    const char *v;
    memset(&p, 0, sizeof p);
    if ((v = case_arg(argc, argv, "block_size_id")) != NULL) p.block_size_id = atoi(v);
    if ((v = case_arg(argc, argv, "independent")) != NULL) p.block_independent = atoi(v);
    if ((v = case_arg(argc, argv, "content_checksum")) != NULL) p.content_checksum = atoi(v);
    if ((v = case_arg(argc, argv, "block_checksum")) != NULL) p.block_checksum = atoi(v);
    if ((v = case_arg(argc, argv, "content_size")) != NULL && atoi(v)) p.content_size = n;
    if ((v = case_arg(argc, argv, "level")) != NULL) p.level = atoi(v);
    if ((v = case_arg(argc, argv, "auto_flush")) != NULL) p.auto_flush = atoi(v);
    return p;
}

/* The class of a frame frame_ref_decodes_to refused: a header with a block
 * size id the format lacks, written because the preferences asked for one,
 * is its own class (as in fuzz/frame_roundtrip.c); any other, a bad frame. */
static enum fail_class bad_frame_class(const unsigned char *frame, size_t len, size_t n,
                                       const unsigned char *dict, size_t dict_len,
                                       int block_size_id)
{
    ref_frame_options o;
    ref_frame_result r;
    unsigned char *out;
    if (block_size_id == 0 || (block_size_id >= 4 && block_size_id <= 7))
        return FAIL_BAD_FRAME;
    out = xmalloc(n + 1);
    ref_frame_options_default(&o);
    o.profile = REF_PROFILE_STRICT;
    o.dict = dict;
    o.dict_len = dict_len;
    r = ref_frame_decode(&o, frame, len, out, n + 1);
    free(out);
    return r.status == REF_FRAME_ERR_BLOCK_MAX ? FAIL_BAD_BSID_FRAME : FAIL_BAD_FRAME;
}

static case_result run_frame_compress(const struct lz4_subject *s, int argc, char **argv)
{
    case_result res = { CASE_FAIL, FAIL_NONE, "", 0 };
    buf data = { NULL, 0, 0 };
    const char *expect = case_arg(argc, argv, "expect"), *v;
    struct subject_frame_prefs p;
    size_t bound;
    long long cap, r;
    guard_buf gout;
    int ok;
    if (!expect || !(v = case_arg(argc, argv, "data")))
        case_die("frame_compress needs data= and expect=", "");
    case_parse_data(&data, v);
    p = read_prefs(data.n, argc, argv);
    bound = s->frame_compress_bound(data.n, &p);
    /* capacity=bound[+-N] means the subject's own frame bound. */
    v = case_arg(argc, argv, "capacity");
    if (!v)
        cap = (long long)bound;
    else if (!strncmp(v, "bound", 5))
        cap = (long long)bound + (v[5] ? strtoll(v + 5, NULL, 0) : 0);
    else
        cap = case_size_expr(v, (long long)data.n, (long long)data.n);
    if (cap < 0)
        case_die("negative capacity", v);
    gout = guard_alloc((size_t)cap, 0xA5);   /* a write past cap faults */
    r = s->frame_compress(data.p, data.n, gout.data, (size_t)cap, &p);
    res.returned = r;
    if (r > cap) {
        snprintf(res.evidence, sizeof res.evidence, "capacity %lld: returned %lld", cap, r);
        res.cls = FAIL_RETURN_ABOVE_CAPACITY;
        ok = 0;
    } else if (r < 0) {
        ok = !strcmp(expect, "fits");
        if (!ok) {
            snprintf(res.evidence, sizeof res.evidence, "capacity %lld (bound %zu): %s", cap,
                     bound, s->frame_error_name(r));
            res.cls = (size_t)cap >= bound ? FAIL_FAILS_WITHIN_BOUND : FAIL_FRAME_ERROR;
        }
    } else {
        ok = frame_ref_decodes_to(gout.data, (size_t)r, data.p, data.n, NULL, 0,
                                  "frame_compress", res.evidence, sizeof res.evidence);
        if (!ok)
            res.cls = bad_frame_class(gout.data, (size_t)r, data.n, NULL, 0, p.block_size_id);
    }
    res.verdict = ok ? CASE_PASS : CASE_FAIL;
    guard_free(&gout);
    buf_free(&data);
    return res;
}

/* One context, one frame per level of levels= (ULZ4-2021-974). */
static case_result run_frame_compress_stream(const struct lz4_subject *s, int argc, char **argv)
{
    case_result res = { CASE_PASS, FAIL_NONE, "", 0 };
    buf data = { NULL, 0, 0 }, dict = { NULL, 0, 0 };
    const char *v, *levels = case_arg(argc, argv, "levels");
    const char *expect = case_arg(argc, argv, "expect");
    int fits = expect && !strcmp(expect, "fits");
    size_t chunk = (v = case_arg(argc, argv, "chunk")) ? strtoul(v, NULL, 0) : 65536;
    char *copy, *save = NULL, *l;
    void *cctx;
    if (!(v = case_arg(argc, argv, "data")))
        case_die("frame_compress_stream needs data=", "");
    case_parse_data(&data, v);
    if ((v = case_arg(argc, argv, "dict")) != NULL) {
        if (!(s->caps & CAP_FRAME_COMPRESS_CDICT)) {
            res.verdict = CASE_NOT_APPLICABLE;
            snprintf(res.evidence, sizeof res.evidence, "no dictionary entry point");
            buf_free(&data);
            return res;
        }
        case_parse_data(&dict, v);
    }
    if ((v = case_arg(argc, argv, "custom_mem")) != NULL) {
        static struct lz4_subject mem;
        if (!(s->caps & CAP_FRAME_CUSTOM_MEM)) {
            res.verdict = CASE_NOT_APPLICABLE;
            snprintf(res.evidence, sizeof res.evidence, "no LZ4F_*_advanced entry points");
            buf_free(&data);
            buf_free(&dict);
            return res;
        }
        /* the custom-memory slots in the places frame_compress_chunked calls */
        mem = *s;
        mem.frame_compress_begin = s->frame_mem_compress_begin;
        mem.frame_compress_update = s->frame_mem_compress_update;
        mem.frame_compress_end = s->frame_mem_compress_end;
        mem.frame_cctx_free = s->frame_mem_cctx_free;
        cctx = s->frame_mem_cctx_create((unsigned)strtoul(v, NULL, 0));
        s = &mem;
    } else {
        cctx = s->frame_cctx_create();
    }
    if (!cctx && regress_alloc_fail_at) {   /* the constructor's clean error */
        res.returned = 0;
        buf_free(&data);
        buf_free(&dict);
        return res;
    }
    if (!cctx)
        case_die("the subject could not create a compression context", "");
    copy = strdup(levels ? levels : "0");
    for (l = strtok_r(copy, ",", &save); l && res.verdict == CASE_PASS;
         l = strtok_r(NULL, ",", &save)) {
        struct subject_frame_prefs p = read_prefs(data.n, argc, argv);
        unsigned char *frame;
        char what[64];
        long long r;
        p.level = atoi(l);
        r = frame_compress_chunked(s, cctx, &p, dict.p, dict.n, data.p, data.n, chunk, &frame);
        res.returned = r;
        snprintf(what, sizeof what, "level %d, updates of %zu", p.level, chunk);
        if (r < 0) {
            /* "fits": an error is a right answer (invalid preferences) */
            if (!fits) {
                res.verdict = CASE_FAIL;
                res.cls = FAIL_FRAME_ERROR;
                snprintf(res.evidence, sizeof res.evidence, "%s: %s", what,
                         s->frame_error_name(r));
            }
        } else if (!frame_ref_decodes_to(frame, (size_t)r, data.p, data.n, dict.p, dict.n, what,
                                         res.evidence, sizeof res.evidence)) {
            res.verdict = CASE_FAIL;
            res.cls = bad_frame_class(frame, (size_t)r, data.n, dict.p, dict.n, p.block_size_id);
        }
        free(frame);
    }
    free(copy);
    s->frame_cctx_free(cctx);
    buf_free(&data);
    buf_free(&dict);
    return res;
}

case_result regress_frame_entry(const struct lz4_subject *s, const char *entry, int argc,
                                char **argv)
{
    if (!strcmp(entry, "frame_decompress"))
        return run_frame_decompress(s, 0, argc, argv);
    if (!strcmp(entry, "frame_reset_then_decode"))
        return run_frame_decompress(s, 1, argc, argv);
    if (!strcmp(entry, "frame_compress"))
        return run_frame_compress(s, argc, argv);
    if (!strcmp(entry, "frame_compress_stream"))
        return run_frame_compress_stream(s, argc, argv);
    case_die("unknown frame entry", entry);
    return (case_result){ CASE_FAIL, FAIL_NONE, "", 0 };
}
