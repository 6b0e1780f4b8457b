/* Writing LZ4 sequences (block_writer.h). */
#include "block_writer.h"

#include "lz4ref.h"

static void put_byte(buf *b, unsigned v)
{
    buf_append(b, NULL, 1, (int)(v & 0xFF));
}

/* The bytes after a token field of 15 (spec, Token): 255 while more than
 * 254 remain, then the rest (possibly 0). */
static void put_length_chain(buf *b, size_t rest)
{
    for (; rest >= 255; rest -= 255)
        put_byte(b, 255);
    put_byte(b, (unsigned)rest);
}

void block_put_sequence(buf *b, const void *lits, size_t nlit, int has_match, size_t offset,
                        size_t mlen)
{
    size_t lcode = nlit < 15 ? nlit : 15, mcode = 0;
    if (has_match)
        mcode = mlen - REF_MIN_MATCH < 15 ? mlen - REF_MIN_MATCH : 15;
    put_byte(b, (unsigned)(lcode << 4 | mcode));
    if (nlit >= 15)
        put_length_chain(b, nlit - 15);
    buf_append(b, lits, nlit, 0);
    if (!has_match)
        return;
    put_byte(b, (unsigned)(offset & 0xFF));
    put_byte(b, (unsigned)(offset >> 8));
    if (mlen - REF_MIN_MATCH >= 15)
        put_length_chain(b, mlen - REF_MIN_MATCH - 15);
}
