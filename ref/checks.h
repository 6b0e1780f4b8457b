/*
 * Named safety checks of the reference decoder.
 *
 * Every bounds or validity test in block_decode.c is written as
 * REF_CHECK(NAME, condition, error), and every other rule whose absence is a
 * known bug class as REF_RULE(NAME). A mutant build (-DREF_MUTANT=NAME, see
 * `make mutants`) compiles one of them as "always passes", so the decoder
 * then behaves like a real decoder that lacks that check. The regression
 * suite and the fuzzer self-tests use these mutants to show that each case
 * and each target can fail.
 *
 * X(NAME, what the check guarantees)
 */
#ifndef LZ4REF_CHECKS_H
#define LZ4REF_CHECKS_H

#include "mutant.h"

#define REF_CHECK_LIST(X)                                                             \
    X(TOKEN_IN_INPUT,        "a token byte is available before it is read")          \
    X(LITLEN_IN_INPUT,       "each literal-length byte is available before it is read") \
    X(LITLEN_NO_WRAP,        "the literal length does not overflow size_t")          \
    X(LITERALS_IN_INPUT,     "the literal run lies inside the input")                \
    X(LITERALS_IN_OUTPUT,    "the literal run fits in the output capacity")          \
    X(OUTPUT_FULL_AT_END,    "no input is left once the output capacity is reached") \
    X(OFFSET_IN_INPUT,       "both offset bytes are available before they are read") \
    X(OFFSET_NOT_ZERO,       "offset 0 is rejected")                                 \
    X(OFFSET_IN_HISTORY,     "the match starts inside output + prefix + dictionary") \
    X(MATCHLEN_IN_INPUT,     "each match-length byte is available before it is read") \
    X(MATCHLEN_NO_WRAP,      "the match length does not overflow size_t")            \
    X(MATCH_IN_OUTPUT,       "the match fits in the output capacity")                \
    X(EOB_LAST_LITERALS,     "strict: the last 5 bytes are literals (rule 2)")       \
    X(EOB_LAST_MATCH,        "strict: the last match starts >= 12 bytes before the end (rule 3)") \
    X(END_AT_INPUT_END,      "the block ends when the input is exhausted after literals")  \
    X(LITERALS_MAY_OVERLAP,  "literals are moved, not memcpy'd: in-place decoding overlaps")

enum ref_check_id {
#define REF_CHECK_ENUM(name, what) REF_CHECK_##name,
    REF_CHECK_LIST(REF_CHECK_ENUM)
#undef REF_CHECK_ENUM
    REF_CHECK_COUNT
};

/* The name of the check switched off in this build, or NULL. */
const char *ref_mutant_name(void);
/* Name and description of check i (0 <= i < REF_CHECK_COUNT). */
const char *ref_check_name(int i);
const char *ref_check_what(int i);

/*
 * REF_CHECK(NAME, cond, err): if cond is false, fail with err. In the mutant
 * build for NAME the condition is not evaluated at all.
 */
#define REF_CHECK(name, cond, err)                                            \
    do {                                                                      \
        if (REF_MUTANT_ID_##name != REF_MUTANT_SELECTED && !(cond))           \
            return ref_fail((err), REF_CHECK_##name, state);                  \
    } while (0)

/*
 * REF_RULE(NAME): true unless this is the mutant build for NAME. For rules
 * that are not a failure test (where the block ends, how bytes are copied)
 * but whose absence is a known bug class.
 */
#define REF_RULE(name) (REF_MUTANT_ID_##name != REF_MUTANT_SELECTED)

#endif /* LZ4REF_CHECKS_H */
