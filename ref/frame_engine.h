/*
 * The frame decoder's parser (private to ref/): a state machine that asks
 * for the input one "unit" at a time (a magic number, the descriptor, a
 * block size field, a block with its checksum...). A driver hands it each
 * unit complete, so the parser never sees partial fields:
 *
 *   - frame_decode.c, the one-shot driver, passes units in place from the
 *     caller's input and decodes blocks straight into the caller's output;
 *   - frame_stream.c, the streaming driver, gathers units split across
 *     inputs in a staging buffer and decodes blocks into a window from which
 *     output is handed out in any chunk size.
 *
 * Both drivers run the same sequence of units with the same checks, so
 * they give the same result for the same input; tests/c/test_frame.c
 * checks it for every split.
 */
#ifndef LZ4REF_FRAME_ENGINE_H
#define LZ4REF_FRAME_ENGINE_H

#include "lz4frame_ref.h"

typedef enum frame_unit {
    U_MAGIC,            /* 4: a magic number (or a zero padding word) */
    U_DESCRIPTOR,       /* 2: FLG and BD, which give the descriptor's length */
    U_DESCRIPTOR_REST,  /* 1..13: content size, dictionary id, HC */
    U_BLOCK_SIZE,       /* 4: block size field or EndMark */
    U_BLOCK_DATA,       /* block size (+ 4 with block checksums) */
    U_CONTENT_CHECKSUM, /* 4 */
    U_SKIP_SIZE,        /* 4: skippable frame size */
    U_SKIP_DATA,        /* user data: skipped, never handed over in one piece */
    U_LEGACY_SIZE,      /* 4: legacy chunk size, or the next frame's magic */
    U_LEGACY_DATA       /* chunk size */
} frame_unit;

typedef struct frame_engine {
    ref_frame_options opt;
    /* Output: blocks are decoded at out + out_pos, room out_cap - out_pos;
     * the driver may move out/out_pos between units (streaming window). */
    uint8_t *out;
    size_t out_cap;
    size_t out_pos;

    frame_unit unit;      /* what the next unit is */
    size_t need;          /* its size in bytes */
    uint64_t pos;         /* input offset of the next unit */
    uint64_t skip_off;    /* input offset of the current skippable user data */
    ref_frame_status status;
    int failed_check;
    ref_status block_status;
    uint64_t err_off;
    unsigned frames;

    /* The current LZ4 frame. */
    uint8_t desc[REF_FRAME_HEADER_MAX - 4]; /* FLG .. HC (at most 15 bytes) */
    size_t desc_len;
    size_t block_max;     /* legacy: REF_LEGACY_CHUNK */
    int linked;           /* blocks reference the previous 64 KiB */
    int block_checksum;
    int content_checksum;
    int has_content_size;
    uint64_t content_size;
    uint64_t frame_out;   /* bytes decoded in this frame */
    uint64_t block_off;   /* input offset of the current block size field */
    int uncompressed;     /* the current block is stored uncompressed */
    ref_xxh32_state hash;
    int legacy_short;     /* the previous legacy chunk was below 8 MiB */
} frame_engine;

void ref_frame_engine_init(frame_engine *e, const ref_frame_options *o, uint8_t *out,
                           size_t out_cap);

/* Process the next unit, p[0..e->need). Returns e->status. */
ref_frame_status ref_frame_engine_unit(frame_engine *e, const uint8_t *p);

/* U_SKIP_DATA: n (<= e->need) bytes of user data went by. */
void ref_frame_engine_skipped(frame_engine *e, size_t n);

/* The input ended with rest[0..rest_len) of the next unit (rest_len <
 * e->need). Returns 1 when the input may end here (consuming rest), else 0. */
int ref_frame_engine_end(frame_engine *e, const uint8_t *rest, size_t rest_len);

/* The input ended inside the next unit: fail with the check that guards
 * that unit. In the mutant build of that check it returns REF_FRAME_OK,
 * and the driver goes on as a decoder without the check would. */
ref_frame_status ref_frame_engine_truncated(frame_engine *e);

/* Largest output of the next unit (0 for units that produce none). */
size_t ref_frame_engine_unit_output_max(const frame_engine *e);
/* History the next block may reference, in bytes before out + out_pos. */
size_t ref_frame_engine_history(const frame_engine *e);

ref_frame_result ref_frame_engine_result(const frame_engine *e, size_t written);

#endif /* LZ4REF_FRAME_ENGINE_H */
