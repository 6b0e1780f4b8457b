/*
 * lz4ref: the lz4gate reference LZ4 block codec.
 *
 * Written from the LZ4 block format specification (lz4_Block_format.md,
 * "Compressed block format" and "End of block conditions"). It is the
 * oracle the differential fuzzers, the conformance vectors and the
 * regression suite trust, so it favours being obviously right over being
 * clever: every length is checked against what is left of a buffer before
 * any pointer is formed, and every check carries a name (see checks.h).
 *
 * No I/O, no global state; all memory is the caller's.
 */
#ifndef LZ4REF_H
#define LZ4REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Format constants (spec: "Compressed block format"). */
#define REF_MIN_MATCH 4          /* a match-length field of 0 means 4 bytes */
#define REF_MAX_OFFSET 65535     /* 65536 and beyond cannot be coded */
#define REF_LAST_LITERALS 5      /* "End of block conditions", rule 2 */
#define REF_MATCH_FROM_END 12    /* "End of block conditions", rule 3 */
#define REF_MAX_DICT 65536       /* only the last 64 KiB of history is reachable */
#define REF_MAX_INPUT_SIZE 0x7E000000u /* limit of the standard bound formula */

/*
 * Decoder results. Each error names the first rule the block broke; the
 * decoder stops at that point and reports how far it got.
 */
typedef enum ref_status {
    REF_OK = 0,
    REF_ERR_TRUNCATED_TOKEN,        /* input ended where a token was due (incl. empty input) */
    REF_ERR_TRUNCATED_LITERAL_LENGTH, /* input ended inside a literal-length byte chain */
    REF_ERR_TRUNCATED_LITERALS,     /* fewer literal bytes left than the length says */
    REF_ERR_TRUNCATED_OFFSET,       /* fewer than 2 bytes left for the offset */
    REF_ERR_TRUNCATED_MATCH_LENGTH, /* input ended inside a match-length byte chain */
    REF_ERR_LENGTH_OVERFLOW,        /* a length does not fit in size_t ("Large lengths") */
    REF_ERR_OFFSET_ZERO,            /* offset 0 denotes a corrupted block */
    REF_ERR_OFFSET_BEFORE_START,    /* offset reaches before output start + prefix + dictionary */
    REF_ERR_OUTPUT_OVERFLOW,        /* literals or match would pass the output capacity */
    REF_ERR_OUTPUT_FULL_INPUT_LEFT, /* output capacity reached, input bytes remain (trailing bytes) */
    REF_ERR_LAST_LITERALS,          /* strict: last sequence has fewer than 5 literals (rule 2) */
    REF_ERR_LAST_MATCH_TOO_CLOSE,   /* strict: last match starts < 12 bytes before end (rule 3) */
    REF_ERR_BAD_PARAMETER,          /* NULL buffer with non-zero size, dictionary > 64 KiB... */
    REF_STATUS_COUNT
} ref_status;

const char *ref_status_name(ref_status status);

/*
 * Acceptance profiles. The spec lets a decoder skip the end-of-block checks
 * ("a conformant decoder is allowed to reject"), so a decoder that accepts a
 * block breaking rule 2 or 3 is not wrong, and neither is one that rejects
 * it. profile.c lists every rule on which the two profiles differ.
 */
typedef enum ref_profile {
    REF_PROFILE_STRICT = 0,     /* every rule of the spec */
    REF_PROFILE_COMPATIBLE = 1, /* what established decoders accept */
} ref_profile;

/* What a partial decode returns when min(target, capacity) is 0
 * (docs/fix-history.md#current-kernel-api-g2-and-g3). */
typedef enum ref_target0 {
    REF_TARGET0_RETURNS_ZERO = 0,   /* upstream >= 1.9.2: 0 bytes, success */
    REF_TARGET0_AS_EMPTY_OUTPUT = 1 /* kernel / upstream < 1.9.2: like capacity 0, so
                                       success only for the one-byte block "\0" */
} ref_target0;

typedef struct ref_decode_params {
    const uint8_t *src;
    size_t src_len;
    uint8_t *dst;
    size_t dst_cap;
    /* History a match may reach into, oldest first:
     *   [dict, dict+dict_len) then [dst-prefix_len, dst) then the output.
     * prefix_len: bytes of already decoded output just before dst (the
     * "prefix" mode of streaming decode). dict: a separate buffer (the
     * "external dictionary" of *_usingDict). Together at most 64 KiB each. */
    const uint8_t *dict;
    size_t dict_len;
    size_t prefix_len;
    ref_profile profile;
    /* Partial decoding (LZ4_decompress_safe_partial): when non-zero, stop as
     * soon as min(target, dst_cap) bytes are written, even inside a sequence;
     * the input is then not required to end there. */
    int partial;
    size_t target;
    ref_target0 target0;
    /* Known-size decoding (LZ4_decompress_fast): src_len is only an upper
     * bound; stop after the literal run that fills dst_cap exactly and report
     * the bytes consumed. */
    int stop_at_output_end;
} ref_decode_params;

typedef struct ref_decode_result {
    ref_status status;
    size_t written;   /* bytes written to dst (on error: bytes written so far) */
    size_t consumed;  /* input bytes read (on error: position of the offending field) */
    int failed_check; /* on error, the REF_CHECK_* (checks.h) that fired; else -1 */
} ref_decode_result;

ref_decode_result ref_decode(const ref_decode_params *p);

/* Convenience: whole-block decode, no dictionary, strict profile. */
ref_decode_result ref_decode_block(const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_cap);

/*
 * The profile table: one row per rule on which strict and compatible
 * decoders may disagree without either being wrong.
 */
typedef struct ref_profile_rule {
    ref_status status;          /* the error strict returns for this rule */
    const char *name;           /* stable id used in fuzzer messages */
    const char *spec_section;   /* where the spec says it */
    int strict_rejects;
    int compatible_rejects;
    const char *note;
} ref_profile_rule;

extern const ref_profile_rule ref_profile_rules[];
extern const size_t ref_profile_rule_count;

/* The row for an error status, or NULL when the spec leaves no latitude. */
const ref_profile_rule *ref_profile_rule_for(ref_status status);

/*
 * API latitudes: where the block is malformed or a call is at the edge of
 * its contract, and the API documentation leaves more than one result
 * correct. Unlike the rules above they are not about one error status but
 * about an entry point's convention (partial decoding, empty buffers). The
 * fuzz oracle and the vector runner accept a disagreement with ref only by
 * naming a row of this table or of ref_profile_rules.
 */
typedef struct ref_latitude {
    const char *name;           /* stable id used in fuzzer and vector messages */
    const char *applies_to;     /* the entry point / call situation */
    const char *source;         /* the API text or spec section that allows it */
    const char *allows;         /* what a subject may do instead of ref's result */
} ref_latitude;

extern const ref_latitude ref_latitudes[];
extern const size_t ref_latitude_count;

/* The row named `name`, or NULL. */
const ref_latitude *ref_latitude_named(const char *name);

/* ---- Encoder -------------------------------------------------------- */

/* Standard bound: n + n/255 + 16, or 0 when n > REF_MAX_INPUT_SIZE. */
size_t ref_compress_bound(size_t n);

typedef enum ref_encode_mode {
    REF_ENCODE_LIMITED = 0, /* fail (return 0) if the block does not fit dst_cap */
    REF_ENCODE_DEST_SIZE = 1 /* compress as much input as fits in dst_cap */
} ref_encode_mode;

typedef struct ref_encode_params {
    const uint8_t *src;
    size_t src_len;
    uint8_t *dst;
    size_t dst_cap;
    int acceleration;        /* LZ4_compress_fast semantics: <= 0 means 1 */
    const uint8_t *dict;     /* optional history; only its last 64 KiB is used */
    size_t dict_len;
    ref_encode_mode mode;
} ref_encode_params;

typedef struct ref_encode_result {
    size_t written;   /* bytes of block written; 0 on failure (except empty
                         input, which encodes as the one-byte block "\0") */
    size_t consumed;  /* input bytes the block decodes to */
    int ok;
} ref_encode_result;

/* Scratch memory the encoder needs (its hash table), caller-provided so the
 * codec never allocates. */
#define REF_ENCODE_STATE_SIZE (4096u * 4u)

ref_encode_result ref_encode(const ref_encode_params *p, void *state);

/* Convenience: LZ4_compress_default-like. Returns bytes written or 0. */
size_t ref_compress(const uint8_t *src, size_t src_len, uint8_t *dst,
                    size_t dst_cap, int acceleration);

/* ---- Valid-block generator (like zstd's decodecorpus) ---------------- */

typedef struct ref_gen_params {
    uint64_t seed;
    size_t max_output;      /* upper bound on decoded size (>= 1) */
    size_t dict_len;        /* 0, or a dictionary the block may reference
                               (filled by the generator into gen_dict) */
} ref_gen_params;

typedef struct ref_gen_result {
    int ok;
    size_t block_len;
    size_t output_len;
    size_t dict_len;
    uint32_t features;      /* REF_GEN_F_* the block exercises */
} ref_gen_result;

/* Features a generated block can exercise (for coverage accounting). */
#define REF_GEN_F_LONG_LITERALS   (1u << 0) /* literal run >= 270 */
#define REF_GEN_F_LENGTH_CHAIN    (1u << 1) /* a 255-byte length chain */
#define REF_GEN_F_OVERLAP         (1u << 2) /* match length > offset */
#define REF_GEN_F_MAX_OFFSET      (1u << 3) /* offset 65535 */
#define REF_GEN_F_EDGE_MATCHLEN   (1u << 4) /* match length 4, 18, 19 or 274 */
#define REF_GEN_F_EDGE_LITLEN     (1u << 5) /* literal length 0, 14, 15 */
#define REF_GEN_F_EXACT_END       (1u << 6) /* ends exactly at the end-of-block limits */
#define REF_GEN_F_DICT            (1u << 7) /* a match reaches into the dictionary */
#define REF_GEN_F_HUGE_LITERALS   (1u << 8) /* literal run >= 65 536 */

/* Writes a valid block to block[0..block_cap), its exact decoded output to
 * out[0..out_cap) and, when p->dict_len > 0, the dictionary it was built
 * against to dict[0..p->dict_len). The bytes depend on (seed, max_output,
 * dict_len) together and are the same on every platform. max_output 0 gives
 * the block "\0". Fails (ok = 0) when out_cap < max_output, block_cap <
 * ref_compress_bound(max_output) + 64, max_output > REF_MAX_INPUT_SIZE,
 * dict_len > 64 KiB, or a needed pointer is NULL. */
ref_gen_result ref_gen_block(const ref_gen_params *p, uint8_t *block,
                             size_t block_cap, uint8_t *out, size_t out_cap,
                             uint8_t *dict);

#ifdef __cplusplus
}
#endif
#endif /* LZ4REF_H */
