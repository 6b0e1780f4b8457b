/*
 * Boundary sweep, capacities (issue 25, "Find one-line bugs without luck:
 * deterministic boundary sweeps"): every call that writes into a caller's
 * buffer at every capacity from exact-32 to exact+32, the buffer ending at a
 * guard page (guard.h). exact is what the call needs: the decoded size
 * (decoders), the subject's own output at the bound (compressors), the
 * frame or the piece of it a call writes (frame calls). ref judges every
 * result (judge.h; blocks and frames made must decode, ref strict, to the input).
 * The frame calls: contracts_sweep_capacity_frame.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "contracts.h"
#include "contracts_sweep_capacity.h"
#include "guard.h"
#include "judge.h"
#include "lz4ref.h"
#include "testdata.h"

static const struct lz4_subject *subject;


size_t sweep_from(size_t exact) { return exact > SPAN ? exact - SPAN : 0; }

unsigned char *room_at_end(const guard_buf *b, size_t cap)
{
    unsigned char *p = b->data + b->size - cap;
    guard_poison_before(b, p);
    memset(p, 0xA5, cap);
    return p;
}

/* The data of the block sweeps: compressible, mixed, incompressible (its
 * block is literals only, its size next to the bound). */
static const struct { const char *kind; size_t n; } block_data[] = {
    { "text", 3000 }, { "mixed", 2000 }, { "random", 400 },
};
enum { BLOCK_DATA = sizeof block_data / sizeof block_data[0] };

/* ---- block decoders --------------------------------------------------------- */

/* check.variant of chk_decoder: the entry point (partial: target = capacity or all). */
enum decoder { DEC_SAFE, DEC_PARTIAL_TARGET_CAP, DEC_PARTIAL_TARGET_ALL, DEC_DICT, DEC_FAST };

static int call_decoder(enum decoder d, const unsigned char *src, size_t blen, unsigned char *dst,
                        size_t cap, size_t n, const unsigned char *dict, size_t dict_len)
{
    const char *s = (const char *)src;
    char *o = (char *)dst;
    if (d == DEC_SAFE)
        return subject->decompress_safe(s, o, (int)blen, (int)cap);
    if (d == DEC_DICT)
        return subject->decompress_safe_using_dict(s, o, (int)blen, (int)cap,
                                                   (const char *)dict, (int)dict_len);
    if (d == DEC_FAST)   /* the capacity is the original size, the call's contract */
        return subject->decompress_fast(s, o, (int)cap);
    return subject->decompress_safe_partial(s, o, (int)blen,
                                            (int)(d == DEC_PARTIAL_TARGET_CAP ? cap : n), (int)cap);
}

/* One decoder at every capacity around the decoded size of each block of
 * block_data (made by ref, on contract_dictionary for DEC_DICT). Below the
 * decoded size: reject (partial: stop at the capacity), never write past;
 * at or above: ref's output. decompress_fast is swept up to the decoded size
 * only: it does not know the input size, so an original size beyond the
 * block's makes it read past the block, as lz4.h says it does. */
/* The class of chk_decoder's call of d at capacity k on ref's valid
 * n-byte block (blen bytes) that returned r and was judged v; FAIL_NONE
 * when it passed. */
static enum fail_class decoder_class(enum decoder d, int r, size_t k, size_t n, size_t blen,
                                     judgement v, const judge_ref *ref, size_t len,
                                     const ref_decode_result *last)
{
    if (d == DEC_FAST && r > (int)blen)   /* it returns the input bytes it read */
        return FAIL_BAD_CONSUMED;
    if (d != DEC_FAST && r > (int)k)
        return FAIL_RETURN_ABOVE_CAPACITY;
    /* ref's valid block accepted with a capacity below its size: the
     * content cut short reported as the whole */
    if (v == JUDGE_ACCEPTS_INVALID && (d == DEC_SAFE || d == DEC_DICT) && k < n)
        return FAIL_WRONG_LENGTH;
    if (v != JUDGE_PASS)
        return contract_judged_class(v, ref, len);
    if (d == DEC_FAST && r >= 0 && (size_t)r != last->consumed)
        return FAIL_BAD_CONSUMED;
    return FAIL_NONE;
}

static check_result chk_decoder(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    enum decoder d = (enum decoder)c->variant;
    size_t dict_len = 0, i;
    unsigned char *dict = d == DEC_DICT ? contract_dictionary(&dict_len) : NULL;
    check_result res = CHECK_PASS;
    for (i = 0; i < BLOCK_DATA && !check_failed(res); i++) {
        size_t n = block_data[i].n, room = ref_compress_bound(n), blen, k;
        unsigned char *data = testdata_make(block_data[i].kind, n, 40 + i);
        unsigned char *block = xmalloc(room), *want = xmalloc(n + SPAN + 1);
        ref_encode_params ep;
        unsigned char state[REF_ENCODE_STATE_SIZE];
        guard_buf in, outs = guard_alloc(n + SPAN, 0xA5);
        memset(&ep, 0, sizeof ep);
        ep.src = data; ep.src_len = n; ep.dst = block; ep.dst_cap = room;
        ep.dict = dict; ep.dict_len = dict_len;
        blen = ref_encode(&ep, state).written;
        in = guard_dup(block, blen);
        for (k = sweep_from(n); k <= n + (d == DEC_FAST ? 0 : SPAN) && !check_failed(res); k++) {
            unsigned char *out = room_at_end(&outs, k);
            int r = call_decoder(d, in.data, blen, out, k, n, dict, dict_len);
            ref_decode_params p;
            ref_decode_result last;
            judge_ref v;
            size_t len;
            enum fail_class cls;
            memset(&p, 0, sizeof p);
            p.src = block; p.src_len = blen; p.dst = want; p.dst_cap = k;
            p.dict = dict; p.dict_len = dict_len;
            p.partial = d == DEC_PARTIAL_TARGET_CAP || d == DEC_PARTIAL_TARGET_ALL;
            p.target = d == DEC_PARTIAL_TARGET_CAP ? k : n;
            p.stop_at_output_end = d == DEC_FAST;
            v = judge_ref_block(&p, &last);
            if (d == DEC_SAFE)
                r = subject_decoded_size(subject, r, (int)k, v.compat_ok ? (long long)v.len : -1);
            /* decompress_fast returns the input bytes read; its output is k bytes */
            len = d == DEC_FAST ? k : r > 0 ? (size_t)r : 0;
            cls = decoder_class(d, r, k, n, blen, judge_output(&v, r >= 0, out, len), &v, len,
                                &last);
            if (cls != FAIL_NONE)
                res = check_fail(msg, cap, cls, "%zu %s bytes (%zu-byte block), %s %zu: returned "
                                 "%d; ref: %s, %zu bytes, %zu read", n, block_data[i].kind, blen,
                                 d == DEC_FAST ? "original size" : "capacity", k, r,
                                 ref_status_name(last.status), last.written, last.consumed);
        }
        guard_free(&in);
        guard_free(&outs);
        free(data);
        free(block);
        free(want);
    }
    free(dict);
    return res;
}

/* ---- block compressors -------------------------------------------------------- */

enum compressor { COMP_DEFAULT, COMP_FAST, COMP_HC, COMP_DICT, COMP_DEST_SIZE, COMP_HC_DEST_SIZE };

static const char compress_dict[] = "upstream block kernel copy vendored fix lz4 the ";

/* The compressor at capacity cap; dest_size: *consumed in and out. */
static int call_compressor(const check *c, const unsigned char *src, size_t n, unsigned char *dst,
                           size_t cap, int *consumed)
{
    const char *s = (const char *)src;
    char *o = (char *)dst;
    *consumed = (int)n;
    switch ((enum compressor)c->variant) {
    case COMP_DEFAULT: return subject->compress_default(s, o, (int)n, (int)cap);
    case COMP_FAST: return subject->compress_fast(s, o, (int)n, (int)cap, c->accel_or_level);
    case COMP_HC: return subject->compress_hc(s, o, (int)n, (int)cap, c->accel_or_level);
    case COMP_DICT:
        return subject->compress_using_dict(compress_dict, (int)sizeof compress_dict - 1, s, o,
                                            (int)n, (int)cap, 1);
    case COMP_DEST_SIZE: return subject->compress_dest_size(s, o, consumed, (int)cap);
    case COMP_HC_DEST_SIZE:
        return subject->compress_hc_dest_size(s, o, consumed, (int)cap, c->accel_or_level);
    }
    return 0;
}

/* exact: the subject's own block at the bound. Every capacity around it
 * (and around the bound): 0, or a block within the capacity that ref
 * decodes to the input (dest_size: to the prefix it says it took); from the
 * bound on, success (lz4.h: "guaranteed to succeed if dstCapacity >=
 * LZ4_compressBound(srcSize)"; dest_size then takes all of the input). */
/* The class of a compressor's result r, *consumed `consumed`, at capacity
 * k (bound: its bound) for n bytes; `all`: success and all of the input are
 * due. FAIL_NONE when the sizes are in order (the block is not looked at). */
static enum fail_class compressor_class(int r, int consumed, size_t k, size_t n, int all)
{
    if (r > 0 && (size_t)r > k)
        return FAIL_RETURN_ABOVE_CAPACITY;
    if (consumed < 0 || (size_t)consumed > n)
        return FAIL_BAD_CONSUMED;
    if (all && r <= 0)
        return FAIL_FAILS_WITHIN_BOUND;
    if (r < 0)   /* failure is 0 */
        return FAIL_NEGATIVE_RETURN;
    if (all && (size_t)consumed != n)   /* dest_size: a target at the bound takes all */
        return FAIL_DEST_SIZE_SHORT;
    return FAIL_NONE;
}

static check_result chk_compressor(const void *arg, char *msg, unsigned cap)
{
    const check *c = arg;
    int dest_size = c->variant == COMP_DEST_SIZE || c->variant == COMP_HC_DEST_SIZE;
    size_t dict_len = c->variant == COMP_DICT ? sizeof compress_dict - 1 : 0, i;
    check_result res = CHECK_PASS;
    for (i = 0; i < BLOCK_DATA && !check_failed(res); i++) {
        size_t n = block_data[i].n, bound = ref_compress_bound(n), exact, k;
        unsigned char *data = testdata_make(block_data[i].kind, n, 50 + i);
        guard_buf full = guard_alloc(bound + BOUND_SPAN, 0xA5);
        int consumed, r = call_compressor(c, data, n, room_at_end(&full, bound), bound, &consumed);
        enum fail_class cls = compressor_class(r, consumed, bound, n, 1);
        if (cls != FAIL_NONE)
            res = check_fail(msg, cap, cls, "%zu %s bytes into the bound %zu: returned %d, took "
                             "%d", n, block_data[i].kind, bound, r, consumed);
        exact = r > 0 ? (size_t)r : 0;
        for (k = sweep_from(exact); k <= bound + BOUND_SPAN && !check_failed(res); k++) {
            unsigned char *out;
            if (k > exact + SPAN && k < bound - BOUND_SPAN)
                k = bound - BOUND_SPAN;   /* the two windows: around exact and the bound */
            out = room_at_end(&full, k);
            r = call_compressor(c, data, n, out, k, &consumed);
            if (r < 0 || (size_t)r > k || consumed < 0 || (size_t)consumed > n) {
                res = check_fail(msg, cap, compressor_class(r, consumed, k, n, k >= bound),
                                 "%zu %s bytes (exact %zu, bound %zu), capacity %zu: "
                                 "returned %d, took %d", n, block_data[i].kind, exact, bound, k,
                                 r, consumed);
            } else if (r > 0) {
                res = contract_ref_decodes_to(out, (size_t)r, data,
                                              dest_size ? (size_t)consumed : n,
                                              dict_len ? compress_dict : NULL, dict_len, msg,
                                              cap);
            }
            if (!check_failed(res) && k >= bound && (r == 0 || (size_t)consumed != n))
                res = check_fail(msg, cap, compressor_class(r, consumed, k, n, 1),
                                 "%zu %s bytes, capacity %zu >= bound %zu: returned %d, "
                                 "took %d", n, block_data[i].kind, k, bound, r, consumed);
        }
        guard_free(&full);
        free(data);
    }
    return res;
}

/* ---- registration -------------------------------------------------------------- */

void contracts_add_sweep_capacity(const struct lz4_subject *tested, contract_add_fn add)
{
    static const struct { const char *id; subject_caps caps; check_fn fn; int variant, arg; } t[] = {
        { "decompress_safe", CAP_DECOMPRESS_SAFE, chk_decoder, DEC_SAFE, 0 },
        { "decompress_safe_partial[target=capacity]", CAP_DECOMPRESS_PARTIAL, chk_decoder,
          DEC_PARTIAL_TARGET_CAP, 0 },
        { "decompress_safe_partial[target=all]", CAP_DECOMPRESS_PARTIAL, chk_decoder,
          DEC_PARTIAL_TARGET_ALL, 0 },
        { "decompress_safe_using_dict", CAP_DECOMPRESS_USING_DICT, chk_decoder, DEC_DICT, 0 },
        { "decompress_fast", CAP_DECOMPRESS_FAST, chk_decoder, DEC_FAST, 0 },
        { "compress_default", CAP_COMPRESS_DEFAULT, chk_compressor, COMP_DEFAULT, 0 },
        { "compress_fast[accel=1]", CAP_COMPRESS_FAST, chk_compressor, COMP_FAST, 1 },
        { "compress_fast[accel=8]", CAP_COMPRESS_FAST, chk_compressor, COMP_FAST, 8 },
        { "compress_hc[level=9]", CAP_COMPRESS_HC, chk_compressor, COMP_HC, 9 },
        { "compress_hc[level=12]", CAP_COMPRESS_HC, chk_compressor, COMP_HC, 12 },
        { "compress_using_dict", CAP_COMPRESS_USING_DICT, chk_compressor, COMP_DICT, 0 },
        { "compress_dest_size", CAP_COMPRESS_DEST_SIZE, chk_compressor, COMP_DEST_SIZE, 0 },
        /* lz4hc.c's fillOutput: the mid compressor, the hash chain, the
         * optimal parser */
        { "compress_hc_dest_size[level=2]", CAP_COMPRESS_HC_DEST_SIZE, chk_compressor,
          COMP_HC_DEST_SIZE, 2 },
        { "compress_hc_dest_size[level=9]", CAP_COMPRESS_HC_DEST_SIZE, chk_compressor,
          COMP_HC_DEST_SIZE, 9 },
        { "compress_hc_dest_size[level=12]", CAP_COMPRESS_HC_DEST_SIZE, chk_compressor,
          COMP_HC_DEST_SIZE, 12 },
    };
    size_t i;
    subject = tested;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        char id[96];
        snprintf(id, sizeof id, "sweep.capacity.%s", t[i].id);
        add(id, t[i].caps, t[i].fn, t[i].variant, t[i].arg);
    }
    contracts_add_sweep_capacity_frame(tested, add);
}
