/*
 * block_writer.h: writing LZ4 sequences byte by byte (lz4_Block_format.md,
 * "Compressed block format"), for the hand-made blocks of the unit tests
 * and of the vector generator.
 */
#ifndef LZ4GATE_BLOCK_WRITER_H
#define LZ4GATE_BLOCK_WRITER_H

#include <stddef.h>

#include "buf.h"

/*
 * One sequence: the token, the literal-length chain, the nlit literals and,
 * when has_match, the 2-byte little-endian offset and the match-length chain
 * of a match of mlen >= 4 bytes (the token's field holds mlen - 4). Without
 * a match it is a last sequence: literals only, token low nibble 0.
 */
void block_put_sequence(buf *b, const void *lits, size_t nlit, int has_match, size_t offset,
                        size_t mlen);

#endif /* LZ4GATE_BLOCK_WRITER_H */
