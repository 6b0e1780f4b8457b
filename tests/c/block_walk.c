/* Walking a block without decoding it (block_walk.h). */
#include "block_walk.h"

#include <string.h>

#include "check.h"
#include "lz4ref.h"

/* A length: the token field v, plus the 255-chain after a field of 15;
 * SIZE_MAX when the chain runs past the block. */
static size_t walk_len(const uint8_t *b, size_t n, size_t *ip, size_t v)
{
    if (v == 15) {
        uint8_t x;
        do {
            if (*ip >= n)
                return SIZE_MAX;
            x = b[(*ip)++];
            v += x;
        } while (x == 255);
    }
    return v;
}

int walk_block(const uint8_t *b, size_t n, walk *w)
{
    size_t ip = 0, op = 0, last_match_start = 0;
    memset(w, 0, sizeof *w);
    for (;;) {
        uint8_t token;
        size_t lit, off, ml;
        if (ip >= n)
            return 0;
        token = b[ip++];
        lit = walk_len(b, n, &ip, token >> 4);
        if (lit == SIZE_MAX || lit > n - ip)
            return 0;
        ip += lit;
        op += lit;
        if (ip == n) {
            w->out_len = op;
            w->last_literals = lit;
            w->last_match_from_end = w->matches ? op - last_match_start : 0;
            return 1;
        }
        if (n - ip < 2)
            return 0;
        off = (size_t)b[ip] | (size_t)b[ip + 1] << 8;
        ip += 2;
        ml = walk_len(b, n, &ip, token & 15);
        if (ml == SIZE_MAX || off == 0)
            return 0;
        ml += REF_MIN_MATCH;
        if (off > w->max_offset)
            w->max_offset = off;
        if (off > op) {
            w->dict_match = 1;
            if (off - op < ml)
                w->crossing_match = 1;
        }
        w->matches++;
        last_match_start = op;
        op += ml;
    }
}

void check_end_rules(const uint8_t *blk, size_t blk_len, size_t n, const char *what)
{
    walk w;
    int ok = walk_block(blk, blk_len, &w);
    CHECK(ok, "%s: block does not parse", what);
    if (!ok)
        return;
    CHECK_EQ_SIZE(w.out_len, n, what);
    /* Rules 2 and 3 bind the blocks that have a match (counted either way,
     * so the number of checks does not depend on the data). */
    CHECK(!w.matches || w.last_literals >= REF_LAST_LITERALS, "%s: last literals %zu", what,
          w.last_literals);
    CHECK(!w.matches || w.last_match_from_end >= REF_MATCH_FROM_END,
          "%s: last match %zu from end", what, w.last_match_from_end);
    CHECK(w.max_offset <= REF_MAX_OFFSET, "%s", what);
}
