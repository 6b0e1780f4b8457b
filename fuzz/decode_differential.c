/*
 * decode_differential: arbitrary bytes as an LZ4 block, decoded by every
 * decoder the subject has and by the reference (ref/), which must agree
 * (oracle_verdict.c: verdict, profile tolerance; oracle_call.c:
 * independence of the destination's previous content).
 *
 * Input: [24-byte header][block]; a shorter input is all block, its header
 * drawn from a hash of its bytes (params.h, fp_init_block). Header, in draw
 * order (params.h):
 *   u8      flags: bit 0 dictionary as a prefix of dst (else a separate
 *                  buffer); bit 1 size capacity and target on the decode
 *                  with the dictionary (else without); bit 2 a block valid
 *                  as a whole is also decoded in place (fz_check_in_place);
 *                  bit 3 decompress_fast with originalSize = capacity on a
 *                  block whose defect is on the output side (fz_check_fast);
 *                  bits 4-6 all set (1 input in 8) the decoders are called
 *                  once more with a negative size, -1 - the drawn one: bit 7
 *                  the capacity (all three), else the target (partial)
 *   u8      dictionary size class: 0 none, 1 any of 0..65536+1024, 2 exactly
 *           64 KiB, 3 small (0..255)
 *   u32     dictionary size within the class
 *   u64     dictionary content seed (fz_fill_dict: a window of one stream)
 *   u8+u32  capacity, fp_size_near(exact decoded size, 16 MiB)
 *   u8+u32  partial-decode target, fp_size_near(exact decoded size, 16 MiB)
 * "Exact decoded size" is what ref's compatible decode produces with no
 * capacity limit (on a malformed block: the bytes before the error).
 */
#include <limits.h>
#include <string.h>

#include "oracle.h"
#include "subject.h"
#include "params.h"

FZ_TARGET("decode_differential");
FZ_NEEDS(FZ_DECODERS);

#define HEADER 24

static void in_place(const struct lz4_subject *s, const uint8_t *block, size_t n)
{
    fz_ref whole = fz_ref_whole(block, n, REF_PROFILE_STRICT);
    fz_call c;
    if (whole.r.status != REF_OK || whole.r.written == 0)
        return;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.src = block;
    c.n = n;
    c.cap = c.target = whole.r.written;
    if (s->decompress_safe && !fz_skip("decompress_safe")) {
        c.kind = FZ_SAFE;
        fz_check_in_place(&c, whole.out);
    }
    if (s->decompress_safe_partial && !fz_skip("decompress_safe_partial")) {
        c.kind = FZ_PARTIAL;
        fz_check_in_place(&c, whole.out);
    }
}

/* The calls of c once more with a negative capacity or target: each must
 * fail (fz_run). */
static void negative_sizes(fz_call c, int capacity)
{
    const struct lz4_subject *s = c.s;
    fz_result r;
    if (capacity) {
        c.neg_cap = -1 - (int)fz_min(c.cap, INT_MAX - 1);
        c.cap = 0;
    } else {
        c.neg_target = -1 - (int)fz_min(c.target, INT_MAX - 1);
    }
    if (capacity && s->decompress_safe && !fz_skip("decompress_safe")) {
        c.kind = FZ_SAFE;
        r = fz_run(&c, 0, 0);
        fz_result_free(&r);
    }
    if (s->decompress_safe_partial && !fz_skip("decompress_safe_partial")) {
        c.kind = FZ_PARTIAL;
        r = fz_run(&c, 0, 0);
        fz_result_free(&r);
    }
    if (capacity && c.dict && s->decompress_safe_using_dict &&
        !fz_skip("decompress_safe_using_dict")) {
        c.kind = FZ_DICT;
        r = fz_run(&c, 0, 0);
        fz_result_free(&r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    uint8_t flags;
    const uint8_t *dict, *block;
    size_t cap, target, dict_len, exact, exact_dict, base;
    uint64_t seed;
    fz_call c;
    fz_result r;

    fz_input(data, size);
    fp_init_block(&fp, data, size, HEADER);
    flags = fp_u8(&fp);
    dict_len = fp_dict_len(&fp);
    seed = fp_u64(&fp);
    if (fp.payload_len > INT_MAX)
        return 0;
    block = fz_src(0, fp.payload, fp.payload_len);
    dict = fz_dict(dict_len, seed);

    fz_ref_whole(block, fp.payload_len, REF_PROFILE_STRICT);   /* the safe decode's, often */
    exact = fz_ref_whole(block, fp.payload_len, REF_PROFILE_COMPATIBLE).r.written;
    exact_dict = (flags & 2) && dict_len
                 ? fz_ref_decode(4, block, fp.payload_len, FZ_BIG_CAP, dict, dict_len,
                                 REF_PROFILE_COMPATIBLE, 0, 0, 0).r.written
                 : exact;
    base = (flags & 2) ? exact_dict : exact;
    cap = fp_size_near(&fp, base, FZ_MAX_CAP);
    target = fp_size_near(&fp, base, FZ_MAX_CAP);

    memset(&c, 0, sizeof c);
    c.s = s;
    c.src = block;
    c.n = fp.payload_len;
    c.cap = cap;
    c.target = target;

    fz_check_safe_and_partial(&c);
    if (s->decompress_safe_using_dict && !fz_skip("decompress_safe_using_dict")) {
        c.kind = (flags & 1) ? FZ_DICT_PREFIX : FZ_DICT;
        c.dict = dict;
        c.dict_len = dict_len;
        c.target = 0;
        r = fz_check_call(&c);
        fz_result_free(&r);
    }
    c.target = target;
    if (((flags >> 4) & 7) == 7)
        negative_sizes(c, flags & 128);
    if (flags & 4)
        in_place(s, block, fp.payload_len);
    if ((flags & 8) && !fz_skip("decompress_fast")) {
        c.kind = FZ_SAFE;
        fz_check_fast(&c);
    }
    return 0;
}
