/*
 * malformed_blocks.h: the one catalogue of hand-written malformed LZ4 blocks.
 *
 * Each row is a block given byte for byte, the capacity it is decoded with,
 * and what the reference decoder must say about it under both profiles:
 * the error status, the named check (ref/checks.h) that fires and the input
 * position it reports; when the compatible profile accepts
 * (offset 0, the end-of-block rules), the bytes it decodes to.
 *
 * Three programs read it:
 *   tests/c/test_decode.c        every row, through ref_decode, both profiles;
 *   tests/c/test_frame_errors.c  the rows whose defect is in the block itself
 *                                (malformed_block_in_frame), as the one block
 *                                of an LZ4 frame;
 *   make_vectors                 every row becomes a known-answer vector of
 *                                corpus/vectors/ (the row name is its id).
 */
#ifndef LZ4GATE_MALFORMED_BLOCKS_H
#define LZ4GATE_MALFORMED_BLOCKS_H

#include <stddef.h>

#include "lz4ref.h"

typedef struct malformed_block {
    const char *name;            /* vector id, "inv-..." */
    const char *bytes;           /* the block (may hold NUL bytes) */
    size_t len;
    size_t capacity;             /* output capacity it is decoded with */
    ref_status strict;           /* whole-block decode, strict profile */
    ref_status compatible;       /* the same error, or REF_OK (a profile rule) */
    int check;                   /* REF_CHECK_* of the error */
    size_t position;             /* ref's input position at the error: where a
                                    truncated field was due, just past a bad
                                    offset, the block's end for rules 2 and 3 */
    const char *compatible_output; /* compatible == REF_OK: the decoded bytes */
    size_t compatible_output_len;
    const char *comment;         /* what the block is; the spec rule it breaks */
} malformed_block;

extern const malformed_block malformed_blocks[];
extern const size_t malformed_block_count;

/* Whether the defect is in the block itself, so that the block decoder of
 * a frame (capacity: the block maximum) reports it as well: not an error of
 * the capacity, and not the empty block, whose size field 0 would be the
 * frame's EndMark. */
int malformed_block_in_frame(const malformed_block *m);

#endif /* LZ4GATE_MALFORMED_BLOCKS_H */
