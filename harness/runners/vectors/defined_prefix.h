/*
 * defined_prefix.h: the bytes a malformed block defines before its defect,
 * as far as a partial decode with target = capacity can go. make_vectors
 * records their size and SHA-256 in index.json ("malformed"); the vector
 * runner recomputes them and accepts a subject's partial decode of such a
 * block when it returns a prefix of them (ref/profile.c, PARTIAL_EARLY_END).
 */
#ifndef LZ4GATE_DEFINED_PREFIX_H
#define LZ4GATE_DEFINED_PREFIX_H

#include <stddef.h>
#include <stdint.h>

/*
 * The output of ref's partial decode (compatible profile, target = cap)
 * when it succeeds; otherwise the bytes it wrote before the error plus,
 * when the input ended inside a literal run, the literal bytes that are
 * there. out has cap bytes; returns how many it holds.
 */
size_t defined_prefix(const uint8_t *blk, size_t blen, size_t cap, const uint8_t *dict,
                      size_t dict_len, uint8_t *out);

#endif /* LZ4GATE_DEFINED_PREFIX_H */
