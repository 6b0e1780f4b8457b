/*
 * Generated test data shared by the contract checks and the regression
 * runner: the same (kind, size, seed) gives the same bytes on every
 * platform, so a case or a record names its data instead of storing it.
 */
#ifndef LZ4GATE_TESTDATA_H
#define LZ4GATE_TESTDATA_H

#include <stddef.h>
#include <stdint.h>

/* Kinds:
 *   random  xorshift bytes
 *   unique  random bytes in which no 4-byte window occurs twice:
 *           incompressible for every LZ4 compressor (KLZ4-GAP-HCLIM needs
 *           one literal run of ~1 MiB; plain random data has accidental
 *           4-byte matches every ~64 KiB)
 *   zeros   all 0
 *   text    words of a small vocabulary (compresses like prose)
 *   mixed   random 256-byte runs alternating with repeats of them
 * Fills d[0..n); returns 0, or -1 for an unknown kind or out of memory. */
int testdata_fill(unsigned char *d, size_t n, const char *kind, uint64_t seed);

/* malloc'd (at least 1 byte) and filled; aborts on an unknown kind or when
 * memory runs out. */
unsigned char *testdata_make(const char *kind, size_t n, uint64_t seed);

#endif
