/*
 * synth.h: data of up to several MiB described by a few bytes, for the
 * targets that compress (structure-aware input): a short fuzz input reaches
 * the compressors' paths for large inputs (32-bit position tables past
 * 64 KiB, HC's chain table and its pattern and run analysis, repeats the
 * 64 KiB window can no longer reach) without libFuzzer executing megabytes
 * of input per run.
 *
 * The data is a sequence of segments. Each segment is described by 4 bytes
 * of the description, read in turn; when the description is used up, the
 * further segments come from the ref/prng.h stream of `seed`:
 *
 *   byte 0   bits 0-2 kind, bits 3-7 k: the length is in [2^k', 2^(k'+1))
 *            with k' = k % 24, byte 1 choosing where (a length is cut to
 *            what is left of the data)
 *   byte 1   length within the class
 *   bytes 2-3  the kind's parameter p (little endian)
 *
 *   kind 0  random bytes (a window of a fixed pseudo-random pool, at p)
 *   kind 1  a run of the byte p & 255
 *   kind 2  a short period: 1 + (p & 15) pool bytes (at p >> 4), repeated
 *   kind 3  zeros
 *   kind 4  a copy of earlier data from a distance of 1 .. 2^(p % 24)
 *           (overlapping copies repeat the last `distance` bytes)
 *   kind 5  text: pool bytes over an alphabet of 2 + (p & 7) letters
 *   kind 6  the description's own bytes, repeated (bytes the fuzzer writes)
 *   kind 7  a copy from beyond the 64 KiB window: distance 64 KiB + 1 ..
 *           what is there, when more than 64 KiB was produced (else kind 4)
 *
 * Deterministic: the same (description, seed, length) gives the same bytes
 * on every platform. Cost: memcpy / memset speed, except kind 5 (one
 * table look-up per byte).
 */
#ifndef LZ4GATE_FUZZ_SYNTH_H
#define LZ4GATE_FUZZ_SYNTH_H

#include <stddef.h>
#include <stdint.h>

/* Fills out[0..len). */
void fz_synth(uint8_t *out, size_t len, const uint8_t *desc, size_t desc_len, uint64_t seed);
/* fz_synth with only the segment kinds of the mask `kinds` (bit k: kind k);
 * a segment of another kind is a run (kind 1) instead. For a compressor
 * whose cost per byte grows with the matches it tries (HC on text). */
#define FZ_SYNTH_ALL_KINDS 0xFFu
/* byte runs and zeros only: data HC compresses fast (it tries every
 * position of random bytes or text, ~1 us per byte under coverage
 * instrumentation) */
#define FZ_SYNTH_RUNS (1u << 1 | 1u << 3)
void fz_synth_kinds(uint8_t *out, size_t len, const uint8_t *desc, size_t desc_len,
                    uint64_t seed, unsigned kinds);

/* Data sizes a target draws from one selector byte and 4 value bytes,
 * large sizes with low probability, so that each class costs a small part
 * of the time of the small one (the compressors' time grows with the
 * size; issue 15: the bench's exec/s):
 *   sel < FZ_SYNTH_SEL_LARGE   0 .. small_max, log-uniform: below 2^k with
 *                              k = (value >> 27) % (bits of small_max + 1),
 *                              then (value & (2^27 - 1)) % min(2^k, small_max
 *                              + 1). Short data most of the time, as
 *                              libFuzzer's own inputs early in a run (its
 *                              -len_control), every size up to small_max.
 *   sel >= FZ_SYNTH_SEL_LARGE  (1/128 of the draws) by value & 4095:
 *       0                      1 MiB .. max           (1 in 524 288 draws)
 *                              in steps of 8 bytes
 *       a multiple of 64       64 KiB .. 1 MiB        (63 in 524 288)
 *       else                   0 .. 64 KiB + 4 KiB
 *     the size in the class from value >> 12.
 * A seed (or a mutation that keeps its header) chooses a class directly:
 * sel 255, value (size - 65536) << 12 | 64 gives a size of 64 KiB .. 1 MiB,
 * ((size - 1 MiB) / 8) << 12 one of 1 MiB .. max. */
#define FZ_SYNTH_SEL_LARGE 254
/* A value giving exactly n bytes below a small_max of at least n, n < 2^k
 * and k <= bits of small_max (a seed's), and the one for small_max 4096. */
#define FZ_SYNTH_LOG(k, n) ((uint32_t)(k) << 27 | (uint32_t)(n))
#define FZ_SYNTH_SMALL_4K(n) FZ_SYNTH_LOG(13, n)
size_t fz_synth_size(uint8_t sel, uint32_t value, size_t small_max, size_t max);

#endif /* LZ4GATE_FUZZ_SYNTH_H */
