/*
 * Unit tests of the reference frame decoder's error classes: one input per
 * named frame check (frame_checks.h), so `tests/mutants.py FRAME_...` (the
 * check compiled out) fails this program, and every malformed block of the
 * shared catalogue (harness/runners/vectors/malformed_blocks.c) as the one
 * block of a frame. Each input is a row of frame_error_cases: a short
 * recipe (frame_input.h), the options, and the status, check, input offset
 * and output size the decoder must report, one-shot and, for every split of
 * the input (or random splits of the large ones), streamed.
 */
#include <stdint.h>

#include "buf.h"
#include "check.h"
#include "frame_build.h"
#include "frame_input.h"
#include "frame_split.h"
#include "lz4frame_ref.h"
#include "malformed_blocks.h"

/* What one decode of an input must report. */
typedef struct frame_expect {
    const char *what;
    ref_frame_options o;
    ref_frame_status status;
    int check;                  /* REF_CHECK_*, or NO_CHECK */
    ref_status block_status;    /* status REF_FRAME_ERR_BLOCK: the block's error */
    long long offset;           /* -1: not checked */
    size_t written;
    const void *output;         /* NULL: not checked */
    size_t max_out;
    int every;                  /* every split, else 3 rounds of random splits */
} frame_expect;

static void check_decode(const frame_expect *e, const buf *in)
{
    uint8_t *out = malloc(e->max_out + SLACK);
    ref_frame_result r = one_shot(&e->o, in->p, in->n, out, e->max_out + SLACK);
    CHECK(r.status == e->status, "%s: status %s, want %s", e->what,
          ref_frame_status_name(r.status), ref_frame_status_name(e->status));
    CHECK(r.failed_check == e->check, "%s: check %s, want %s", e->what,
          ref_frame_check_name(r.failed_check), ref_frame_check_name(e->check));
    CHECK(e->offset < 0 || r.consumed == (uint64_t)e->offset, "%s: offset %llu, want %lld",
          e->what, (unsigned long long)r.consumed, e->offset);
    CHECK_EQ_SIZE(r.written, e->written, e->what);
    if (e->status == REF_FRAME_ERR_BLOCK)
        CHECK(r.block_status == e->block_status, "%s: block status %s, want %s", e->what,
              ref_status_name(r.block_status), ref_status_name(e->block_status));
    if (e->output)
        CHECK(r.written == e->written && memcmp(out, e->output, e->written) == 0,
              "%s: output differs", e->what);
    if (e->every)
        every_split(e->what, &e->o, in->p, in->n, e->max_out);
    else
        random_splits(e->what, &e->o, in->p, in->n, e->max_out, 3, 5);
    free(out);
}

static void test_frame_error_cases(void)
{
    size_t i;
    for (i = 0; i < frame_error_case_count; i++) {
        const frame_error_case *fc = &frame_error_cases[i];
        buf in = { NULL, 0, 0 };
        frame_expect e;
        memset(&e, 0, sizeof e);
        frame_input_build(fc, &in);
        e.what = fc->what;
        e.o = frame_opts();
        if (fc->options & OPT_STRICT)
            e.o.profile = REF_PROFILE_STRICT;
        if (fc->options & OPT_ZERO_PADDING)
            e.o.zero_padding = 1;
        e.status = fc->status;
        e.check = fc->check;
        e.block_status = fc->block_status;
        e.offset = frame_input_offset(fc, &in);
        e.written = fc->written;
        e.max_out = fc->max_out ? fc->max_out : (size_t)1 << 17;
        e.every = fc->splits == SPLIT_EVERY;
        check_decode(&e, &in);
        buf_free(&in);
    }
}

/*
 * The malformed blocks whose defect is in the block itself, as the one
 * compressed block of a frame (FLG 0x60, BD 0x40: 7-byte header, the size
 * field, the block, the EndMark): the frame fails with the block decoder's
 * status and check at the block's offset plus the row's position, or, where
 * the compatible profile accepts the block, decodes to its output.
 */
static void test_malformed_blocks_in_frames(void)
{
    enum { BLOCK_DATA_AT = 7 + 4 };
    size_t i;
    int strict;
    for (i = 0; i < malformed_block_count; i++) {
        const malformed_block *m = &malformed_blocks[i];
        buf in = { NULL, 0, 0 };
        if (!malformed_block_in_frame(m))
            continue;
        put_frame_header(&in, 0x60, 0x40, 0, 0);
        put_frame_block(&in, m->bytes, m->len, 0, 0);
        put_le32(&in, 0);
        for (strict = 0; strict < 2; strict++) {
            frame_expect e;
            ref_status st = strict ? m->strict : m->compatible;
            memset(&e, 0, sizeof e);
            e.what = m->name;
            e.o = frame_opts();
            e.o.profile = strict ? REF_PROFILE_STRICT : REF_PROFILE_COMPATIBLE;
            e.max_out = (size_t)1 << 17;
            e.every = 1;
            if (st == REF_OK) {
                e.status = REF_FRAME_OK;
                e.check = NO_CHECK;
                e.offset = (long long)in.n;
                e.written = m->compatible_output_len;
                e.output = m->compatible_output;
            } else {
                e.status = REF_FRAME_ERR_BLOCK;
                e.check = m->check;
                e.block_status = st;
                e.offset = (long long)(BLOCK_DATA_AT + m->position);
            }
            check_decode(&e, &in);
        }
        buf_free(&in);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    frame_input_self_test();
    test_frame_error_cases();
    test_malformed_blocks_in_frames();
    return check_summary(argv[0]);
}
