/*
 * catalogue.h: the vector catalogues of make_vectors, added in this order
 * (the literal stream of block_builder.h runs through them in it):
 *   generated  blocks of ref_gen_block over a plan of sizes and seeds
 *              (catalogue_generated.c);
 *   edge       hand-made valid blocks at the places decoders get wrong
 *              (catalogue_edge.c);
 *   dictionary hand-made blocks that reach into a dictionary
 *              (catalogue_dict.c);
 *   invalid    hand-made invalid blocks built from recipes, then every row of
 *              the shared malformed-block table (catalogue_invalid.c).
 * The hand-made catalogues are tables of handmade_vector rows.
 */
#ifndef LZ4GATE_CATALOGUE_H
#define LZ4GATE_CATALOGUE_H

#include <stddef.h>
#include <stdint.h>

#include "block_builder.h"
#include "lz4ref.h"

/* The capacity a hand-made vector is decoded with: its designed output
 * size plus `value`, or `value` itself. */
enum cap_kind { CAP_OUTPUT_PLUS, CAP_FIXED };
typedef struct cap_rule {
    enum cap_kind kind;
    size_t value;
} cap_rule;
#define EXACT { CAP_OUTPUT_PLUS, 0 }
#define OUTPUT_PLUS(k) { CAP_OUTPUT_PLUS, k }
#define FIXED(n) { CAP_FIXED, n }

typedef struct handmade_vector {
    const char *id, *comment, *flags;
    bld_step recipe[BLD_MAX_STEPS];
    cap_rule cap;
    ref_status strict, compatible;  /* whole-block decode at that capacity */
    size_t also_larger;             /* also <id>-cap+N, N more bytes of capacity (0: no) */
} handmade_vector;

/* A valid row, also at `larger` more bytes of capacity when larger > 0. */
#define VALID(larger) EXACT, REF_OK, REF_OK, larger

/* Build and add every row of a table (dictionary: NULL, or its file name
 * and content, for all the rows). */
void add_handmade_table(const handmade_vector *rows, size_t n, const char *dict_name,
                        const uint8_t *dict, size_t dict_len);

void generated_vectors(void);
void edge_vectors(void);
void dict_vectors(void);
void invalid_vectors(void);

/* Generated vectors so far. */
unsigned generated_count(void);

#endif /* LZ4GATE_CATALOGUE_H */
