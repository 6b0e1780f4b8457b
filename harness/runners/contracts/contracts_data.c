/* Test data, and ref as the oracle of the block contract checks (contracts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "frame_driver.h"
#include "lz4ref.h"
#include "ref_calls.h"
#include "testdata.h"

const char *const data_kind_names[DATA_KINDS] = { "random", "zeros", "text", "mixed" };

unsigned char *contract_data(enum data_kind kind, size_t n, uint32_t seed)
{
    return testdata_make(data_kind_names[kind], n, seed);
}

unsigned char *contract_dictionary(size_t *len)
{
    *len = 20000;
    return testdata_make("text", *len, 99);
}

unsigned char *contract_ref_block(const unsigned char *data, size_t n, size_t *blen)
{
    size_t cap = ref_compress_bound(n);
    unsigned char *b = xmalloc(cap);
    *blen = ref_compress(data, n, b, cap, 1);
    return b;
}

/* A strict failure that ref's profile table allows (compatible accepts:
 * the end-of-block rules, offset 0) where compatible decodes the block to
 * want: the block's bytes are right, a rule of the format is broken. */
static int only_breaks_a_rule(const unsigned char *block, size_t blen, const unsigned char *want,
                              size_t n, const char *dict, size_t dict_len, ref_status strict,
                              unsigned char *out)
{
    ref_decode_result c;
    if (!ref_profile_rule_for(strict))
        return 0;
    c = ref_decode_with(block, blen, out, n, (const uint8_t *)dict, dict_len,
                        REF_PROFILE_COMPATIBLE, 0, 0);
    return c.status == REF_OK && c.written == n && (!n || memcmp(out, want, n) == 0);
}

check_result contract_ref_decodes_to(const unsigned char *block, size_t blen,
                                     const unsigned char *want, size_t n, const char *dict,
                                     size_t dict_len, char *msg, unsigned cap)
{
    unsigned char *out = xmalloc(n ? n : 1);
    ref_decode_result r = ref_decode_with(block, blen, out, n, (const uint8_t *)dict, dict_len,
                                          REF_PROFILE_STRICT, 0, 0);
    check_result res = CHECK_PASS;
    if (r.status != REF_OK || r.written != n || (n && memcmp(out, want, n) != 0)) {
        /* A block that breaks only a rule of ref's profile table and still
         * decodes to its input is nonconformant; any other block that does
         * not decode to its input (an offset before its history included:
         * what the compressor read to find it is not known) is a round
         * trip failure. */
        enum fail_class cls = only_breaks_a_rule(block, blen, want, n, dict, dict_len,
                                                 r.status, out) ? FAIL_NONCONFORMANT_BLOCK
                                                                : FAIL_ROUNDTRIP;
        res = check_fail(msg, cap, cls, "%sblock of %zu bytes does not decode (ref strict) to "
                         "the %zu input bytes: %s, %zu written", dict_len ? "dictionary " : "",
                         blen, n, ref_status_name(r.status), r.written);
    }
    free(out);
    return res;
}

check_result contract_frame_decodes_to(const unsigned char *frame, size_t len,
                                       const unsigned char *want, size_t n,
                                       const unsigned char *dict, size_t dict_len,
                                       const char *what, char *msg, unsigned cap)
{
    return frame_ref_decodes_to(frame, len, want, n, dict, dict_len, what, msg, cap)
               ? CHECK_PASS : CHECK_FAIL(FAIL_BAD_FRAME);
}

enum fail_class contract_judged_class(judgement v, const judge_ref *ref, size_t len)
{
    if (v == JUDGE_WRONG_OUTPUT && len != ref->len)
        return FAIL_WRONG_LENGTH;
    return judgement_class(v);
}

enum fail_class contract_incomplete_class(enum frame_drive_outcome o)
{
    enum fail_class cls = frame_drive_outcome_class(o);
    return cls != FAIL_NONE ? cls : FAIL_REJECTS_VALID;
}

const char *contract_class_name(enum fail_class cls)
{
    const char *name = fail_class_name(cls);
    return name ? name : "?";
}

/* Bytes of 255 and a final byte < 255 for a length field's value beyond
 * the 15 of its token nibble (spec, "Compressed block format"). */
static void put_length(block_writer *w, size_t v)
{
    if (v < 15)
        return;
    for (v -= 15; v >= 255; v -= 255)
        w->b[w->n++] = 255;
    w->b[w->n++] = (unsigned char)v;
}

void block_put_sequence(block_writer *w, const unsigned char *lit, size_t lits,
                        unsigned offset, size_t mlen)
{
    size_t ml = mlen ? mlen - 4 : 0;
    w->b[w->n++] = (unsigned char)((lits < 15 ? lits : 15) << 4 | (ml < 15 ? ml : 15));
    put_length(w, lits);
    memcpy(w->b + w->n, lit, lits);
    w->n += lits;
    if (!mlen)
        return;
    w->b[w->n++] = (unsigned char)(offset & 0xFF);   /* little endian */
    w->b[w->n++] = (unsigned char)(offset >> 8);
    put_length(w, ml);
}
