/*
 * decode_large: blocks of up to ~16 MiB that a short input describes,
 * decoded by the subject's decoders against ref, as decode_differential
 * judges its blocks (oracle_verdict.c, oracle_call.c). A target of its own
 * (issue 15), like compress_large: each execution decodes megabytes.
 *
 * The block is the payload with one long run of a byte inserted:
 *
 *     payload[0 .. split)  +  run_len x run_byte  +  payload[split ..)
 *
 * A literal or match length is 15 plus one byte per 255 (spec, block
 * format); a run of 0xFF bytes after a token of 15 makes a length of
 * 255 x run_len, and lengths near 2^32 are where 32-bit decoders wrap a
 * pointer or a size (KLZ4-2014-4611, KLZ4-2014-MATCHLEN, KLZ4-2014-UNKOUT,
 * ULZ4-2014-4611, ULZ4-2014-4715, ULZ4-2016-UBWRAP: about 16.8 million
 * length bytes). The run lengths near those boundaries are drawn often, as
 * compress_roundtrip draws accelerations near 2^26 (KLZ4-ACCEL-WRAP). The
 * bytes around the run (a token and literals before it, a final length
 * byte, an offset and more sequences after it) are the fuzzer's.
 *
 * Input: [12-byte header][payload]; a shorter input completes its header
 * from a hash of its bytes (params.h, fp_init_filled). Header, in draw
 * order (params.h):
 *   u8   split: the payload bytes before the run, v % (payload + 1)
 *   u8   run byte: 0xFF for v < 192, else v
 *   u32  run length, by v >> 30: 0 the 32-bit wrap, (2^32 - 1) / 255 -
 *        2 .. + 255 (bit 29 clear: the length passes 2^32) or - 8192 ..
 *        - 1 (set: up to 2 MiB below it, where a pointer plus the length
 *        wraps instead);
 *        1 the signed 32-bit boundary, (2^31 - 1) / 255 - 8192 .. + 255;
 *        2 uniform below 2^24; 3 below 4096
 *   u8+u32  capacity: fp_size_near(ref's decoded size, or what the wrap
 *        tail below decodes to, 16 MiB)
 *   u8   flags: bit 0 decompress_fast with originalSize = the capacity
 *        on a block malformed on the output side (fz_check_fast); bits
 *        1-2, the bytes around the run:
 *          0, 1  the payload's, as they are (above)
 *          2     the run is the literals of one sequence: the payload
 *                before it, then a token 0xF0 and the length bytes of
 *                run_len literals, the run, the rest of the payload (from
 *                an empty payload, a valid block of run_len bytes)
 *          3     a tail that is valid where a 32-bit decoder wraps the
 *                length the run makes (its length modulo 2^32): after the
 *                run, the final length byte (the payload's first byte
 *                after the split, else 0xF1), that many literals modulo
 *                2^32 when it is at most 64 KiB ('a'), an offset of 1
 *                (and a match length byte 0 when the block's first token,
 *                the payload's first byte or else the run's, says 15),
 *                a last sequence of 12 literals ('b'); the payload's
 *                bytes before the run (a token, literals, an offset) say
 *                which length it is
 *
 * Decoders: decompress_safe, decompress_safe_partial (target = capacity)
 * and, with flags bit 0, decompress_fast. Each call runs twice (0x00- and
 * 0xFF-filled destinations) and must agree with ref (fz_check_call).
 */
#include <limits.h>
#include <string.h>

#include "oracle.h"
#include "params.h"
#include "subject.h"

FZ_TARGET("decode_large");
FZ_NEEDS(FZ_DECODERS);

#define HEADER 12
#define WRAP_32 (UINT32_MAX / 255u)            /* 16 843 009 */
#define WRAP_31 ((uint32_t)INT_MAX / 255u)     /* 8 421 504 */
#define BELOW 8192u
#define ABOVE 255u

static size_t run_length(uint32_t v)
{
    switch (v >> 30) {
    case 0:     /* bit 29: a length that wraps 2^32, or one just below it */
        return (v >> 29) & 1 ? WRAP_32 - BELOW + v % BELOW : WRAP_32 - 2 + v % (ABOVE + 3);
    case 1: return WRAP_31 - BELOW + v % (BELOW + ABOVE + 1);
    case 2: return v % (1u << 24);
    default: return v % 4096;
    }
}

/* The length bytes of `len` (spec: 15 in the token, then 255s and a last
 * byte below 255) at out, which has room; returns how many. */
static size_t length_bytes(uint8_t *out, size_t len)
{
    size_t k = 0;
    for (len -= 15; len >= 255; len -= 255)
        out[k++] = 255;
    out[k++] = (uint8_t)len;
    return k;
}

/* The block of the header's draws in *out (a scratch buffer); its size,
 * 0 when it would pass INT_MAX. *tail_size: what the wrap tail (around 3)
 * decodes to with the wrapped length, else 0. */
static size_t make_block(uint8_t **out, size_t *tail_size, const uint8_t *p, size_t plen,
                         size_t split, uint8_t run_byte, size_t run, int around)
{
    size_t n = 0, chain = run / 255 + 2, wrapped = 0, room;
    /* the block's first token: the first byte before the run, else the run's */
    uint8_t final = split < plen ? p[split] : 0xF1, token = split ? p[0] : run_byte, *b;
    if (around == 3 && run) {
        /* 15 + 255 x run + final, as a 32-bit decoder adds it; without a
         * byte before the run, its first byte is the token */
        wrapped = (uint32_t)(15u + 255u * (uint32_t)(run - (split == 0)) + final);
        wrapped = wrapped <= 65536 ? wrapped : 0;
    }
    *tail_size = around == 3 ? wrapped + 4 + ((token & 15) == 15 ? 15 : 0) + 12 : 0;
    room = plen + run + chain + wrapped + 32;
    if (room > INT_MAX)
        return 0;
    b = *out = fz_scratch(11, room);
    memcpy(b, p, split);
    n = split;
    if (around == 2) {
        b[n++] = run < 15 ? (uint8_t)(run << 4) : 0xF0;
        if (run >= 15)
            n += length_bytes(b + n, run);
    }
    memset(b + n, run_byte, run);
    n += run;
    if (around == 3) {
        b[n++] = final;
        memset(b + n, 'a', wrapped);
        n += wrapped;
        b[n++] = 1;                 /* offset 1 */
        b[n++] = 0;
        if ((token & 15) == 15)
            b[n++] = 0;             /* the match length's last byte */
        b[n++] = 0xC0;              /* 12 last literals */
        memset(b + n, 'b', 12);
        n += 12;
        split += split < plen;      /* the final byte is used */
    }
    memcpy(b + n, p + split, plen - split);
    return n + plen - split;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    uint8_t run_byte, flags, *buf;
    size_t split, run, n, keep, tail;
    const uint8_t *block;
    fz_call c;

    fz_input(data, size);
    fp_init_filled(&fp, data, size, HEADER);
    split = fp_u8(&fp) % (fp.payload_len + 1);
    run_byte = fp_u8(&fp);
    run_byte = run_byte < 192 ? 0xFF : run_byte;
    run = run_length(fp_u32(&fp));
    keep = fp.pos;
    fp.pos += 5;                      /* the capacity: drawn once the block is made */
    flags = fp_u8(&fp);
    n = make_block(&buf, &tail, fp.payload, fp.payload_len, split, run_byte, run,
                   (flags >> 1) & 3);
    if (!n)
        return 0;
    block = fz_src(0, buf, n);

    memset(&c, 0, sizeof c);
    c.s = s;
    c.src = block;
    c.n = n;
    fp.pos = keep;
    /* near ref's decoded size, or what the wrap tail makes (ref rejects) */
    c.cap = fp_size_near(&fp, fz_max(tail, fz_ref_whole(block, n,
                                                        REF_PROFILE_COMPATIBLE).r.written),
                         FZ_MAX_CAP);
    c.target = c.cap;

    fz_check_safe_and_partial(&c);
    if ((flags & 1) && !fz_skip("decompress_fast")) {
        c.kind = FZ_SAFE;
        fz_check_fast(&c);
    }
    return 0;
}
