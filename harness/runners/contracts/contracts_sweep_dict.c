/*
 * Boundary sweep of dictionaries (issue 25, "Find one-line bugs without
 * luck"). A dictionary is history before the first byte of the output
 * (spec, "Compressed block format": an offset may reach back into bytes
 * decoded before the block); only its last 64 KiB are reachable, since an
 * offset is at most 65535. Decoders pick their path by the dictionary's
 * size and place: none, small, 64 KiB - 1 or more, separate from the output
 * or ending where the output starts (lz4.h: LZ4_decompress_safe_usingDict,
 * LZ4_setStreamDecode). The sweep walks those edges.
 *
 * Sizes: 0, 1, 4, 64 KiB - 2 to 64 KiB + 1, and 100000 bytes.
 *
 * Decoders (decompress_safe_using_dict, decompress_fast_using_dict, and
 * setStreamDecode then decompress_safe_continue), each with the dictionary in a separate buffer
 * and contiguous with the output: hand-made blocks of L literals (0 or 8)
 * and a 20-byte match whose offset reaches exactly the dictionary's first
 * byte (L + size; 65535, the window's end, where that is farther), or one
 * byte before it (L + size + 1: invalid, the dictionary does not reach
 * there), then 12 literals. Exact and ample capacity (decompress_fast:
 * the exact output size, which is all it is told). The bytes before the
 * dictionary are poisoned under ASan, so a decoder that reads one byte
 * before it is reported; ref's verdict (judge.h) decides the rest.
 *
 * Compressors (the forms with history, contracts_sweep.h): a dictionary of
 * unique bytes and a block that repeats its first and last 32 bytes, so
 * that the only match at the dictionary's start lies at distance size
 * (out of reach from 64 KiB on). Every block must decode under ref's
 * strict profile with the dictionary (its last 64 KiB) as history.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts_sweep.h"
#include "guard.h"
#include "judge.h"
#include "testdata.h"

static const struct lz4_subject *subject;

static const size_t dict_sizes[] = { 0, 1, 4, 65534, 65535, 65536, 65537, 100000 };
#define NSIZES (sizeof dict_sizes / sizeof dict_sizes[0])
#define BIGGEST 100000
#define MAX_OFFSET 65535   /* spec: a 16-bit offset */
#define BEFORE 64          /* poisoned bytes before the dictionary */

/* The dictionary bytes (the last `size` of one unique sequence, so that
 * every size's dictionary is the tail of the biggest) and the literals. */
static unsigned char *unique_bytes;

static const unsigned char *dictionary_of(size_t size)
{
    if (!unique_bytes)
        unique_bytes = testdata_make("unique", BIGGEST + 256, 41);
    return unique_bytes + BIGGEST - size;
}

/* ---- compressors ----------------------------------------------------------------- */

#define HEAD 32   /* the block repeats the dictionary's first and last HEAD bytes */
#define NEW 16
#define TAIL 64

static int dict_input(size_t i, int with_history, sweep_input *in)
{
    static unsigned char data[BIGGEST + 2 * HEAD + NEW + TAIL];
    const unsigned char *fresh;
    size_t d, head, at;
    (void)with_history;
    /* Input i has size i + 1: dict_sizes[0] is 0, no dictionary, and the
     * forms with history need 0 < split. */
    if (i + 1 >= NSIZES)
        return 0;
    d = dict_sizes[i + 1];
    head = d < HEAD ? d : HEAD;
    fresh = dictionary_of(0);        /* bytes after the dictionary: none of its windows */
    memcpy(data, dictionary_of(d), d);
    at = d;
    memcpy(data + at, data, head);                   /* at distance d: the first byte */
    at += head;
    memcpy(data + at, fresh, NEW);
    at += NEW;
    memcpy(data + at, data + d - head, head);        /* the dictionary's end */
    at += head;
    memcpy(data + at, fresh + NEW, TAIL);
    in->data = data;
    in->n = at + TAIL;
    in->split = d;
    snprintf(in->what, sizeof in->what, "dictionary of %zu bytes, then a block of %zu bytes "
             "repeating its first and last %zu bytes", d, in->n - d, head);
    return 1;
}

static check_result chk_dict_compressor(const void *arg, char *msg, unsigned cap)
{
    return sweep_run_compressor(subject, arg, dict_input, msg, cap);
}

/* ---- decoders -------------------------------------------------------------------- */

enum dict_decoder { DD_USING_DICT, DD_STREAM, DD_FAST };
enum dict_place { DP_SEPARATE, DP_CONTIGUOUS };
#define LIT_BEFORE 8
#define MATCH 20
#define LAST 12   /* final literals: the end-of-block rules hold */

typedef struct dict_block {
    block_writer w;
    size_t size;      /* the dictionary's */
    size_t n;         /* decoded size */
    int before;       /* the match reaches one byte before the dictionary (the output) */
    char what[160];
} dict_block;

/* Block k of dictionary size index s: literals L = 0 or 8, the offset at
 * the dictionary's first byte or one before it. 0 when that block does not
 * exist (an offset of 0 or beyond 65535). */
static int make_dict_block(size_t s, size_t k, const unsigned char *lit, dict_block *b)
{
    const size_t size = dict_sizes[s], lits = k & 1 ? LIT_BEFORE : 0;
    const int before = (k >> 1) & 1;
    size_t offset = lits + size + (size_t)before;
    const char *reach = before ? "one byte before the dictionary's first byte" :
                                 "the dictionary's first byte";
    if (offset > MAX_OFFSET) {
        if (before)
            return 0;
        offset = MAX_OFFSET;
        reach = "the window's end (65535), inside the dictionary";
    }
    if (offset == 0)
        return 0;
    if (size == 0)
        reach = before ? "one byte before the output" : "the output's first byte";
    b->w.n = 0;
    block_put_sequence(&b->w, lit, lits, (unsigned)offset, MATCH);
    block_put_sequence(&b->w, lit + lits, LAST, 0, 0);
    b->size = size;
    b->n = lits + MATCH + LAST;
    b->before = before;
    snprintf(b->what, sizeof b->what, "dictionary of %zu bytes, %zu literals then a match at "
             "offset %zu: %s", size, lits, offset, reach);
    return 1;
}

/* One call of c's decoder on block b, capacity cap, judged against ref. */
static check_result dict_call(const check *c, const dict_block *b, size_t cap, char *msg,
                              unsigned msg_cap)
{
    const int contiguous = c->accel_or_level == DP_CONTIGUOUS;
    const unsigned char *dict = dictionary_of(b->size);
    const size_t keep = b->size < 65536 ? b->size : 65536;
    guard_buf in = guard_dup(b->w.b, b->w.n);
    /* [BEFORE poisoned][dictionary] and the output, or all three in one */
    guard_buf hist = guard_alloc(BEFORE + b->size + (contiguous ? cap : 0), 0xA5);
    guard_buf sep = guard_alloc(contiguous ? 0 : cap, 0xA5);
    unsigned char *dst = contiguous ? hist.data + BEFORE + b->size : sep.data;
    unsigned char *ref_out = xmalloc(cap);
    const char *dptr = (const char *)hist.data + BEFORE;
    ref_decode_params p;
    ref_decode_result last;
    judge_ref ref;
    judgement v;
    int r = -1;
    check_result res = CHECK_PASS;
    size_t len = 0;
    memcpy(hist.data + BEFORE, dict, b->size);
    guard_poison_before(&hist, hist.data + BEFORE);
    guard_label(&in, "input");
    guard_label(&hist, contiguous ? "dictionary+output" : "dictionary");
    memset(&p, 0, sizeof p);
    p.src = b->w.b;
    p.src_len = b->w.n;
    p.dst = ref_out;
    p.dst_cap = cap;
    p.dict = keep ? dict + b->size - keep : NULL;
    p.dict_len = keep;
    p.stop_at_output_end = c->variant == DD_FAST;
    ref = judge_ref_block(&p, &last);
    if (c->variant == DD_FAST) {
        /* LZ4_decompress_fast_usingDict: told the output size, not the input's */
        r = subject->decompress_fast_using_dict((const char *)in.data, (char *)dst, (int)cap,
                                                dptr, (int)b->size);
    } else if (c->variant == DD_USING_DICT) {
        r = subject->decompress_safe_using_dict((const char *)in.data, (char *)dst,
                                                (int)b->w.n, (int)cap, dptr, (int)b->size);
    } else {
        void *ds = subject->dstream_create();
        if (!ds) {
            res = check_fail(msg, msg_cap, FAIL_CREATE_FAILED, "dstream_create returned NULL");
        } else {
            if (!subject->dstream_set(ds, dptr, (int)b->size)) {
                res = check_fail(msg, msg_cap, FAIL_STREAM_ERROR,
                                 "%s: setStreamDecode returned 0", b->what);
            } else {
                r = subject->dstream_decompress(ds, (const char *)in.data, (char *)dst,
                                                (int)b->w.n, (int)cap);
            }
            subject->dstream_free(ds);
        }
    }
    if (r >= 0)   /* decompress_fast returns the input it read; its output is cap bytes */
        len = c->variant == DD_FAST ? cap : (size_t)r;
    if (!check_failed(res) && r >= 0 && len > cap) {
        res = check_fail(msg, msg_cap, FAIL_RETURN_ABOVE_CAPACITY,
                         "%s (%s); capacity %zu: returned %d", b->what,
                         contiguous ? "contiguous" : "separate", cap, r);
    } else if (!check_failed(res) && (v = judge_output(&ref, r >= 0, dst, len)) != JUDGE_PASS) {
        /* a match one byte before the dictionary (the output) accepted with
         * no fault: the decoder used a byte outside the history it was
         * given (poisoned under ASan, which reports it as a crash) */
        enum fail_class cls = r >= 0 && b->before ? FAIL_READS_BEFORE_HISTORY
                                                  : contract_judged_class(v, &ref, len);
        res = check_fail(msg, msg_cap, cls, "%s (%s with the output); capacity %zu: returned "
                         "%d, ref strict %s, compatible %s (%zu bytes): %s", b->what,
                         contiguous ? "contiguous" : "separate", cap, r,
                         ref.strict_ok ? "accepts" : "rejects",
                         ref.compat_ok ? "accepts" : "rejects", ref.len,
                         contract_class_name(judgement_class(v)));
    } else if (!check_failed(res) && c->variant == DD_FAST && r >= 0 && ref.compat_ok &&
               (size_t)r != last.consumed) {
        res = check_fail(msg, msg_cap, FAIL_BAD_CONSUMED, "%s (%s with the output); original "
                         "size %zu: returned %d, ref reads %zu bytes", b->what,
                         contiguous ? "contiguous" : "separate", cap, r, last.consumed);
    }
    free(ref_out);
    guard_free(&in);
    guard_free(&hist);
    guard_free(&sep);
    return res;
}

static check_result chk_dict_decoder(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    unsigned char *lit = testdata_make("unique", LIT_BEFORE + LAST, 43);
    size_t s, k;
    check_result res = CHECK_PASS;
    for (s = 0; s < NSIZES && !check_failed(res); s++) {
        for (k = 0; k < 4 && !check_failed(res); k++) {
            dict_block b;
            if (!make_dict_block(s, k, lit, &b))
                continue;
            /* exact capacity, and ample (decompress_fast: the output size) */
            res = dict_call(c, &b, b.n, msg, cap);
            if (!check_failed(res) && c->variant != DD_FAST)
                res = dict_call(c, &b, b.n + 32, msg, cap);
        }
    }
    free(lit);
    return res;
}

void contracts_add_sweep_dict(const struct lz4_subject *tested, contract_add_fn add)
{
    subject = tested;
    sweep_add_history_compressors(add, "sweep.dict", chk_dict_compressor);
    add("sweep.dict.decompress_safe_using_dict[separate]", CAP_DECOMPRESS_USING_DICT,
        chk_dict_decoder, DD_USING_DICT, DP_SEPARATE);
    add("sweep.dict.decompress_safe_using_dict[contiguous]", CAP_DECOMPRESS_USING_DICT,
        chk_dict_decoder, DD_USING_DICT, DP_CONTIGUOUS);
    add("sweep.dict.decompress_fast_using_dict[separate]", CAP_DECOMPRESS_FAST_USING_DICT,
        chk_dict_decoder, DD_FAST, DP_SEPARATE);
    add("sweep.dict.decompress_fast_using_dict[contiguous]", CAP_DECOMPRESS_FAST_USING_DICT,
        chk_dict_decoder, DD_FAST, DP_CONTIGUOUS);
    add("sweep.dict.stream_decode[separate]", CAP_STREAM_DECOMPRESS, chk_dict_decoder,
        DD_STREAM, DP_SEPARATE);
    add("sweep.dict.stream_decode[contiguous]", CAP_STREAM_DECOMPRESS, chk_dict_decoder,
        DD_STREAM, DP_CONTIGUOUS);
}
