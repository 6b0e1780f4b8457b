/*
 * frame_split.h: decoding a frame one-shot and streamed, and checking that
 * streaming gives exactly the one-shot result for every split of the input
 * (small inputs) or for random splits (large ones). Inputs live in exactly
 * sized heap buffers, for AddressSanitizer.
 */
#ifndef LZ4GATE_FRAME_SPLIT_H
#define LZ4GATE_FRAME_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "lz4frame_ref.h"

/* Room the one-shot gets past the expected output: one block maximum of the
 * frames these tests split (64 KiB; legacy cases pass max_out >= 8 MiB), so
 * that its capacity never stops a block and the results compare. */
#define SLACK ((size_t)1 << 16)

/* The default decoding options (ref_frame_options_default). */
ref_frame_options frame_opts(void);

/* One-shot decode from an exactly sized copy of the input. */
ref_frame_result one_shot(const ref_frame_options *o, const uint8_t *src, size_t n,
                          uint8_t *dst, size_t cap);

/* Streaming equals one-shot for every split point and a few output chunk
 * sizes (the one-shot gets room for every block). */
void every_split(const char *what, const ref_frame_options *o, const uint8_t *src, size_t n,
                 size_t max_out);

/* Streaming with up to 12 random cuts and random output chunk sizes equals
 * one-shot, `rounds` times (cuts drawn from ref/prng.h's stream of seed). */
void random_splits(const char *what, const ref_frame_options *o, const uint8_t *src,
                   size_t n, size_t max_out, int rounds, uint64_t seed);

#endif /* LZ4GATE_FRAME_SPLIT_H */
