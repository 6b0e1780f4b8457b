/*
 * Reference LZ4 block decoder, in the order of the spec
 * (lz4_Block_format.md, "Compressed block format"):
 *   token -> literal length -> literals -> offset -> match length -> match.
 *
 * Safety rule: positions are indexes, never pointers; every length is
 * compared with what is *left* of a buffer (n - ip, cap - op) before it is
 * used, so no addition can wrap, on 32-bit either (CVE-2014-4611 and
 * CVE-2014-4715 were both wrapping additions: docs/fix-history.md#klz4-2014-4611,
 * #ulz4-2014-4715).
 *
 * Speed (the oracle must keep up with the fuzzers): after the checks, runs
 * are copied in fixed 8/16/32-byte steps (block_copy.h) when what is left
 * of both buffers holds the last step, else byte-exactly; the loop is
 * compiled once per decoding mode with the mode as constants (decode_body).
 */
#include <string.h>

#include "block_copy.h"
#include "checks.h"
#include "lz4ref.h"

typedef struct decode_state {
    const ref_decode_params *p;
    size_t ip;          /* next input byte */
    size_t op;          /* next output byte */
    int failed_check;   /* REF_CHECK_* that stopped the decode, or -1 */
} decode_state;

/*
 * REF_CHECK (checks.h) fails with `return ref_fail(err, check, state)`.
 * decode_body keeps its cursors in the locals ip and op (registers, not
 * memory: through a pointer, every copy would force them to be reloaded),
 * so a failure first stores them where the caller reads them.
 */
#define ref_fail(err, check, st)                                              \
    ((st)->ip = ip, (st)->op = op, (st)->failed_check = (check), (err))

/*
 * Do [a, a+an) and [b, b+bn) share a byte? Compared as integers, once per
 * block: relational comparison of pointers into different objects is
 * undefined in C. Written without additions, so nothing wraps.
 */
static int ranges_overlap(const void *a, size_t an, const void *b, size_t bn)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (an == 0 || bn == 0)
        return 0;
    return x <= y ? y - x < an : x - y < bn;
}

/*
 * Copy len bytes of a match whose source starts `distance` bytes before
 * dst[to]. The source may overlap the destination (distance < len): the
 * spec's "overlap match" case, where the copy repeats the last `distance`
 * bytes. Bytes before dst[0] are the caller's prefix (physically there).
 */
static void copy_match_in_place(uint8_t *dst, size_t to, size_t distance, size_t len)
{
    uint8_t *out = dst + to;
    const uint8_t *from = out - distance;
    size_t done;

    if (distance == 0)  /* only reachable in the OFFSET_NOT_ZERO mutant: */
        return;         /* leaves stale bytes, like a decoder without the check */
    if (distance >= len) {
        memcpy(out, from, len);
        return;
    }
    /* First period, then double: bytes [0, done) of the match already hold
     * whole periods, so they can be copied forward without overlap. */
    memcpy(out, from, distance);
    done = distance;
    while (done < len) {
        size_t chunk = len - done < done ? len - done : done;
        memcpy(out + done, out, chunk);
        done += chunk;
    }
}

/* The exact literal copy (the wide one is ref_wide_literals). */
static void copy_literals(uint8_t *out, const uint8_t *in, size_t len)
{
    /* memmove, not memcpy: in in-place decoding the block sits at the end of
     * the output buffer and the last literals may overlap their destination
     * (docs/fix-history.md#klz4-2020-inplace, #ulz4-2019-inplace). */
    if (!REF_RULE(LITERALS_MAY_OVERLAP))
        memcpy(out, in, len);   /* the mutant: the pre-fix copy */
    else
        memmove(out, in, len);
}

/* The exact match copy: a match that may start in the external dictionary
 * (the wide copies of block_copy.h handle the common case first). */
static void copy_match(const ref_decode_params *p, size_t op, size_t offset, size_t len)
{
    size_t in_dst_and_prefix = op + p->prefix_len;

    if (offset > in_dst_and_prefix) {
        /* Starts in the dictionary, which logically precedes the prefix. */
        size_t back = offset - in_dst_and_prefix;   /* 1..dict_len */
        size_t from_dict = back < len ? back : len;
        memcpy(p->dst + op, p->dict + (p->dict_len - back), from_dict);
        op += from_dict;
        len -= from_dict;
        if (len == 0)
            return;
        /* The rest continues at the start of prefix+output, still
         * `offset` bytes behind, and may overlap what was just written. */
    }
    copy_match_in_place(p->dst, op, offset, len);
}

/* Read a 15 + 255 + ... + b length chain (spec: "more bytes are required"). */
#define READ_LENGTH_CHAIN(len, IN_INPUT, NO_WRAP, TRUNCATED)                  \
    do {                                                                      \
        uint8_t b_;                                                           \
        do {                                                                  \
            REF_CHECK(IN_INPUT, ip < n, TRUNCATED);                           \
            b_ = src[ip++];                                                   \
            REF_CHECK(NO_WRAP, (len) <= SIZE_MAX - b_, REF_ERR_LENGTH_OVERFLOW); \
            (len) += b_;                                                      \
        } while (b_ == 255);                                                  \
    } while (0)

/*
 * Speed: the decoder is one body, decode_body, compiled once per mode with
 * the mode's flags as constants (always inlined into the decode_* wrappers
 * below), so that in the common mode, a whole block into a separate buffer,
 * the tests of the other modes fold away and the loop keeps its state in
 * registers. Every mode runs the same checks at the same places.
 */
#if defined(__clang__)
#define REF_ALWAYS_INLINE static inline __attribute__((always_inline))
#define REF_NOINLINE static __attribute__((noinline))
#elif defined(__GNUC__)  /* noclone: keep the names for perf (ref_bench --help) */
#define REF_ALWAYS_INLINE static inline __attribute__((always_inline))
#define REF_NOINLINE static __attribute__((noinline, noclone))
#else
#define REF_ALWAYS_INLINE static inline
#define REF_NOINLINE static
#endif

/*
 * strict: REF_PROFILE_STRICT; partial, stop_at_output_end: as in the
 * params; wide: the wide copies of block_copy.h may be used. They may read
 * input past a run and write output past a run (up to `limit`), so
 * decode_sequences allows them only when both buffers exist, neither the
 * input nor the dictionary shares bytes with the output (an over-write must
 * not change a byte still to be read), and src_len is a real bound (not in
 * known-size decoding, where it is only an upper bound: read nothing past
 * what the block itself holds).
 */
REF_ALWAYS_INLINE ref_status decode_body(decode_state *state, const int strict,
                                         const int partial, const int stop_at_output_end,
                                         const int wide)
{
    const ref_decode_params *p = state->p;
    const uint8_t *src = p->src;
    const size_t n = p->src_len;
    uint8_t *dst = p->dst;
    const size_t cap = p->dst_cap;
    /* Partial decoding stops at `limit`; otherwise the limit is the capacity. */
    const size_t limit = partial && p->target < cap ? p->target : cap;
    const size_t history = p->prefix_len + p->dict_len;
    const size_t prefix_len = p->prefix_len;
    size_t ip = 0, op = 0;
    size_t last_match_start = 0;
    int had_match = 0;

    for (;;) {
        size_t lit, offset, mlen;
        uint8_t token;

        REF_CHECK(TOKEN_IN_INPUT, ip < n, REF_ERR_TRUNCATED_TOKEN);
        token = src[ip++];

        /* Literal length: high 4 bits, 15 means "more bytes follow". */
        lit = token >> 4;
        if (lit == 15)
            READ_LENGTH_CHAIN(lit, LITLEN_IN_INPUT, LITLEN_NO_WRAP,
                              REF_ERR_TRUNCATED_LITERAL_LENGTH);

        if (partial && lit >= limit - op) {
            /* Partial decode: the literals reach the target; copy up to it
             * and stop. The bytes copied must still be inside the input. */
            size_t want = limit - op;
            REF_CHECK(LITERALS_IN_INPUT, want <= n - ip, REF_ERR_TRUNCATED_LITERALS);
            if (want)
                memmove(dst + op, src + ip, want);
            ip += want;
            op += want;
            break;
        }
        REF_CHECK(LITERALS_IN_INPUT, lit <= n - ip, REF_ERR_TRUNCATED_LITERALS);
        REF_CHECK(LITERALS_IN_OUTPUT, lit <= cap - op, REF_ERR_OUTPUT_OVERFLOW);
        /* dst may be NULL when cap is 0: form no pointer then (wide implies
         * both buffers exist; an empty run needs no exact copy). */
        if (wide && ref_wide_literals(dst + op, limit - op, src + ip, n - ip, lit)) {
            /* Done in wide steps. */
        } else if (lit) {
            copy_literals(dst + op, src + ip, lit);
        }
        ip += lit;
        op += lit;

        /* "End of block conditions": the last sequence has only literals.
         * Known-size decoding ends when the output is exactly full. */
        if ((REF_RULE(END_AT_INPUT_END) && ip == n) ||
            (stop_at_output_end && op == cap)) {
            if (had_match) {
                /* Rule 2: the last 5 bytes are literals. */
                REF_CHECK(EOB_LAST_LITERALS, !strict || lit >= REF_LAST_LITERALS,
                          REF_ERR_LAST_LITERALS);
                /* Rule 3: the last match starts >= 12 bytes before the end. */
                REF_CHECK(EOB_LAST_MATCH,
                          !strict || op - last_match_start >= REF_MATCH_FROM_END,
                          REF_ERR_LAST_MATCH_TOO_CLOSE);
            }
            break;
        }
        /* Output full but input left: no match can follow (>= 4 bytes). */
        REF_CHECK(OUTPUT_FULL_AT_END, op < cap, REF_ERR_OUTPUT_FULL_INPUT_LEFT);

        /* Offset: 2 bytes, little endian; 0 is invalid. */
        REF_CHECK(OFFSET_IN_INPUT, n - ip >= 2, REF_ERR_TRUNCATED_OFFSET);
        offset = ref_read_le16(src + ip);
        ip += 2;

        /* Match length: low 4 bits + 4 (minmatch), 15 means more bytes. */
        mlen = (size_t)(token & 15) + REF_MIN_MATCH;
        if ((token & 15) == 15)
            READ_LENGTH_CHAIN(mlen, MATCHLEN_IN_INPUT, MATCHLEN_NO_WRAP,
                              REF_ERR_TRUNCATED_MATCH_LENGTH);

        if (offset == 0 && !strict) {
            /* Compatible profile: established decoders accept offset 0 and
             * write zeros ("Safe decoding": "the reference LZ4 decoder
             * clears the match segment with 0 bytes"). */
        } else {
            REF_CHECK(OFFSET_NOT_ZERO, offset != 0, REF_ERR_OFFSET_ZERO);
            REF_CHECK(OFFSET_IN_HISTORY, offset <= op + history,
                      REF_ERR_OFFSET_BEFORE_START);
        }

        if (partial && mlen >= limit - op)
            mlen = limit - op;   /* partial: stop inside the match */
        else
            REF_CHECK(MATCH_IN_OUTPUT, mlen <= cap - op, REF_ERR_OUTPUT_OVERFLOW);

        if (offset == 0 && !strict) {
            memset(dst + op, 0, mlen);
        } else if (wide && offset <= op + prefix_len &&
                   (offset >= 8 ? ref_wide_match(dst + op, limit - op, offset, mlen)
                                : ref_pattern_match(dst + op, limit - op, offset, mlen))) {
            /* Done in wide steps: the source lies in the prefix or the
             * output, both in dst's buffer (the dictionary is exact only). */
        } else {
            copy_match(p, op, offset, mlen);
        }
        had_match = 1;
        last_match_start = op;
        op += mlen;
        if (partial && op == limit)
            break;
    }
    state->ip = ip;
    state->op = op;
    return REF_OK;
}

/* The common mode (ref_decode_block, the fuzz targets' plain decode). */
REF_NOINLINE ref_status decode_plain_strict(decode_state *state)
{
    return decode_body(state, 1, 0, 0, 1);
}

REF_NOINLINE ref_status decode_plain_compatible(decode_state *state)
{
    return decode_body(state, 0, 0, 0, 1);
}

/* Every other mode: flags read at run time. */
REF_NOINLINE ref_status decode_general(decode_state *state, int strict, int wide)
{
    const ref_decode_params *p = state->p;
    return decode_body(state, strict, p->partial, p->stop_at_output_end, wide);
}

static ref_status decode_sequences(decode_state *state)
{
    const ref_decode_params *p = state->p;
    const int strict = p->profile == REF_PROFILE_STRICT;
    const int wide = p->src && p->dst && !p->stop_at_output_end &&
                     !ranges_overlap(p->src, p->src_len, p->dst, p->dst_cap) &&
                     !ranges_overlap(p->dict, p->dict_len, p->dst, p->dst_cap);

    if (wide && !p->partial)
        return strict ? decode_plain_strict(state) : decode_plain_compatible(state);
    return decode_general(state, strict, wide);
}

ref_decode_result ref_decode(const ref_decode_params *p)
{
    ref_decode_result r = { REF_OK, 0, 0, -1 };
    decode_state state = { p, 0, 0, -1 };

    /* A NULL buffer is only acceptable with a size of 0, and the history a
     * decoder can use is 64 KiB (spec: maximum offset 65535). */
    if ((!p->src && p->src_len) || (!p->dst && p->dst_cap) ||
        (!p->dict && p->dict_len) || p->dict_len > REF_MAX_DICT ||
        p->prefix_len > REF_MAX_DICT) {
        r.status = REF_ERR_BAD_PARAMETER;
        return r;
    }
    /* Partial decode with nothing to produce, min(target, capacity) == 0
     * (docs/fix-history.md#where-the-kernel-differs-from-upstream): upstream
     * >= 1.9.2 returns 0 at once; the kernel and older upstream treat it
     * like an empty output buffer, where only the one-byte block "\0"
     * succeeds. */
    if (p->partial && (p->target == 0 || p->dst_cap == 0)) {
        ref_decode_params as_empty = *p;
        if (p->target0 == REF_TARGET0_RETURNS_ZERO)
            return r;
        as_empty.partial = 0;
        as_empty.dst_cap = 0;
        return ref_decode(&as_empty);
    }
    r.status = decode_sequences(&state);
    r.written = state.op;
    r.consumed = state.ip;
    r.failed_check = state.failed_check;
    return r;
}

ref_decode_result ref_decode_block(const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_cap)
{
    ref_decode_params p;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.src_len = src_len;
    p.dst = dst;
    p.dst_cap = dst_cap;
    p.profile = REF_PROFILE_STRICT;
    return ref_decode(&p);
}
