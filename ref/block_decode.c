/*
 * Reference LZ4 block decoder, in the order of the spec
 * (lz4_Block_format.md, "Compressed block format"):
 *   token -> literal length -> literals -> offset -> match length -> match.
 *
 * Safety rule: positions are indexes, never pointers; every length is
 * compared with what is *left* of a buffer (n - ip, cap - op) before it is
 * used, so no addition can wrap, on 32-bit either (history.md, CVE-2014-4611
 * and CVE-2014-4715: both were wrapping additions).
 */
#include <string.h>

#include "checks.h"
#include "lz4ref.h"

typedef struct decode_state {
    const ref_decode_params *p;
    size_t ip;          /* next input byte */
    size_t op;          /* next output byte */
    int failed_check;   /* REF_CHECK_* that stopped the decode, or -1 */
} decode_state;

static ref_status ref_fail(ref_status err, int check, decode_state *state)
{
    state->failed_check = check;
    return err;
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

/*
 * Speed (the oracle must keep up with the fuzzers): short copies are done as
 * one fixed 16-byte memcpy, which compilers inline, whenever 16 bytes are
 * available on both sides. Bytes past the run but inside the buffers may be
 * written (output) or read (input); the checks above have already bounded
 * the run itself, so this never leaves [src, src+n) or [dst, dst+cap).
 */
#define SHORT_COPY 16

static void copy_literals(uint8_t *out, size_t out_room, const uint8_t *in,
                          size_t in_room, size_t len)
{
    /* memmove, not memcpy: in in-place decoding the block sits at the end of
     * the output buffer and the last literals may overlap their destination
     * (history.md KLZ4-2020-INPLACE, ULZ4-2019-INPLACE). */
    if (!REF_RULE(LITERALS_MAY_OVERLAP)) {
        memcpy(out, in, len);   /* the mutant: the pre-fix copy */
    } else if (len <= SHORT_COPY && out_room >= SHORT_COPY && in_room >= SHORT_COPY) {
        memmove(out, in, SHORT_COPY);
    } else if (len <= 2 * SHORT_COPY && out_room >= 2 * SHORT_COPY &&
               in_room >= 2 * SHORT_COPY) {
        memmove(out, in, 2 * SHORT_COPY);
    } else { /* len > 0: the caller skips empty runs (NULL buffers) */
        memmove(out, in, len);
    }
}

/* Copy a match that may start in the external dictionary. */
static void copy_match(const ref_decode_params *p, size_t op, size_t offset, size_t len)
{
    size_t in_dst_and_prefix = op + p->prefix_len;

    /* Common case: source in prefix+output, no overlap within a 16-byte
     * chunk, room for two chunks. Each chunk reads only bytes already final
     * (offset >= 16), so chunked copying gives the sequential result. */
    if (offset >= SHORT_COPY && offset <= in_dst_and_prefix &&
        len <= 2 * SHORT_COPY && p->dst_cap - op >= 2 * SHORT_COPY) {
        uint8_t *out = p->dst + op;
        memcpy(out, out - offset, SHORT_COPY);
        memcpy(out + SHORT_COPY, out + SHORT_COPY - offset, SHORT_COPY);
        return;
    }

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
            REF_CHECK(IN_INPUT, state->ip < n, TRUNCATED);                    \
            b_ = src[state->ip++];                                            \
            REF_CHECK(NO_WRAP, (len) <= SIZE_MAX - b_, REF_ERR_LENGTH_OVERFLOW); \
            (len) += b_;                                                      \
        } while (b_ == 255);                                                  \
    } while (0)

static ref_status decode_sequences(decode_state *state)
{
    const ref_decode_params *p = state->p;
    const uint8_t *src = p->src;
    const size_t n = p->src_len;
    uint8_t *dst = p->dst;
    const size_t cap = p->dst_cap;
    const int strict = p->profile == REF_PROFILE_STRICT;
    /* Partial decoding stops at `limit`; otherwise the limit is the capacity. */
    const size_t limit = p->partial && p->target < cap ? p->target : cap;
    const size_t history = p->prefix_len + p->dict_len;
    size_t last_match_start = 0;
    int had_match = 0;

    for (;;) {
        size_t lit, offset, mlen;
        uint8_t token;

        REF_CHECK(TOKEN_IN_INPUT, state->ip < n, REF_ERR_TRUNCATED_TOKEN);
        token = src[state->ip++];

        /* Literal length: high 4 bits, 15 means "more bytes follow". */
        lit = token >> 4;
        if (lit == 15)
            READ_LENGTH_CHAIN(lit, LITLEN_IN_INPUT, LITLEN_NO_WRAP,
                              REF_ERR_TRUNCATED_LITERAL_LENGTH);

        if (p->partial && lit >= limit - state->op) {
            /* Partial decode: the literals reach the target; copy up to it
             * and stop. The bytes copied must still be inside the input. */
            size_t want = limit - state->op;
            REF_CHECK(LITERALS_IN_INPUT, want <= n - state->ip, REF_ERR_TRUNCATED_LITERALS);
            if (want)
                memmove(dst + state->op, src + state->ip, want);
            state->ip += want;
            state->op += want;
            return REF_OK;
        }
        REF_CHECK(LITERALS_IN_INPUT, lit <= n - state->ip, REF_ERR_TRUNCATED_LITERALS);
        REF_CHECK(LITERALS_IN_OUTPUT, lit <= cap - state->op, REF_ERR_OUTPUT_OVERFLOW);
        if (lit) /* dst may be NULL when cap is 0: form no pointer then */
            copy_literals(dst + state->op, cap - state->op, src + state->ip,
                          /* known-size decoding: src_len is only an upper
                           * bound, so read nothing past the run itself */
                          p->stop_at_output_end ? lit : n - state->ip, lit);
        state->ip += lit;
        state->op += lit;

        /* "End of block conditions": the last sequence has only literals.
         * Known-size decoding ends when the output is exactly full. */
        if ((REF_RULE(END_AT_INPUT_END) && state->ip == n) ||
            (p->stop_at_output_end && state->op == cap)) {
            if (had_match) {
                /* Rule 2: the last 5 bytes are literals. */
                REF_CHECK(EOB_LAST_LITERALS, !strict || lit >= REF_LAST_LITERALS,
                          REF_ERR_LAST_LITERALS);
                /* Rule 3: the last match starts >= 12 bytes before the end. */
                REF_CHECK(EOB_LAST_MATCH,
                          !strict || state->op - last_match_start >= REF_MATCH_FROM_END,
                          REF_ERR_LAST_MATCH_TOO_CLOSE);
            }
            return REF_OK;
        }
        /* Output full but input left: no match can follow (>= 4 bytes). */
        REF_CHECK(OUTPUT_FULL_AT_END, state->op < cap, REF_ERR_OUTPUT_FULL_INPUT_LEFT);

        /* Offset: 2 bytes, little endian; 0 is invalid. */
        REF_CHECK(OFFSET_IN_INPUT, n - state->ip >= 2, REF_ERR_TRUNCATED_OFFSET);
        offset = (size_t)src[state->ip] | (size_t)src[state->ip + 1] << 8;
        state->ip += 2;

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
            REF_CHECK(OFFSET_IN_HISTORY, offset <= state->op + history,
                      REF_ERR_OFFSET_BEFORE_START);
        }

        if (p->partial && mlen >= limit - state->op)
            mlen = limit - state->op;   /* partial: stop inside the match */
        else
            REF_CHECK(MATCH_IN_OUTPUT, mlen <= cap - state->op, REF_ERR_OUTPUT_OVERFLOW);

        if (offset == 0 && !strict)
            memset(dst + state->op, 0, mlen);
        else
            copy_match(p, state->op, offset, mlen);
        had_match = 1;
        last_match_start = state->op;
        state->op += mlen;
        if (p->partial && state->op == limit)
            return REF_OK;
    }
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
     * (history.md §7.3.1): upstream >= 1.9.2 returns 0 at once; the kernel
     * and older upstream treat it like an empty output buffer, where only
     * the one-byte block "\0" succeeds. */
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
