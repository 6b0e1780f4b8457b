/*
 * Names of the frame decoder's statuses and checks, the block maximum size
 * table, and the decoder's default options.
 */
#include "frame_checks.h"
#include "lz4frame_ref.h"

const char *ref_frame_status_name(ref_frame_status status)
{
    static const char *const names[REF_FRAME_STATUS_COUNT] = {
        [REF_FRAME_OK] = "ok",
        [REF_FRAME_ERR_UNKNOWN_MAGIC] = "unknown_magic",
        [REF_FRAME_ERR_TRUNCATED] = "truncated",
        [REF_FRAME_ERR_VERSION] = "version",
        [REF_FRAME_ERR_RESERVED_BIT] = "reserved_bit",
        [REF_FRAME_ERR_BLOCK_MAX] = "block_max",
        [REF_FRAME_ERR_HEADER_CHECKSUM] = "header_checksum",
        [REF_FRAME_ERR_DICT_MISSING] = "dict_missing",
        [REF_FRAME_ERR_BLOCK_SIZE] = "block_size",
        [REF_FRAME_ERR_BLOCK_CHECKSUM] = "block_checksum",
        [REF_FRAME_ERR_BLOCK] = "block",
        [REF_FRAME_ERR_BLOCK_OUTPUT_SIZE] = "block_output_size",
        [REF_FRAME_ERR_CONTENT_SIZE] = "content_size",
        [REF_FRAME_ERR_CONTENT_CHECKSUM] = "content_checksum",
        [REF_FRAME_ERR_LEGACY_CHUNK_SIZE] = "legacy_chunk_size",
        [REF_FRAME_ERR_LEGACY_CHUNK_SHORT] = "legacy_chunk_short",
        [REF_FRAME_ERR_OUTPUT_FULL] = "output_full",
        [REF_FRAME_ERR_NO_MEMORY] = "no_memory",
        [REF_FRAME_ERR_BAD_PARAMETER] = "bad_parameter",
    };
    if ((unsigned)status >= REF_FRAME_STATUS_COUNT)
        return "unknown";
    return names[status];
}

#define FRAME_COUNT (REF_CHECK_ALL_COUNT - REF_CHECK_COUNT)

static const char *const frame_names[FRAME_COUNT] = {
#define REF_FRAME_CHECK_NAME(name, what, spec) #name,
    REF_FRAME_CHECK_LIST(REF_FRAME_CHECK_NAME)
#undef REF_FRAME_CHECK_NAME
};
static const char *const frame_whats[FRAME_COUNT] = {
#define REF_FRAME_CHECK_WHAT(name, what, spec) what,
    REF_FRAME_CHECK_LIST(REF_FRAME_CHECK_WHAT)
#undef REF_FRAME_CHECK_WHAT
};

const char *ref_frame_check_name(int id)
{
    if (id >= 0 && id < REF_CHECK_COUNT)
        return ref_check_name(id);
    return id >= REF_CHECK_COUNT && id < REF_CHECK_ALL_COUNT
               ? frame_names[id - REF_CHECK_COUNT] : "unknown";
}

const char *ref_frame_check_what(int id)
{
    if (id >= 0 && id < REF_CHECK_COUNT)
        return ref_check_what(id);
    return id >= REF_CHECK_COUNT && id < REF_CHECK_ALL_COUNT
               ? frame_whats[id - REF_CHECK_COUNT] : "unknown";
}

/* -DREF_MUTANT=NAME selects by number: ids are the enum value + 1. */
#define REF_FRAME_CHECK_ID_MATCHES(name, what, spec)                          \
    _Static_assert(REF_MUTANT_ID_##name == REF_CHECK_##name + 1, #name);
REF_FRAME_CHECK_LIST(REF_FRAME_CHECK_ID_MATCHES)
#undef REF_FRAME_CHECK_ID_MATCHES

const char *ref_frame_mutant_name(void)
{
    int id = REF_MUTANT_SELECTED - 1;
    return id >= 0 && id < REF_CHECK_ALL_COUNT ? ref_frame_check_name(id) : NULL;
}

size_t ref_frame_block_max(int bd_code)
{
    /* Frame Descriptor, Block Maximum Size: 4 -> 64 KB ... 7 -> 4 MB. */
    return bd_code >= 4 && bd_code <= 7 ? (size_t)1 << (8 + 2 * bd_code) : 0;
}

void ref_frame_options_default(ref_frame_options *o)
{
    o->profile = REF_PROFILE_COMPATIBLE;
    o->dict = NULL;
    o->dict_len = 0;
    o->zero_padding = 0;
    o->formats = REF_FORMAT_LZ4 | REF_FORMAT_SKIPPABLE | REF_FORMAT_LEGACY;
}
