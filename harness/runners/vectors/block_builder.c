/* Hand-made blocks from recipes (block_builder.h). */
#include "block_builder.h"

#include "alloc.h"
#include "block_writer.h"
#include "lz4ref.h"
#include "prng.h"
#include "vector_files.h"

/* The literal stream: "handmade". */
static ref_prng literals = { 0x68616E646D616465ull };

uint8_t bld_literal(void)
{
    return (uint8_t)(ref_prng_next(&literals) >> 24);
}

bld bld_new(const uint8_t *dict, size_t dict_len)
{
    bld b = { { NULL, 0, 0 }, { NULL, 0, 0 }, 0, dict, dict_len };
    return b;
}

void bld_free(bld *b)
{
    buf_free(&b->blk);
    buf_free(&b->out);
}

/* A sequence of nlit fresh literals and, when has_match, a match of mlen >= 4
 * at offset. The designed output copies byte by byte, oldest first
 * (overlap), from the dictionary for positions before the output; offset 0
 * gives zeros (the compatible profile). An offset outside the history adds
 * no output. */
static void put_sequence(bld *b, size_t nlit, int has_match, size_t mlen, size_t offset)
{
    uint8_t *lits = xmalloc(nlit);
    size_t i, q;
    for (i = 0; i < nlit; i++)
        lits[i] = bld_literal();
    b->last_token = b->blk.n;
    block_put_sequence(&b->blk, lits, nlit, has_match, offset, mlen);
    buf_append(&b->out, lits, nlit, 0);
    free(lits);
    if (!has_match || offset > b->out.n + b->dict_len)
        return;
    buf_reserve(&b->out, mlen);
    for (i = 0; i < mlen; i++) {
        q = b->out.n;
        b->out.p[q] = offset == 0 ? 0
                      : q >= offset ? b->out.p[q - offset]
                                    : b->dict[b->dict_len - (offset - q)];
        b->out.n++;
    }
}

/* The history before the matches at offset 65535: not periodic but cheap
 * to encode (2 literals and a 200-byte match at a pseudo-random offset),
 * until the output is within 203 bytes of `until`. */
static void put_history(bld *b, size_t until)
{
    ref_prng offsets = { 0x6F6666736574ull };   /* "offset" */
    while (b->out.n + 202 + 1 <= until) {
        size_t room = b->out.n + 2 < 65535 ? b->out.n + 2 : 65535;
        put_sequence(b, 2, 1, 200, 1 + ref_prng_below(&offsets, room));
    }
}

void bld_apply(bld *b, const bld_step *steps, size_t nsteps)
{
    size_t i, k;
    for (i = 0; i < nsteps && steps[i].op != BLD_END; i++) {
        const bld_step *s = &steps[i];
        switch (s->op) {
        case BLD_END:
            break;
        case BLD_SEQ:
            put_sequence(b, s->a, 1, s->b, s->c);
            break;
        case BLD_LAST:
            put_sequence(b, s->a, 0, 0, 0);
            break;
        case BLD_RAW:
            buf_append(&b->blk, s->raw, s->a, 0);
            break;
        case BLD_CUT:
            b->blk.n -= s->a;
            break;
        case BLD_SEQ_TO:
            if (s->a < b->out.n)
                die("recipe: output already past %zu", s->a);
            put_sequence(b, s->a - b->out.n, 1, s->b, s->c);
            break;
        case BLD_HISTORY:
            put_history(b, s->a);
            break;
        case BLD_SHORT_SEQUENCES:
            for (k = 0; k < s->a; k++)
                put_sequence(b, k % 4, 1, 4 + k % 3, 1 + k % 5);
            break;
        case BLD_OR_LAST_TOKEN:
            b->blk.p[b->last_token] |= (uint8_t)s->a;
            break;
        case BLD_SAME_AS_ABOVE:
            die("recipe: SAME_AS_ABOVE is only a first step");
        }
    }
}
