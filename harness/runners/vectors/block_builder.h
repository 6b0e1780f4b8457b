/*
 * block_builder.h: hand-made LZ4 blocks for make_vectors, built sequence by
 * sequence from a recipe, with the output they were designed to decode to
 * computed alongside (the second, independent source of every hand-made
 * vector's expectation; vector_add.h compares it with ref_decode).
 *
 * Literal bytes come from one fixed ref/prng.h stream ("handmade"), so
 * that every offset error copies visibly different bytes; recipes are built
 * in catalogue order, which keeps the committed blocks stable.
 */
#ifndef LZ4GATE_BLOCK_BUILDER_H
#define LZ4GATE_BLOCK_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

typedef struct bld {
    buf blk;            /* the block */
    buf out;            /* what it decodes to (offset 0: zeros, as the compatible profile) */
    size_t last_token;  /* position of the last token written */
    const uint8_t *dict;
    size_t dict_len;
} bld;

enum bld_op {
    BLD_END = 0,
    BLD_SEQ,            /* a literals, then a match of b bytes at offset c */
    BLD_LAST,           /* the last sequence: a literals */
    BLD_RAW,            /* a raw bytes of `raw` (block only, no output) */
    BLD_CUT,            /* drop the last a bytes of the block */
    BLD_SEQ_TO,         /* literals up to output a, then a match of b at offset c */
    BLD_HISTORY,        /* 2 literals and a 200-byte match at a pseudo-random offset,
                           while the output stays 203 bytes short of a */
    BLD_SHORT_SEQUENCES,/* a sequences: i % 4 literals, a match of 4 + i % 3 at 1 + i % 5 */
    BLD_OR_LAST_TOKEN,  /* last token |= a */
    BLD_SAME_AS_ABOVE,  /* first step only: the block of the row above, at another
                           capacity (no new literals) */
};

typedef struct bld_step {
    enum bld_op op;
    size_t a, b, c;
    const char *raw;
} bld_step;

#define SEQ(nlit, mlen, offset) { BLD_SEQ, nlit, mlen, offset, NULL }
#define LAST(nlit) { BLD_LAST, nlit, 0, 0, NULL }
#define RAW(s) { BLD_RAW, sizeof(s) - 1, 0, 0, s }
#define CUT(k) { BLD_CUT, k, 0, 0, NULL }
#define SEQ_TO(output, mlen, offset) { BLD_SEQ_TO, output, mlen, offset, NULL }
#define HISTORY(output) { BLD_HISTORY, output, 0, 0, NULL }
#define SHORT_SEQUENCES(n) { BLD_SHORT_SEQUENCES, n, 0, 0, NULL }
#define OR_LAST_TOKEN(bits) { BLD_OR_LAST_TOKEN, bits, 0, 0, NULL }
#define SAME_AS_ABOVE { BLD_SAME_AS_ABOVE, 0, 0, 0, NULL }

#define BLD_MAX_STEPS 8

/* An empty block whose matches may reach into dict (NULL: none). */
bld bld_new(const uint8_t *dict, size_t dict_len);
void bld_free(bld *b);
/* Apply the steps up to BLD_END. */
void bld_apply(bld *b, const bld_step *steps, size_t nsteps);

/* The next byte of the literal stream (also fills the dictionaries). */
uint8_t bld_literal(void);

#endif /* LZ4GATE_BLOCK_BUILDER_H */
