/*
 * Contract checks of the LZ4 frame API's decoder (lz4frame.h; subject.h
 * frame slots), with the reference frame codec (ref/lz4frame_ref.h) as the
 * oracle:
 *   - frames made by ref, with every descriptor flag, decode to their
 *     content whether fed whole or a byte at a time with a few bytes of
 *     output room per call; concatenated and skippable frames; a 19-byte
 *     header fed byte by byte (ULZ4-2017-LZ4F-HDR); a dictionary frame;
 *   - corrupt frames (one named frame rule broken each) are never decoded
 *     to completion; the decoder is usable again after an error and a reset
 *     (ULZ4-2023-1227).
 * Input and output of every call end at guard pages (frame_driver.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "frame_driver.h"
#include "frame_make.h"
#include "judge.h"
#include "lz4frame_ref.h"
#include "testdata.h"

static const struct lz4_subject *subject;

/* ---- frames made by ref ---------------------------------------------------- */

typedef struct made_frame {
    const char *name;
    unsigned char *frame, *content;
    size_t frame_len, content_len;
} made_frame;

/* The frames here have valid preferences: ref failing to encode one is a
 * bug of lz4gate, which ends the check (as a crash). */
static size_t encode_into(const ref_frame_prefs *p, const unsigned char *src, size_t n,
                          unsigned char **dst)
{
    size_t len = frame_make(p, src, n, dst);
    if (!len) {
        fprintf(stderr, "contracts_frame_decode: ref_frame_encode failed\n");
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
        /* More than the decoder's buffer (a block and 128 KiB): with little
         * output room per call, the history it keeps of blocks copied
         * straight to the output must wrap (lz4frame.c's LZ4F_updateDict). */
        m.name = "B4 linked, every block stored uncompressed, 200000 bytes";
        m.content_len = 200000;
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
        m.frame = xmalloc(m.frame_len);
        memcpy(m.frame, skip, sizeof skip);
        memcpy(m.frame + sizeof skip, a, la);
        memcpy(m.frame + sizeof skip + la, b, lb);
        free(a);
        free(b);
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

/* Decode m through the subject; CHECK_PASS when it gives exactly the
 * content. */
static check_result decode_made(const made_frame *m, size_t in_chunk, size_t out_chunk,
                                const unsigned char *dict, size_t dict_len, char *msg,
                                unsigned cap)
{
    void *dctx = subject->frame_dctx_create();
    unsigned char *out = xmalloc(m->content_len + 1);
    frame_drive d;
    int bad;
    enum fail_class cls;
    check_result res = CHECK_PASS;
    if (!dctx) {
        free(out);
        return check_fail(msg, cap, FAIL_CREATE_FAILED,
                          "could not create a decompression context");
    }
    d = frame_drive_decode(subject, dctx, m->frame, m->frame_len, in_chunk, out_chunk, dict,
                           dict_len, out, m->content_len + 1);
    /* ref made the frame: valid, strict. ref's one verdict (judge.h) leaves
     * the subject no other result than the content, and all input read. */
    bad = judge_decode(d.outcome == FRAME_DRIVE_COMPLETE, d.written == m->content_len &&
                       (m->content_len == 0 || memcmp(out, m->content, m->content_len) == 0),
                       1, 1) != JUDGE_PASS ||
          d.consumed != m->frame_len;
    cls = !bad ? FAIL_NONE
          : d.outcome != FRAME_DRIVE_COMPLETE ? contract_incomplete_class(d.outcome)
          : d.written != m->content_len ? FAIL_WRONG_LENGTH
          : m->content_len && memcmp(out, m->content, m->content_len) ? FAIL_WRONG_OUTPUT
          : FAIL_BAD_CONSUMED;
    if (bad)
        res = check_fail(msg, cap, cls, "%s (%zu-byte frame), input chunks of %zu, output room "
                         "%zu: %s%s%s, %zu of %zu bytes consumed, %zu of %zu written%s", m->name,
                         m->frame_len, in_chunk ? in_chunk : m->frame_len, out_chunk,
                         frame_drive_outcome_name(d.outcome),
                         d.outcome == FRAME_DRIVE_ERROR ? " " : "",
                         d.outcome == FRAME_DRIVE_ERROR ? subject->frame_error_name(d.error) : "",
                         d.consumed, m->frame_len, d.written, m->content_len,
                         d.written == m->content_len ? " (bytes differ)" : "");
    subject->frame_dctx_free(dctx);
    free(out);
    return res;
}

/* check.variant of chk_decode_ref_frames: how the frames are fed. */
enum feeding {
    FEED_WHOLE,        /* the whole input, room for the whole content */
    FEED_BYTEWISE,     /* a byte at a time, 7 bytes of room */
    FEED_4K_CHUNKS,    /* chunks of 4096 bytes, room 65536 */
};

static check_result chk_decode_ref_frames(const void *arg, char *msg, unsigned cap)
{
    static const size_t in_chunks[] = { 0, 1, 4096 }, out_chunks[] = { 0, 7, 65536 };
    const check *c = arg;
    int i;
    for (i = 0; i < FRAMES; i++) {
        made_frame m = make_frame(i);
        size_t room = out_chunks[c->variant] ? out_chunks[c->variant] : m.content_len + 1;
        check_result res = decode_made(&m, in_chunks[c->variant], room, NULL, 0, msg, cap);
        free_frame(&m);
        if (check_failed(res))
            return res;
    }
    return CHECK_PASS;
}

/* A frame ref makes on the dictionary of the dictionary checks, with its
 * Dict-ID: text content of content_len bytes (seed), blocks of 64 KiB,
 * linked or not, and with linked the content size and block checksums too
 * (the longest header: 19 bytes). */
static made_frame make_dict_frame(const char *name, int linked, unsigned dict_id,
                                  size_t content_len, uint64_t seed,
                                  const unsigned char *dict, size_t dict_len)
{
    made_frame m;
    ref_frame_prefs p;
    memset(&m, 0, sizeof m);
    ref_frame_prefs_default(&p);
    p.block_max = 4; p.linked_blocks = linked; p.dict_id_present = 1; p.dict_id = dict_id;
    p.dict = dict; p.dict_len = dict_len;
    p.content_size = linked; p.block_checksum = linked;
    m.name = name;
    m.content_len = content_len;
    m.content = testdata_make("text", content_len, seed);
    m.frame_len = encode_into(&p, m.content, content_len, &m.frame);
    return m;
}

/* ULZ4-2017-LZ4F-HDR: the longest header (content size + Dict-ID: 19
 * bytes) fed one byte at a time; needs the dictionary entry point. */
static check_result chk_decode_full_header_bytewise(const void *arg, char *msg, unsigned cap)
{
    size_t dict_len;
    unsigned char *dict = contract_dictionary(&dict_len);
    made_frame m = make_dict_frame("19-byte header (content size + Dict-ID), dictionary, "
                                   "linked blocks", 1, 0x5EED1234u, 150000, 7, dict, dict_len);
    check_result res = decode_made(&m, 1, 11, dict, dict_len, msg, cap);
    (void)arg;
    if (!check_failed(res))
        res = decode_made(&m, 0, m.content_len + 1, dict, dict_len, msg, cap);
    free_frame(&m);
    free(dict);
    return res;
}

/* A frame made by ref with a dictionary and its Dict-ID decodes through
 * LZ4F_decompress_usingDict. */
static check_result chk_decode_dict(const void *arg, char *msg, unsigned cap)
{
    size_t dict_len;
    unsigned char *dict = contract_dictionary(&dict_len);
    made_frame m = make_dict_frame("independent blocks on a dictionary", 0, 7, 80000, 14, dict,
                                   dict_len);
    check_result res = decode_made(&m, 0, m.content_len + 1, dict, dict_len, msg, cap);
    (void)arg;
    free_frame(&m);
    free(dict);
    return res;
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

static check_result chk_decode_rejects_corrupt(const void *arg, char *msg, unsigned cap)
{
    ref_frame_prefs p;
    ref_frame_options o;
    unsigned char *content = testdata_make("mixed", 200000, 8), *frame, *bad_frame;
    unsigned char *want = xmalloc(200001);
    size_t len, k;
    check_result res = CHECK_PASS;
    (void)arg;
    ref_frame_options_default(&o);
    ref_frame_prefs_default(&p);
    p.block_max = 4; p.linked_blocks = 1; p.block_checksum = 1; p.content_checksum = 1;
    p.content_size = 1;
    len = encode_into(&p, content, 200000, &frame);
    bad_frame = xmalloc(len);
    for (k = 0; k < CORRUPTIONS && !check_failed(res); k++) {
        size_t chunk;
        size_t n = k == TRUNCATED ? len / 2 : len;
        judge_ref view;
        memcpy(bad_frame, frame, len);
        corrupt(bad_frame, len, (enum corruption)k);
        /* Each corruption breaks a frame rule both profiles enforce: ref's
         * one verdict (judge.h) then makes completing a failure. */
        view = judge_ref_frames(&o, bad_frame, n, want, 200001, NULL);
        for (chunk = 0; chunk <= 1 && !check_failed(res); chunk++) {
            void *dctx = subject->frame_dctx_create();
            unsigned char *out = xmalloc(200001);
            frame_drive d = frame_drive_decode(subject, dctx, bad_frame, n, chunk,
                                               chunk ? 13 : 200001, NULL, 0, out, 200001);
            judgement v = judge_output(&view, d.outcome == FRAME_DRIVE_COMPLETE, out, d.written);
            /* a stall on a corrupt frame (its caller loops), the driver's
             * class for the ends that are failures whatever the input, else
             * ref's verdict */
            enum fail_class cls = d.outcome == FRAME_DRIVE_STALLED ? FAIL_STALLED_INVALID
                                  : d.outcome == FRAME_DRIVE_CONTRACT ||
                                          d.outcome == FRAME_DRIVE_OUTPUT_FULL
                                      ? frame_drive_outcome_class(d.outcome)
                                      : contract_judged_class(v, &view, d.written);
            if (cls != FAIL_NONE)
                res = check_fail(msg, cap, cls, "%s broken (%s): decoding ended %s after %zu of "
                                 "%zu input bytes, %zu bytes out", corruption_names[k],
                                 chunk ? "byte by byte" : "whole",
                                 frame_drive_outcome_name(d.outcome), d.consumed, n, d.written);
            subject->frame_dctx_free(dctx);
            free(out);
        }
    }
    free(bad_frame);
    free(frame);
    free(content);
    free(want);
    return res;
}

/* ULZ4-2023-1227: a context that saw an error, then a reset, decodes the
 * next frame (one without a content size) like a fresh one. */
static check_result chk_reset_after_error(const void *arg, char *msg, unsigned cap)
{
    ref_frame_prefs p;
    unsigned char *content = testdata_make("text", 100000, 9), *with_size, *without_size;
    unsigned char *out = xmalloc(100001);
    size_t l1, l2;
    void *dctx = subject->frame_dctx_create();
    frame_drive d1, d2;
    int bad;
    enum fail_class cls;
    check_result res = CHECK_PASS;
    (void)arg;
    ref_frame_prefs_default(&p);
    p.block_max = 4; p.linked_blocks = 1; p.content_size = 1; p.block_checksum = 1;
    l1 = encode_into(&p, content, 100000, &with_size);
    p.content_size = 0; p.block_checksum = 0;
    l2 = encode_into(&p, content, 100000, &without_size);
    corrupt(with_size, l1, BAD_BLOCK_CHECKSUM);
    d1 = frame_drive_decode(subject, dctx, with_size, l1, 0, 100001, NULL, 0, out, 100001);
    subject->frame_dctx_reset(dctx);
    d2 = frame_drive_decode(subject, dctx, without_size, l2, 0, 100001, NULL, 0, out, 100001);
    bad = d1.outcome != FRAME_DRIVE_ERROR || d2.outcome != FRAME_DRIVE_COMPLETE ||
          d2.written != 100000 || memcmp(out, content, 100000) != 0;
    /* the bad checksum not reported: the driver's class, or the frame
     * accepted (ref rejects it); then the valid frame after the reset */
    cls = !bad ? FAIL_NONE
          : d1.outcome != FRAME_DRIVE_ERROR
              ? (frame_drive_outcome_class(d1.outcome) != FAIL_NONE
                     ? frame_drive_outcome_class(d1.outcome) : FAIL_ACCEPTS_INVALID)
          : d2.outcome != FRAME_DRIVE_COMPLETE ? contract_incomplete_class(d2.outcome)
          : d2.written != 100000 ? FAIL_WRONG_LENGTH : FAIL_WRONG_OUTPUT;
    if (bad)
        res = check_fail(msg, cap, cls, "frame with a bad block checksum: %s; after reset, a "
                         "valid frame without content size: %s%s%s, %zu bytes",
                         frame_drive_outcome_name(d1.outcome),
                         frame_drive_outcome_name(d2.outcome),
                         d2.outcome == FRAME_DRIVE_ERROR ? " " : "",
                         d2.outcome == FRAME_DRIVE_ERROR ? subject->frame_error_name(d2.error)
                                                         : "",
                         d2.written);
    subject->frame_dctx_free(dctx);
    free(with_size);
    free(without_size);
    free(content);
    free(out);
    return res;
}

void contracts_add_frame_decode(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    add("frame_decompress.ref_frames_whole", CAP_FRAME_DECOMPRESS, chk_decode_ref_frames,
        FEED_WHOLE, 0);
    add("frame_decompress.ref_frames_bytewise", CAP_FRAME_DECOMPRESS, chk_decode_ref_frames,
        FEED_BYTEWISE, 0);
    add("frame_decompress.ref_frames_4k_chunks", CAP_FRAME_DECOMPRESS, chk_decode_ref_frames,
        FEED_4K_CHUNKS, 0);
    add("frame_decompress.full_header_bytewise", CAP_FRAME_DECOMPRESS_DICT,
        chk_decode_full_header_bytewise, 0, 0);
    add("frame_decompress.dictionary", CAP_FRAME_DECOMPRESS_DICT, chk_decode_dict, 0, 0);
    add("frame_decompress.rejects_corrupt", CAP_FRAME_DECOMPRESS, chk_decode_rejects_corrupt,
        0, 0);
    add("frame_decompress.reset_after_error", CAP_FRAME_DECOMPRESS | CAP_FRAME_RESET,
        chk_reset_after_error, 0, 0);
}
