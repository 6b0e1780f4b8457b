/*
 * The profile table: every rule on which a strict decoder and an established
 * ("compatible") decoder may legitimately disagree. The differential fuzzers
 * consult it to classify a disagreement as acceptable; anything not listed
 * here is a real disagreement.
 */
#include <string.h>

#include "checks.h"
#include "lz4ref.h"

const ref_profile_rule ref_profile_rules[] = {
    { REF_ERR_LAST_LITERALS, "EOB_LAST_LITERALS",
      "End of block conditions, rule 2", 1, 0,
      "The last 5 bytes must be literals; a conformant decoder is allowed, "
      "not required, to reject a block that breaks this." },
    { REF_ERR_LAST_MATCH_TOO_CLOSE, "EOB_LAST_MATCH",
      "End of block conditions, rule 3", 1, 0,
      "The last match must start at least 12 bytes before the end; decoders "
      "may reject or accept. Decoders that test it against the output "
      "capacity instead of the decoded size reject a superset of these." },
    { REF_ERR_OFFSET_ZERO, "OFFSET_ZERO",
      "Compressed block format (offset) and Implementation notes, Safe decoding", 1, 0,
      "Offset 0 denotes a corrupted block, but established decoders "
      "(liblz4 1.9.4) accept it and write zeros, as the spec describes. "
      "Output that depends on the buffer's previous content is never acceptable." },
};

const size_t ref_profile_rule_count =
    sizeof ref_profile_rules / sizeof ref_profile_rules[0];

const ref_profile_rule *ref_profile_rule_for(ref_status status)
{
    size_t i;
    for (i = 0; i < ref_profile_rule_count; i++)
        if (ref_profile_rules[i].status == status)
            return &ref_profile_rules[i];
    return NULL;
}

const ref_latitude ref_latitudes[] = {
    { "PARTIAL_EARLY_END", "decompress_safe_partial, a block not valid as a whole",
      "lz4.h LZ4_decompress_safe_partial: \"@return can be < targetOutputSize, if "
      "compressed block contains less data\"",
      "accept and return a prefix of the bytes the block defines before its defect "
      "(including the available bytes of a truncated literal run), where ref rejects" },
    { "PARTIAL_LOOKAHEAD_REJECT", "decompress_safe_partial, a block not valid as a whole",
      "lz4.h / linux/lz4.h LZ4_decompress_safe_partial: decoding stops \"as soon as\" the "
      "target is reached, but a decoder may read a whole sequence first",
      "reject a block that is malformed after the target, where ref stopped at the target "
      "and returned it" },
    { "EMPTY_BUFFER_ZERO_TOKEN", "capacity 0 (or a partial decode with nothing to produce)",
      "Block format: an empty block is the single token 0x00; lz4.c and the kernel special-"
      "case an empty output buffer and accept only that byte",
      "reject a one-byte block whose token has a non-zero match-length nibble (0x01..0x0F), "
      "which ref accepts as an empty block at any capacity" },
    { "DICT_ID_WITHOUT_DICTIONARY", "LZ4F_decompress of a frame with a Dict-ID, no dictionary",
      "Frame format, Dictionary ID: \"the decoder ... should select the right dictionary\"; "
      "lz4frame.h leaves dictionary selection to the caller",
      "decode such a frame without a dictionary (its blocks then decode or fail on their own), "
      "where ref rejects it (FRAME_DICT_AVAILABLE)" },
    { "UNLZ4_TRUSTED_CHUNK_SIZES", "unlz4 in buffer mode",
      "lib/decompress_unlz4.c decodes initramfs images the kernel trusts; "
      "docs/fix-history.md#klz4-unlz4-chunk (a chunk size is not checked against the input left)",
      "buffer mode is compared only on streams whose chunks all lie inside the input (it "
      "reads the magic and every chunk without checking in_len); fill mode is compared on "
      "every stream" },
};

const size_t ref_latitude_count = sizeof ref_latitudes / sizeof ref_latitudes[0];

const ref_latitude *ref_latitude_named(const char *name)
{
    size_t i;
    for (i = 0; i < ref_latitude_count; i++)
        if (!strcmp(ref_latitudes[i].name, name))
            return &ref_latitudes[i];
    return NULL;
}

const char *ref_status_name(ref_status status)
{
    static const char *const names[REF_STATUS_COUNT] = {
        [REF_OK] = "ok",
        [REF_ERR_TRUNCATED_TOKEN] = "truncated_token",
        [REF_ERR_TRUNCATED_LITERAL_LENGTH] = "truncated_literal_length",
        [REF_ERR_TRUNCATED_LITERALS] = "truncated_literals",
        [REF_ERR_TRUNCATED_OFFSET] = "truncated_offset",
        [REF_ERR_TRUNCATED_MATCH_LENGTH] = "truncated_match_length",
        [REF_ERR_LENGTH_OVERFLOW] = "length_overflow",
        [REF_ERR_OFFSET_ZERO] = "offset_zero",
        [REF_ERR_OFFSET_BEFORE_START] = "offset_before_start",
        [REF_ERR_OUTPUT_OVERFLOW] = "output_overflow",
        [REF_ERR_OUTPUT_FULL_INPUT_LEFT] = "output_full_input_left",
        [REF_ERR_LAST_LITERALS] = "last_literals",
        [REF_ERR_LAST_MATCH_TOO_CLOSE] = "last_match_too_close",
        [REF_ERR_BAD_PARAMETER] = "bad_parameter",
    };
    if ((unsigned)status >= REF_STATUS_COUNT)
        return "unknown";
    return names[status];
}

/* Names of the checks, for reports and for `make mutants`. */
static const char *const check_names[REF_CHECK_COUNT] = {
#define REF_CHECK_NAME(name, what) #name,
    REF_CHECK_LIST(REF_CHECK_NAME)
#undef REF_CHECK_NAME
};
static const char *const check_whats[REF_CHECK_COUNT] = {
#define REF_CHECK_WHAT(name, what) what,
    REF_CHECK_LIST(REF_CHECK_WHAT)
#undef REF_CHECK_WHAT
};

const char *ref_check_name(int i)
{
    return i >= 0 && i < REF_CHECK_COUNT ? check_names[i] : "unknown";
}

const char *ref_check_what(int i)
{
    return i >= 0 && i < REF_CHECK_COUNT ? check_whats[i] : "unknown";
}

/* -DREF_MUTANT=NAME selects by number: keep the numbers in checks.h equal
 * to the enum order + 1. */
#define REF_CHECK_ID_MATCHES(name, what)                                      \
    _Static_assert(REF_MUTANT_ID_##name == REF_CHECK_##name + 1, #name);
REF_CHECK_LIST(REF_CHECK_ID_MATCHES)
#undef REF_CHECK_ID_MATCHES

#ifdef REF_MUTANT_FROM_ENV
#include <stdlib.h>
int ref_mutant_selected = REF_MUTANT_ID_NONE;

/* Before main: the mutant to run is the number in LZ4REF_MUTANT_ID. */
__attribute__((constructor)) static void ref_mutant_from_env(void)
{
    const char *id = getenv("LZ4REF_MUTANT_ID");
    if (id)
        ref_mutant_selected = atoi(id);
}
#endif

const char *ref_mutant_name(void)
{
    int i;
    for (i = 0; i < REF_CHECK_COUNT; i++)
        if (i + 1 == REF_MUTANT_SELECTED)   /* ids are enum order + 1 */
            return check_names[i];
    return NULL;
}
