/*
 * lz4frame_ref: the lz4gate reference LZ4 FRAME codec, on top of the block
 * codec of lz4ref.h.
 *
 * Written from the LZ4 frame format specification (lz4_Frame_format.md,
 * version 1.6.2): LZ4 frames with every descriptor flag, skippable frames,
 * legacy frames ("LZ4Demo", magic 0x184C2102) and concatenations of them.
 * Every validity test of the decoder is a named check (frame_checks.h) that
 * a mutant build can switch off, like the block decoder's (checks.h).
 *
 * No global state. The one-shot functions never allocate except
 * ref_frame_encode() (its encoder context); the streaming decoder allocates
 * its buffers with malloc (see ref_frame_stream_new).
 */
#ifndef LZ4FRAME_REF_H
#define LZ4FRAME_REF_H

#include <stddef.h>
#include <stdint.h>

#include "lz4ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- xxHash-32 ------------------------------------------------------ */

/* One-shot xxHash-32 of p[0..n). */
uint32_t ref_xxh32(const void *p, size_t n, uint32_t seed);

/* Streaming xxHash-32: init, any number of updates, digest. The digest is
 * ref_xxh32() of the concatenated input, whatever the split; digest does
 * not change the state, so more input may follow. */
typedef struct ref_xxh32_state {
    uint32_t v[4];        /* the four lane accumulators */
    uint32_t seed;
    uint32_t total_len;   /* input length modulo 2^32 */
    int large;            /* 1 once 16 or more bytes were seen */
    unsigned buf_len;     /* bytes waiting in buf (< 16) */
    uint8_t buf[16];
} ref_xxh32_state;

void ref_xxh32_init(ref_xxh32_state *s, uint32_t seed);
void ref_xxh32_update(ref_xxh32_state *s, const void *p, size_t n);
uint32_t ref_xxh32_digest(const ref_xxh32_state *s);

/* ---- Format constants (lz4_Frame_format.md) ------------------------- */

#define REF_FRAME_MAGIC 0x184D2204u          /* General Structure: Magic Number */
#define REF_SKIPPABLE_MAGIC_MIN 0x184D2A50u  /* Skippable Frames: 0x184D2A5X */
#define REF_SKIPPABLE_MAGIC_MAX 0x184D2A5Fu
#define REF_LEGACY_MAGIC 0x184C2102u         /* Legacy frame: Magic Number */
#define REF_LEGACY_CHUNK ((size_t)8 << 20)   /* Legacy frame: fixed block size, 8 MiB */
#define REF_LEGACY_CHUNK_MAX 8421520u        /* ref_compress_bound(8 MiB): largest chunk size */
#define REF_FRAME_HEADER_MAX 19              /* magic 4 + FLG/BD 2 + size 8 + dict id 4 + HC 1 */
#define REF_FRAME_HISTORY 65536              /* linked blocks: the LZ4 window, 64 KiB */

/* Block Maximum Size for a BD code 4..7 (64 KiB, 256 KiB, 1 MiB, 4 MiB);
 * 0 for any other code. */
size_t ref_frame_block_max(int bd_code);

/* ---- Decoder -------------------------------------------------------- */

/*
 * Decoder results. Each error names the first rule the input broke; the
 * decoder stops there. Which named check fired is in failed_check.
 */
typedef enum ref_frame_status {
    REF_FRAME_OK = 0,
    REF_FRAME_ERR_UNKNOWN_MAGIC,     /* not an LZ4, skippable or legacy magic number */
    REF_FRAME_ERR_TRUNCATED,         /* input ended inside a field, a block or a frame */
    REF_FRAME_ERR_VERSION,           /* FLG version is not 01 */
    REF_FRAME_ERR_RESERVED_BIT,      /* a reserved bit of FLG or BD is set */
    REF_FRAME_ERR_BLOCK_MAX,         /* BD block maximum size code is not 4..7 */
    REF_FRAME_ERR_HEADER_CHECKSUM,   /* HC byte does not match the descriptor */
    REF_FRAME_ERR_DICT_MISSING,      /* the frame has a Dict-ID, the caller gave no dictionary */
    REF_FRAME_ERR_BLOCK_SIZE,        /* block size field larger than the block maximum */
    REF_FRAME_ERR_BLOCK_CHECKSUM,    /* block checksum does not match the block data */
    REF_FRAME_ERR_BLOCK,             /* the LZ4 block is invalid: see block_status */
    REF_FRAME_ERR_BLOCK_OUTPUT_SIZE, /* a block decodes to more than the block maximum
                                        (legacy: 8 MiB); block_status says how */
    REF_FRAME_ERR_CONTENT_SIZE,      /* decoded size differs from the Content Size field */
    REF_FRAME_ERR_CONTENT_CHECKSUM,  /* content checksum does not match the decoded data */
    REF_FRAME_ERR_LEGACY_CHUNK_SIZE, /* legacy chunk size above REF_LEGACY_CHUNK_MAX */
    REF_FRAME_ERR_LEGACY_CHUNK_SHORT,/* strict: a legacy chunk below 8 MiB was not the last */
    REF_FRAME_ERR_OUTPUT_FULL,       /* one-shot: the output buffer is too small */
    REF_FRAME_ERR_NO_MEMORY,         /* streaming: malloc failed */
    REF_FRAME_ERR_BAD_PARAMETER,     /* NULL buffer with a non-zero size, misuse */
    REF_FRAME_STATUS_COUNT
} ref_frame_status;

const char *ref_frame_status_name(ref_frame_status status);

/* The fields of a frame header, as LZ4F_getFrameInfo reports them
 * (frame_info.c). */
typedef struct ref_frame_info_t {
    int skippable;            /* a skippable frame: content_size is its user data's size */
    int block_size_id;        /* BD: 4..7 */
    int independent;          /* FLG: Block Independence */
    int block_checksum;
    int content_checksum;
    uint64_t content_size;    /* 0: not in the header */
    uint32_t dict_id;         /* 0: not in the header */
    size_t header_len;        /* bytes of the header (REF_INFO_OK) */
} ref_frame_info_t;

typedef enum ref_frame_info_status {
    REF_INFO_OK = 0,          /* src starts with a whole, valid header */
    REF_INFO_INCOMPLETE,      /* src ends inside it */
    REF_INFO_INVALID,         /* it is not a valid LZ4 or skippable frame header */
} ref_frame_info_status;

ref_frame_info_status ref_frame_info(const uint8_t *src, size_t n, ref_frame_info_t *info);

/* Decoder options. Start from ref_frame_options_default(). */
typedef struct ref_frame_options {
    /* Profile for LZ4 blocks and legacy chunks (lz4ref.h). The default is
     * REF_PROFILE_COMPATIBLE, what established decoders accept. STRICT also
     * enforces "all legacy blocks but the last are completely filled". */
    ref_profile profile;
    /* Dictionary: the history before every frame (only its last 64 KiB
     * matter). Needed by frames with a Dict-ID (FRAME_DICT_AVAILABLE), and
     * by frames compressed with a dictionary without writing its ID, as
     * `lz4 -D` does. NULL: no dictionary. The one-shot decoder reads it in
     * place; the streaming decoder keeps a copy. */
    const uint8_t *dict;
    size_t dict_len;
    /* Zero padding (docs/fix-history.md#klz4-unlz4-pad, the kernel since v5.14):
     * when non-zero, a 4-byte zero word is skipped wherever a frame may
     * start (at the start, after any frame, and where a legacy chunk size
     * is expected, which ends the legacy frame), and 1 to 3 zero bytes at
     * the end of the input are ignored. Default 0, like lz4 1.9.4, which
     * rejects such padding. */
    int zero_padding;
    /* Formats to decode (REF_FORMAT_*; default all). An API that knows
     * fewer (LZ4F_decompress: no legacy frames; the kernel's unlz4: legacy
     * only) is compared with ref restricted to the same: another format's
     * magic number is then unknown (FRAME_MAGIC_KNOWN), or in a legacy
     * frame a chunk size (LEGACY_CHUNK_WITHIN_MAX). */
    unsigned formats;
} ref_frame_options;

#define REF_FORMAT_LZ4 1u        /* General Structure: magic 0x184D2204 */
#define REF_FORMAT_SKIPPABLE 2u  /* Skippable Frames: 0x184D2A50..5F */
#define REF_FORMAT_LEGACY 4u     /* Legacy frame: 0x184C2102 */

void ref_frame_options_default(ref_frame_options *o);

typedef struct ref_frame_result {
    ref_frame_status status;
    size_t written;       /* decoded bytes delivered: on error, the bytes of
                             every block validated before the error */
    uint64_t consumed;    /* input bytes read; on error the input offset of
                             the offending field (see frame_checks.h) */
    int failed_check;     /* on error the check that fired: a block check
                             (REF_CHECK_* < REF_CHECK_COUNT, checks.h) or a
                             frame check (frame_checks.h); else -1 */
    ref_status block_status; /* REF_FRAME_ERR_BLOCK: the block decoder's error */
    unsigned frames;      /* frames completed (LZ4, skippable and legacy) */
} ref_frame_result;

/*
 * One-shot: decode every frame of src[0..src_len) into dst[0..dst_cap).
 * Each block is decoded straight into dst (linked blocks use the frame's
 * previous output in dst as prefix). The input must end at a frame
 * boundary. On success written is the decoded size and consumed is
 * src_len. When dst is too small the error is REF_FRAME_ERR_OUTPUT_FULL
 * (OUTPUT_WITHIN_CAPACITY) as soon as a block does not fit; bytes of dst
 * past `written` are unspecified after an error.
 */
ref_frame_result ref_frame_decode(const ref_frame_options *o,
                                  const uint8_t *src, size_t src_len,
                                  uint8_t *dst, size_t dst_cap);

/*
 * Streaming decoder: input split at any byte, output in chunks of any
 * size. It gives exactly the one-shot result (bytes, status, failed check,
 * error offset) for every split, when the one-shot output buffer is large
 * enough. Memory: malloc'd inside, freed by ref_frame_stream_free(): a
 * window of 64 KiB + the block maximum (legacy: 8 MiB), a staging buffer
 * for a block split across inputs (at most block maximum + 4), and a copy
 * of the dictionary. Nothing global.
 */
typedef struct ref_frame_stream ref_frame_stream;

/* NULL when out of memory or when o is invalid (dictionary NULL with a
 * non-zero length). o may be NULL for the defaults. */
ref_frame_stream *ref_frame_stream_new(const ref_frame_options *o);
void ref_frame_stream_free(ref_frame_stream *s);
/* Forget everything (also a sticky error): ready for a new input, with the
 * same options and buffers. */
void ref_frame_stream_reset(ref_frame_stream *s);

/*
 * Feed src[0..src_len) and receive output in dst[0..dst_cap). Returns with
 * *consumed input bytes taken and *written output bytes produced, when
 *   - all input is consumed and all output it allows is written, or
 *   - dst is full (*written == dst_cap: call again, with more room), or
 *   - an error occurred (the return value; sticky until reset).
 * So: call again with the rest of the input while *consumed < src_len or
 * *written == dst_cap. Errors found here are the same as the one-shot's.
 */
ref_frame_status ref_frame_stream_decode(ref_frame_stream *s,
                                         const uint8_t *src, size_t src_len,
                                         size_t *consumed,
                                         uint8_t *dst, size_t dst_cap,
                                         size_t *written);

/*
 * End of input. Returns the result of the whole input, as the one-shot
 * would: an error when the input ended inside a frame (TRUNCATED), or
 * REF_FRAME_ERR_BAD_PARAMETER when output is still waiting to be taken.
 */
ref_frame_result ref_frame_stream_finish(ref_frame_stream *s);

/* 1 when the input fed so far ends exactly at the end of a frame (or
 * between two chunks of a legacy frame) and all its output was taken: what
 * LZ4F_decompress reports by returning 0. */
int ref_frame_stream_at_frame_end(const ref_frame_stream *s);

/* Name and description of any check id in result.failed_check (block
 * checks and frame checks); "unknown" for others. */
const char *ref_frame_check_name(int id);
const char *ref_frame_check_what(int id);
/* The name of the block or frame check switched off in this build, or NULL. */
const char *ref_frame_mutant_name(void);

/* ---- Encoder -------------------------------------------------------- */

typedef struct ref_frame_prefs {
    int block_max;          /* BD code 4..7 (64 KiB .. 4 MiB) */
    int linked_blocks;      /* 1: blocks may reference the previous 64 KiB
                               (FLG B.Indep = 0); 0: independent blocks */
    int block_checksum;     /* xxHash-32 after every block */
    int content_checksum;   /* xxHash-32 of the content after the EndMark */
    int content_size;       /* write the Content Size field */
    int dict_id_present;    /* write the Dict-ID field with dict_id */
    uint32_t dict_id;
    const uint8_t *dict;    /* dictionary the blocks may reference, or NULL */
    size_t dict_len;
    int acceleration;       /* ref_encode(): <= 0 means 1 */
    int uncompressed;       /* store every block uncompressed */
} ref_frame_prefs;

/* The lz4 tool's defaults: block max 7 (4 MiB), independent blocks,
 * content checksum, nothing else. */
void ref_frame_prefs_default(ref_frame_prefs *p);

/* Largest frame ref_frame_encode() can write for n input bytes; 0 when the
 * preferences are invalid. Blocks are stored uncompressed when compression
 * does not make them smaller, so a block costs at most its size + 8. */
size_t ref_frame_bound(size_t n, const ref_frame_prefs *p);

/* One frame holding src[0..n). Returns its size, or 0 when dst_cap is too
 * small, the preferences are invalid or memory is short (the encoder
 * context, ~84 KiB, is malloc'd). Never writes past dst_cap. */
size_t ref_frame_encode(const ref_frame_prefs *p, const uint8_t *src, size_t n,
                        uint8_t *dst, size_t dst_cap);

/*
 * Incremental encoder, for input that arrives in pieces: begin, then one
 * call per block (1 .. block maximum bytes), then end. The context is the
 * caller's (sizeof is about 84 KiB: history and hash table). Each returns
 * the bytes written, or 0 on error (dst_cap too small, invalid preferences,
 * block size out of range, or at end a content size that differs from the
 * bytes given). Bounds: header REF_FRAME_HEADER_MAX, block
 * REF_FRAME_BLOCK_BOUND(n), end 8.
 */
#define REF_FRAME_BLOCK_BOUND(n) ((size_t)(n) + 8)

typedef struct ref_frame_encoder {
    ref_frame_prefs prefs;
    size_t block_max;                  /* in bytes */
    uint64_t content_size;             /* declared in the header */
    uint64_t total_in;                 /* bytes given to blocks so far */
    ref_xxh32_state content_hash;
    size_t dict_len;                   /* dictionary bytes kept in dict_copy */
    size_t history_len;                /* bytes of history in use */
    uint8_t dict_copy[REF_FRAME_HISTORY];
    uint8_t history[REF_FRAME_HISTORY]; /* linked blocks: dictionary + input, last 64 KiB */
    uint32_t hash_state[REF_ENCODE_STATE_SIZE / 4];
    int stage;                         /* 0 new, 1 header written, 2 ended */
} ref_frame_encoder;

size_t ref_frame_begin(ref_frame_encoder *e, const ref_frame_prefs *p,
                       uint64_t content_size, uint8_t *dst, size_t dst_cap);
size_t ref_frame_put_block(ref_frame_encoder *e, const uint8_t *src, size_t n,
                           uint8_t *dst, size_t dst_cap);
size_t ref_frame_end(ref_frame_encoder *e, uint8_t *dst, size_t dst_cap);

/* ---- Legacy frames ("LZ4Demo", Linux kernel initramfs) ---------------- */

/* Largest legacy frame for n input bytes: magic + per 8 MiB chunk a size
 * field and a block of at most ref_compress_bound(chunk). */
size_t ref_legacy_bound(size_t n);

/* One legacy frame holding src[0..n): 8 MiB chunks, always compressed.
 * Returns its size or 0 when dst_cap is too small. */
size_t ref_legacy_encode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_cap,
                         int acceleration);

/* Pieces for streaming use: the magic (4 bytes), and one chunk of 1 .. 8 MiB
 * input bytes (size field + block). state: REF_ENCODE_STATE_SIZE bytes of
 * scratch (lz4ref.h). Both return the bytes written or 0. */
size_t ref_legacy_put_magic(uint8_t *dst, size_t dst_cap);
size_t ref_legacy_put_chunk(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_cap,
                            int acceleration, void *state);

#ifdef __cplusplus
}
#endif
#endif /* LZ4FRAME_REF_H */
