/*
 * vector_add.h: recording one known-answer vector. The block is decoded
 * with ref_decode under both profiles, whole and partially (target =
 * capacity); the results must agree with what the vector was designed to
 * give, or make_vectors stops; then the block is written and its entry
 * added to index.json (vector_index.h).
 */
#ifndef LZ4GATE_VECTOR_ADD_H
#define LZ4GATE_VECTOR_ADD_H

#include <stddef.h>
#include <stdint.h>

#include "lz4ref.h"

/* What the vector's construction says it must decode to (whole block). */
typedef struct design {
    ref_status strict, compatible;
    const uint8_t *output;     /* expected output when a profile accepts, or NULL */
    size_t output_len;
} design;

/* Enough for every vector's output: "with ample capacity". */
#define AMPLE_CAPACITY (1u << 20)

/*
 * Record the vector `id` (lower case, digits, '-', '_', '+'; unique):
 * DIR/<id>.lz4 holds blk; decoded with capacity cap and, when dict_name is
 * given, the dictionary dict (written once as DIR/<dict_name>). flags:
 * space-separated; "malformed" is added when no profile accepts the block
 * even with ample capacity.
 */
void add_vector(const char *id, const char *comment, const char *flags, const uint8_t *blk,
                size_t blen, size_t cap, const char *dict_name, const uint8_t *dict,
                size_t dict_len, const design *want);

#endif /* LZ4GATE_VECTOR_ADD_H */
