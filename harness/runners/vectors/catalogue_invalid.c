/*
 * The invalid vectors: hand-made invalid blocks built from recipes, one row
 * per vector (catalogue.h), with literals from the literal stream so that a
 * wrong offset copies visibly different bytes; then every row of the shared
 * malformed-block table (malformed_blocks.c), which the unit tests read too.
 * "Spec" is lz4_Block_format.md; every error class a block can produce is
 * here (index.json "not_covered" names the two that are not).
 */
#include <stdio.h>

#include "catalogue.h"
#include "malformed_blocks.h"
#include "vector_add.h"

static const handmade_vector invalid[] = {
    /* Truncations, in the order of the fields. */
    { "inv-truncated-token-after-match",
      "the block ends right after a match: the last sequence (literals only) is missing",
      "invalid truncated_token",
      { SEQ(8, 8, 8) },
      FIXED(16), REF_ERR_TRUNCATED_TOKEN, REF_ERR_TRUNCATED_TOKEN, 0 },
    { "inv-truncated-token-after-match-cap+64",
      "the block ends right after a match, decoded with a larger capacity",
      "invalid truncated_token",
      { SAME_AS_ABOVE },
      FIXED(80), REF_ERR_TRUNCATED_TOKEN, REF_ERR_TRUNCATED_TOKEN, 0 },
    { "inv-truncated-literals-by-one",
      "a valid block with its last byte cut: the final literal run is one byte short",
      "invalid truncated_literals",
      { SEQ(20, 8, 20), LAST(20), CUT(1) },
      FIXED(48), REF_ERR_TRUNCATED_LITERALS, REF_ERR_TRUNCATED_LITERALS, 0 },
    { "inv-truncated-offset-second-sequence",
      "a complete sequence, then 2 literals and 1 offset byte",
      "invalid truncated_offset",
      { SEQ(8, 8, 8), RAW("\x20" "ab\x02") },
      FIXED(64), REF_ERR_TRUNCATED_OFFSET, REF_ERR_TRUNCATED_OFFSET, 0 },
    /* Offsets: 0 (strict rejects, compatible writes zeros), and before the
     * start of the output. */
    { "inv-offset-zero",
      "4 literals, a match of 8 at offset 0, 5 literals. Compatible: 8 zero bytes",
      "invalid offset_zero OFFSET_ZERO",
      { SEQ(4, 8, 0), LAST(5) },
      EXACT, REF_ERR_OFFSET_ZERO, REF_OK, 0 },
    { "inv-offset-zero-cap+64",
      "offset 0 as above, with a larger capacity",
      "invalid offset_zero OFFSET_ZERO capacity_larger",
      { SAME_AS_ABOVE },
      OUTPUT_PLUS(64), REF_ERR_OFFSET_ZERO, REF_OK, 0 },
    { "inv-offset-zero-first-sequence",
      "the first sequence: no literals, offset 0, match of 4. Compatible: 4 zero bytes "
      "(no history is needed)",
      "invalid offset_zero OFFSET_ZERO",
      { SEQ(0, 4, 0), LAST(8) },
      EXACT, REF_ERR_OFFSET_ZERO, REF_OK, 0 },
    { "inv-offset-zero-long",
      "a valid sequence, then a match of 100 at offset 0. Compatible: 100 zero bytes, "
      "whatever the buffer held",
      "invalid offset_zero OFFSET_ZERO",
      { SEQ(16, 16, 16), SEQ(2, 100, 0), LAST(9) },
      EXACT, REF_ERR_OFFSET_ZERO, REF_OK, 0 },
    { "inv-offset-first-sequence-no-history",
      "the first sequence has no literals and offset 1: there is no history",
      "invalid offset_before_start",
      { SEQ(0, 4, 1), LAST(8) },
      FIXED(64), REF_ERR_OFFSET_BEFORE_START, REF_ERR_OFFSET_BEFORE_START, 0 },
    { "inv-offset-before-start-by-one",
      "4 literals, then offset 5",
      "invalid offset_before_start",
      { SEQ(4, 4, 5), LAST(8) },
      FIXED(16), REF_ERR_OFFSET_BEFORE_START, REF_ERR_OFFSET_BEFORE_START, 0 },
    { "inv-offset-before-start-later",
      "40 bytes of output, then offset 41",
      "invalid offset_before_start",
      { SEQ(30, 10, 30), SEQ(0, 40, 41), LAST(8) },
      FIXED(88), REF_ERR_OFFSET_BEFORE_START, REF_ERR_OFFSET_BEFORE_START, 0 },
    { "inv-offset-65535-no-history",
      "10 literals, then offset 65535",
      "invalid offset_before_start",
      { SEQ(10, 4, 65535), LAST(8) },
      FIXED(1000), REF_ERR_OFFSET_BEFORE_START, REF_ERR_OFFSET_BEFORE_START, 0 },
    /* Capacity: one valid 185-byte block (16 + 100 + 40 + 20 + 9) at
     * capacities that stop it at each of its parts. */
    { "inv-output-overflow-last-literals",
      "a valid 185-byte block with capacity 184: the final literals do not fit",
      "invalid output_overflow",
      { SEQ(16, 100, 16), SEQ(40, 20, 7), LAST(9) },
      FIXED(184), REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW, 0 },
    { "inv-output-overflow-in-match",
      "the same block with capacity 50: the first match does not fit",
      "invalid output_overflow",
      { SAME_AS_ABOVE },
      FIXED(50), REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW, 0 },
    { "inv-output-overflow-match-by-one",
      "the same block with capacity 115: the first match is one byte too long",
      "invalid output_overflow",
      { SAME_AS_ABOVE },
      FIXED(115), REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW, 0 },
    { "inv-output-overflow-in-literals",
      "the same block with capacity 130: the second literal run does not fit",
      "invalid output_overflow",
      { SAME_AS_ABOVE },
      FIXED(130), REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW, 0 },
    { "inv-output-overflow-capacity-0",
      "the same block with capacity 0",
      "invalid output_overflow",
      { SAME_AS_ABOVE },
      FIXED(0), REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW, 0 },
    { "inv-valid-block-then-zero-byte",
      "a valid 30-byte block followed by a 00 byte, exact capacity: output full, input "
      "left",
      "invalid output_full_input_left",
      { SEQ(12, 12, 12), LAST(6), RAW("\x00") },
      FIXED(30), REF_ERR_OUTPUT_FULL_INPUT_LEFT, REF_ERR_OUTPUT_FULL_INPUT_LEFT, 0 },
    /* End-of-block conditions (strict rejects, compatible accepts). Each at
     * the exact capacity and at a larger one: decoders that test the limits
     * against the capacity reject only the former. */
    { "inv-last-literals-4",
      "4 literals, match of 8 at offset 4, 4 final literals: the last match starts 12 "
      "bytes before the end but only 4 bytes are literals",
      "invalid last_literals EOB_LAST_LITERALS",
      { SEQ(4, 8, 4), LAST(4) },
      EXACT, REF_ERR_LAST_LITERALS, REF_OK, 64 },
    { "inv-last-literals-1",
      "8 literals, match of 16 at offset 8, 1 final literal",
      "invalid last_literals EOB_LAST_LITERALS",
      { SEQ(8, 16, 8), LAST(1) },
      EXACT, REF_ERR_LAST_LITERALS, REF_OK, 64 },
    { "inv-last-literals-0",
      "8 literals, match of 16 at offset 8, then a final token with no literals",
      "invalid last_literals EOB_LAST_LITERALS",
      { SEQ(8, 16, 8), LAST(0) },
      EXACT, REF_ERR_LAST_LITERALS, REF_OK, 64 },
    { "inv-last-match-9-from-end",
      "4 literals, match of 4 at offset 4, 5 final literals: the last match starts 9 "
      "bytes before the end",
      "invalid last_match_too_close EOB_LAST_MATCH",
      { SEQ(4, 4, 4), LAST(5) },
      EXACT, REF_ERR_LAST_MATCH_TOO_CLOSE, REF_OK, 64 },
    { "inv-last-match-11-from-end",
      "10 literals, match of 6 at offset 10, 5 final literals: the last match starts 11 "
      "bytes before the end",
      "invalid last_match_too_close EOB_LAST_MATCH",
      { SEQ(10, 6, 10), LAST(5) },
      EXACT, REF_ERR_LAST_MATCH_TOO_CLOSE, REF_OK, 64 },
    { "inv-last-literals-and-match",
      "4 literals, match of 4 at offset 4, 2 final literals: both rules broken, rule 2 is "
      "reported",
      "invalid last_literals EOB_LAST_LITERALS",
      { SEQ(4, 4, 4), LAST(2) },
      EXACT, REF_ERR_LAST_LITERALS, REF_OK, 64 },
};

/* A row of the malformed-block table as a vector: its bytes, capacity and
 * statuses, and its compatible output where that profile accepts. */
static void add_malformed(const malformed_block *m)
{
    const ref_profile_rule *rule = ref_profile_rule_for(m->strict);
    char flags[128];
    design d;
    snprintf(flags, sizeof flags, "invalid %s%s%s", ref_status_name(m->strict),
             rule ? " " : "", rule ? rule->name : "");
    d.strict = m->strict;
    d.compatible = m->compatible;
    d.output = (const uint8_t *)m->compatible_output;
    d.output_len = m->compatible_output_len;
    add_vector(m->name, m->comment, flags, (const uint8_t *)m->bytes, m->len, m->capacity,
               NULL, NULL, 0, &d);
}

void invalid_vectors(void)
{
    size_t i;
    add_handmade_table(invalid, sizeof invalid / sizeof invalid[0], NULL, NULL, 0);
    for (i = 0; i < malformed_block_count; i++)
        add_malformed(&malformed_blocks[i]);
}
