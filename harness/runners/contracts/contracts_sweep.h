/*
 * The compressor forms the block sweeps run (issue 25): every compressor a
 * subject has, each as one check, on the inputs of a sweep class. Written
 * in contracts_sweep_window.c; contracts_sweep_end.c runs the same forms on
 * its own inputs.
 *
 * Every block goes into a guard-page buffer of compressBound bytes and must
 * decode under ref's STRICT profile to its input, with the dictionary or the
 * previous block (its last 64 KiB) as history where the form has one.
 */
#ifndef LZ4GATE_CONTRACTS_SWEEP_H
#define LZ4GATE_CONTRACTS_SWEEP_H

#include <stddef.h>

#include "contracts.h"

/* One input of a sweep class. */
typedef struct sweep_input {
    const unsigned char *data;
    size_t n;
    /* Forms with history: data[0..split) is the dictionary (a separate
     * buffer) or the first of two blocks that lie one after the other, and
     * data[split..n) the block that uses it. 0 < split < n. */
    size_t split;
    char what[120];    /* the input, for messages: "repeat at distance 65536" */
} sweep_input;

/* Fills *in with input i of a class and returns 1, or returns 0 past the
 * last input. with_history: the form uses split (a class may then give
 * each data several splits). in->data stays valid until the next call. */
typedef int (*sweep_input_fn)(size_t i, int with_history, sweep_input *in);

/* Registers one check per compressor form, ids PREFIX.compress_default,
 * PREFIX.compress_fast[accel=N], PREFIX.compress_hc[level=N] (1..12),
 * PREFIX.compress_dest_size, PREFIX.compress_using_dict, PREFIX.stream,
 * PREFIX.stream_hc[level=N], PREFIX.stream_hc_dict[level=N]; each runs fn,
 * which calls sweep_run_compressor with its class's inputs. */
void sweep_add_compressors(contract_add_fn add, const char *prefix, check_fn fn);

/* The forms with history only: PREFIX.compress_using_dict, PREFIX.stream
 * and PREFIX.stream_hc_dict[level=N] (contracts_sweep_dict.c). */
void sweep_add_history_compressors(contract_add_fn add, const char *prefix, check_fn fn);

/* The body of such a check: every input of gen through c's form (subject
 * s); CHECK_PASS, or the first failure's class with a message naming the
 * input and what ref said. */
check_result sweep_run_compressor(const struct lz4_subject *s, const check *c, sweep_input_fn gen,
                         char *msg, unsigned cap);

#endif
