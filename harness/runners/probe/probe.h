/*
 * The difference probe of `make mutate` (harness/mutate/probe.py): every
 * entry point of a subject called on a fixed, generated input set, one
 * line per call with a digest of what the call made. Run on a tree and on
 * a mutant of it that survived the gate's checks, the lines tell the
 * mutant's kind:
 *   - a call of kind "compress" whose digest differs while its output is
 *     still valid (ref decodes it, strict profile, to the input) is a
 *     choice the format leaves to the encoder (spec: "there can be
 *     multiple ways to compress");
 *   - any other difference (a decoder's output or verdict, a bound, a
 *     header field, a compressed output ref rejects) is behaviour the
 *     format or the API fixes, which the checks failed to look at.
 * Errors are digested as "error" only: which negative value a decoder
 * returns, and what it left in dst, are not fixed by the API.
 */
#ifndef LZ4GATE_PROBE_H
#define LZ4GATE_PROBE_H
#include <stddef.h>

#include "subject.h"

extern const struct lz4_subject *probe_subject;

/* The generated inputs: name (kind-size), bytes. */
struct probe_input {
    char name[48];
    unsigned char *data;
    size_t n;
};

/* One record: call (a unique name), kind ("compress", "decode", "api"),
 * valid (compress only: 1 when the output decodes to its input; -1: not a
 * compress call), the call's result and the bytes it made. */
void probe_emit(const char *call, const char *kind, int valid, long long result,
                const unsigned char *bytes, size_t n);

/* Does blk decode (ref, strict) to want[0..want_n), with dict as history? */
int probe_block_valid(const unsigned char *blk, size_t blk_n, const unsigned char *want,
                      size_t want_n, const unsigned char *dict, size_t dict_n);
/* Does the frame decode (ref) to want, with dict as the dictionary? */
int probe_frame_valid(const unsigned char *frame, size_t n, const unsigned char *want,
                      size_t want_n, const unsigned char *dict, size_t dict_n);

void probe_block_compressors(const struct probe_input *in);
void probe_stream_compressors(const struct probe_input *in);
void probe_frame_compressors(const struct probe_input *in);
void probe_block_decoders(const struct probe_input *in);
void probe_frame_decoders(const struct probe_input *in);
void probe_bounds(void);

#endif
