/* Building the inputs of the frame error cases (frame_input.h). */
#include "frame_input.h"

#include "check.h"
#include "frame_build.h"

static void put_part(buf *in, const frame_part *p)
{
    buf blk = { NULL, 0, 0 };
    unsigned m;
    switch (p->kind) {
    case PART_END:
        break;
    case PART_SMALL_FRAME:
        put_small_frame(in, (unsigned)p->a, p->b);
        break;
    case PART_HEADER:
        put_frame_header(in, (unsigned)p->a, (unsigned)p->b, p->c, (uint32_t)p->d);
        break;
    case PART_LE32:
        put_le32(in, (uint32_t)p->a);
        break;
    case PART_BYTES:
        buf_append(in, p->bytes, p->n, 0);
        break;
    case PART_STORED_ZEROS: {
        uint8_t *zeros = calloc((size_t)p->a + 1, 1);
        put_frame_block(in, zeros, (size_t)p->a, 1, (int)p->b);
        free(zeros);
        break;
    }
    case PART_RUN_BLOCK:
        put_run_block(&blk, (size_t)p->a);
        put_frame_block(in, blk.p, blk.n, 0, 0);
        break;
    case PART_RUN_DATA:
        put_run_block(&blk, (size_t)p->a);
        buf_append(in, blk.p, p->b ? (size_t)p->b : blk.n, 0);
        break;
    case PART_RUN_CHUNK:
        put_run_block(&blk, (size_t)p->a);
        put_le32(in, (uint32_t)blk.n);
        buf_append(in, blk.p, blk.n, 0);
        break;
    case PART_LEGACY_MEMBER:
        put_legacy_member(in);
        break;
    case PART_SKIPPABLES:
        for (m = 0; m < 16; m++) {
            put_le32(in, REF_SKIPPABLE_MAGIC_MIN + m);
            put_le32(in, m);
            buf_append(in, "0123456789abcdef", m, 0);
        }
        break;
    }
    buf_free(&blk);
}

void frame_input_build(const frame_error_case *fc, buf *in)
{
    size_t i;
    for (i = 0; i < sizeof fc->parts / sizeof fc->parts[0]; i++)
        put_part(in, &fc->parts[i]);
    switch (fc->edit.kind) {
    case EDIT_NONE:
        break;
    case EDIT_CUT_TO:
        in->n = fc->edit.at;
        break;
    case EDIT_CUT:
        in->n -= fc->edit.at;
        break;
    case EDIT_XOR_AT:
        in->p[fc->edit.at] ^= (uint8_t)fc->edit.mask;
        break;
    case EDIT_XOR_FROM_END:
        in->p[in->n - fc->edit.at] ^= (uint8_t)fc->edit.mask;
        break;
    }
}

long long frame_input_offset(const frame_error_case *fc, const buf *in)
{
    switch (fc->offset.kind) {
    case OFFSET_AT:
        return (long long)fc->offset.value;
    case OFFSET_FROM_END:
        return (long long)(in->n - fc->offset.value);
    case OFFSET_UNCHECKED:
        break;
    }
    return -1;
}

void frame_input_self_test(void)
{
    buf b = { NULL, 0, 0 };
    put_run_block(&b, 19);
    CHECK_EQ_SIZE(b.n, RUN19_BLOCK_LEN, "put_run_block(19)");
    b.n = 0;
    put_legacy_member(&b);
    CHECK_EQ_SIZE(b.n, LEGACY_MEMBER_LEN, "put_legacy_member");
    buf_free(&b);
}
