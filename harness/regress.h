/*
 * Shared pieces of the regression-case runner (regress.c) and its frame
 * entries (regress_frame.c).
 */
#ifndef LZ4GATE_REGRESS_H
#define LZ4GATE_REGRESS_H

#include <stddef.h>

#include "subject.h"

typedef struct bytes {
    unsigned char *p;
    size_t n;
} bytes;

/* key=value argument, or NULL. */
const char *arg(int argc, char **argv, const char *key);
/* Print an ERROR record and exit 2 (a malformed case, not a verdict). */
void die(const char *what, const char *detail);
/* Append n bytes (src, or `value` repeated when src is NULL). */
void append(bytes *b, const unsigned char *src, size_t n, int value);
/* Data spec (regress/README.md: hex:, file:, pattern:, KIND:SIZE[:SEED],
 * concat:, frame:, legacy:). */
void parse_data(bytes *b, const char *spec);
/* Size expression: N, or input|decoded|bound with an optional +N / -N. */
long long value(const char *expr, long long input, long long decoded);

extern char evidence[512];     /* the failing test's evidence */
extern long long last_return;  /* the subject's last return value */

/*
 * frame:KIND:SIZE:SEED[:OPTS]  a frame ref makes of generated data; OPTS is
 *     a comma list of B4..B7, linked, bcs (block checksums), ccs (content
 *     checksum), size (content size field), dictid (Dict-ID 0x5EED1234 and
 *     the "text:20000:99" dictionary), bigdict (Dict-ID 0xB16D1C7 and the
 *     "text:200000:98" dictionary), raw (blocks stored uncompressed)
 * legacy:KIND:SIZE:SEED         a legacy frame (lz4 -l, the kernel's format)
 * Appends the frame to out and, when content is not NULL, the data to it.
 */
void make_frame_input(const char *spec, bytes *out, bytes *content);

/* Frame entries (frame_decompress, frame_reset_then_decode, frame_compress,
 * frame_compress_stream): 1 if the expectation holds. */
int run_frame_entry(const struct lz4_subject *s, const char *entry, int argc, char **argv);

#endif
