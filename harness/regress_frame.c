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
 * Preferences: block_size_id= independent=1 content_checksum=1
 * block_checksum=1 content_size=1 (the data size) level= auto_flush=1.
 * flip: XOR the byte at OFF (negative: from the end) with MASK (hex).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_driver.h"
#include "guard.h"
#include "lz4frame_ref.h"
#include "regress.h"
#include "testdata.h"

/* ---- inputs ------------------------------------------------------------------ */

void make_frame_input(const char *spec, bytes *out, bytes *content)
{
    char kind[32], opts[128] = "";
    unsigned long n = 0;
    unsigned long long seed = 1;
    int legacy = !strncmp(spec, "legacy:", 7);
    const char *rest = spec + (legacy ? 7 : 6);
    unsigned char *data, *dict = NULL, *frame;
    size_t cap, len;
    if (sscanf(rest, "%31[a-z]:%lu:%llu:%127s", kind, &n, &seed, opts) < 2)
        die("bad frame spec (frame:KIND:SIZE:SEED[:OPTS] or legacy:KIND:SIZE:SEED)", spec);
    data = testdata_make(kind, n, seed);
    if (legacy) {
        cap = ref_legacy_bound(n);
        frame = malloc(cap);
        len = frame ? ref_legacy_encode(data, n, frame, cap, 1) : 0;
    } else {
        ref_frame_prefs p;
        char *save = NULL, *o;
        ref_frame_prefs_default(&p);
        p.linked_blocks = 0;
        p.content_checksum = 0;
        for (o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
            if (o[0] == 'B' && o[1] >= '4' && o[1] <= '7' && !o[2]) p.block_max = o[1] - '0';
            else if (!strcmp(o, "linked")) p.linked_blocks = 1;
            else if (!strcmp(o, "bcs")) p.block_checksum = 1;
            else if (!strcmp(o, "ccs")) p.content_checksum = 1;
            else if (!strcmp(o, "size")) p.content_size = 1;
            else if (!strcmp(o, "raw")) p.uncompressed = 1;
            else if (!strcmp(o, "dictid")) {
                dict = testdata_make("text", 20000, 99);
                p.dict = dict;
                p.dict_len = 20000;
                p.dict_id_present = 1;
                p.dict_id = 0x5EED1234u;
            } else if (!strcmp(o, "bigdict")) {
                /* ULZ4-2018-LZ4F-DICTSZ: a dictionary well above 64 KiB */
                dict = testdata_make("text", 200000, 98);
                p.dict = dict;
                p.dict_len = 200000;
                p.dict_id_present = 1;
                p.dict_id = 0xB16D1C7u;
            } else
                die("unknown frame option", o);
        }
        cap = ref_frame_bound(n, &p);
        frame = malloc(cap ? cap : 1);
        len = frame ? ref_frame_encode(&p, data, n, frame, cap) : 0;
    }
    if (!len)
        die("the reference encoder failed on", spec);
    append(out, frame, len, 0);
    if (content)
        append(content, data, n, 0);
    free(frame);
    free(data);
    free(dict);
}

/* flip=OFF:MASK,...  and  cut=EXPR (keep the first EXPR bytes). */
static void mutate(bytes *in, int argc, char **argv)
{
    const char *v;
    if ((v = arg(argc, argv, "flip")) != NULL) {
        char *copy = strdup(v), *save = NULL, *f;
        for (f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
            long long off;
            unsigned mask;
            if (sscanf(f, "%lld:%x", &off, &mask) != 2)
                die("bad flip (OFF:MASK)", f);
            if (off < 0)
                off += (long long)in->n;
            if (off < 0 || (size_t)off >= in->n)
                die("flip offset outside the input", f);
            in->p[off] ^= (unsigned char)mask;
        }
        free(copy);
    }
    if ((v = arg(argc, argv, "cut")) != NULL) {
        long long keep = value(v, (long long)in->n, 0);
        if (keep < 0 || (size_t)keep > in->n)
            die("cut outside the input", v);
        in->n = (size_t)keep;
    }
}

/* The input and, for generated frames, the content it holds. */
static void load_input(const char *key, bytes *in, bytes *content, int argc, char **argv)
{
    const char *v = arg(argc, argv, key);
    if (!v)
        die("missing", key);
    if (!strncmp(v, "frame:", 6) || !strncmp(v, "legacy:", 7))
        make_frame_input(v, in, content);
    else
        parse_data(in, v);
}

/* ---- decoding -------------------------------------------------------------------- */

static frame_drive drive(const struct lz4_subject *s, void *dctx, const bytes *in,
                         const bytes *dict, bytes *out, int argc, char **argv)
{
    const char *v;
    size_t in_chunk = (v = arg(argc, argv, "in_chunk")) ? strtoul(v, NULL, 0) : 0;
    size_t out_cap = out->n;
    size_t out_chunk = (v = arg(argc, argv, "out_chunk")) ? strtoul(v, NULL, 0) : out_cap;
    frame_drive d = frame_drive_decode(s, dctx, in->p, in->n, in_chunk, out_chunk,
                                       dict->n || arg(argc, argv, "dict") ? dict->p : NULL,
                                       dict->n, out->p, out_cap);
    return d;
}

static void describe(const struct lz4_subject *s, const frame_drive *d, const char *what)
{
    snprintf(evidence, sizeof evidence, "%s%s%s%s, %zu bytes consumed, %zu written, %u frame "
             "ends, %lu calls", what, frame_drive_outcome_name(d->outcome),
             d->outcome == FRAME_DRIVE_ERROR ? ": " : "",
             d->outcome == FRAME_DRIVE_ERROR ? s->frame_error_name(d->error) : "",
             d->consumed, d->written, d->frames, d->calls);
}

static int outcome_ok(const char *expect, const frame_drive *d, const bytes *content,
                      const unsigned char *out)
{
    if (!strcmp(expect, "any"))
        return d->outcome != FRAME_DRIVE_CONTRACT && d->outcome != FRAME_DRIVE_STALLED;
    if (!strcmp(expect, "error"))
        return d->outcome == FRAME_DRIVE_ERROR;
    if (!strcmp(expect, "not_complete"))
        return d->outcome == FRAME_DRIVE_ERROR || d->outcome == FRAME_DRIVE_INCOMPLETE;
    if (!strcmp(expect, "complete"))
        return d->outcome == FRAME_DRIVE_COMPLETE &&
               (!content->p || (d->written == content->n &&
                                (!content->n || !memcmp(out, content->p, content->n))));
    die("unknown expect for a frame entry", expect);
    return 0;
}

static int run_frame_decompress(const struct lz4_subject *s, int reset, int argc, char **argv)
{
    bytes in = { NULL, 0 }, content = { NULL, 0 }, dict = { NULL, 0 }, out = { NULL, 0 };
    bytes in2 = { NULL, 0 }, content2 = { NULL, 0 };
    const char *expect = arg(argc, argv, "expect"), *v;
    void *dctx;
    frame_drive d;
    int ok;
    if (!expect)
        die("missing expect", "");
    load_input("input", &in, &content, argc, argv);
    mutate(&in, argc, argv);
    if ((v = arg(argc, argv, "output")) != NULL) {
        free(content.p);
        content.p = NULL;
        content.n = 0;
        parse_data(&content, v);
    }
    if ((v = arg(argc, argv, "dict")) != NULL) {
        if (!(s->caps & CAP_FRAME_DECOMPRESS_DICT))
            return -1;
        parse_data(&dict, v);
    }
    if (reset)
        load_input("input2", &in2, &content2, argc, argv);
    /* Output room: what the content needs, or generously for unknown data. */
    append(&out, NULL, (reset ? content2.n : content.n) + in.n * 4 + 65536, 0);
    dctx = s->frame_dctx_create();
    if (!dctx)
        die("the subject could not create a decompression context", "");
    d = drive(s, dctx, &in, &dict, &out, argc, argv);
    if (reset) {
        frame_drive first = d;
        char what[200];
        s->frame_dctx_reset(dctx);
        d = drive(s, dctx, &in2, &dict, &out, argc, argv);
        ok = outcome_ok(expect, &d, &content2, out.p);
        snprintf(what, sizeof what, "first input: %s; after reset, second input: ",
                 frame_drive_outcome_name(first.outcome));
        if (!ok)
            describe(s, &d, what);
    } else {
        ok = outcome_ok(expect, &d, &content, out.p);
        if (!ok)
            describe(s, &d, "");
    }
    last_return = d.outcome == FRAME_DRIVE_ERROR ? d.error : (long long)d.written;
    s->frame_dctx_free(dctx);
    free(in.p); free(content.p); free(dict.p); free(out.p); free(in2.p); free(content2.p);
    return ok;
}

/* ---- compression ----------------------------------------------------------------- */

static struct subject_frame_prefs read_prefs(size_t n, int argc, char **argv)
{
    struct subject_frame_prefs p;
    const char *v;
    memset(&p, 0, sizeof p);
    if ((v = arg(argc, argv, "block_size_id")) != NULL) p.block_size_id = atoi(v);
    if ((v = arg(argc, argv, "independent")) != NULL) p.block_independent = atoi(v);
    if ((v = arg(argc, argv, "content_checksum")) != NULL) p.content_checksum = atoi(v);
    if ((v = arg(argc, argv, "block_checksum")) != NULL) p.block_checksum = atoi(v);
    if ((v = arg(argc, argv, "content_size")) != NULL && atoi(v)) p.content_size = n;
    if ((v = arg(argc, argv, "level")) != NULL) p.level = atoi(v);
    if ((v = arg(argc, argv, "auto_flush")) != NULL) p.auto_flush = atoi(v);
    return p;
}

/* ref decodes frame[0..len) (with dict) to exactly data. */
static int ref_roundtrip(const unsigned char *frame, size_t len, const bytes *data,
                         const bytes *dict, const char *what)
{
    ref_frame_options o;
    unsigned char *out = malloc(data->n + 1);
    ref_frame_result r;
    int ok;
    ref_frame_options_default(&o);
    o.profile = REF_PROFILE_STRICT;
    o.dict = dict->p;
    o.dict_len = dict->n;
    r = ref_frame_decode(&o, frame, len, out, data->n + 1);
    ok = r.status == REF_FRAME_OK && r.written == data->n &&
         (!data->n || !memcmp(out, data->p, data->n));
    if (!ok)
        snprintf(evidence, sizeof evidence, "%s: the %zu-byte frame does not decode to the "
                 "%zu input bytes (ref: %s, check %s, %zu bytes)", what, len, data->n,
                 ref_frame_status_name(r.status), ref_frame_check_name(r.failed_check),
                 r.written);
    free(out);
    return ok;
}

static int run_frame_compress(const struct lz4_subject *s, int argc, char **argv)
{
    bytes data = { NULL, 0 }, none = { NULL, 0 };
    const char *expect = arg(argc, argv, "expect"), *v;
    struct subject_frame_prefs p;
    size_t bound;
    long long cap, r;
    unsigned char *out;
    guard_buf gout;
    int ok;
    if (!expect || !(v = arg(argc, argv, "data")))
        die("frame_compress needs data= and expect=", "");
    parse_data(&data, v);
    p = read_prefs(data.n, argc, argv);
    bound = s->frame_compress_bound(data.n, &p);
    /* capacity=bound[+-N] means the subject's own frame bound. */
    v = arg(argc, argv, "capacity");
    if (!v)
        cap = (long long)bound;
    else if (!strncmp(v, "bound", 5))
        cap = (long long)bound + (v[5] ? strtoll(v + 5, NULL, 0) : 0);
    else
        cap = value(v, (long long)data.n, (long long)data.n);
    if (cap < 0)
        die("negative capacity", v);
    gout = guard_alloc((size_t)cap, 0xA5);   /* a write past cap faults */
    out = gout.data;
    r = s->frame_compress(data.p, data.n, out, (size_t)cap, &p);
    last_return = r;
    if (r > cap) {
        snprintf(evidence, sizeof evidence, "capacity %lld: returned %lld", cap, r);
        ok = 0;
    } else if (r < 0) {
        ok = !strcmp(expect, "fits");
        if (!ok)
            snprintf(evidence, sizeof evidence, "capacity %lld (bound %zu): %s", cap, bound,
                     s->frame_error_name(r));
    } else {
        ok = ref_roundtrip(out, (size_t)r, &data, &none, "frame_compress");
    }
    guard_free(&gout);
    free(data.p);
    return ok;
}

static int run_frame_compress_stream(const struct lz4_subject *s, int argc, char **argv)
{
    bytes data = { NULL, 0 }, dict = { NULL, 0 };
    const char *v, *levels = arg(argc, argv, "levels"), *expect = arg(argc, argv, "expect");
    int fits = expect && !strcmp(expect, "fits");
    size_t chunk = (v = arg(argc, argv, "chunk")) ? strtoul(v, NULL, 0) : 65536;
    char *copy, *save = NULL, *l;
    void *cctx;
    int ok = 1;
    if (!(v = arg(argc, argv, "data")))
        die("frame_compress_stream needs data=", "");
    parse_data(&data, v);
    if ((v = arg(argc, argv, "dict")) != NULL) {
        if (!(s->caps & CAP_FRAME_COMPRESS_CDICT))
            return -1;
        parse_data(&dict, v);
    }
    cctx = s->frame_cctx_create();
    if (!cctx)
        die("the subject could not create a compression context", "");
    copy = strdup(levels ? levels : "0");
    for (l = strtok_r(copy, ",", &save); l && ok; l = strtok_r(NULL, ",", &save)) {
        struct subject_frame_prefs p = read_prefs(data.n, argc, argv);
        unsigned char *frame;
        char what[64];
        long long r;
        p.level = atoi(l);
        r = frame_compress_chunked(s, cctx, &p, dict.n || arg(argc, argv, "dict") ? dict.p : NULL,
                                   dict.n, data.p, data.n, chunk, &frame);
        last_return = r;
        snprintf(what, sizeof what, "level %d, updates of %zu", p.level, chunk);
        if (r < 0) {
            ok = fits;   /* "fits": an error is a right answer (invalid preferences) */
            if (!ok)
                snprintf(evidence, sizeof evidence, "%s: %s", what, s->frame_error_name(r));
        } else {
            ok = ref_roundtrip(frame, (size_t)r, &data, &dict, what);
        }
        free(frame);
    }
    free(copy);
    s->frame_cctx_free(cctx);
    free(data.p);
    free(dict.p);
    return ok;
}

int run_frame_entry(const struct lz4_subject *s, const char *entry, int argc, char **argv)
{
    if (!strcmp(entry, "frame_decompress"))
        return run_frame_decompress(s, 0, argc, argv);
    if (!strcmp(entry, "frame_reset_then_decode"))
        return run_frame_decompress(s, 1, argc, argv);
    if (!strcmp(entry, "frame_compress"))
        return run_frame_compress(s, argc, argv);
    if (!strcmp(entry, "frame_compress_stream"))
        return run_frame_compress_stream(s, argc, argv);
    die("unknown frame entry", entry);
    return 0;
}
