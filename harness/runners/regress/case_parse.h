/*
 * Reading one regression test's key=value arguments (regress/README.md,
 * "Runner keys"): the keys, the data specs and the size expressions every
 * entry of the runner shares.
 */
#ifndef LZ4GATE_CASE_PARSE_H
#define LZ4GATE_CASE_PARSE_H

#include "buf.h"
#include "fail_class.h"

/* The value of key=VALUE among argv[1..argc), or NULL. */
const char *case_arg(int argc, char **argv, const char *key);

/* A malformed test, not a verdict: print the ERROR record
 * {"verdict":"ERROR","evidence":"WHAT: DETAIL"} and exit 2. */
void case_die(const char *what, const char *detail);

/* Append the bytes of a data spec to b: hex:HEX | file:PATH |
 * pattern:BBxN,... | KIND:SIZE[:SEED] | concat:SPEC+SPEC... | frame:... |
 * legacy:... (below). */
void case_parse_data(buf *b, const char *spec);

/*
 * frame:KIND:SIZE:SEED[:OPTS]  a frame ref makes of generated data; OPTS is
 *     a comma list of B4..B7, linked, bcs (block checksums), ccs (content
 *     checksum), size (content size field), dictid (Dict-ID 0x5EED1234 and
 *     the "text:20000:99" dictionary), bigdict (Dict-ID 0xB16D1C7 and the
 *     "text:200000:98" dictionary), raw (blocks stored uncompressed)
 * legacy:KIND:SIZE:SEED         a legacy frame (lz4 -l, the kernel's format)
 * Appends the frame to out and, when content is not NULL, the data to it.
 */
void case_frame_data(const char *spec, buf *out, buf *content);

/* A size expression: N (0x.. too; "-1" is -1), or input | decoded | bound
 * (decoded + decoded / 255 + 16) with an optional +N or -N. */
long long case_size_expr(const char *expr, long long input, long long decoded);

/* A size key: its expression's value, or `absent` when the key is not given. */
long long case_size_arg(int argc, char **argv, const char *key, long long input,
                        long long decoded, long long absent);

/* Whether the return value r meets expect=: reject (r < 0) | any | decoded
 * (r == decoded) | return:<0 | return:>=0 | return:EXPR. */
int case_return_expected(const char *expect, long long r, long long input, long long decoded);

/* What an entry's return value is: a size (the bytes decoded), the input
 * consumed (decompress_fast), or a status (0 or an error: the old kernel
 * API, unlz4). */
enum case_returns { CASE_RETURNS_SIZE, CASE_RETURNS_CONSUMED, CASE_RETURNS_STATUS };

/* The failure class of a return value r that does not meet expect=
 * (case_return_expected gave 0), by what the expectation said: an error
 * wanted and a success returned: accepts_invalid; another error value:
 * wrong_return; success wanted and an error returned: rejects_valid;
 * another success: wrong_length for a size, bad_consumed for the input
 * consumed, wrong_return for a status. */
enum fail_class case_return_class(const char *expect, long long r, long long input,
                                  long long decoded, enum case_returns what);

#endif
