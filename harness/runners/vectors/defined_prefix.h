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

/*
 * 1 when a partial decode that returned r < cap bytes of a malformed block
 * stopped where its input runs out (PARTIAL_EARLY_END allows only that):
 *   - inside the last literal run: r is all of defined_prefix, ref stopped
 *     for lack of literal bytes;
 *   - after a literal run followed by at most 2 input bytes, too few for an
 *     offset and a next token: the block without its last 1 or 2 bytes
 *     decodes (compatible profile) to exactly r bytes.
 * Anywhere else the decoder skipped a sequence it had the bytes to read
 * (regression case ULZ4-2026-1753: lz4 up to 1.8.2 returns the literals
 * before a match-length chain that is cut short). The fuzz oracle applies
 * the same rule (fuzz/oracle_verdict.c, fz_ends_where_input_does).
 */
int ends_where_input_does(const uint8_t *blk, size_t blen, size_t cap, size_t r);

#endif /* LZ4GATE_DEFINED_PREFIX_H */
