/* Writing LZ4 frames for the frame tests (frame_build.h). */
#include "frame_build.h"

#include "block_writer.h"
#include "lz4frame_ref.h"
#include "prng.h"

void put_byte(buf *b, unsigned v)
{
    buf_append(b, NULL, 1, (int)(v & 0xFF));
}

void put_le32(buf *b, uint32_t v)
{
    uint8_t c[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    buf_append(b, c, 4, 0);
}

void put_le64(buf *b, uint64_t v)
{
    put_le32(b, (uint32_t)v);
    put_le32(b, (uint32_t)(v >> 32));
}

void put_frame_header(buf *b, unsigned flg, unsigned bd, uint64_t csize, uint32_t dict_id)
{
    size_t start;
    put_le32(b, REF_FRAME_MAGIC);
    start = b->n;
    put_byte(b, flg);
    put_byte(b, bd);
    if (flg & 0x08)     /* FLG bit 3: Content Size */
        put_le64(b, csize);
    if (flg & 0x01)     /* FLG bit 0: Dict-ID */
        put_le32(b, dict_id);
    put_byte(b, (ref_xxh32(b->p + start, b->n - start, 0) >> 8) & 0xFF);
}

void put_frame_block(buf *b, const void *data, size_t n, int stored, int checksum)
{
    put_le32(b, (uint32_t)n | (stored ? 0x80000000u : 0));
    buf_append(b, data, n, 0);
    if (checksum)
        put_le32(b, ref_xxh32(data, n, 0));
}

void put_run_block(buf *b, size_t run)
{
    block_put_sequence(b, "a", 1, 1, 1, run);
    block_put_sequence(b, "tail!", 5, 0, 0, 0);
}

void put_small_frame(buf *b, unsigned flg, uint64_t csize)
{
    buf blk = { NULL, 0, 0 };
    put_run_block(&blk, 19);
    put_frame_header(b, flg, 0x40, csize, 0);
    put_frame_block(b, "hello", 5, 1, flg & 0x10);   /* FLG bit 4: block checksums */
    put_frame_block(b, blk.p, blk.n, 0, flg & 0x10);
    put_le32(b, 0);                                   /* EndMark */
    if (flg & 0x04)                                   /* FLG bit 2: content checksum */
        put_le32(b, ref_xxh32(SMALL_CONTENT, SMALL_LEN, 0));
    buf_free(&blk);
}

void put_legacy_member(buf *b)
{
    buf blk = { NULL, 0, 0 };
    put_run_block(&blk, 19);
    put_le32(b, REF_LEGACY_MAGIC);
    put_le32(b, (uint32_t)blk.n);
    buf_append(b, blk.p, blk.n, 0);
    buf_free(&blk);
}

void fill_data(uint8_t *p, size_t n, enum fill_kind kind, uint64_t seed)
{
    ref_prng rng = { seed };
    size_t i;
    for (i = 0; i < n; i++) {
        switch (kind) {
        case FILL_RANDOM: p[i] = (uint8_t)ref_prng_next(&rng); break;
        case FILL_MIXED: p[i] = (uint8_t)(i % 251 < 120 ? 0 : ref_prng_next(&rng)); break;
        }
    }
}
