/*
 * sample_data.h: the data the block encoder tests compress (test_encode.c
 * against ref_decode, test_interop.c against the system liblz4), drawn from
 * ref/prng.h so that every failure reproduces.
 */
#ifndef LZ4GATE_SAMPLE_DATA_H
#define LZ4GATE_SAMPLE_DATA_H

#include <stddef.h>
#include <stdint.h>

enum sample_kind {
    SAMPLE_MIXED,   /* random literals, byte runs and copies from up to ~70000 bytes back */
    SAMPLE_ZERO,    /* all zeros */
    SAMPLE_TEXT,    /* words, spaces, commas and newlines, like prose */
    SAMPLE_NOISE,   /* random bytes */
    SAMPLE_KINDS
};

extern const char *const sample_kind_names[SAMPLE_KINDS];

/* b[0..n) of kind k from the stream of seed. */
void sample_fill(enum sample_kind k, uint8_t *b, size_t n, uint64_t seed);

#endif /* LZ4GATE_SAMPLE_DATA_H */
