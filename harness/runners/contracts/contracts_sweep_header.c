/*
 * Boundary sweep of frame header fields (issue 25, "Find one-line bugs
 * without luck"): LZ4F_getFrameInfo after every prefix length of every
 * header ref writes, each in a buffer that ends at a guard page.
 *
 * Frames: ref's, for every combination of Block Maximum Size (BD 4 and 7),
 * block independence, block checksum, content checksum, Content Size
 * (absent, 1000) and Dictionary ID (absent, 0x12345678): 64 headers of 7 to
 * 19 bytes (Frame format, "Frame Descriptor"); and a skippable frame
 * ("Skippable Frames"). The prefix lengths run from 0 to the header's
 * length + 8 (the first block's bytes follow).
 *
 * The verdict, by ref's header parser (ref_frame_info): a prefix that holds
 * the whole header must give every field ref wrote (those the tree's
 * LZ4F_frameInfo_t has) and consume exactly the header (a skippable
 * frame's: its magic number may do); a shorter one must fail, or consume
 * nothing and claim no header (a later call goes on), and never read past
 * its end (the guard page, ASan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contracts.h"
#include "frame_make.h"
#include "guard.h"
#include "testdata.h"

static const struct lz4_subject *subject;

#define CONTENT 1000
#define DICT_ID 0x12345678u
#define COMBOS 64
#define SKIPPABLE_MAGIC 0x184D2A53u
#define SKIPPABLE_DATA 6

/* Frame i (i < COMBOS: ref's, the flags its bits; COMBOS: skippable). */
static size_t header_frame(size_t i, const unsigned char *content, unsigned char **out,
                           char *what, size_t what_cap)
{
    ref_frame_prefs p;
    if (i == COMBOS) {
        static const unsigned char skippable[] = {
            SKIPPABLE_MAGIC & 0xFF, (SKIPPABLE_MAGIC >> 8) & 0xFF,
            (SKIPPABLE_MAGIC >> 16) & 0xFF, SKIPPABLE_MAGIC >> 24,
            SKIPPABLE_DATA, 0, 0, 0, 'l', 'z', '4', 'g', 'a', 't' };
        *out = malloc(sizeof skippable);
        if (!*out)
            return 0;
        memcpy(*out, skippable, sizeof skippable);
        snprintf(what, what_cap, "skippable frame of %d bytes", SKIPPABLE_DATA);
        return sizeof skippable;
    }
    ref_frame_prefs_default(&p);
    p.block_max = i & 1 ? 7 : 4;
    p.linked_blocks = !(i & 2);
    p.block_checksum = (i & 4) != 0;
    p.content_checksum = (i & 8) != 0;
    p.content_size = (i & 16) != 0;
    p.dict_id_present = (i & 32) != 0;
    p.dict_id = DICT_ID;
    snprintf(what, what_cap, "frame with BD %d, %s blocks%s%s%s%s", p.block_max,
             p.linked_blocks ? "linked" : "independent",
             p.block_checksum ? ", block checksums" : "",
             p.content_checksum ? ", content checksum" : "",
             p.content_size ? ", content size" : "", p.dict_id_present ? ", dictID" : "");
    return frame_make(&p, content, CONTENT, out);
}

/* A field the subject reports (not -1) that differs from ref's. */
static const char *wrong_field(const struct subject_frame_info *got, const ref_frame_info_t *want)
{
#define FIELD(name, value) if (got->name != -1 && got->name != (long long)(value)) return #name
    FIELD(skippable, want->skippable);
    FIELD(content_size, want->content_size);
    if (want->skippable)
        return NULL;
    FIELD(block_size_id, want->block_size_id);
    FIELD(block_independent, want->independent);
    FIELD(content_checksum, want->content_checksum);
    FIELD(block_checksum, want->block_checksum);
    FIELD(dict_id, want->dict_id);
#undef FIELD
    return NULL;
}

/* getFrameInfo on frame[0..k), in a buffer that ends there. */
static check_result info_call(const unsigned char *frame, size_t k, const ref_frame_info_t *want,
                              const char *what, char *msg, unsigned cap)
{
    guard_buf in = guard_dup(frame, k);
    struct subject_frame_info got;
    size_t consumed = k;
    long long r;
    const char *field;
    check_result res = CHECK_PASS;
    guard_label(&in, "input(frame header prefix)");
    memset(&got, 0xFF, sizeof got);     /* -1 everywhere: nothing reported */
    r = subject->frame_get_info(in.data, &consumed, &got);
    /* A skippable frame's header may be read as its magic number only: lz4
     * 1.9.4 and 1.10 consume those 4 bytes and read the size in
     * LZ4F_decompress (a reading the frame format leaves open; the type is
     * known, the size is not yet). */
    if (want->skippable && k >= 4 && r >= 0 && consumed == 4) {
        if (got.skippable == 0)
            res = check_fail(msg, cap, FAIL_WRONG_FRAME_INFO, "%s: %zu bytes: consumed the magic "
                             "number, not a skippable frame", what, k);
    } else if (k >= want->header_len) {
        if (r < 0) {
            res = check_fail(msg, cap, FAIL_FRAME_ERROR, "%s: %zu bytes (the header is %zu): "
                             "failed (%s)", what, k, want->header_len,
                             subject->frame_error_name ? subject->frame_error_name(r) : "error");
        } else if (consumed != want->header_len) {
            res = check_fail(msg, cap, FAIL_BAD_CONSUMED, "%s: %zu bytes: consumed %zu, the "
                             "header is %zu", what, k, consumed, want->header_len);
        } else if ((field = wrong_field(&got, want)) != NULL) {
            res = check_fail(msg, cap, FAIL_WRONG_FRAME_INFO, "%s: %zu bytes: %s differs from the "
                             "header's", what, k, field);
        }
    } else if (r >= 0 && consumed != 0) {
        /* bytes of a header it cannot have read whole reported consumed */
        res = check_fail(msg, cap, FAIL_BAD_CONSUMED, "%s: %zu bytes of a %zu-byte header: "
                         "returned %lld, consumed %zu", what, k, want->header_len, r, consumed);
    }
    guard_free(&in);
    return res;
}

static check_result chk_header_fields(const void *arg, char *msg, unsigned cap)
{
    unsigned char *content = testdata_make("text", CONTENT, 61);
    size_t i, k;
    check_result res = CHECK_PASS;
    (void)arg;
    for (i = 0; i <= COMBOS && !check_failed(res); i++) {
        unsigned char *frame = NULL;
        char what[160];
        ref_frame_info_t want;
        size_t n = header_frame(i, content, &frame, what, sizeof what);
        if (!n || ref_frame_info(frame, n, &want) != REF_INFO_OK) {
            res = check_fail(msg, cap, FAIL_CHECK_INCOMPLETE,
                             "%s: ref did not write or read it back (lz4gate bug)", what);
            free(frame);
            break;
        }
        for (k = 0; k <= want.header_len + 8 && k <= n && !check_failed(res); k++)
            res = info_call(frame, k, &want, what, msg, cap);
        free(frame);
    }
    free(content);
    return res;
}

void contracts_add_sweep_header(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    add("sweep.header.frame_get_info", CAP_FRAME_INFO, chk_header_fields, 0, 0);
}
