/*
 * The contract runner (contracts.c) and its check files, one part of the
 * API each: contracts_compress.c (compress_bound, the block compressors),
 * contracts_decode.c (the block decoders), contracts_old_api.c (the old
 * kernel API), contracts_frame_decode.c and contracts_frame_compress.c (the
 * frame API). Helpers the checks share: contracts_data.c.
 */
#ifndef LZ4GATE_CONTRACTS_H
#define LZ4GATE_CONTRACTS_H

#include <stddef.h>
#include <stdint.h>

#include "fail_class.h"
#include "frame_driver.h"
#include "isolate.h"
#include "judge.h"
#include "subject.h"

/* One check: run in a child process (isolate.h) with a pointer to this
 * entry as its argument. */
typedef struct check {
    char id[96];             /* the record's "check": known findings match on it */
    subject_caps caps;       /* the entry points it needs (subject.h) */
    check_fn fn;
    /* Which form of the check fn runs (each check function's enum or
     * comment says what its values mean): the compressor, the decode call
     * variant, the argument made negative, how a frame is fed... */
    int variant;
    int accel_or_level;      /* compressor checks: compress_fast's acceleration,
                                compress_hc's level */
} check;

/* Register one check (a registration beyond the table is a fatal error). */
typedef void (*contract_add_fn)(const char *id, subject_caps caps, check_fn fn, int variant,
                                int accel_or_level);

/* Each registers its part's checks and keeps the subject they call. */
void contracts_add_compress(const struct lz4_subject *tested, contract_add_fn add);
void contracts_add_decode(const struct lz4_subject *tested, contract_add_fn add);
/* The old kernel API (3.11-4.10, docs/fix-history.md#old-kernel-api-g1). */
void contracts_add_old_api(const struct lz4_subject *tested, contract_add_fn add);
/* The LZ4 frame API (lz4frame.h), against ref's frame codec. */
void contracts_add_frame_decode(const struct lz4_subject *tested, contract_add_fn add);
void contracts_add_frame_compress(const struct lz4_subject *tested, contract_add_fn add);
/* Boundary sweeps (ids "sweep.CLASS...."): every boundary of an entry point
 * walked deterministically, guard pages on both sides, ref as the judge.
 * contracts_sweep_window.c (repeats at distances 65534..65537),
 * contracts_sweep_end.c (end-of-block rules), contracts_sweep_capacity.c
 * (+ _frame.c: capacities exact-32..exact+32), contracts_sweep_input.c (truncations,
 * frame input in pieces, every frame flag), contracts_sweep_dict.c (dictionary
 * sizes around 64 KiB, separate and contiguous, offsets at their first byte). */
void contracts_add_sweep_window(const struct lz4_subject *tested, contract_add_fn add);
void contracts_add_sweep_end(const struct lz4_subject *tested, contract_add_fn add);
void contracts_add_sweep_lengths(const struct lz4_subject *tested, contract_add_fn add);
void contracts_add_sweep_capacity(const struct lz4_subject *tested, contract_add_fn add);
void contracts_add_sweep_input(const struct lz4_subject *tested, contract_add_fn add);

void contracts_add_sweep_dict(const struct lz4_subject *tested, contract_add_fn add);
/* contracts_sweep_stream.c: 2 to 5 streamed blocks around 64 KiB of history. */
void contracts_add_sweep_stream(const struct lz4_subject *tested, contract_add_fn add);
/* contracts_sweep_stream_empty.c: an empty block between two streamed blocks. */
void contracts_add_sweep_stream_empty(const struct lz4_subject *tested, contract_add_fn add);
/* contracts_sweep_header.c: LZ4F_getFrameInfo after every prefix of every header. */
void contracts_add_sweep_header(const struct lz4_subject *tested, contract_add_fn add);
/* contracts_sweep_alloc.c: every allocation of the HC and frame entry points
 * made to fail, then the same context reused. */
void contracts_add_sweep_alloc(const struct lz4_subject *tested, contract_add_fn add);

/* ---- contracts_data.c: test data, and ref as the oracle of block checks ---- */

enum data_kind { DATA_RANDOM, DATA_ZEROS, DATA_TEXT, DATA_MIXED, DATA_KINDS };
extern const char *const data_kind_names[DATA_KINDS];

/* n bytes of kind (testdata.h), malloc'd. */
unsigned char *contract_data(enum data_kind kind, size_t n, uint32_t seed);

/* The dictionary of the frame dictionary checks (only its last 64 KiB
 * matter): 20000 bytes of text, malloc'd; *len set. */
unsigned char *contract_dictionary(size_t *len);

/* A valid block of data[0..n) made by ref (acceleration 1), malloc'd. */
unsigned char *contract_ref_block(const unsigned char *data, size_t n, size_t *blen);

/* CHECK_PASS when ref (strict) decodes block, a subject's compressor's, to
 * exactly want[0..n) (with the dictionary dict[0..dict_len) as history when
 * dict_len > 0); otherwise a message in msg and the class of what ref saw:
 * reads_before_history for a match before the input and history the
 * compressor was given, nonconformant_block for a block that only breaks
 * a rule of ref's profile table (compatible decodes it to want), else
 * roundtrip. */
check_result contract_ref_decodes_to(const unsigned char *block, size_t blen,
                                     const unsigned char *want, size_t n, const char *dict,
                                     size_t dict_len, char *msg, unsigned cap);

/* frame_ref_decodes_to (frame_driver.h) as a check's result: a frame a
 * subject made that ref (strict) does not decode to want[0..n) is
 * bad_frame, msg saying so. */
check_result contract_frame_decodes_to(const unsigned char *frame, size_t len,
                                       const unsigned char *want, size_t n,
                                       const unsigned char *dict, size_t dict_len,
                                       const char *what, char *msg, unsigned cap);

/* The class of a failing judgement (judge.h) of a decode that returned
 * len bytes: judgement_class(v), but wrong_length where the output accepted
 * is not ref's because its size is another (ref->len). */
enum fail_class contract_judged_class(judgement v, const judge_ref *ref, size_t len);

/* The class of a drive of a valid frame (frame_driver.h) that ended with
 * o, not complete: the driver's (an error, a stall, ...), or, for a
 * decoder still waiting for input after the whole frame, rejects_valid (it
 * refused the frame's end). */
enum fail_class contract_incomplete_class(enum frame_drive_outcome o);

/* fail_class_name for messages: "?" for FAIL_NONE. */
const char *contract_class_name(enum fail_class cls);

/* A hand-made block (spec, "Compressed block format"), small: the
 * boundary sweeps write their blocks with it. */
typedef struct block_writer {
    unsigned char b[256];
    size_t n;
} block_writer;

/* One sequence: lits literals from lit, then a match (offset, mlen >= 4);
 * mlen 0 writes the last sequence, literals only (rule 1). */
void block_put_sequence(block_writer *w, const unsigned char *lit, size_t lits,
                        unsigned offset, size_t mlen);

#endif
