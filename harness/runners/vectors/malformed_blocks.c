/*
 * The catalogue of hand-written malformed blocks (malformed_blocks.h), in
 * the order of the fields a decoder reads. "Spec" is lz4_Block_format.md.
 *
 * Byte strings are split after every \x escape that a hex digit follows
 * ("\x50" "abc"), as C would read the digit into the escape.
 */
#include "malformed_blocks.h"

#include "checks.h"

/* A string literal as (bytes, length): NUL bytes inside count. */
#define BYTES(s) s, sizeof(s) - 1
/* A strict error that the compatible profile shares. */
#define BOTH(status) status, status
/* No compatible output (the compatible profile rejects too). */
#define NO_OUTPUT NULL, 0

/* 8 and 60 bytes 0xFF: the bodies of the length chains below. */
#define FF8 "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF"
#define FF60 FF8 FF8 FF8 FF8 FF8 FF8 FF8 "\xFF\xFF\xFF\xFF"
/* The 98 literal bytes present after a literal length of 25515: 0x66 .. 0xC7. */
#define LITERALS_0x66_TO_0xC7                                                          \
    "\x66\x67\x68\x69\x6A\x6B\x6C\x6D\x6E\x6F\x70\x71\x72\x73\x74\x75"                 \
    "\x76\x77\x78\x79\x7A\x7B\x7C\x7D\x7E\x7F\x80\x81\x82\x83\x84\x85"                 \
    "\x86\x87\x88\x89\x8A\x8B\x8C\x8D\x8E\x8F\x90\x91\x92\x93\x94\x95"                 \
    "\x96\x97\x98\x99\x9A\x9B\x9C\x9D\x9E\x9F\xA0\xA1\xA2\xA3\xA4\xA5"                 \
    "\xA6\xA7\xA8\xA9\xAA\xAB\xAC\xAD\xAE\xAF\xB0\xB1\xB2\xB3\xB4\xB5"                 \
    "\xB6\xB7\xB8\xB9\xBA\xBB\xBC\xBD\xBE\xBF\xC0\xC1\xC2\xC3\xC4\xC5"                 \
    "\xC6\xC7"
/* F0, then 100 x FF, then 00: a literal length of 15 + 100 * 255 + 0 = 25515. */
#define LITLEN_25515 "\xF0" FF8 FF8 FF8 FF8 FF8 FF8 FF8 FF8 FF8 FF8 FF8 FF8 "\xFF\xFF\xFF\xFF\x00"

const malformed_block malformed_blocks[] = {
    /* ---- the token, the literal length, the literals ---------------------- */
    { "inv-empty-input", BYTES(""), 16, BOTH(REF_ERR_TRUNCATED_TOKEN),
      REF_CHECK_TOKEN_IN_INPUT, 0, NO_OUTPUT,
      "0 bytes of input: a token was due (spec, Compressed block format: a block is a "
      "series of sequences, each starting with a token)" },
    { "inv-truncated-literal-length-1", BYTES("\xF0"), 1000,
      BOTH(REF_ERR_TRUNCATED_LITERAL_LENGTH), REF_CHECK_LITLEN_IN_INPUT, 1, NO_OUTPUT,
      "token F0 alone: the literal length needs a next byte (spec, Token: a field of 15 "
      "means more bytes follow; history ULZ4-2018-INPUTEDGE)" },
    { "inv-truncated-literal-length-2", BYTES("\xF0\xFF"), 1000,
      BOTH(REF_ERR_TRUNCATED_LITERAL_LENGTH), REF_CHECK_LITLEN_IN_INPUT, 2, NO_OUTPUT,
      "F0 FF: the length chain goes on past the input (spec, Token: a byte of 255 means "
      "one more byte follows)" },
    { "inv-truncated-literal-length-chain", BYTES("\xF0" FF60 "\xFF\xFF\xFF"), 20000,
      BOTH(REF_ERR_TRUNCATED_LITERAL_LENGTH), REF_CHECK_LITLEN_IN_INPUT, 64, NO_OUTPUT,
      "F0 then 63 bytes FF: the literal-length chain never ends (spec, Token)" },
    { "inv-truncated-literals", BYTES("\x50" "abc"), 16, BOTH(REF_ERR_TRUNCATED_LITERALS),
      REF_CHECK_LITERALS_IN_INPUT, 1, NO_OUTPUT,
      "token 50 (5 literals) but 3 follow (spec, Literals: exactly literal-length bytes)" },
    { "inv-truncated-literals-3-announced-2", BYTES("\x30" "ab"), 64,
      BOTH(REF_ERR_TRUNCATED_LITERALS), REF_CHECK_LITERALS_IN_INPUT, 1, NO_OUTPUT,
      "token 30 (3 literals) but 2 follow (spec, Literals)" },
    { "inv-truncated-literals-long-length", BYTES(LITLEN_25515 LITERALS_0x66_TO_0xC7), 30000,
      BOTH(REF_ERR_TRUNCATED_LITERALS), REF_CHECK_LITERALS_IN_INPUT, 102, NO_OUTPUT,
      "a literal length of 25515 (F0, 100 x FF, 00) with 98 literal bytes present; "
      "capacity 30000 (spec, Literals)" },
    { "inv-truncated-literals-long-length-cap100", BYTES(LITLEN_25515 LITERALS_0x66_TO_0xC7),
      100, BOTH(REF_ERR_TRUNCATED_LITERALS), REF_CHECK_LITERALS_IN_INPUT, 102, NO_OUTPUT,
      "the same, capacity 100: the input is checked first" },

    /* ---- the offset --------------------------------------------------------- */
    { "inv-truncated-offset-1-byte", BYTES("\x14" "a\x01"), 64,
      BOTH(REF_ERR_TRUNCATED_OFFSET), REF_CHECK_OFFSET_IN_INPUT, 2, NO_OUTPUT,
      "1 literal, then only 1 of the 2 offset bytes (spec, Offset: 2 bytes, little "
      "endian)" },
    { "inv-truncated-offset-after-5-literals", BYTES("\x50" "hello\x01"), 64,
      BOTH(REF_ERR_TRUNCATED_OFFSET), REF_CHECK_OFFSET_IN_INPUT, 6, NO_OUTPUT,
      "5 literals, then one offset byte instead of two (spec, Offset)" },
    { "inv-trailing-byte-cap+64", BYTES("\x50" "abcde\x00"), 69,
      BOTH(REF_ERR_TRUNCATED_OFFSET), REF_CHECK_OFFSET_IN_INPUT, 6, NO_OUTPUT,
      "the same 7 bytes as inv-output-full-input-left with capacity 69: the trailing byte "
      "is a 1-byte offset (spec, Offset)" },
    { "inv-offset-zero-after-8-literals",
      BYTES("\x80" "abcdefgh\x00\x00" "\xC0" "ijklmnopqrst"), 100,
      REF_ERR_OFFSET_ZERO, REF_OK, REF_CHECK_OFFSET_NOT_ZERO, 11,
      BYTES("abcdefgh\0\0\0\0ijklmnopqrst"),
      "8 literals, a match of 4 at offset 0, 12 literals (spec, Offset: 0 is invalid; "
      "compatible: zeros, as liblz4 1.9.4 writes them)" },
    { "inv-offset-before-start-5-after-4", BYTES("\x40" "abcd\x05\x00" "\xC0" "ijklmnopqrst"),
      100, BOTH(REF_ERR_OFFSET_BEFORE_START), REF_CHECK_OFFSET_IN_HISTORY, 7, NO_OUTPUT,
      "4 literals, then a match at offset 5 (spec, Offset: a match may not start before "
      "the output and its history)" },
    { "inv-offset-65535-first-sequence", BYTES("\x00\xFF\xFF\xC0" "ijklmnopqrst"), 100,
      BOTH(REF_ERR_OFFSET_BEFORE_START), REF_CHECK_OFFSET_IN_HISTORY, 3, NO_OUTPUT,
      "offset 65535 in the first sequence, with no history (spec, Offset)" },

    /* ---- the match length ---------------------------------------------------- */
    { "inv-truncated-match-length", BYTES("\x1F" "a\x01\x00"), 64,
      BOTH(REF_ERR_TRUNCATED_MATCH_LENGTH), REF_CHECK_MATCHLEN_IN_INPUT, 4, NO_OUTPUT,
      "1 literal, offset 1, match field 15 and no length byte (spec, Match length: a "
      "field of 15 means more bytes follow)" },
    { "inv-truncated-match-length-after-4-literals", BYTES("\x4F" "abcd\x04\x00"), 100,
      BOTH(REF_ERR_TRUNCATED_MATCH_LENGTH), REF_CHECK_MATCHLEN_IN_INPUT, 7, NO_OUTPUT,
      "4 literals, offset 4, match field 15 without its extra byte (spec, Match length)" },
    { "inv-truncated-match-length-ends-ff", BYTES("\x4F" "abcd\x04\x00\xFF"), 400,
      BOTH(REF_ERR_TRUNCATED_MATCH_LENGTH), REF_CHECK_MATCHLEN_IN_INPUT, 8, NO_OUTPUT,
      "the same, then one byte FF: the match-length chain ends with 255 (spec, Match "
      "length)" },
    { "inv-truncated-match-length-chain", BYTES("\x1F" "a\x01\x00" FF60), 20000,
      BOTH(REF_ERR_TRUNCATED_MATCH_LENGTH), REF_CHECK_MATCHLEN_IN_INPUT, 64, NO_OUTPUT,
      "1 literal, offset 1, match field 15 then 60 bytes FF: the match-length chain never "
      "ends (spec, Match length)" },
    { "inv-truncated-token-after-match-of-30", BYTES("\x4F" "abcd\x04\x00\x0B"), 100,
      BOTH(REF_ERR_TRUNCATED_TOKEN), REF_CHECK_TOKEN_IN_INPUT, 8, NO_OUTPUT,
      "4 literals and a match of 30, then nothing (spec, End of block conditions: the last "
      "sequence contains only literals)" },

    /* ---- the output capacity --------------------------------------------------- */
    { "inv-output-overflow-literals-cap4", BYTES("\x50" "hello"), 4,
      BOTH(REF_ERR_OUTPUT_OVERFLOW), REF_CHECK_LITERALS_IN_OUTPUT, 1, NO_OUTPUT,
      "5 literals into a capacity of 4 (spec, Implementation notes: a safe decoder never "
      "writes past the output buffer)" },
    { "inv-output-overflow-literals-cap0", BYTES("\x50" "hello"), 0,
      BOTH(REF_ERR_OUTPUT_OVERFLOW), REF_CHECK_LITERALS_IN_OUTPUT, 1, NO_OUTPUT,
      "5 literals into a capacity of 0" },
    { "inv-output-overflow-match-30-cap20", BYTES("\x4F" "abcd\x04\x00\x0B\x50" "ijklm"), 20,
      BOTH(REF_ERR_OUTPUT_OVERFLOW), REF_CHECK_MATCH_IN_OUTPUT, 8, NO_OUTPUT,
      "4 literals and a match of 30 into a capacity of 20 (spec, Implementation notes)" },
    { "inv-output-overflow-long-match", BYTES("\x1F" "x\x01\x00\xFF\xFF\xFF\x00"), 100,
      BOTH(REF_ERR_OUTPUT_OVERFLOW), REF_CHECK_MATCH_IN_OUTPUT, 8, NO_OUTPUT,
      "1 literal, then a match of 784 (15, FF FF FF, 00) at offset 1 into a capacity of "
      "100" },
    { "inv-output-full-input-left", BYTES("\x50" "abcde\x00"), 5,
      BOTH(REF_ERR_OUTPUT_FULL_INPUT_LEFT), REF_CHECK_OUTPUT_FULL_AT_END, 6, NO_OUTPUT,
      "5 literals fill the capacity of 5, one byte of input is left (the block does not "
      "end there: an offset follows)" },
    { "inv-output-full-after-5-literals", BYTES("\x54" "hello\x05\x00\x50" "world"), 5,
      BOTH(REF_ERR_OUTPUT_FULL_INPUT_LEFT), REF_CHECK_OUTPUT_FULL_AT_END, 6, NO_OUTPUT,
      "capacity 5 is reached after the first 5 literals; a match and 5 literals follow" },

    /* ---- end of block conditions (strict rejects, compatible accepts) ---------- */
    { "inv-last-literals-4-after-match-16",
      BYTES("\x8C" "abcdefgh\x08\x00\x40" "wxyz"), 28, REF_ERR_LAST_LITERALS, REF_OK,
      REF_CHECK_EOB_LAST_LITERALS, 16, BYTES("abcdefghabcdefghabcdefghwxyz"),
      "8 literals, a match of 16 at offset 8, 4 final literals (spec, End of block "
      "conditions, rule 2: the last 5 bytes are literals)" },
    { "inv-last-literals-0-after-match-16", BYTES("\x8C" "abcdefgh\x08\x00\x00"), 24,
      REF_ERR_LAST_LITERALS, REF_OK, REF_CHECK_EOB_LAST_LITERALS, 12,
      BYTES("abcdefghabcdefghabcdefgh"),
      "8 literals, a match of 16 at offset 8, then the token 00: an empty final sequence "
      "(spec, End of block conditions, rule 2)" },
    { "inv-last-match-11-from-end-offset-8", BYTES("\x82" "abcdefgh\x08\x00\x50" "vwxyz"), 19,
      REF_ERR_LAST_MATCH_TOO_CLOSE, REF_OK, REF_CHECK_EOB_LAST_MATCH, 17,
      BYTES("abcdefghabcdefvwxyz"),
      "8 literals, a match of 6 at offset 8, 5 final literals: the last match starts 11 "
      "bytes before the end (spec, End of block conditions, rule 3: at least 12)" },
};

const size_t malformed_block_count = sizeof malformed_blocks / sizeof malformed_blocks[0];

int malformed_block_in_frame(const malformed_block *m)
{
    return m->len > 0 && m->strict != REF_ERR_OUTPUT_OVERFLOW &&
           m->strict != REF_ERR_OUTPUT_FULL_INPUT_LEFT;
}
