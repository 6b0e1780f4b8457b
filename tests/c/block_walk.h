/*
 * block_walk.h: walking an LZ4 block's sequences without decoding it, an
 * independent check (written from lz4_Block_format.md, not from ref) of
 * the blocks the encoder tests produce: their size, the end-of-block rules
 * and their use of a dictionary.
 */
#ifndef LZ4GATE_BLOCK_WALK_H
#define LZ4GATE_BLOCK_WALK_H

#include <stddef.h>
#include <stdint.h>

typedef struct walk {
    size_t out_len;
    size_t matches;
    size_t last_literals;   /* literals of the last sequence */
    size_t last_match_from_end; /* output end - start of last match */
    size_t max_offset;
    int dict_match;         /* some match starts in the dictionary */
    int crossing_match;     /* ... and continues into the input */
} walk;

/* Walk b[0..n) into *w; 0 when the block does not parse. */
int walk_block(const uint8_t *b, size_t n, walk *w);

/* CHECKs that the block parses, decodes to n bytes, obeys the end rules
 * (spec, "End of block conditions", rules 2 and 3) and reaches back at most
 * 65535 bytes. */
void check_end_rules(const uint8_t *blk, size_t blk_len, size_t n, const char *what);

#endif /* LZ4GATE_BLOCK_WALK_H */
