/*
 * Reference LZ4 frame decoder: the parser (frame_engine.h) and the one-shot
 * driver. Units are handled in the order of the spec (lz4_Frame_format.md):
 *
 *   MagicNb -> FLG BD -> (Content Size) (Dictionary ID) HC
 *           -> { Block Size -> data -> (Block Checksum) } -> EndMark
 *           -> (Content Checksum) -> next frame
 *
 * plus skippable frames and legacy frames. Every validity test is a
 * REF_FRAME_CHECK (frame_checks.h) with the spec section next to it.
 */
#include <string.h>

#include "frame_checks.h"
#include "frame_engine.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static ref_frame_status frame_fail(frame_engine *e, ref_frame_status status, int check,
                                   uint64_t offset)
{
    e->status = status;
    e->failed_check = check;
    e->err_off = offset;
    return status;
}

static void next_unit(frame_engine *e, frame_unit unit, size_t need)
{
    e->unit = unit;
    e->need = need;
}

void ref_frame_engine_init(frame_engine *e, const ref_frame_options *o, uint8_t *out,
                           size_t out_cap)
{
    memset(e, 0, sizeof *e);
    e->opt = *o;
    /* Only the last 64 KiB of a dictionary can be referenced. */
    if (e->opt.dict && e->opt.dict_len > REF_MAX_DICT) {
        e->opt.dict += e->opt.dict_len - REF_MAX_DICT;
        e->opt.dict_len = REF_MAX_DICT;
    }
    e->out = out;
    e->out_cap = out_cap;
    e->failed_check = -1;
    e->block_status = REF_OK;
    next_unit(e, U_MAGIC, 4);
}

static int is_skippable(uint32_t v)
{
    return v >= REF_SKIPPABLE_MAGIC_MIN && v <= REF_SKIPPABLE_MAGIC_MAX;
}

/* A magic number of a format these options accept (ref_frame_options
 * formats: an API may decode only some of them). */
static int is_known_magic(const frame_engine *e, uint32_t v)
{
    unsigned f = e->opt.formats;
    return (v == REF_FRAME_MAGIC && (f & REF_FORMAT_LZ4)) ||
           (v == REF_LEGACY_MAGIC && (f & REF_FORMAT_LEGACY)) ||
           (is_skippable(v) && (f & REF_FORMAT_SKIPPABLE));
}

static void frame_done(frame_engine *e)
{
    e->frames++;
    next_unit(e, U_MAGIC, 4);
}

/* A frame starts here (General Structure; Skippable Frames; Legacy frame). */
static ref_frame_status on_magic(frame_engine *e, uint32_t v)
{
    if (v == 0 && e->opt.zero_padding) {    /* history KLZ4-UNLZ4-PAD: skip the word */
        next_unit(e, U_MAGIC, 4);
        return REF_FRAME_OK;
    }
    if (is_skippable(v) && (e->opt.formats & REF_FORMAT_SKIPPABLE)) {
        next_unit(e, U_SKIP_SIZE, 4);
        return REF_FRAME_OK;
    }
    if (v == REF_LEGACY_MAGIC && (e->opt.formats & REF_FORMAT_LEGACY)) {
        e->block_max = REF_LEGACY_CHUNK;
        e->frame_out = 0;
        e->legacy_short = 0;
        e->linked = 0;
        next_unit(e, U_LEGACY_SIZE, 4);
        return REF_FRAME_OK;
    }
    /* Magic Number: 0x184D2204. Without this check a decoder would read
     * any 4 bytes as this magic and parse a descriptor after them. */
    REF_FRAME_CHECK(FRAME_MAGIC_KNOWN, v == REF_FRAME_MAGIC && (e->opt.formats & REF_FORMAT_LZ4),
                    REF_FRAME_ERR_UNKNOWN_MAGIC, e->pos);
    next_unit(e, U_DESCRIPTOR, 2);
    return REF_FRAME_OK;
}

/* FLG and BD (Frame Descriptor). */
static ref_frame_status on_descriptor(frame_engine *e, const uint8_t *p)
{
    const uint8_t flg = p[0], bd = p[1];
    /* Version Number: "2-bits field, must be set to 01". */
    REF_FRAME_CHECK(FRAME_VERSION, (flg >> 6) == 1, REF_FRAME_ERR_VERSION, e->pos);
    /* Reserved bits: "Value of reserved bits must be 0": FLG bit 1... */
    REF_FRAME_CHECK(FRAME_RESERVED_BITS, (flg & 0x02) == 0, REF_FRAME_ERR_RESERVED_BIT, e->pos);
    /* ...and BD bit 7 and bits 3-0. */
    REF_FRAME_CHECK(FRAME_RESERVED_BITS, (bd & 0x8F) == 0, REF_FRAME_ERR_RESERVED_BIT, e->pos + 1);
    /* Block Maximum Size: only 4..7 are defined. */
    e->block_max = ref_frame_block_max((bd >> 4) & 7);
    REF_FRAME_CHECK(FRAME_BLOCK_MAX_VALID, e->block_max != 0, REF_FRAME_ERR_BLOCK_MAX, e->pos + 1);

    e->linked = !(flg & 0x20);
    e->block_checksum = (flg & 0x10) != 0;
    e->has_content_size = (flg & 0x08) != 0;
    e->content_checksum = (flg & 0x04) != 0;
    e->desc[0] = flg;
    e->desc[1] = bd;
    e->desc_len = 2 + (e->has_content_size ? 8 : 0) + ((flg & 0x01) ? 4 : 0) + 1;
    next_unit(e, U_DESCRIPTOR_REST, e->desc_len - 2);
    return REF_FRAME_OK;
}

/* (Content Size) (Dictionary ID) HC. */
static ref_frame_status on_descriptor_rest(frame_engine *e, const uint8_t *p)
{
    const uint64_t flg_off = e->pos - 2;
    const size_t hc_at = e->desc_len - 1;
    const int has_dict_id = (e->desc[0] & 0x01) != 0;

    memcpy(e->desc + 2, p, e->desc_len - 2);
    /* Header Checksum: (xxh32(descriptor without HC, seed 0) >> 8) & 0xFF. */
    REF_FRAME_CHECK(FRAME_HEADER_CHECKSUM,
                    ((ref_xxh32(e->desc, hc_at, 0) >> 8) & 0xFF) == e->desc[hc_at],
                    REF_FRAME_ERR_HEADER_CHECKSUM, flg_off + hc_at);
    e->content_size = e->has_content_size ? le64(e->desc + 2) : 0;
    /* Dictionary ID: "The compressor and the decompressor must use exactly
     * the same dictionary"; without one the blocks cannot be decoded. */
    REF_FRAME_CHECK(FRAME_DICT_AVAILABLE, !has_dict_id || e->opt.dict != NULL,
                    REF_FRAME_ERR_DICT_MISSING, flg_off + 2 + (e->has_content_size ? 8 : 0));

    e->frame_out = 0;
    ref_xxh32_init(&e->hash, 0);
    next_unit(e, U_BLOCK_SIZE, 4);
    return REF_FRAME_OK;
}

/* Block Size field, or the EndMark (Data Blocks: Block Size; EndMark). */
static ref_frame_status on_block_size(frame_engine *e, const uint8_t *p)
{
    const uint32_t v = le32(p);
    size_t size;

    if (v == 0) {
        /* Content Size: "used to validate content correctness". */
        REF_FRAME_CHECK(CONTENT_SIZE_MATCHES, !e->has_content_size || e->frame_out == e->content_size,
                        REF_FRAME_ERR_CONTENT_SIZE, e->pos);
        if (e->content_checksum)
            next_unit(e, U_CONTENT_CHECKSUM, 4);
        else
            frame_done(e);
        return REF_FRAME_OK;
    }
    size = v & 0x7FFFFFFFu;
    /* "Block_Size shall never be larger than Block_Maximum_Size" (either
     * kind of block; an incompressible block is stored uncompressed). */
    REF_FRAME_CHECK(BLOCK_SIZE_WITHIN_MAX, size <= e->block_max, REF_FRAME_ERR_BLOCK_SIZE, e->pos);
    e->block_off = e->pos;
    e->uncompressed = (v >> 31) != 0;    /* highest bit: stored uncompressed */
    next_unit(e, U_BLOCK_DATA, size + (e->block_checksum ? 4 : 0));
    return REF_FRAME_OK;
}

size_t ref_frame_engine_history(const frame_engine *e)
{
    uint64_t h = e->frame_out < REF_FRAME_HISTORY ? e->frame_out : REF_FRAME_HISTORY;
    if (!e->linked)
        return 0;
    return h < e->out_pos ? (size_t)h : e->out_pos;
}

size_t ref_frame_engine_unit_output_max(const frame_engine *e)
{
    return e->unit == U_BLOCK_DATA || e->unit == U_LEGACY_DATA ? e->block_max : 0;
}

static int capacity_error(ref_status s)
{
    return s == REF_ERR_OUTPUT_OVERFLOW || s == REF_ERR_OUTPUT_FULL_INPUT_LEFT;
}

/*
 * Decode one block of `size` bytes at input offset data_off to out+out_pos
 * and return its decoded size in *produced. The block decoder gets the
 * block maximum as capacity (BLOCK_OUTPUT_WITHIN_MAX), or the caller's
 * room when that is smaller (OUTPUT_WITHIN_CAPACITY).
 */
static ref_frame_status decode_block(frame_engine *e, const uint8_t *data, size_t size,
                                     int uncompressed, int use_dict, uint64_t data_off,
                                     size_t *produced)
{
    const size_t room = e->out_cap - e->out_pos;
    const int by_room = room < e->block_max;
    ref_decode_params dp;
    ref_decode_result r;

    if (uncompressed) {
        /* Output buffer: the stored bytes must fit the caller's room. */
        REF_FRAME_CHECK(OUTPUT_WITHIN_CAPACITY, size <= room, REF_FRAME_ERR_OUTPUT_FULL, data_off);
        if (size)
            memmove(e->out + e->out_pos, data, size);
        *produced = size;
        return REF_FRAME_OK;
    }
    memset(&dp, 0, sizeof dp);
    dp.src = data;
    dp.src_len = size;
    dp.dst = e->out ? e->out + e->out_pos : NULL;
    dp.dst_cap = by_room ? room : e->block_max;
    if (!REF_FRAME_RULE(OUTPUT_WITHIN_CAPACITY))
        dp.dst_cap = e->block_max;   /* mutant: ignores the caller's capacity */
    if (!REF_FRAME_RULE(BLOCK_OUTPUT_WITHIN_MAX))
        dp.dst_cap = room;           /* mutant: only the buffer bounds a block */
    if (!dp.dst)
        dp.dst_cap = 0;
    dp.prefix_len = ref_frame_engine_history(e);
    if (use_dict) {
        dp.dict = e->opt.dict;
        dp.dict_len = e->opt.dict_len;
    }
    dp.profile = e->opt.profile;
    r = ref_decode(&dp);
    if (r.status != REF_OK) {
        e->block_status = r.status;
        if (capacity_error(r.status)) {
            /* The caller's buffer, not the format, stopped this block. */
            REF_FRAME_CHECK(OUTPUT_WITHIN_CAPACITY, !by_room, REF_FRAME_ERR_OUTPUT_FULL, data_off);
            /* Block Maximum Size is the largest decoded size of a block. */
            REF_FRAME_CHECK(BLOCK_OUTPUT_WITHIN_MAX, 0, REF_FRAME_ERR_BLOCK_OUTPUT_SIZE,
                            data_off + r.consumed);
        }
        e->status = REF_FRAME_ERR_BLOCK;
        e->failed_check = r.failed_check;
        e->err_off = data_off + r.consumed;
        return e->status;
    }
    *produced = r.written;
    return REF_FRAME_OK;
}

/* A decoded block is accepted: it becomes output. */
static void accept_output(frame_engine *e, size_t produced)
{
    if (e->content_checksum && produced)
        ref_xxh32_update(&e->hash, e->out + e->out_pos, produced);
    e->out_pos += produced;
    e->frame_out += produced;
}

/* Block data (+ Block checksum). */
static ref_frame_status on_block_data(frame_engine *e, const uint8_t *p)
{
    const size_t size = e->need - (e->block_checksum ? 4 : 0);
    size_t produced = 0;

    /* Block checksum: xxh32 of the raw (undecoded) block, seed 0, checked
     * "before decoding". */
    REF_FRAME_CHECK(BLOCK_CHECKSUM, !e->block_checksum || ref_xxh32(p, size, 0) == le32(p + size),
                    REF_FRAME_ERR_BLOCK_CHECKSUM, e->pos + size);
    if (decode_block(e, p, size, e->uncompressed, 1, e->pos, &produced) != REF_FRAME_OK)
        return e->status;
    /* Content Size: no block may take the frame past the declared size. */
    REF_FRAME_CHECK(CONTENT_SIZE_MATCHES,
                    !e->has_content_size || produced <= e->content_size - e->frame_out,
                    REF_FRAME_ERR_CONTENT_SIZE, e->block_off);
    accept_output(e, produced);
    next_unit(e, U_BLOCK_SIZE, 4);
    return REF_FRAME_OK;
}

/* Content Checksum: xxh32 of the decoded data, seed 0. */
static ref_frame_status on_content_checksum(frame_engine *e, const uint8_t *p)
{
    REF_FRAME_CHECK(CONTENT_CHECKSUM, ref_xxh32_digest(&e->hash) == le32(p),
                    REF_FRAME_ERR_CONTENT_CHECKSUM, e->pos);
    frame_done(e);
    return REF_FRAME_OK;
}

/* Legacy frame: a chunk size, or the end of the legacy frame. */
static ref_frame_status on_legacy_size(frame_engine *e, const uint8_t *p)
{
    const uint32_t v = le32(p);

    /* EndMark: "if the frame is followed by a valid Frame Magic Number, it
     * is considered completed". A zero word is padding when allowed. */
    if (is_known_magic(e, v) || (v == 0 && e->opt.zero_padding)) {
        e->frames++;
        return on_magic(e, v);
    }
    /* "Any other value will be interpreted as a block size, and trigger an
     * error if it does not fit within acceptable range." */
    REF_FRAME_CHECK(LEGACY_CHUNK_WITHIN_MAX, v <= REF_LEGACY_CHUNK_MAX,
                    REF_FRAME_ERR_LEGACY_CHUNK_SIZE, e->pos);
    /* "All blocks must be completely filled, except the last one": a chunk
     * after a short one. lz4 1.9.4 and the kernel accept it (compatible). */
    REF_FRAME_CHECK(LEGACY_CHUNK_FULL, e->opt.profile != REF_PROFILE_STRICT || !e->legacy_short,
                    REF_FRAME_ERR_LEGACY_CHUNK_SHORT, e->pos);
    next_unit(e, U_LEGACY_DATA, v);
    return REF_FRAME_OK;
}

static ref_frame_status on_legacy_data(frame_engine *e, const uint8_t *p)
{
    size_t produced = 0;
    /* "Data is always compressed"; the block decodes to at most 8 MB. */
    if (decode_block(e, p, e->need, 0, 0, e->pos, &produced) != REF_FRAME_OK)
        return e->status;
    e->legacy_short = produced < REF_LEGACY_CHUNK;
    accept_output(e, produced);
    next_unit(e, U_LEGACY_SIZE, 4);
    return REF_FRAME_OK;
}

ref_frame_status ref_frame_engine_unit(frame_engine *e, const uint8_t *p)
{
    const size_t n = e->need;
    ref_frame_status st = REF_FRAME_OK;

    if (e->status != REF_FRAME_OK)
        return e->status;
    switch (e->unit) {
    case U_MAGIC: st = on_magic(e, le32(p)); break;
    case U_DESCRIPTOR: st = on_descriptor(e, p); break;
    case U_DESCRIPTOR_REST: st = on_descriptor_rest(e, p); break;
    case U_BLOCK_SIZE: st = on_block_size(e, p); break;
    case U_BLOCK_DATA: st = on_block_data(e, p); break;
    case U_CONTENT_CHECKSUM: st = on_content_checksum(e, p); break;
    case U_SKIP_SIZE: {
        /* Skippable Frames: Frame Size, then that many bytes of user data. */
        uint32_t v = le32(p);
        if (v == 0)
            frame_done(e);
        else
            next_unit(e, U_SKIP_DATA, v);
        e->skip_off = e->pos + 4;
        break;
    }
    case U_SKIP_DATA: break;   /* never handed over: ref_frame_engine_skipped() */
    case U_LEGACY_SIZE: st = on_legacy_size(e, p); break;
    case U_LEGACY_DATA: st = on_legacy_data(e, p); break;
    }
    if (st == REF_FRAME_OK)
        e->pos += n;
    return st;
}

void ref_frame_engine_skipped(frame_engine *e, size_t n)
{
    e->pos += n;
    e->need -= n;
    if (e->need == 0)
        frame_done(e);
}

int ref_frame_engine_end(frame_engine *e, const uint8_t *rest, size_t rest_len)
{
    size_t i;
    if (e->unit != U_MAGIC && e->unit != U_LEGACY_SIZE)
        return 0;   /* inside a frame */
    if (rest_len) {
        /* Zero padding: 1..3 zero bytes may end the input. */
        if (!e->opt.zero_padding)
            return 0;
        for (i = 0; i < rest_len; i++)
            if (rest[i] != 0)
                return 0;
    }
    if (e->unit == U_LEGACY_SIZE)   /* Legacy frame: "followed by EOF" */
        e->frames++;
    e->pos += rest_len;
    next_unit(e, U_MAGIC, 4);
    return 1;
}

ref_frame_status ref_frame_engine_truncated(frame_engine *e)
{
    switch (e->unit) {
    case U_BLOCK_DATA:
        /* Data Blocks: the data (and its checksum) must all be there. */
        REF_FRAME_CHECK(BLOCK_DATA_IN_INPUT, 0, REF_FRAME_ERR_TRUNCATED, e->pos);
        break;
    case U_SKIP_DATA:
        /* Skippable Frames: Frame Size bytes of user data follow. */
        REF_FRAME_CHECK(SKIPPABLE_DATA_IN_INPUT, 0, REF_FRAME_ERR_TRUNCATED, e->skip_off);
        break;
    case U_LEGACY_DATA:
        /* Legacy frame: "Block Compressed Size" bytes follow (history
         * KLZ4-UNLZ4-CHUNK: the kernel decoded before checking this). */
        REF_FRAME_CHECK(LEGACY_CHUNK_IN_INPUT, 0, REF_FRAME_ERR_TRUNCATED, e->pos);
        break;
    default:
        /* General Structure: every field has its full size. */
        REF_FRAME_CHECK(FRAME_FIELD_IN_INPUT, 0, REF_FRAME_ERR_TRUNCATED, e->pos);
        break;
    }
    return REF_FRAME_OK;
}

ref_frame_result ref_frame_engine_result(const frame_engine *e, size_t written)
{
    ref_frame_result r;
    r.status = e->status;
    r.written = written;
    r.consumed = e->status != REF_FRAME_OK ? e->err_off : e->pos;
    r.failed_check = e->failed_check;
    r.block_status = e->block_status;
    r.frames = e->frames;
    return r;
}

static ref_frame_result bad_parameter(void)
{
    ref_frame_result r;
    memset(&r, 0, sizeof r);
    r.status = REF_FRAME_ERR_BAD_PARAMETER;
    r.failed_check = -1;
    return r;
}

/* The one-shot driver: every unit is read in place from src. */
ref_frame_result ref_frame_decode(const ref_frame_options *o, const uint8_t *src, size_t src_len,
                                  uint8_t *dst, size_t dst_cap)
{
    ref_frame_options defaults;
    frame_engine eng, *e = &eng;

    if (!o) {
        ref_frame_options_default(&defaults);
        o = &defaults;
    }
    if ((!src && src_len) || (!dst && dst_cap) || (!o->dict && o->dict_len))
        return bad_parameter();
    ref_frame_engine_init(e, o, dst, dst_cap);
    for (;;) {
        const size_t at = (size_t)e->pos, avail = src_len - at;
        const uint8_t *here = src ? src + at : NULL;   /* no NULL + 0 */
        if (e->unit == U_SKIP_DATA) {
            if (avail < e->need && ref_frame_engine_truncated(e) != REF_FRAME_OK)
                break;
            ref_frame_engine_skipped(e, e->need);
            continue;
        }
        if (avail < e->need) {
            if (ref_frame_engine_end(e, here, avail))
                break;
            if (ref_frame_engine_truncated(e) != REF_FRAME_OK)
                break;
            /* Only in a mutant build: the unit is read past the input. */
        }
        if (ref_frame_engine_unit(e, here) != REF_FRAME_OK)
            break;
    }
    return ref_frame_engine_result(e, e->out_pos);
}
