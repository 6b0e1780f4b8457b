/*
 * judge.h: lz4gate's one verdict on a decoder's result, for blocks and
 * for streams of frames alike (issue 23). Every fuzz target that judges a
 * decoder (fuzz/oracle_verdict.c for the block decoders, frame_decode,
 * legacy_decode, ...) and the vector and contract runners decide with it:
 *
 *   - a REJECTION is a failure only where ref's STRICT profile accepts the
 *     whole input;
 *   - an ACCEPTANCE is a failure only where ref's COMPATIBLE profile
 *     rejects the input, or where the output differs from ref's under a
 *     profile that accepts it.
 *
 * Between the two lies ref's profile table (ref/profile.c,
 * ref_profile_rules): the spec lets a decoder reject a block that breaks an
 * end-of-block rule or carries offset 0 ("End of block conditions": "a
 * conformant decoder is allowed to reject"; "Compressed block format",
 * offset 0 is invalid) and established decoders accept such blocks, so
 * neither choice is a finding. The API latitudes (ref_latitudes) are named
 * exceptions a caller applies on top of this verdict, never instead of it.
 *
 * The strict profile only adds checks to the compatible one, on the same
 * decoding path: strict accepting implies compatible accepting, with the
 * same output. So "ref's output" is one output.
 */
#ifndef LZ4GATE_JUDGE_H
#define LZ4GATE_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "fail_class.h"
#include "lz4frame_ref.h"
#include "lz4ref.h"

typedef enum judgement {
    JUDGE_PASS = 0,          /* agrees with ref, or a choice the profiles leave open */
    JUDGE_REJECTS_VALID,     /* rejected; ref strict accepts the whole input */
    JUDGE_ACCEPTS_INVALID,   /* accepted; ref compatible rejects the input */
    JUDGE_WRONG_OUTPUT,      /* accepted valid input (ref strict accepts it); the output is
                              * not ref's */
    JUDGE_OTHER_OUTPUT,      /* accepted input ref strict rejects and ref compatible decodes
                              * (offset 0, an end-of-block rule), to other bytes than ref
                              * compatible's: the format's latitude, not corruption */
} judgement;

/* The rule itself. accepted: the decoder returned success; same_output: its
 * output equals ref's (only read when accepted and compat_ok). */
judgement judge_decode(int accepted, int same_output, int strict_ok, int compat_ok);

/* The failure class of a failing verdict (fail_class.h); FAIL_NONE for
 * JUDGE_PASS. */
enum fail_class judgement_class(judgement v);

/* What ref says of one input. */
typedef struct judge_ref {
    int strict_ok;          /* ref's strict profile accepts the whole input */
    int compat_ok;          /* ref's compatible profile accepts it */
    const uint8_t *out;     /* compat_ok: ref's output, len bytes */
    size_t len;
} judge_ref;

/* judge_decode for a decoder that returned out[0..len) (accepted) or failed. */
judgement judge_output(const judge_ref *ref, int accepted, const uint8_t *out, size_t len);

/* A partial decode (LZ4_decompress_safe_partial) reads a block only up to
 * its target, but the input it is given is the whole block: its rejection is
 * wrong only where ref strict accepts the call (call_ok) and the block as a
 * whole, decoded without a capacity limit (whole_ok). lz4 >= 1.9.2 checks
 * the whole block before it stops, and the spec lets it reject a block that
 * is invalid anywhere (issue 23: the vectors inv-last-literals-*). */
int judge_partial_strict_ok(int call_ok, int whole_ok);

/* ref's view of the block decode p describes (p->profile is ignored): strict
 * first, then, when strict rejects, compatible, both into p->dst. *last
 * (may be NULL) gets the result of the last decode made. */
judge_ref judge_ref_block(const ref_decode_params *p, ref_decode_result *last);

/* Whether ref strict accepts src[0..n) as a whole block (with the external
 * dictionary dict[0..dict_len), if any) whatever the capacity: decoded with
 * room for the most any n-byte block can produce. -1 when out of memory. */
int judge_block_strict_whole(const uint8_t *src, size_t n, const uint8_t *dict,
                               size_t dict_len);

/* ref's view of a stream of frames, decoded one-shot with the options o
 * (o->profile is ignored) into dst[0..cap): strict first, then compatible
 * when strict rejects. *last (may be NULL) gets the result of the last
 * decode made: with compat_ok, the compatible (and strict) result; else the
 * compatible profile's error. A stream too large for dst ends with
 * REF_FRAME_ERR_OUTPUT_FULL under both: not a verdict on the input, which
 * callers skip. */
judge_ref judge_ref_frames(const ref_frame_options *o, const uint8_t *src, size_t n,
                               uint8_t *dst, size_t cap, ref_frame_result *last);

#endif /* LZ4GATE_JUDGE_H */
