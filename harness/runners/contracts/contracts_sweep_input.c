/*
 * Boundary sweep, input (issue 25, "Find one-line bugs without luck:
 * deterministic boundary sweeps"):
 *   - every truncation of a few valid blocks, through each block decoder
 *     that takes an input size, the input ending at a guard page (guard.h)
 *     so a read past it faults; ref judges (judge.h; partial decoding with
 *     the latitudes of ref/profile.c);
 *   - every truncation of valid streams of frames, given whole: never
 *     reported complete unless it ends at a frame end;
 *   - every combination of the frame flags (block checksum, content
 *     checksum, content size, Dict-ID, linked or independent blocks) with
 *     skippable frames before, after, both or neither, fed in pieces of 1,
 *     2, 3, 4, 5 and 7 bytes (one byte at a time across the header and
 *     the checksums too): ref's output, and a frame reported complete
 *     (LZ4F_decompress returning 0) only where one ends.
 * decompress_fast is not swept: it takes no input size (lz4.h: it reads as
 * far as the original size takes it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "frame_make.h"
#include "guard.h"
#include "judge.h"
#include "lz4frame_ref.h"
#include "lz4ref.h"
#include "testdata.h"

static const struct lz4_subject *subject;

/* ---- block truncations -------------------------------------------------------- */

enum decoder { DEC_SAFE, DEC_PARTIAL, DEC_PARTIAL_HALF, DEC_DICT };

static const struct { const char *kind; size_t n; } block_data[] = {
    { "text", 500 }, { "mixed", 400 }, { "random", 150 }, { "zeros", 600 },
};
enum { BLOCK_DATA = sizeof block_data / sizeof block_data[0] };

/* PARTIAL_EARLY_END (ref/profile.c): a partial decode of a block that is
 * not valid as a whole may return fewer bytes than asked where the input
 * runs out: all the literals the cut input holds (ref stopped inside them),
 * or what the input without its last 1 or 2 bytes (too few for an offset
 * and a next token) decodes to. The bytes were checked to be the content's. */
static int early_end_allowed(const ref_decode_params *p, const ref_decode_result *compat,
                             size_t r, size_t limit)
{
    ref_decode_params q = *p;
    size_t k, tail;
    if (compat->status == REF_ERR_TRUNCATED_LITERALS && compat->consumed <= p->src_len) {
        tail = p->src_len - compat->consumed;
        if (tail > limit - compat->written)
            tail = limit - compat->written;
        if (r == compat->written + tail)
            return 1;
    }
    q.partial = 0;
    q.profile = REF_PROFILE_COMPATIBLE;
    for (k = 1; k <= 2 && k <= p->src_len; k++) {
        ref_decode_result cut;
        q.src_len = p->src_len - k;
        cut = ref_decode(&q);
        if (cut.status == REF_OK && cut.written == r)
            return 1;
    }
    return 0;
}

/* One decoder on every prefix of each block of block_data (made by ref, on
 * contract_dictionary for DEC_DICT), with room for the whole content. */
static check_result chk_block_truncations(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    enum decoder d = (enum decoder)c->variant;
    size_t dict_len = 0, i;
    unsigned char *dict = d == DEC_DICT ? contract_dictionary(&dict_len) : NULL;
    check_result res = CHECK_PASS;
    for (i = 0; i < BLOCK_DATA && !check_failed(res); i++) {
        size_t n = block_data[i].n, room = ref_compress_bound(n), blen, t;
        size_t target = d == DEC_PARTIAL_HALF ? n / 2 : n;
        unsigned char *data = testdata_make(block_data[i].kind, n, 20 + i);
        unsigned char *block = xmalloc(room), *want = xmalloc(n);
        unsigned char state[REF_ENCODE_STATE_SIZE];
        ref_encode_params ep;
        guard_buf in, out;
        memset(&ep, 0, sizeof ep);
        ep.src = data; ep.src_len = n; ep.dst = block; ep.dst_cap = room;
        ep.dict = dict; ep.dict_len = dict_len;
        blen = ref_encode(&ep, state).written;
        in = guard_alloc(blen, 0);
        guard_label(&in, "input");
        out = guard_alloc(n, 0xA5);
        for (t = 0; t <= blen && !check_failed(res); t++) {
            unsigned char *src = in.data + blen - t;   /* ends at the guard page */
            ref_decode_params p;
            ref_decode_result last;
            judge_ref v;
            size_t got;
            int r, whole_ok, bad;
            judgement verdict;
            guard_poison_before(&in, src);
            memcpy(src, block, t);
            memset(out.data, 0xA5, n);
            if (d == DEC_SAFE)
                r = subject->decompress_safe((const char *)src, (char *)out.data, (int)t, (int)n);
            else if (d == DEC_DICT)
                r = subject->decompress_safe_using_dict((const char *)src, (char *)out.data,
                                                        (int)t, (int)n, (const char *)dict,
                                                        (int)dict_len);
            else
                r = subject->decompress_safe_partial((const char *)src, (char *)out.data, (int)t,
                                                     (int)target, (int)n);
            memset(&p, 0, sizeof p);
            p.src = block; p.src_len = t; p.dst = want; p.dst_cap = n;
            p.dict = dict; p.dict_len = dict_len;
            p.partial = d == DEC_PARTIAL || d == DEC_PARTIAL_HALF;
            p.target = target;
            v = judge_ref_block(&p, &last);
            if (d == DEC_SAFE)
                r = subject_decoded_size(subject, r, (int)n, v.compat_ok ? (long long)v.len : -1);
            whole_ok = !p.partial || judge_block_strict_whole(block, t, NULL, 0) == 1;
            if (p.partial)   /* the input is the whole block: valid as a whole? (judge.h) */
                v.strict_ok = judge_partial_strict_ok(v.strict_ok, whole_ok);
            got = r > 0 ? (size_t)r : 0;
            verdict = r > (int)n ? JUDGE_PASS : judge_output(&v, r >= 0, out.data, got);
            bad = r > (int)n || verdict != JUDGE_PASS;
            if (bad && !whole_ok && r >= 0 && got < target && memcmp(out.data, data, got) == 0 &&
                early_end_allowed(&p, &last, got, target))
                bad = 0;
            /* a size past the capacity (n); a partial decode past its
             * target; else ref's verdict */
            if (bad)
                res = check_fail(msg, cap, r > (int)n ? FAIL_RETURN_ABOVE_CAPACITY
                                           : p.partial && r >= 0 && got > target
                                               ? FAIL_RETURN_ABOVE_TARGET
                                               : contract_judged_class(verdict, &v, got),
                                 "%zu %s bytes, block cut to %zu of %zu bytes%s: returned %d; "
                                 "ref: strict %s, compatible %s (%s, %zu bytes)", n,
                                 block_data[i].kind, t, blen,
                                 p.partial ? (target < n ? ", target n/2" : ", target n") : "",
                                 r, v.strict_ok ? "accepts" : "rejects",
                                 v.compat_ok ? "accepts" : "rejects",
                                 ref_status_name(last.status), last.written);
        }
        guard_free(&in);
        guard_free(&out);
        free(data);
        free(block);
        free(want);
    }
    free(dict);
    return res;
}

/* ---- streams of frames --------------------------------------------------------- */

#define BLOCK_64K 65536
#define SMALL 300            /* content of the one-block frames */
enum frame_flag { F_BLOCK_CHECKSUM = 1, F_CONTENT_CHECKSUM = 2, F_CONTENT_SIZE = 4,
                  F_INDEPENDENT = 8, F_DICT_ID = 16, F_SKIP_BEFORE = 32, F_SKIP_AFTER = 64 };
enum { MAX_ENDS = 4 };

/* A stream of frames and where each frame ends (Frame format: General
 * structure; a skippable frame is a frame). */
typedef struct stream {
    unsigned char *bytes;
    size_t len, ends[MAX_ENDS], nends;
} stream;

static const unsigned char skippable[] = { 0x5A, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 's', 'k', 'p' };

static void append(stream *s, const unsigned char *p, size_t n)
{
    s->bytes = xrealloc(s->bytes, s->len + n);
    memcpy(s->bytes + s->len, p, n);
    s->len += n;
    s->ends[s->nends++] = s->len;
}

/* content[0..n) as one frame by ref with `flags`, 64 KiB blocks, with the
 * dictionary for F_DICT_ID; skippable frames around it as flags say. */
static stream make_stream(unsigned flags, const unsigned char *content, size_t n,
                          const unsigned char *dict, size_t dict_len)
{
    stream s;
    ref_frame_prefs p;
    unsigned char *frame;
    size_t len;
    memset(&s, 0, sizeof s);
    ref_frame_prefs_default(&p);
    p.block_max = 4;
    p.block_checksum = !!(flags & F_BLOCK_CHECKSUM);
    p.content_checksum = !!(flags & F_CONTENT_CHECKSUM);
    p.content_size = !!(flags & F_CONTENT_SIZE);
    p.linked_blocks = !(flags & F_INDEPENDENT);
    if (flags & F_DICT_ID) {
        p.dict_id_present = 1; p.dict_id = 0x0D1C7u; p.dict = dict; p.dict_len = dict_len;
    }
    len = frame_make(&p, content, n, &frame);
    if (!len) {
        fprintf(stderr, "contracts_sweep_input: ref_frame_encode failed\n");
        abort();
    }
    if (flags & F_SKIP_BEFORE)
        append(&s, skippable, sizeof skippable);
    append(&s, frame, len);
    if (flags & F_SKIP_AFTER)
        append(&s, skippable, sizeof skippable);
    free(frame);
    return s;
}

/* Two blocks: the first 64 KiB are zeros and then 100 bytes of text, which
 * the second block repeats (a linked block reaches back into the first). */
static unsigned char *two_block_content(size_t *n)
{
    unsigned char *text = testdata_make("text", 100, 31);
    unsigned char *c = xmalloc(BLOCK_64K + 100);
    memset(c, 0, BLOCK_64K - 100);
    memcpy(c + BLOCK_64K - 100, text, 100);
    memcpy(c + BLOCK_64K, text, 100);
    free(text);
    *n = BLOCK_64K + 100;
    return c;
}

enum fed_outcome { FED_COMPLETE, FED_INCOMPLETE, FED_ERROR, FED_STALLED, FED_CONTRACT,
                   FED_EARLY_END };
static const char *const fed_names[] = { "complete", "incomplete", "error", "stalled",
                                         "contract (sizes grew)", "complete inside a frame" };

typedef struct fed {
    enum fed_outcome outcome;
    size_t consumed, written;
    long long error;
} fed;

static int at_frame_end(const stream *s, size_t at)
{
    size_t i;
    for (i = 0; i < s->nends; i++)
        if (s->ends[i] == at)
            return 1;
    return 0;
}

/* The last size bytes of a guard buffer kept across calls (each check runs
 * in its own process; a mapping per call was most of the sweep's time),
 * made larger when needed; under ASan the bytes before them are poisoned. */
static unsigned char *kept_end(guard_buf *b, size_t size, const char *name)
{
    unsigned char *p;
    if (!b->map || b->size < size) {
        guard_free(b);
        *b = guard_alloc(size, 0);
        guard_label(b, name);
    }
    p = b->data + b->size - size;
    guard_poison_before(b, p);
    return p;
}

static guard_buf feed_in, feed_room;

/* Feed s->bytes[0..n) in pieces of `piece` bytes (0: all in one), each
 * piece ending at a guard page, with all the room left of out[0..cap) (a
 * guard page after it). A call that returns 0 ("frame complete") where no
 * frame ends is FED_EARLY_END. */
static fed feed(const stream *s, size_t n, size_t piece, const unsigned char *dict,
                size_t dict_len, unsigned char *out, size_t cap)
{
    void *dctx = subject->frame_dctx_create();
    unsigned char *in, *room;
    fed f;
    int idle = 0;
    memset(&f, 0, sizeof f);
    if (!piece || piece > n || (subject->flags & SUBJECT_FRAME_ONE_SHOT))
        piece = n;   /* a one-shot decoder (subject.h) gets the whole input */
    in = kept_end(&feed_in, piece, "input");
    room = kept_end(&feed_room, cap, "output");
    memset(room, 0xA5, cap);
    for (;;) {
        size_t offer = n - f.consumed < piece ? n - f.consumed : piece;
        size_t src_len = offer, dst_len = cap - f.written;
        unsigned char *at = in + piece - offer;
        long long r;
        memcpy(at, s->bytes + f.consumed, offer);
        r = subject->frame_decompress(dctx, room + f.written, &dst_len, at, &src_len, dict,
                                      dict_len);
        if (src_len > offer || dst_len > cap - f.written) {
            f.outcome = FED_CONTRACT;
            break;
        }
        if (r < 0) {
            f.outcome = FED_ERROR;
            f.error = r;
            break;
        }
        f.consumed += src_len;
        f.written += dst_len;
        if (r == 0 && !at_frame_end(s, f.consumed)) {
            f.outcome = FED_EARLY_END;
            break;
        }
        if (f.consumed == n && (r == 0 || (src_len == 0 && dst_len == 0))) {
            f.outcome = r == 0 ? FED_COMPLETE : FED_INCOMPLETE;
            break;
        }
        idle = src_len == 0 && dst_len == 0 ? idle + 1 : 0;
        if (idle > 4) {
            f.outcome = FED_STALLED;
            break;
        }
    }
    memcpy(out, room, f.written);
    subject->frame_dctx_free(dctx);
    return f;
}

/* The stream's first n bytes fed in pieces, judged as ref judges them
 * (judge.h; ref reads the LZ4 and skippable formats, as LZ4F_decompress
 * does). A stream cut inside a frame is invalid for both profiles (Frame
 * format, General structure; ref: REF_FRAME_ERR_TRUNCATED), so ref decodes
 * only the streams that end at a frame end. Decoded bytes are always a
 * prefix of the content, complete or not. */
static check_result judge_fed(const stream *s, size_t n, size_t piece, unsigned flags,
                              const unsigned char *content, size_t content_len,
                              const unsigned char *dict, size_t dict_len, char *msg,
                              unsigned cap)
{
    unsigned char *out = xmalloc(content_len + 1), *want = xmalloc(content_len + 1);
    ref_frame_options o;
    ref_frame_result last;
    judge_ref v;
    fed f;
    enum fail_class cls;
    check_result res = CHECK_PASS;
    ref_frame_options_default(&o);
    o.formats = REF_FORMAT_LZ4 | REF_FORMAT_SKIPPABLE;
    o.dict = dict;
    o.dict_len = dict_len;
    f = feed(s, n, piece, dict, dict_len, out, content_len + 1);
    memset(&v, 0, sizeof v);
    memset(&last, 0, sizeof last);
    last.status = REF_FRAME_ERR_TRUNCATED;
    if (at_frame_end(s, n))
        v = judge_ref_frames(&o, s->bytes, n, want, content_len + 1, &last);
    /* sizes reported beyond what was offered; more than the content; no
     * progress; a frame reported complete where none ends; bytes that are
     * not the content's; else ref's verdict */
    cls = f.outcome == FED_CONTRACT ? FAIL_SIZE_BEYOND_OFFERED
          : f.written > content_len ? FAIL_OUTPUT_FULL
          : f.outcome == FED_STALLED ? FAIL_STALLED
          : f.outcome == FED_EARLY_END ? FAIL_EARLY_FRAME_END
          : f.written && memcmp(out, content, f.written) != 0 ? FAIL_WRONG_OUTPUT
          : contract_judged_class(judge_output(&v, f.outcome == FED_COMPLETE, out, f.written),
                                  &v, f.written);
    if (cls != FAIL_NONE)
        res = check_fail(msg, cap, cls, "frame flags 0x%02X (%zu-byte stream, %zu-byte content) "
                         "cut to %zu bytes, pieces of %zu: %s%s%s after %zu bytes, %zu bytes "
                         "out; ref: %s, %zu bytes", flags, s->len, content_len, n,
                         piece ? piece : n, fed_names[f.outcome],
                         f.outcome == FED_ERROR ? " " : "",
                         f.outcome == FED_ERROR ? subject->frame_error_name(f.error) : "",
                         f.consumed, f.written, ref_frame_status_name(last.status),
                         last.written);
    free(out);
    free(want);
    return res;
}

/* check.variant of the frame checks: with or without the Dict-ID flag. */
enum dict_use { NO_DICT_ID, WITH_DICT_ID };

/* Every flag combination, skippable frames before / after, fed in pieces
 * of 1, 2, 3, 4, 5 and 7 bytes: a one-block frame of SMALL bytes of text;
 * then two blocks (linked and independent, every checksum) of
 * two_block_content. */
static check_result chk_frame_pieces(const void *arg, char *msg, unsigned cap)
{
    static const size_t pieces[] = { 1, 2, 3, 4, 5, 7 };
    const unsigned all = F_BLOCK_CHECKSUM | F_CONTENT_CHECKSUM | F_CONTENT_SIZE | F_SKIP_BEFORE |
                         F_SKIP_AFTER;
    const check *c = arg;
    size_t two_len, dict_len = 0, i;
    unsigned char *two = two_block_content(&two_len), *small = testdata_make("text", SMALL, 33);
    unsigned char *dict = c->variant == WITH_DICT_ID ? contract_dictionary(&dict_len) : NULL;
    unsigned flags;
    check_result res = CHECK_PASS;
    for (flags = 0; flags < 130 && !check_failed(res); flags++) {
        /* 128, 129: the two-block streams */
        unsigned f = flags < 128 ? flags : all | (flags == 129 ? F_INDEPENDENT : 0) |
                                           (c->variant == WITH_DICT_ID ? F_DICT_ID : 0);
        /* skippable frames: none, before, after, both, each with 4 of the
         * 16 combinations of the other flags */
        if (flags < 128 && (unsigned)(f & 15) % 4 != (f >> 5))
            continue;
        const unsigned char *content = flags < 128 ? small : two;
        size_t content_len = flags < 128 ? SMALL : two_len;
        stream s;
        if (!(f & F_DICT_ID) != (c->variant == NO_DICT_ID))
            continue;
        s = make_stream(f, content, content_len, dict, dict_len);
        for (i = 0; i < sizeof pieces / sizeof pieces[0] && !check_failed(res); i++)
            res = judge_fed(&s, s.len, pieces[i], f, content, content_len, dict, dict_len, msg,
                            cap);
        free(s.bytes);
    }
    free(two);
    free(small);
    free(dict);
    return res;
}

/* Every truncation of a few streams, given whole in one call. Small frames
 * with each flag on and off; the two-block ones cut only from the last 16
 * bytes of the first block on (its inside is the small frames' case). */
static check_result chk_frame_truncations(const void *arg, char *msg, unsigned cap)
{
    static const struct { unsigned flags; int two_blocks; } streams[] = {
        { F_BLOCK_CHECKSUM | F_CONTENT_CHECKSUM | F_CONTENT_SIZE | F_SKIP_BEFORE | F_SKIP_AFTER,
          0 },
        { F_INDEPENDENT, 0 },
        { F_BLOCK_CHECKSUM | F_CONTENT_SIZE | F_DICT_ID, 0 },
        { F_CONTENT_CHECKSUM | F_DICT_ID | F_SKIP_AFTER, 0 },
        { F_BLOCK_CHECKSUM | F_CONTENT_CHECKSUM | F_CONTENT_SIZE, 1 },
        { F_INDEPENDENT | F_BLOCK_CHECKSUM | F_SKIP_BEFORE, 1 },
        { F_DICT_ID | F_CONTENT_CHECKSUM, 1 },
    };
    const check *c = arg;
    size_t two_len, dict_len = 0, i, k;
    unsigned char *two = two_block_content(&two_len), *small = testdata_make("text", SMALL, 32);
    unsigned char *dict = c->variant == WITH_DICT_ID ? contract_dictionary(&dict_len) : NULL;
    check_result res = CHECK_PASS;
    for (i = 0; i < sizeof streams / sizeof streams[0] && !check_failed(res); i++) {
        unsigned flags = streams[i].flags;
        const unsigned char *content = streams[i].two_blocks ? two : small;
        size_t content_len = streams[i].two_blocks ? two_len : SMALL, from = 1;
        stream s;
        if (!(flags & F_DICT_ID) != (c->variant == NO_DICT_ID))
            continue;
        s = make_stream(flags, content, content_len, dict, dict_len);
        if (streams[i].two_blocks) {
            /* the first block's size field is after the header (magic,
             * FLG, BD, content size, Dict-ID, HC) and any skippable frame */
            size_t at = (flags & F_SKIP_BEFORE ? sizeof skippable : 0) + 7 +
                        (flags & F_CONTENT_SIZE ? 8 : 0) + (flags & F_DICT_ID ? 4 : 0);
            size_t first = (size_t)(s.bytes[at] | s.bytes[at + 1] << 8 | s.bytes[at + 2] << 16 |
                                    (s.bytes[at + 3] & 0x7F) << 24);
            for (k = 1; k < at + 8 && !check_failed(res); k++)
                res = judge_fed(&s, k, 0, flags, content, content_len, dict, dict_len, msg, cap);
            from = at + 4 + first - 16;
        }
        for (k = from; k <= s.len && !check_failed(res); k++)
            res = judge_fed(&s, k, 0, flags, content, content_len, dict, dict_len, msg, cap);
        free(s.bytes);
    }
    free(two);
    free(small);
    free(dict);
    return res;
}

/* ---- registration -------------------------------------------------------------- */

void contracts_add_sweep_input(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    add("sweep.input.decompress_safe", CAP_DECOMPRESS_SAFE, chk_block_truncations, DEC_SAFE, 0);
    add("sweep.input.decompress_safe_partial[target=all]", CAP_DECOMPRESS_PARTIAL,
        chk_block_truncations, DEC_PARTIAL, 0);
    add("sweep.input.decompress_safe_partial[target=half]", CAP_DECOMPRESS_PARTIAL,
        chk_block_truncations, DEC_PARTIAL_HALF, 0);
    add("sweep.input.decompress_safe_using_dict", CAP_DECOMPRESS_USING_DICT,
        chk_block_truncations, DEC_DICT, 0);
    add("sweep.input.frame_pieces", CAP_FRAME_DECOMPRESS, chk_frame_pieces, NO_DICT_ID, 0);
    add("sweep.input.frame_pieces_dict_id", CAP_FRAME_DECOMPRESS_DICT, chk_frame_pieces,
        WITH_DICT_ID, 0);
    add("sweep.input.frame_truncations", CAP_FRAME_DECOMPRESS, chk_frame_truncations,
        NO_DICT_ID, 0);
    add("sweep.input.frame_truncations_dict_id", CAP_FRAME_DECOMPRESS_DICT,
        chk_frame_truncations, WITH_DICT_ID, 0);
}
