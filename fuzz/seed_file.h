/*
 * seed_file.h: writing seed files for fuzz/make_seeds*.c: DIR/seed-NNN-WHAT,
 * numbered in the order written, [header][payload].
 */
#ifndef LZ4GATE_FUZZ_SEED_FILE_H
#define LZ4GATE_FUZZ_SEED_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"

typedef struct seed_dir {
    const char *path;
    int count;              /* seeds written so far (the next number) */
} seed_dir;

/* The length of a written header; exits 2 when it is longer than its buffer
 * (the target's HEADER): a bug of the seed writer, not a seed. */
size_t seed_header_len(const fuzz_header_writer *w);
/* Writes one seed; exits 2 on an I/O error. */
void seed_save(seed_dir *d, const uint8_t *hdr, size_t hlen, const uint8_t *payload,
               size_t plen, const char *what);

#endif /* LZ4GATE_FUZZ_SEED_FILE_H */
