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
 *        8192 .. + 255 (a length from 2^32 - 2 MiB to just past 2^32);
 *        1 the signed 32-bit boundary, (2^31 - 1) / 255 - 8192 .. + 255;
 *        2 uniform below 2^24; 3 below 4096
 *   u8+u32  capacity: fp_size_near(ref's decoded size, 16 MiB)
 *   u8   flags: bit 0 decompress_fast with originalSize = the capacity
 *        on a block malformed on the output side (fz_check_fast)
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

#define HEADER 12
#define WRAP_32 (UINT32_MAX / 255u)            /* 16 843 009 */
#define WRAP_31 ((uint32_t)INT_MAX / 255u)     /* 8 421 504 */
#define BELOW 8192u
#define ABOVE 255u

static size_t run_length(uint32_t v)
{
    switch (v >> 30) {
    case 0: return WRAP_32 - BELOW + v % (BELOW + ABOVE + 1);
    case 1: return WRAP_31 - BELOW + v % (BELOW + ABOVE + 1);
    case 2: return v % (1u << 24);
    default: return v % 4096;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    uint8_t run_byte, flags, *buf;
    size_t split, run, n;
    const uint8_t *block;
    fz_call c;
    fz_result r;

    fz_input(data, size);
    fp_init_filled(&fp, data, size, HEADER);
    split = fp_u8(&fp) % (fp.payload_len + 1);
    run_byte = fp_u8(&fp);
    run_byte = run_byte < 192 ? 0xFF : run_byte;
    run = run_length(fp_u32(&fp));
    n = fp.payload_len + run;
    if (n > INT_MAX)
        return 0;
    buf = fz_scratch(11, n + 1);
    memcpy(buf, fp.payload, split);
    memset(buf + split, run_byte, run);
    memcpy(buf + split + run, fp.payload + split, fp.payload_len - split);
    block = fz_src(0, buf, n);

    memset(&c, 0, sizeof c);
    c.s = s;
    c.src = block;
    c.n = n;
    c.cap = fp_size_near(&fp, fz_ref_whole(block, n, REF_PROFILE_COMPATIBLE).r.written,
                         FZ_MAX_CAP);
    c.target = c.cap;
    flags = fp_u8(&fp);

    if (s->decompress_safe && !fz_skip("decompress_safe")) {
        c.kind = FZ_SAFE;
        r = fz_check_call(&c);
        fz_result_free(&r);
    }
    if (s->decompress_safe_partial && !fz_skip("decompress_safe_partial")) {
        c.kind = FZ_PARTIAL;
        r = fz_check_call(&c);
        fz_result_free(&r);
    }
    if ((flags & 1) && !fz_skip("decompress_fast")) {
        c.kind = FZ_SAFE;
        fz_check_fast(&c);
    }
    return 0;
}
