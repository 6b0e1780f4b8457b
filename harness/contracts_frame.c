/*
 * Contract checks of the LZ4 frame API (lz4frame.h; subject.h frame slots),
 * with the reference frame codec (ref/lz4frame_ref.h) as the oracle:
 *   - decoding: frames made by ref, with every descriptor flag, decode to
 *     their content whether fed whole or a byte at a time with a few bytes
 *     of output room per call; concatenated and skippable frames; a 19-byte
 *     header fed byte by byte (ULZ4-2017-LZ4F-HDR); a dictionary frame;
 *   - corrupt frames (one named frame rule broken each) are never decoded
 *     to completion; the decoder is usable again after an error and a reset
 *     (ULZ4-2023-1227);
 *   - compression: every frame a subject makes with the drawn preferences,
 *     one-shot or streamed, decodes with ref to exactly the input; small
 *     capacities give an error, never a write past the capacity; a context
 *     reused across levels with a dictionary stays in bounds (ULZ4-2021-974).
 * Input and output of every call end at guard pages (frame_driver.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contracts.h"
#include "frame_driver.h"
#include "guard.h"
#include "lz4frame_ref.h"
#include "testdata.h"

static const struct lz4_subject *S;

/* A dictionary for the dictionary checks (only its last 64 KiB matter). */
static unsigned char *dictionary(size_t *len)
{
    *len = 20000;
    return testdata_make("text", *len, 99);
}

/* ---- frames made by ref ---------------------------------------------------- */

typedef struct made_frame {
    const char *name;
    unsigned char *frame, *content;
    size_t frame_len, content_len;
    unsigned frames;      /* LZ4 and skippable frames in it */
} made_frame;

static size_t encode_into(const ref_frame_prefs *p, const unsigned char *src, size_t n,
                          unsigned char **dst)
{
    size_t cap = ref_frame_bound(n, p), len;
    *dst = malloc(cap ? cap : 1);
    if (!*dst)
        abort();
    len = ref_frame_encode(p, src, n, *dst, cap);
    if (!len) {
        fprintf(stderr, "contracts_frame: ref_frame_encode failed\n");
        abort();
    }
    return len;
}

enum { FRAMES = 7 };

static made_frame make_frame(int which)
{
    made_frame m;
    ref_frame_prefs p;
    memset(&m, 0, sizeof m);
    ref_frame_prefs_default(&p);
    m.frames = 1;
    switch (which) {
    case 0:
        m.name = "default prefs, empty content";
        m.content = testdata_make("zeros", 0, 0);
        break;
    case 1:
        m.name = "B7 independent, content checksum, 100000 bytes";
        m.content_len = 100000;
        m.content = testdata_make("mixed", m.content_len, 1);
        break;
    case 2:
        m.name = "B4 linked, block checksums, content size, 300000 bytes";
        m.content_len = 300000;
        m.content = testdata_make("mixed", m.content_len, 2);
        p.block_max = 4; p.linked_blocks = 1; p.block_checksum = 1; p.content_size = 1;
        break;
    case 3:
        m.name = "B5 independent, incompressible (uncompressed blocks), 70000 bytes";
        m.content_len = 70000;
        m.content = testdata_make("random", m.content_len, 3);
        p.block_max = 5; p.linked_blocks = 0;
        break;
    case 4:
        m.name = "B4 linked, every block stored uncompressed, 140000 bytes";
        m.content_len = 140000;
        m.content = testdata_make("text", m.content_len, 4);
        p.block_max = 4; p.linked_blocks = 1; p.uncompressed = 1;
        break;
    case 5: {
        /* skippable frame, frame, frame */
        static const unsigned char skip[] = { 0x50, 0x2A, 0x4D, 0x18, 5, 0, 0, 0,
                                              's', 'k', 'i', 'p', '!' };
        unsigned char *a, *b;
        size_t la, lb;
        m.name = "skippable frame + two frames (B4 linked + B6 content size)";
        m.content_len = 90000;
        m.content = testdata_make("text", m.content_len, 5);
        p.block_max = 4; p.linked_blocks = 1;
        la = encode_into(&p, m.content, 50000, &a);
        p.block_max = 6; p.content_size = 1;
        lb = encode_into(&p, m.content + 50000, 40000, &b);
        m.frame_len = sizeof skip + la + lb;
        m.frame = malloc(m.frame_len);
        memcpy(m.frame, skip, sizeof skip);
        memcpy(m.frame + sizeof skip, a, la);
        memcpy(m.frame + sizeof skip + la, b, lb);
        free(a);
        free(b);
        m.frames = 3;
        return m;
    }
    default:
        m.name = "B4 independent, block and content checksums, 65536 bytes (one full block)";
        m.content_len = 65536;
        m.content = testdata_make("mixed", m.content_len, 6);
        p.block_max = 4; p.linked_blocks = 0; p.block_checksum = 1; p.content_checksum = 1;
        break;
    }
    m.frame_len = encode_into(&p, m.content, m.content_len, &m.frame);
    return m;
}

static void free_frame(made_frame *m)
{
    free(m->frame);
    free(m->content);
}

/* Decode m through the subject; 0 when it gives exactly the content. */
static int decode_made(const made_frame *m, size_t in_chunk, size_t out_chunk,
                       const unsigned char *dict, size_t dict_len, char *msg, unsigned cap)
{
    void *dctx = S->frame_dctx_create();
    unsigned char *out = malloc(m->content_len + 1);
    frame_drive d;
    int bad;
    if (!dctx) {
        snprintf(msg, cap, "could not create a decompression context");
        free(out);
        return 1;
    }
    d = frame_drive_decode(S, dctx, m->frame, m->frame_len, in_chunk, out_chunk, dict, dict_len,
                           out, m->content_len + 1);
    bad = d.outcome != FRAME_DRIVE_COMPLETE || d.written != m->content_len ||
          (m->content_len && memcmp(out, m->content, m->content_len) != 0) ||
          d.consumed != m->frame_len;
    if (bad)
        snprintf(msg, cap, "%s (%zu-byte frame), input chunks of %zu, output room %zu: %s%s%s, "
                 "%zu of %zu bytes consumed, %zu of %zu written%s", m->name, m->frame_len,
                 in_chunk ? in_chunk : m->frame_len, out_chunk,
                 frame_drive_outcome_name(d.outcome), d.outcome == FRAME_DRIVE_ERROR ? " " : "",
                 d.outcome == FRAME_DRIVE_ERROR ? S->frame_error_name(d.error) : "", d.consumed,
                 m->frame_len, d.written, m->content_len,
                 d.written == m->content_len ? " (bytes differ)" : "");
    S->frame_dctx_free(dctx);
    free(out);
    return bad;
}

/* c->a: 0 whole input and room; 1 a byte at a time, 7 bytes of room;
 * 2 chunks of 4096 / room 65536. */
static int chk_decode_ref_frames(const void *arg, char *msg, unsigned cap)
{
    static const size_t in_chunks[] = { 0, 1, 4096 }, out_chunks[] = { 0, 7, 65536 };
    const check *c = arg;
    int i;
    for (i = 0; i < FRAMES; i++) {
        made_frame m = make_frame(i);
        size_t room = out_chunks[c->a] ? out_chunks[c->a] : m.content_len + 1;
        int bad = decode_made(&m, in_chunks[c->a], room, NULL, 0, msg, cap);
        free_frame(&m);
        if (bad)
            return 1;
    }
    return 0;
}

/* ULZ4-2017-LZ4F-HDR: the longest header (content size + Dict-ID: 19
 * bytes) fed one byte at a time; needs the dictionary entry point. */
static int chk_decode_full_header_bytewise(const void *arg, char *msg, unsigned cap)
{
    made_frame m;
    ref_frame_prefs p;
    size_t dict_len;
    unsigned char *dict = dictionary(&dict_len);
    int bad;
    (void)arg;
    memset(&m, 0, sizeof m);
    ref_frame_prefs_default(&p);
    p.block_max = 4; p.linked_blocks = 1; p.content_size = 1; p.dict_id_present = 1;
    p.dict_id = 0x5EED1234u; p.dict = dict; p.dict_len = dict_len; p.block_checksum = 1;
    m.name = "19-byte header (content size + Dict-ID), dictionary, linked blocks";
    m.content_len = 150000;
    m.content = testdata_make("text", m.content_len, 7);
    m.frame_len = encode_into(&p, m.content, m.content_len, &m.frame);
    bad = decode_made(&m, 1, 11, dict, dict_len, msg, cap) ||
          decode_made(&m, 0, m.content_len + 1, dict, dict_len, msg, cap);
    free_frame(&m);
    free(dict);
    return bad;
}

/* ---- corrupt frames -------------------------------------------------------- */

/* A frame with every check on; offsets of its parts for the mutations. */
enum corruption { BAD_MAGIC, BAD_VERSION, RESERVED_FLG, RESERVED_BD, BAD_BLOCK_MAX,
                  BAD_HEADER_CHECKSUM, BLOCK_SIZE_ABOVE_MAX, BAD_BLOCK_CHECKSUM,
                  BAD_CONTENT_CHECKSUM, CONTENT_SIZE_PLUS_ONE, TRUNCATED, CORRUPTIONS };
static const char *const corruption_names[CORRUPTIONS] = {
    "magic number", "version 00", "reserved FLG bit", "reserved BD bit", "block maximum code 3",
    "header checksum", "block size above the maximum", "block checksum", "content checksum",
    "content size one more than the content", "frame cut in the middle of a block" };

static unsigned char hc_byte(const unsigned char *desc, size_t len)
{
    return (unsigned char)(ref_xxh32(desc, len, 0) >> 8);
}

/* Header layout: magic 4, FLG, BD, content size 8, HC = 15 bytes; then the
 * first block size field at 15. */
static void corrupt(unsigned char *f, size_t len, enum corruption k)
{
    switch (k) {
    case BAD_MAGIC: f[0] ^= 0x01; return;
    case BAD_VERSION: f[4] &= 0x3F; break;
    case RESERVED_FLG: f[4] |= 0x02; break;
    case RESERVED_BD: f[5] |= 0x80; break;
    case BAD_BLOCK_MAX: f[5] = (unsigned char)((f[5] & 0x8F) | 0x30); break;
    case BAD_HEADER_CHECKSUM: f[14] ^= 0xFF; return;
    case BLOCK_SIZE_ABOVE_MAX: f[15] = 0x01; f[16] = 0x00; f[17] = 0x01; f[18] = 0x00; return;
    case BAD_BLOCK_CHECKSUM: {
        size_t bsize = (size_t)f[15] | (size_t)f[16] << 8 | (size_t)f[17] << 16 |
                       (size_t)(f[18] & 0x7F) << 24;
        f[19 + bsize] ^= 0x55;
        return;
    }
    case BAD_CONTENT_CHECKSUM: f[len - 1] ^= 0x01; return;
    case CONTENT_SIZE_PLUS_ONE: f[6]++; break;
    default: return;
    }
    f[14] = hc_byte(f + 4, 10);   /* descriptor changed: keep its checksum right */
}

static int chk_decode_rejects_corrupt(const void *arg, char *msg, unsigned cap)
{
    ref_frame_prefs p;
    unsigned char *content = testdata_make("mixed", 200000, 8), *frame, *bad_frame;
    size_t len, k;
    int bad = 0;
    (void)arg;
    ref_frame_prefs_default(&p);
    p.block_max = 4; p.linked_blocks = 1; p.block_checksum = 1; p.content_checksum = 1;
    p.content_size = 1;
    len = encode_into(&p, content, 200000, &frame);
    bad_frame = malloc(len);
    for (k = 0; k < CORRUPTIONS && !bad; k++) {
        size_t chunk;
        size_t n = k == TRUNCATED ? len / 2 : len;
        memcpy(bad_frame, frame, len);
        corrupt(bad_frame, len, (enum corruption)k);
        for (chunk = 0; chunk <= 1 && !bad; chunk++) {
            void *dctx = S->frame_dctx_create();
            unsigned char *out = malloc(200001);
            frame_drive d = frame_drive_decode(S, dctx, bad_frame, n, chunk, chunk ? 13 : 200001,
                                               NULL, 0, out, 200001);
            if (d.outcome == FRAME_DRIVE_COMPLETE || d.outcome == FRAME_DRIVE_STALLED ||
                d.outcome == FRAME_DRIVE_CONTRACT || d.outcome == FRAME_DRIVE_OUTPUT_FULL) {
                snprintf(msg, cap, "%s broken (%s): decoding ended %s after %zu of %zu input "
                         "bytes, %zu bytes out", corruption_names[k],
                         chunk ? "byte by byte" : "whole", frame_drive_outcome_name(d.outcome),
                         d.consumed, n, d.written);
                bad = 1;
            }
            S->frame_dctx_free(dctx);
            free(out);
        }
    }
    free(bad_frame);
    free(frame);
    free(content);
    return bad;
}

/* ULZ4-2023-1227: a context that saw an error, then a reset, decodes the
 * next frame (one without a content size) like a fresh one. */
static int chk_reset_after_error(const void *arg, char *msg, unsigned cap)
{
    ref_frame_prefs p;
    unsigned char *content = testdata_make("text", 100000, 9), *with_size, *without_size;
    unsigned char *out = malloc(100001);
    size_t l1, l2;
    void *dctx = S->frame_dctx_create();
    frame_drive d1, d2;
    int bad;
    (void)arg;
    ref_frame_prefs_default(&p);
    p.block_max = 4; p.linked_blocks = 1; p.content_size = 1; p.block_checksum = 1;
    l1 = encode_into(&p, content, 100000, &with_size);
    p.content_size = 0; p.block_checksum = 0;
    l2 = encode_into(&p, content, 100000, &without_size);
    corrupt(with_size, l1, BAD_BLOCK_CHECKSUM);
    d1 = frame_drive_decode(S, dctx, with_size, l1, 0, 100001, NULL, 0, out, 100001);
    S->frame_dctx_reset(dctx);
    d2 = frame_drive_decode(S, dctx, without_size, l2, 0, 100001, NULL, 0, out, 100001);
    bad = d1.outcome != FRAME_DRIVE_ERROR || d2.outcome != FRAME_DRIVE_COMPLETE ||
          d2.written != 100000 || memcmp(out, content, 100000) != 0;
    if (bad)
        snprintf(msg, cap, "frame with a bad block checksum: %s; after reset, a valid frame "
                 "without content size: %s%s%s, %zu bytes", frame_drive_outcome_name(d1.outcome),
                 frame_drive_outcome_name(d2.outcome), d2.outcome == FRAME_DRIVE_ERROR ? " " : "",
                 d2.outcome == FRAME_DRIVE_ERROR ? S->frame_error_name(d2.error) : "",
                 d2.written);
    S->frame_dctx_free(dctx);
    free(with_size);
    free(without_size);
    free(content);
    free(out);
    return bad;
}

/* ---- compression ----------------------------------------------------------- */

enum { PREFS = 7 };

static struct subject_frame_prefs prefs_set(int i, size_t n)
{
    struct subject_frame_prefs p;
    memset(&p, 0, sizeof p);
    switch (i) {
    case 0: break;                                       /* all defaults */
    case 1: p.block_size_id = 4; p.block_independent = 1; p.block_checksum = 1; break;
    case 2: p.block_size_id = 5; p.content_checksum = 1; p.content_size = n; break;
    case 3: p.block_size_id = 6; p.level = 9; p.block_checksum = 1; break;
    case 4: p.block_size_id = 7; p.level = -10; p.block_independent = 1; break;
    case 5: p.block_size_id = 4; p.level = 12; p.content_checksum = 1; break;
    default: p.block_size_id = 4; p.auto_flush = 1; p.content_size = n; break;
    }
    return p;   /* content_size 0 (n = 0) means "no field", as in LZ4F */
}

static int ref_decodes_frame(const unsigned char *f, size_t len, const unsigned char *want,
                             size_t n, const unsigned char *dict, size_t dict_len,
                             char *msg, unsigned cap, const char *what)
{
    ref_frame_options o;
    unsigned char *out = malloc(n + 1);
    ref_frame_result r;
    int bad;
    ref_frame_options_default(&o);
    o.profile = REF_PROFILE_STRICT;
    o.dict = dict;
    o.dict_len = dict_len;
    r = ref_frame_decode(&o, f, len, out, n + 1);
    bad = r.status != REF_FRAME_OK || r.written != n || (n && memcmp(out, want, n) != 0);
    if (bad)
        snprintf(msg, cap, "%s: the %zu-byte frame does not decode (ref, strict) to the %zu "
                 "input bytes: %s (check %s) at byte %llu, %zu bytes", what, len, n,
                 ref_frame_status_name(r.status), ref_frame_check_name(r.failed_check),
                 (unsigned long long)r.consumed, r.written);
    free(out);
    return bad;
}

static int chk_compress_frame(const void *arg, char *msg, unsigned cap)
{
    static const size_t sizes[] = { 0, 1, 65537, 300000 };
    static const char *const kinds[] = { "mixed", "random", "zeros", "text" };
    int i;
    size_t k;
    (void)arg;
    for (i = 0; i < PREFS; i++) {
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            struct subject_frame_prefs p = prefs_set(i, n);
            unsigned char *data = testdata_make(kinds[(size_t)i % 4], n, (uint64_t)(i + 10));
            size_t bound = S->frame_compress_bound(n, &p);
            guard_buf in = guard_dup(data, n), out = guard_alloc(bound, 0xA5);
            long long r = S->frame_compress(in.data, n, out.data, bound, &p);
            char what[160];
            int bad;
            snprintf(what, sizeof what, "prefs #%d (block %d, %s, level %d), %zu %s bytes into "
                     "the bound %zu", i, p.block_size_id,
                     p.block_independent ? "independent" : "linked", p.level, n,
                     kinds[(size_t)i % 4], bound);
            if (r < 0 || (size_t)r > bound) {
                snprintf(msg, cap, "%s: returned %lld (%s)", what, r,
                         r < 0 ? S->frame_error_name(r) : "above the capacity");
                bad = 1;
            } else {
                bad = ref_decodes_frame(out.data, (size_t)r, data, n, NULL, 0, msg, cap, what);
            }
            guard_free(&in);
            guard_free(&out);
            free(data);
            if (bad)
                return 1;
        }
    }
    return 0;
}

/* Capacities below the bound: an error or a frame that decodes, never a
 * write past the capacity (guard page). */
static int chk_compress_frame_small(const void *arg, char *msg, unsigned cap)
{
    size_t n = 1000, c;
    unsigned char *data = testdata_make("text", n, 11);
    struct subject_frame_prefs p = prefs_set(2, n);
    size_t bound = S->frame_compress_bound(n, &p);
    (void)arg;
    for (c = 0; c < bound; c += c < 40 ? 1 : 97) {
        guard_buf in = guard_dup(data, n), out = guard_alloc(c, 0xA5);
        long long r = S->frame_compress(in.data, n, out.data, c, &p);
        int bad = 0;
        if (r > (long long)c) {
            snprintf(msg, cap, "capacity %zu: returned %lld", c, r);
            bad = 1;
        } else if (r >= 0) {
            char what[64];
            snprintf(what, sizeof what, "capacity %zu", c);
            bad = ref_decodes_frame(out.data, (size_t)r, data, n, NULL, 0, msg, cap, what);
        }
        guard_free(&in);
        guard_free(&out);
        if (bad) {
            free(data);
            return 1;
        }
    }
    free(data);
    return 0;
}

static int chk_compress_stream(const void *arg, char *msg, unsigned cap)
{
    static const size_t chunks[] = { 1, 4096, 100000 };
    size_t n = 250000, k;
    unsigned char *data = testdata_make("mixed", n, 12);
    void *cctx = S->frame_cctx_create();
    int i, bad = 0;
    (void)arg;
    for (i = 0; i < PREFS && !bad; i++) {
        for (k = 0; k < 3 && !bad; k++) {
            struct subject_frame_prefs p = prefs_set(i, n);
            unsigned char *frame;
            size_t len_n = chunks[k] == 1 ? 5000 : n;   /* byte-wise: a shorter input */
            long long r;
            char what[128];
            p.content_size = p.content_size ? len_n : 0;
            r = frame_compress_chunked(S, cctx, &p, NULL, 0, data, len_n, chunks[k], &frame);
            snprintf(what, sizeof what, "prefs #%d, %zu bytes in updates of %zu", i, len_n,
                     chunks[k]);
            if (r < 0) {
                snprintf(msg, cap, "%s: %s", what, S->frame_error_name(r));
                bad = 1;
            } else {
                bad = ref_decodes_frame(frame, (size_t)r, data, len_n, NULL, 0, msg, cap, what);
            }
            free(frame);
        }
    }
    S->frame_cctx_free(cctx);
    free(data);
    return bad;
}

/* ULZ4-2021-974: one context, frames with a dictionary at level 1, 9, 12
 * and 1 again: every state the context keeps must fit the next level. */
static int chk_compress_cdict_reuse(const void *arg, char *msg, unsigned cap)
{
    static const int levels[] = { 1, 9, 12, 1, -5, 3 };
    size_t dict_len, n = 100000, i;
    unsigned char *dict = dictionary(&dict_len);
    unsigned char *data = testdata_make("text", n, 13);
    void *cctx = S->frame_cctx_create();
    int bad = 0;
    (void)arg;
    for (i = 0; i < sizeof levels / sizeof levels[0] && !bad; i++) {
        struct subject_frame_prefs p;
        unsigned char *frame;
        long long r;
        char what[64];
        memset(&p, 0, sizeof p);
        p.level = levels[i];
        p.block_size_id = 4;
        r = frame_compress_chunked(S, cctx, &p, dict, dict_len, data, n, 30000, &frame);
        snprintf(what, sizeof what, "frame %zu (level %d, dictionary)", i + 1, levels[i]);
        if (r < 0) {
            snprintf(msg, cap, "%s: %s", what, S->frame_error_name(r));
            bad = 1;
        } else {
            bad = ref_decodes_frame(frame, (size_t)r, data, n, dict, dict_len, msg, cap, what);
        }
        free(frame);
    }
    S->frame_cctx_free(cctx);
    free(dict);
    free(data);
    return bad;
}

/* A frame made by ref with a dictionary and its Dict-ID decodes through
 * LZ4F_decompress_usingDict. */
static int chk_decode_dict(const void *arg, char *msg, unsigned cap)
{
    made_frame m;
    ref_frame_prefs p;
    size_t dict_len;
    unsigned char *dict = dictionary(&dict_len);
    int bad;
    (void)arg;
    memset(&m, 0, sizeof m);
    ref_frame_prefs_default(&p);
    p.block_max = 4; p.linked_blocks = 0; p.dict_id_present = 1; p.dict_id = 7;
    p.dict = dict; p.dict_len = dict_len;
    m.name = "independent blocks on a dictionary";
    m.content_len = 80000;
    m.content = testdata_make("text", m.content_len, 14);
    m.frame_len = encode_into(&p, m.content, m.content_len, &m.frame);
    bad = decode_made(&m, 0, m.content_len + 1, dict, dict_len, msg, cap);
    free_frame(&m);
    free(dict);
    return bad;
}

void contracts_add_frame(const struct lz4_subject *subject, contract_add_fn add)
{
    S = subject;
    add("frame_decompress.ref_frames_whole", CAP_FRAME_DECOMPRESS, chk_decode_ref_frames, 0, 0);
    add("frame_decompress.ref_frames_bytewise", CAP_FRAME_DECOMPRESS, chk_decode_ref_frames, 1, 0);
    add("frame_decompress.ref_frames_4k_chunks", CAP_FRAME_DECOMPRESS, chk_decode_ref_frames,
        2, 0);
    add("frame_decompress.full_header_bytewise", CAP_FRAME_DECOMPRESS_DICT,
        chk_decode_full_header_bytewise, 0, 0);
    add("frame_decompress.dictionary", CAP_FRAME_DECOMPRESS_DICT, chk_decode_dict, 0, 0);
    add("frame_decompress.rejects_corrupt", CAP_FRAME_DECOMPRESS, chk_decode_rejects_corrupt,
        0, 0);
    add("frame_decompress.reset_after_error", CAP_FRAME_DECOMPRESS | CAP_FRAME_RESET,
        chk_reset_after_error, 0, 0);
    add("frame_compress.roundtrip_into_bound", CAP_FRAME_COMPRESS, chk_compress_frame, 0, 0);
    add("frame_compress.small_capacity", CAP_FRAME_COMPRESS, chk_compress_frame_small, 0, 0);
    add("frame_compress_stream.roundtrip", CAP_FRAME_COMPRESS_STREAM, chk_compress_stream, 0, 0);
    add("frame_compress_stream.cdict_reuse_across_levels",
        CAP_FRAME_COMPRESS_STREAM | CAP_FRAME_COMPRESS_CDICT, chk_compress_cdict_reuse, 0, 0);
}
