/*
 * Boundary sweep of the length fields (issue 25; found missing by make
 * mutate's difference probe). Spec, "Compressed block format": a literal
 * run or a match length of 15 or more (match: 4 + 15) spills into extra
 * bytes, each 255 adding 255 and the first byte below 255 ending the field;
 * a run of exactly 15 + 255k needs a final 0 byte. A compressor that writes
 * one byte too few or too many there, or one whose main loop goes one
 * position past its last allowed match start, writes a block ref's STRICT
 * profile rejects.
 *
 * The inputs, through every compressor form (contracts_sweep.h):
 *  - incompressible ("unique") data whose one literal run is 14 to 16,
 *    269 to 271 and 524 to 526 bytes long;
 *  - unique data with one match of 4 + 14 to 4 + 16, 4 + 269 to 4 + 271
 *    and 4 + 524 to 4 + 526 bytes, and 32 unique bytes after it;
 *  - the same literal runs followed by a 16-byte match (an HC compressor
 *    writes a run before a match with other code than the block's last
 *    run: lz4 1.10.0's LZ4HC_encodeSequence, made `len >= 254` by make
 *    mutate, survived every other check);
 *  - text and mixed data of every size from 13 to 140 bytes: the tail of
 *    a block, where the main loop's last positions and the last literals
 *    meet, at every alignment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contracts_sweep.h"
#include "testdata.h"

static const struct lz4_subject *subject;

static const size_t literal_runs[] = { 14, 15, 16, 269, 270, 271, 524, 525, 526 };
static const size_t match_extras[] = { 14, 15, 16, 269, 270, 271, 524, 525, 526 };
#define TAIL_FIRST 13
#define TAIL_LAST 140
#define MATCH_SOURCE 8

#define N_LIT (sizeof literal_runs / sizeof literal_runs[0])
#define N_MATCH (sizeof match_extras / sizeof match_extras[0])
#define N_TAIL (2 * (TAIL_LAST - TAIL_FIRST + 1))
#define RUN_MATCH 16            /* the match after a literal run */

static int lengths_input(size_t i, int with_history, sweep_input *in)
{
    static unsigned char *data;
    size_t n;
    free(data);
    data = NULL;
    if (i < N_LIT) {
        n = literal_runs[i];
        data = testdata_make("unique", n, 40 + i);
        snprintf(in->what, sizeof in->what, "%zu incompressible bytes (one literal run)", n);
    } else if (i < N_LIT + N_MATCH) {
        size_t len = 4 + match_extras[i - N_LIT], at = MATCH_SOURCE + 24;
        n = at + len + 32;
        data = testdata_make("unique", n, 60 + i);
        /* the match copies [MATCH_SOURCE, +len) to at; overlapping when
         * len > 24, which the format allows (offset 24) */
        {
            size_t k;
            for (k = 0; k < len; k++)
                data[at + k] = data[MATCH_SOURCE + k];
        }
        if (data[at + len] == data[MATCH_SOURCE + len])
            data[at + len] ^= 0x5A;
        snprintf(in->what, sizeof in->what, "%zu bytes, one %zu-byte match (offset 24)", n, len);
    } else if (i < 2 * N_LIT + N_MATCH) {
        size_t run = literal_runs[i - N_LIT - N_MATCH], k;
        n = run + RUN_MATCH + 32;
        data = testdata_make("unique", n, 200 + i);
        for (k = 0; k < RUN_MATCH; k++)     /* the match: the first bytes again */
            data[run + k] = data[k];
        if (data[run + RUN_MATCH] == data[RUN_MATCH])
            data[run + RUN_MATCH] ^= 0x5A;
        snprintf(in->what, sizeof in->what, "%zu literals, then a %d-byte match (offset %zu)",
                 run, RUN_MATCH, run);
    } else if (i < 2 * N_LIT + N_MATCH + N_TAIL) {
        size_t k = i - 2 * N_LIT - N_MATCH;
        const char *kind = k % 2 ? "mixed" : "text";
        n = TAIL_FIRST + k / 2;
        data = testdata_make(kind, n, 80 + k);
        snprintf(in->what, sizeof in->what, "%zu bytes of %s data", n, kind);
    } else {
        return 0;
    }
    in->data = data;
    in->n = n;
    in->split = n / 2;
    if (with_history)
        strncat(in->what, " (history: the first half)", sizeof in->what - strlen(in->what) - 1);
    return 1;
}

static check_result chk_lengths_compressor(const void *arg, char *msg, unsigned cap)
{
    return sweep_run_compressor(subject, arg, lengths_input, msg, cap);
}

void contracts_add_sweep_lengths(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    sweep_add_compressors(add, "sweep.lengths", chk_lengths_compressor);
}
