/*
 * vector_load.h: the vectors of a directory written by make_vectors, read
 * from its index.json and block / dictionary files, for the vector runner.
 * Anything missing or inconsistent stops the runner (exit status 2).
 */
#ifndef LZ4GATE_VECTOR_LOAD_H
#define LZ4GATE_VECTOR_LOAD_H

#include <stddef.h>

/* One profile's expectation: valid (output size and SHA-256) or invalid. */
typedef struct expect {
    int valid;
    size_t output_size;
    char sha[65];
    char status[48];
} expect;

typedef struct expectation {
    int present;
    expect prof[2];        /* strict, compatible */
    /* Partial decode of a malformed block: reject, or a prefix of these bytes. */
    int malformed;
    size_t prefix_size;
    char prefix_sha[65];
} expectation;

typedef struct vector {
    char id[96];
    unsigned char *block;
    size_t block_len;
    unsigned char *dict;    /* NULL: no dictionary */
    size_t dict_len;
    size_t capacity;
    unsigned char *prefix;  /* malformed: the bytes the block defines before its defect */
    expectation whole, partial;
} vector;

/* Print "vectors: ..." and exit with status 2 (not exit(): LeakSanitizer
 * would turn 2 into its own status). */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* The vectors of dir (*count of them); the prefixes of the malformed ones
 * are recomputed with the reference decoder and must match the index. */
vector *load_vectors(const char *dir, size_t *count);
void free_vectors(vector *vs, size_t count);

#endif /* LZ4GATE_VECTOR_LOAD_H */
