/*
 * mutant.h: the mutant mechanism of ref's named checks. A build with
 * -DREF_MUTANT=NAME switches check NAME off (checks.h REF_CHECK / REF_RULE,
 * frame_checks.h REF_FRAME_CHECK / REF_FRAME_RULE), so the decoder behaves
 * like one that lacks it; tests/mutants.py shows that a unit test fails for
 * each. Every check has a numeric id here (block checks 1..16, frame checks
 * 17..34, equal to the check's enum value + 1: frame_names.c asserts it), so
 * that -DREF_MUTANT=NAME compiles in any file that includes this header.
 */
#ifndef LZ4REF_MUTANT_H
#define LZ4REF_MUTANT_H

#define REF_MUTANT_ID_NONE 0
#define REF_MUTANT_ID_TOKEN_IN_INPUT 1
#define REF_MUTANT_ID_LITLEN_IN_INPUT 2
#define REF_MUTANT_ID_LITLEN_NO_WRAP 3
#define REF_MUTANT_ID_LITERALS_IN_INPUT 4
#define REF_MUTANT_ID_LITERALS_IN_OUTPUT 5
#define REF_MUTANT_ID_OUTPUT_FULL_AT_END 6
#define REF_MUTANT_ID_OFFSET_IN_INPUT 7
#define REF_MUTANT_ID_OFFSET_NOT_ZERO 8
#define REF_MUTANT_ID_OFFSET_IN_HISTORY 9
#define REF_MUTANT_ID_MATCHLEN_IN_INPUT 10
#define REF_MUTANT_ID_MATCHLEN_NO_WRAP 11
#define REF_MUTANT_ID_MATCH_IN_OUTPUT 12
#define REF_MUTANT_ID_EOB_LAST_LITERALS 13
#define REF_MUTANT_ID_EOB_LAST_MATCH 14
#define REF_MUTANT_ID_END_AT_INPUT_END 15
#define REF_MUTANT_ID_LITERALS_MAY_OVERLAP 16

/* The frame decoder's checks (frame_checks.h). */
#define REF_MUTANT_ID_FRAME_MAGIC_KNOWN 17
#define REF_MUTANT_ID_FRAME_FIELD_IN_INPUT 18
#define REF_MUTANT_ID_FRAME_VERSION 19
#define REF_MUTANT_ID_FRAME_RESERVED_BITS 20
#define REF_MUTANT_ID_FRAME_BLOCK_MAX_VALID 21
#define REF_MUTANT_ID_FRAME_HEADER_CHECKSUM 22
#define REF_MUTANT_ID_FRAME_DICT_AVAILABLE 23
#define REF_MUTANT_ID_BLOCK_SIZE_WITHIN_MAX 24
#define REF_MUTANT_ID_BLOCK_DATA_IN_INPUT 25
#define REF_MUTANT_ID_BLOCK_CHECKSUM 26
#define REF_MUTANT_ID_BLOCK_OUTPUT_WITHIN_MAX 27
#define REF_MUTANT_ID_CONTENT_SIZE_MATCHES 28
#define REF_MUTANT_ID_CONTENT_CHECKSUM 29
#define REF_MUTANT_ID_SKIPPABLE_DATA_IN_INPUT 30
#define REF_MUTANT_ID_LEGACY_CHUNK_WITHIN_MAX 31
#define REF_MUTANT_ID_LEGACY_CHUNK_IN_INPUT 32
#define REF_MUTANT_ID_LEGACY_CHUNK_FULL 33
#define REF_MUTANT_ID_OUTPUT_WITHIN_CAPACITY 34

/* Planted encoder bugs (block_encode.c), not checks: each makes ref's
 * encoder, which the ref subject's compressors call, write blocks ref's
 * strict decoder rejects, for the boundary sweeps to catch (issue 25;
 * harness/runners/contracts/contracts_sweep_*.c). tests/mutants.py does not
 * run them: no unit test is meant to. harness/subjects/refcodec.py
 * encoder_mutant_names() reads this list (names ENCODE_*).
 *   ENCODE_WINDOW_65536   a match 65536 bytes back is taken (written as
 *                         offset 0): sweep.window
 *   ENCODE_LAST_MATCH     the last match may start 11 bytes before the end
 *                         (rule 3 says 12): sweep.end
 *   ENCODE_LAST_LITERALS  a match may end 4 bytes before the end (rule 2
 *                         says 5 literals): sweep.end, and any compressible
 *                         data whose last match runs to the end
 *   ENCODE_LEN_255        a length field of exactly 15 + 255k (k >= 1)
 *                         loses its final 0 byte: sweep.lengths */
#define REF_MUTANT_ID_ENCODE_WINDOW_65536 35
#define REF_MUTANT_ID_ENCODE_LAST_MATCH 36
#define REF_MUTANT_ID_ENCODE_LAST_LITERALS 37
#define REF_MUTANT_ID_ENCODE_LEN_255 38

#define REF_MUTANT_ID_(name) REF_MUTANT_ID_##name
#define REF_MUTANT_ID(name) REF_MUTANT_ID_(name)

#if defined(REF_MUTANT_FROM_ENV) || defined(REF_MUTANT_LINKED)
/* One build for every mutant. REF_MUTANT_FROM_ENV (tests/mutants.py): the
 * check switched off is the id in the environment variable LZ4REF_MUTANT_ID,
 * read at start-up (profile.c); 0 or unset switches none off.
 * REF_MUTANT_LINKED (the ref-mutant:NAME subjects): the variable is defined
 * by a one-line object linked beside ref's, so every mutant shares ref's
 * objects and a program of the subject needs no environment. */
extern int ref_mutant_selected;
#define REF_MUTANT_SELECTED ref_mutant_selected
#elif defined(REF_MUTANT)
#define REF_MUTANT_SELECTED REF_MUTANT_ID(REF_MUTANT)
#else
#define REF_MUTANT_SELECTED REF_MUTANT_ID_NONE
#endif

#endif /* LZ4REF_MUTANT_H */
