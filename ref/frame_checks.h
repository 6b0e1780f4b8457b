/*
 * Named checks of the reference FRAME decoder (frame_decode.c,
 * frame_stream.c), the frame-level counterpart of checks.h.
 *
 * Every validity test of the frame decoder is written as
 * REF_FRAME_CHECK(NAME, condition, status, offset), and every rule that is
 * not a failure test but whose absence is a bug class (a capacity the block
 * decoder is given) as REF_FRAME_RULE(NAME). They share the mutant
 * mechanism of checks.h: -DREF_MUTANT=NAME switches one check off, so the
 * decoder behaves like one that lacks it; `tests/mutants.py` shows that
 * tests/c/test_frame.c fails for each. Check ids continue the block list
 * (same enum space, REF_CHECK_<NAME>), so result.failed_check names either.
 *
 * "offset" is the input offset the error reports: the first byte of the
 * field that broke the rule (the comment says which).
 *
 * X(NAME, what the check guarantees, spec section of lz4_Frame_format.md)
 */
#ifndef LZ4REF_FRAME_CHECKS_H
#define LZ4REF_FRAME_CHECKS_H

#include "checks.h"

#define REF_FRAME_CHECK_LIST(X)                                                          \
    X(FRAME_MAGIC_KNOWN,       "a frame starts with an LZ4, skippable or legacy magic number", \
      "General Structure: Magic Number; Skippable Frames; Legacy frame")                 \
    X(FRAME_FIELD_IN_INPUT,    "a magic number, descriptor, block size, checksum or size field is read only when all its bytes are in the input", \
      "General Structure; Data Blocks: Block Size; Legacy frame: Block Compressed Size")  \
    X(FRAME_VERSION,           "the FLG version field is 01",                             \
      "Frame Descriptor: Version Number")                                                \
    X(FRAME_RESERVED_BITS,     "reserved bits (FLG bit 1, BD bits 7 and 3-0) are 0",      \
      "Frame Descriptor: Reserved bits")                                                 \
    X(FRAME_BLOCK_MAX_VALID,   "the BD block maximum size code is 4, 5, 6 or 7",          \
      "Frame Descriptor: Block Maximum Size")                                            \
    X(FRAME_HEADER_CHECKSUM,   "the HC byte is the second byte of xxh32(descriptor)",     \
      "Frame Descriptor: Header Checksum")                                               \
    X(FRAME_DICT_AVAILABLE,    "a frame with a Dict-ID is decoded only with a dictionary", \
      "Frame Descriptor: Dictionary ID")                                                 \
    X(BLOCK_SIZE_WITHIN_MAX,   "a block size field is at most the block maximum size",    \
      "Data Blocks: Block Size")                                                         \
    X(BLOCK_DATA_IN_INPUT,     "a block's data and checksum lie inside the input",        \
      "Data Blocks")                                                                     \
    X(BLOCK_CHECKSUM,          "the block checksum matches xxh32 of the raw block data",  \
      "Data Blocks: Block checksum")                                                     \
    X(BLOCK_OUTPUT_WITHIN_MAX, "a block is decoded with capacity block maximum: it cannot decode to more", \
      "Frame Descriptor: Block Maximum Size (\"original (uncompressed) data size\"); Legacy frame: 8 MB") \
    X(CONTENT_SIZE_MATCHES,    "the decoded size equals the Content Size field",          \
      "Frame Descriptor: Content Size")                                                  \
    X(CONTENT_CHECKSUM,        "the content checksum matches xxh32 of the decoded data",  \
      "General Structure: Content Checksum")                                             \
    X(SKIPPABLE_DATA_IN_INPUT, "a skippable frame's user data lies inside the input",     \
      "Skippable Frames: Frame Size")                                                    \
    X(LEGACY_CHUNK_WITHIN_MAX, "a legacy chunk size is at most LZ4_compressBound(8 MiB)",  \
      "Legacy frame: EndMark (\"trigger an error if it does not fit within acceptable range\")") \
    X(LEGACY_CHUNK_IN_INPUT,   "a legacy chunk's data lies inside the input (history KLZ4-UNLZ4-CHUNK)", \
      "Legacy frame: Block Compressed Size")                                             \
    X(LEGACY_CHUNK_FULL,       "strict: every legacy chunk but the last decodes to 8 MiB", \
      "Legacy frame: \"All blocks must be completely filled, except the last one\"")     \
    X(OUTPUT_WITHIN_CAPACITY,  "one-shot: decoded data is written only inside the caller's buffer", \
      "(API) Frame Descriptor: Block Maximum Size (\"help the decoder allocate memory\")")

/* Same enum space as checks.h: frame check ids follow REF_CHECK_COUNT. */
enum ref_frame_check_id {
    REF_FRAME_CHECK_FIRST_ = REF_CHECK_COUNT - 1,
#define REF_FRAME_CHECK_ENUM(name, what, spec) REF_CHECK_##name,
    REF_FRAME_CHECK_LIST(REF_FRAME_CHECK_ENUM)
#undef REF_FRAME_CHECK_ENUM
    REF_CHECK_ALL_COUNT
};

/*
 * REF_FRAME_CHECK(NAME, cond, status, offset): if cond is false, the decoder
 * fails with status at input offset `offset`. The enclosing function has
 * `frame_engine *e` in scope and returns a ref_frame_status. In the mutant
 * build for NAME the condition is not evaluated at all.
 */
#define REF_FRAME_CHECK(name, cond, status, offset)                           \
    do {                                                                      \
        if (REF_MUTANT_ID_##name != REF_MUTANT_SELECTED && !(cond))           \
            return frame_fail(e, (status), REF_CHECK_##name, (offset));       \
    } while (0)

/* REF_FRAME_RULE(NAME): true unless this is the mutant build for NAME. */
#define REF_FRAME_RULE(name) (REF_MUTANT_ID_##name != REF_MUTANT_SELECTED)

#endif /* LZ4REF_FRAME_CHECKS_H */
