/*
 * frame_roundtrip: frames with drawn preferences, both ways:
 *   - the subject compresses (LZ4F_compressFrame into a drawn capacity, or
 *     Begin / Update in drawn pieces / End), and ref's frame decoder must
 *     give back exactly the input; with a capacity of at least the bound
 *     the one-shot call must succeed; a result above the capacity, or any
 *     write past it (ASan), is a finding;
 *   - ref compresses with drawn preferences (block size, linked blocks,
 *     checksums, content size, dictionary and Dict-ID, stored blocks), and
 *     the subject's streaming decoder, fed in drawn pieces, must give back
 *     exactly the input.
 * Preferences are drawn over their whole range: any int compression level;
 * block size ids (spec: only 0 and 4..7 are valid; with another, an error
 * or a frame ref decodes are both accepted: LZ4F_compressFrame picks the
 * block size itself for small inputs): 0..255 with
 * LZ4GATE_FUZZ_INVALID_PREFS=1, else in streamed compression with auto
 * flush one draw of 8 (id bits 4-6 all set) keeps an invalid id as id & 11
 * (1..3, 8..11: header codes 0..3, which no decoder accepts) for a frame of
 * no data, and every other id is mapped onto 4..7. ULZ4-LZ4F-BSID: lz4 up
 * to 1.10.0's LZ4F_compressBegin takes such an id, a documented finding on
 * 1.9.4 at frame_compress_stream. The same defect shows under other
 * signatures, drawn only with LZ4GATE_FUZZ_INVALID_PREFS=1: without auto
 * flush lz4 1.9.4 sizes its input buffer by LZ4F_getBlockSize's error code
 * (a calloc of (size_t)-2 bytes, or a wrapped size), and with data its
 * LZ4F_compressBound miscounts and a block is written past the room it
 * asked for (heap-buffer-overflow in LZ4F_makeBlock).
 * Context reuse (flags bit 4, streamed compression): one compression
 * context makes 2 + (bit 7 of bits) frames of the data in turn, the first at
 * the drawn level, frame i >= 1 at level (int8_t) byte i - 1 of the
 * output-room word (unused when the subject compresses); each frame must
 * decode. LZ4F keeps the state of the previous frame's level and must
 * resize it when a frame needs a larger one (ULZ4-2021-974: a fast-level
 * state reused for HC).
 * Synthesised data (flags bits 5-7): libFuzzer rarely changes the header
 * of a large input (a mutation picks one byte of it), so the preferences
 * of frames of tens of KiB (HC's optimal parser past a dictionary: lz4
 * 1.9.3 reads past a buffer there from ~16 KiB of input on) come from
 * short inputs that describe their data. 1 execution in 32: HC level 12
 * costs ~35 ms on such data (lz4 1.9.4) and half the levels drawn clamp to
 * 12 (1 in 16 halved the exec/s of the target).
 * Large sizes by a hash of the whole input (large_allowed, 1 input in 16;
 * issue 15: libFuzzer kept the large ones and mutated them, synthesised
 * frames were 80% of a 20 s run's corpus time, exec/s fell by a third):
 * synthesised data up to 8 KiB (past the 4 KiB of HC's optimal parser's
 * buffer, LZ4_OPT_NUM: lz4 1.9.3 overflows there with a dictionary from
 * 4097 bytes of input on, ULZ4-2021-974's signature here; a 4 KiB cap
 * doubled its time to be found), else fz_synth_size's whole range
 * (32 KiB, its large classes to 64 KiB); in streamed compression a
 * dictionary up to 4 KiB (v % 4097 of the drawn size), else the drawn size
 * (up to 65 KiB + 1 KiB: LZ4F_createCDict loads it for HC too, ~4 ms per
 * frame of a context-reuse run under ASan).
 *
 * Input: [33-byte header][data]; a shorter input is all data, its header
 * drawn from a hash of its bytes (params.h, fp_init_block: from an empty
 * corpus, libFuzzer's first inputs of a few bytes are data under a complete
 * draw of the preferences). Header, in draw order (params.h):
 *   u8   flags: bit 0 subject -> ref (else ref -> subject); bit 1 streamed
 *        compression; bit 2 dictionary; bit 3 with Dict-ID (ref -> subject);
 *        bit 4 context reuse (streamed compression); bits 5-7 all set
 *        (streamed compression): the data is fz_synth(data as
 *        description), its size
 *        drawn from the capacity bytes (unused when streaming):
 *        fz_synth_size(sel, value, 32 KiB, 64 KiB) (synth.h) with
 *        large_allowed, else up to 8 KiB (below)
 *   u8   block size id       u8 bits: independent, content checksum, block
 *   i32  compression level        checksum, content size, auto flush,
 *                                 stored blocks (ref); bit 6 the
 *                                 subject's decoder fed FRAME_FEED_REFILL
 *                                 (else SLIDE: frame_driver.h); bit 7 the
 *                                 number of frames - 2 (context reuse)
 *   u8+u32  capacity near the subject's bound (fp_size_near)
 *   u32  update / input piece size (0 = all)
 *   u32  output room per decode call (0 = all); the levels of frames 1..2
 *        (context reuse)
 *   u8+u32  dictionary size (fp_dict_len), u64 dictionary seed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_driver.h"
#include "oracle.h"
#include "subject.h"
#include "params.h"
#include "lz4frame_ref.h"
#include "synth.h"
#include "judge.h"

FZ_TARGET("frame_roundtrip");
FZ_NEEDS(CAP_FRAME_COMPRESS | CAP_FRAME_COMPRESS_STREAM | CAP_FRAME_DECOMPRESS);

#define HEADER 33
#define SYNTH_COMMON_MAX ((size_t)8 << 10)   /* without large_allowed */
#define SYNTH_SMALL_MAX ((size_t)32 << 10)
#define SYNTH_MAX ((size_t)64 << 10)
#define STREAM_DICT_COMMON_MAX 4096u           /* without large_allowed */

/* Large sizes (header): the top 4 bits of a hash of the input are 0. Not
 * instrumented: comparisons libFuzzer traces would be solved for. */
static FZ_NO_COVERAGE int large_allowed(const uint8_t *data, size_t size)
{
    return fp_hash_tier(data, size, 1) == 1;
}

static int valid_block_size_id(int id) { return id == 0 || (id >= 4 && id <= 7); }

static void ref_must_decode(const uint8_t *frame, size_t len, const uint8_t *data, size_t n,
                            const uint8_t *dict, size_t dict_len, const char *entry,
                            const char *how, int block_size_id)
{
    ref_frame_options o;
    uint8_t *out = fz_scratch(2, n + 1);
    ref_frame_result r;
    ref_frame_options_default(&o);
    o.profile = REF_PROFILE_STRICT;
    o.formats = REF_FORMAT_LZ4;
    o.dict = dict;
    o.dict_len = dict_len;
    r = ref_frame_decode(&o, frame, len, out, n + 1);
    /* An out-of-range block size id accepted and written into the header:
     * its own class (a known finding in lz4 1.9.4's LZ4F_compressBegin). */
    if (r.status == REF_FRAME_ERR_BLOCK_MAX && !valid_block_size_id(block_size_id)) {
        fz_finding(FAIL_BAD_BSID_FRAME, entry,
                   "%s: block size id %d accepted; the %zu-byte frame has block maximum code "
                   "%d, which no decoder accepts", how, block_size_id, len,
                   len > 5 ? (frame[5] >> 4) & 7 : -1);
        return;   /* ignored as a known finding: nothing more to compare */
    }
    if (r.status != REF_FRAME_OK || r.written != n || (n && memcmp(out, data, n) != 0))
        fz_finding(FAIL_BAD_FRAME, entry,
                   "%s: the %zu-byte frame of %zu input bytes does not decode with ref "
                   "(strict): %s (check %s) at byte %llu, %zu bytes%s", how, len, n,
                   ref_frame_status_name(r.status), ref_frame_check_name(r.failed_check),
                   (unsigned long long)r.consumed, r.written,
                   r.status == REF_FRAME_OK ? " that differ" : "");
}

/* Streamed: one context makes `frames` frames of the data, frame i at
 * levels[i] (context reuse, the header); each must decode. */
static void subject_streams(const struct lz4_subject *s, const struct subject_frame_prefs *p,
                            const int *levels, int frames, size_t piece, const uint8_t *data,
                            size_t n, const uint8_t *dict, size_t dict_len)
{
    void *cctx;
    int i;
    if (!(s->caps & CAP_FRAME_COMPRESS_STREAM) || fz_skip("frame_compress_stream") ||
        (dict && !(s->caps & CAP_FRAME_COMPRESS_CDICT)))
        return;
    cctx = s->frame_cctx_create();
    if (!cctx)
        fz_fail("the subject could not create a compression context");
    for (i = 0; i < frames; i++) {
        struct subject_frame_prefs q = *p;
        uint8_t *frame = NULL;
        long long r;
        char how[96];
        q.level = levels[i];
        snprintf(how, sizeof how, "streamed, frame %d of %d of one context (levels %d, %d)",
                 i + 1, frames, i ? levels[i - 1] : levels[0], levels[i]);
        r = frame_compress_chunked(s, cctx, &q, dict, dict_len, data, n, piece, &frame);
        if (r < 0 && valid_block_size_id(q.block_size_id) &&
            (!q.content_size || q.content_size == n))
            fz_finding(FAIL_STREAM_ERROR, "frame_compress_stream",
                       "%s: %zu bytes in pieces of %zu, block size id %d, level %d: %s", how,
                       n, piece, q.block_size_id, q.level, s->frame_error_name(r));
        if (r >= 0)
            ref_must_decode(frame, (size_t)r, data, n, dict, dict_len, "frame_compress_stream",
                            frames > 1 ? how : "streamed", q.block_size_id);
        free(frame);
        if (r < 0)
            break;
    }
    s->frame_cctx_free(cctx);
}

static void subject_compresses(const struct lz4_subject *s, const struct subject_frame_prefs *p,
                               size_t cap_draw, const uint8_t *data, size_t n)
{
    size_t bound, cap;
    uint8_t *dst;
    long long r;
    if (!(s->caps & CAP_FRAME_COMPRESS) || fz_skip("frame_compress"))
        return;
    bound = s->frame_compress_bound(n, p);
    cap = cap_draw;
    dst = fz_alloc(cap ? cap : 1);
    r = s->frame_compress(data, n, dst, cap, p);
    if (r > (long long)cap)
        fz_finding(FAIL_RETURN_ABOVE_CAPACITY, "frame_compress", "returned %lld, capacity %zu",
                   r, cap);
    if (r < 0 && cap >= bound && valid_block_size_id(p->block_size_id) &&
        (!p->content_size || p->content_size == n))
        fz_finding(FAIL_FAILS_WITHIN_BOUND, "frame_compress",
                   "%zu bytes into %zu (bound %zu), block size id %d, level %d: %s", n,
                   cap, bound, p->block_size_id, p->level, s->frame_error_name(r));
    if (r >= 0)
        ref_must_decode(dst, (size_t)r, data, n, NULL, 0, "frame_compress", "one-shot",
                        p->block_size_id);
    free(dst);
}

static void subject_decodes(const struct lz4_subject *s, const ref_frame_prefs *rp,
                            size_t piece, size_t room, enum frame_feed feed,
                            const uint8_t *data, size_t n, const uint8_t *dict,
                            size_t dict_len)
{
    size_t cap = ref_frame_bound(n, rp), len;
    uint8_t *frame, *out;
    void *dctx;
    frame_drive d;
    judgement v;
    if (!(s->caps & CAP_FRAME_DECOMPRESS) || fz_skip("frame_decompress") ||
        (dict && !(s->caps & CAP_FRAME_DECOMPRESS_DICT)))
        return;
    frame = fz_scratch(3, cap ? cap : 1);
    len = ref_frame_encode(rp, data, n, frame, cap);
    if (!len)
        fz_fail("ref_frame_encode failed on %zu bytes", n);
    out = fz_scratch(4, n + 1);
    dctx = s->frame_dctx_create();
    if (!dctx)
        fz_fail("the subject could not create a decompression context");
    d = frame_drive_decode_fed(s, dctx, frame, len, piece, room ? room : n + 64, dict, dict_len,
                               out, n + 1, feed);
    s->frame_dctx_free(dctx);
    /* ref's frame is valid, strict (ref's encoder): ref's one verdict
     * (judge.h) leaves the subject no other result than the data. */
    v = judge_decode(d.outcome == FRAME_DRIVE_COMPLETE,
                   d.written == n && (n == 0 || memcmp(out, data, n) == 0), 1, 1);
    if (v != JUDGE_PASS)
        fz_finding(judgement_class(v), "frame_decompress",
                   "ref's %zu-byte frame of %zu bytes (block max %d, %s, block checksums %d, "
                   "content checksum %d, size %d, dict %zu, stored %d), pieces %zu, room %zu: "
                   "%s%s%s, %zu bytes in, %zu out", len, n, rp->block_max,
                   rp->linked_blocks ? "linked" : "independent", rp->block_checksum,
                   rp->content_checksum, rp->content_size, dict_len, rp->uncompressed, piece,
                   room, frame_drive_outcome_name(d.outcome),
                   d.outcome == FRAME_DRIVE_ERROR ? " " : "",
                   d.outcome == FRAME_DRIVE_ERROR ? s->frame_error_name(d.error) : "",
                   d.consumed, d.written);
    fz_consume(out, d.written);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    struct subject_frame_prefs p;
    uint8_t flags, bits, *src;
    int block_id;
    size_t n, cap_draw, piece, room, dict_len, cap_pos;
    uint32_t piece_raw, room_raw;
    const uint8_t *dict = NULL;
    uint64_t seed;
    int levels[3], frames = 1, i, invalid_id = 0, large;

    fz_input(data, size);
    fp_init_block(&fp, data, size, HEADER);
    flags = fp_u8(&fp);
    block_id = fp_u8(&fp);
    bits = fp_u8(&fp);
    memset(&p, 0, sizeof p);
    p.level = fp_i32(&fp);
    n = fp.payload_len;
    /* Invalid block size ids: see the header (ULZ4-LZ4F-BSID). */
    if (!valid_block_size_id(block_id) && !getenv("LZ4GATE_FUZZ_INVALID_PREFS")) {
        invalid_id = (flags & 3) == 3 && (bits & 16) && ((block_id >> 4) & 7) == 7;
        block_id = invalid_id ? block_id & 11 : 4 + (block_id & 3);
    }
    p.block_size_id = block_id;
    p.block_independent = bits & 1;
    p.content_checksum = (bits >> 1) & 1;
    p.block_checksum = (bits >> 2) & 1;
    p.content_size = (bits >> 3) & 1 && !invalid_id ? n : 0;
    p.auto_flush = (bits >> 4) & 1;
    {
        /* The capacity is drawn around the subject's bound (with an invalid
         * block size id, around the bound of the default one). */
        struct subject_frame_prefs q = p;
        size_t bound = 0;
        if (!valid_block_size_id(q.block_size_id))
            q.block_size_id = 0;
        if (s->caps & CAP_FRAME_COMPRESS)
            bound = s->frame_compress_bound(n, &q);
        cap_pos = fp.pos;
        cap_draw = fp_size_near(&fp, bound, bound + 65536);
    }
    piece_raw = fp_u32(&fp);
    room_raw = fp_u32(&fp);
    dict_len = fp_dict_len(&fp);
    seed = fp_u64(&fp);
    large = large_allowed(data, size);
    if ((flags & 3) == 3 && !large)
        dict_len %= STREAM_DICT_COMMON_MAX + 1;
    if (flags & 4)
        dict = fz_dict(dict_len, seed);
    else
        dict_len = 0;
    if ((flags & 3) == 3 && (flags & 0xE0) == 0xE0) {
        size_t keep = fp.pos;
        uint8_t sel;
        uint32_t v;
        fp.pos = cap_pos;
        sel = fp_u8(&fp);
        v = fp_u32(&fp);
        fp.pos = keep;
        n = large ? fz_synth_size(sel, v, SYNTH_SMALL_MAX, SYNTH_MAX)
                  : fz_synth_size(sel >= FZ_SYNTH_SEL_LARGE ? 0 : sel, v, SYNTH_COMMON_MAX,
                                  SYNTH_COMMON_MAX);
        src = fz_alloc(n ? n : 1);
        fz_synth(src, n, fp.payload, fp.payload_len, seed ^ v);
        p.content_size = (bits >> 3) & 1 && !invalid_id ? n : 0;
    } else {
        src = fz_dup(fp.payload, n);
    }
    piece = piece_raw ? 1 + piece_raw % (n ? n : 1) : 0;
    room = room_raw ? 1 + room_raw % 65536 : 0;

    levels[0] = p.level;
    for (i = 1; i < 3; i++)
        levels[i] = (int8_t)(uint8_t)(room_raw >> (8 * (i - 1)));
    if (flags & 16)
        frames = 2 + ((bits >> 7) & 1);
    if ((flags & 3) == 3) {
        subject_streams(s, &p, levels, frames, piece, src, invalid_id ? 0 : n, dict, dict_len);
    } else if (flags & 1) {
        if (!dict)
            subject_compresses(s, &p, cap_draw, src, n);
    } else {
        ref_frame_prefs rp;
        ref_frame_prefs_default(&rp);
        rp.block_max = 4 + (block_id & 3);
        rp.linked_blocks = !p.block_independent;
        rp.content_checksum = p.content_checksum;
        rp.block_checksum = p.block_checksum;
        rp.content_size = p.content_size != 0;
        rp.uncompressed = (bits >> 5) & 1;
        rp.acceleration = p.level < 0 ? (int)(-(long long)p.level % 65537) : 1;
        rp.dict = dict;
        rp.dict_len = dict_len;
        rp.dict_id_present = dict && (flags & 8);
        rp.dict_id = (uint32_t)seed;
        subject_decodes(s, &rp, piece, room, (bits & 64) ? FRAME_FEED_REFILL : FRAME_FEED_SLIDE,
                        src, n, dict, dict_len);
    }
    free(src);
    return 0;
}
