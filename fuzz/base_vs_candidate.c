/*
 * base_vs_candidate: two subjects in one program, the base (the vendored
 * copy in use, lz4gate_subject()) and the candidate (the update,
 * lz4gate_subject_b()).
 *
 * Decoding arbitrary bytes (every decoder both have, at a drawn capacity,
 * target and dictionary): the two must return the same value and the same
 * bytes. Where they differ, the difference must be explained: each side's
 * result is judged against ref exactly as in decode_differential
 * (oracle_verdict.c), so it passes only when both results are ones the
 * profile table and the partial-decoding conventions allow. A candidate
 * whose result fails that judgement is a finding; a base that fails it
 * while the candidate passes is a fix, not a finding. The candidate's
 * output must not depend on the destination's previous content where the
 * base's does not.
 *
 * Compressing the payload: each subject's compressed block (compress_default,
 * compress_fast or compress_hc, drawn) must decode in the other one to
 * exactly the payload.
 *
 * Every finding names the side at fault as a field (fz_finding_by: "base"
 * or "candidate"), decided by ref, never left to a reader of the message:
 * a decoder result ref's verdict rejects is that side's (compare_decode:
 * the candidate's, the only one that is a finding); a block that does not
 * decode in the other subject is its encoder's when ref strict rejects it
 * or decodes it to other bytes than the input (Linux 6.1's compress_fast
 * at acceleration 2^28, KLZ4-ACCEL-WRAP, emits offset-0 matches), else its
 * decoder's (a valid block decoded wrongly).
 *
 * Input: [28-byte header][payload]; a shorter input is all payload, its
 * header drawn from a hash of its bytes (params.h, fp_init_block). Header,
 * in draw order:
 *   u8      flags: bit 0 dictionary as a prefix of dst; bits 1-2 the
 *           compressor: 0/3 compress_default, 1 compress_fast, 2 compress_hc
 *           when bit 7 is set too (else compress_default: HC's 256 KiB state
 *           per call made it the cost of most executions; one direction
 *           per input, bit 6: the candidate's block); bits 3-5 the
 *           decoders compared (decompress_safe, _partial, _using_dict),
 *           none set meaning all three
 *   u8      dictionary size class (as decode_differential)
 *   u32     dictionary size within the class
 *   u64     dictionary content seed (fz_fill_dict: a window of one stream)
 *   u8+u32  capacity: fp_size_near(exact decoded size, 16 MiB)
 *   u8+u32  partial target: fp_size_near(exact decoded size, 16 MiB)
 *   i32     acceleration / HC level (v % 20 - 3); for HC, its top four bits
 *           0: compress_hc, else compress_hc_ext_state where the subject has
 *           it (the same compressor with a state allocated once instead of
 *           256 KiB allocated per call, a third of the execution time when
 *           called in 1 HC call of 4: 1 HC call in 16 still takes
 *           compress_hc's own allocation path)
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "subject.h"
#include "params.h"
#include "judge.h"

FZ_TARGET("base_vs_candidate");
FZ_NEEDS_BOTH(FZ_DECODERS | CAP_COMPRESS_DEFAULT);

#define HEADER 28

static const char *side_of(const struct lz4_subject *s)
{
    return s == lz4gate_subject() ? "base" : "candidate";
}

static void compare_decode(fz_call *ca, fz_call *cb)
{
    const char *name = fz_decoder_names[ca->kind];
    fz_expect ea = fz_expect_for(ca, REF_TARGET0_RETURNS_ZERO);
    size_t fill = fz_expect_max(&ea) + 64;
    fz_result a = fz_run(ca, 0x00, fill), a2 = fz_run(ca, 0xFF, fill);
    fz_result b = fz_run(cb, 0x00, fill), b2 = fz_run(cb, 0xFF, fill);
    int indep_a = fz_result_equal(&a, &a2), indep_b = fz_result_equal(&b, &b2);

    if (!indep_b && indep_a)
        fz_finding_by("candidate", FAIL_STALE_OUTPUT, name,
                      "candidate %s: output depends on the destination's previous content "
                      "(0x00-filled returned %d, 0xFF-filled %d), base %s's does not (block %zu "
                      "bytes, capacity %zu, target %zu, dictionary %zu)", cb->s->name, b.r, b2.r,
                      ca->s->name, cb->n, cb->cap, cb->target, cb->dict_len);
    if (!fz_result_equal(&a, &b)) {
        char why_a[512], why_b[512];
        const char *rule_a, *rule_b;
        enum fail_class cls_b = fz_judge_call(cb, NULL, &b, &rule_b, why_b, sizeof why_b);
        enum fail_class cls_a = fz_judge_call(ca, NULL, &a, &rule_a, why_a, sizeof why_a);
        if (cls_b != FAIL_NONE)  /* the candidate's result is wrong, whatever the base's */
            fz_finding_by("candidate", cls_b, name,
                          "candidate %s and base %s disagree (candidate returned %d, base %d) "
                          "and the candidate's result is not one ref allows: %s; base: %s "
                          "(block %zu bytes, capacity %zu, target %zu, dictionary %zu)",
                          cb->s->name, ca->s->name, b.r, a.r, why_b,
                          cls_a != FAIL_NONE ? why_a : (*rule_a ? rule_a : "agrees with ref"),
                          cb->n, cb->cap, cb->target, cb->dict_len);
    }
    fz_result_free(&a);
    fz_result_free(&a2);
    fz_result_free(&b);
    fz_result_free(&b2);
}

static int compress_with(const struct lz4_subject *s, int which, int param, int hc_ext,
                         const uint8_t *src, int n, uint8_t *dst, int cap)
{
    if (which == 1 && s->compress_fast)
        return s->compress_fast((const char *)src, (char *)dst, n, cap, param);
    if (which == 2 && hc_ext && s->compress_hc_ext_state)
        return s->compress_hc_ext_state((const char *)src, (char *)dst, n, cap, param);
    if (which == 2 && s->compress_hc)
        return s->compress_hc((const char *)src, (char *)dst, n, cap, param);
    return s->compress_default((const char *)src, (char *)dst, n, cap);
}

/* Whose fault it is that block[0..len) does not decode in the other
 * subject to src[0..n) (issue 23): the encoder's when ref strict rejects the
 * block or decodes it to other bytes than the input; else (a valid block
 * decoded wrongly) the decoder's. */
static const char *cross_fault(const struct lz4_subject *enc, const struct lz4_subject *dec,
                               const uint8_t *block, size_t len, const uint8_t *src, size_t n)
{
    ref_decode_params p;
    judge_ref ref;
    memset(&p, 0, sizeof p);
    p.src = block;
    p.src_len = len;
    p.dst = fz_scratch(4, n + 1);
    p.dst_cap = n;
    ref = judge_ref_block(&p, NULL);
    if (!ref.strict_ok || ref.len != n || (n && memcmp(ref.out, src, n) != 0))
        return side_of(enc);
    return side_of(dec);
}

static void cross(const struct lz4_subject *enc, const struct lz4_subject *dec, int which,
                  int param, int hc_ext, const uint8_t *src, size_t n)
{
    static const char *const names[] = { "compress_default", "compress_fast", "compress_hc" };
    size_t cap = ref_compress_bound(n);
    fz_out ob, oo;
    uint8_t *block = fz_out_open(&ob, cap, 0, 0), *out;   /* exact, no allocation */
    int r, d;
    if (which == 1 && !enc->compress_fast)
        which = 0;
    if (which == 2 && !enc->compress_hc)
        which = 0;
    r = compress_with(enc, which, param, hc_ext, src, (int)n, block, (int)cap);
    if (!fz_out_close(&ob))
        fz_finding_by(side_of(enc), FAIL_WROTE_BEFORE_DST, names[which],
                      "%s wrote before the destination buffer (%zu bytes, capacity %zu)",
                      enc->name, n, cap);
    if (r <= 0 || (size_t)r > cap) {
        if (n > 0)
            fz_finding_by(side_of(enc), FAIL_COMPRESS_FAILS, names[which],
                          "%s returned %d for %zu bytes with a capacity of compress_bound = "
                          "%zu (parameter %d)", enc->name, r, n, cap, param);
        return;
    }
    block = (uint8_t *)fz_src(2, block, (size_t)r);         /* exactly the block */
    out = fz_out_open(&oo, n, 0, 0);
    d = dec->decompress_safe((const char *)block, (char *)out, r, (int)n);
    if (!fz_out_close(&oo))
        fz_finding_by(side_of(dec), FAIL_WROTE_BEFORE_DST, "decompress_safe",
                      "%s wrote before the destination buffer (block %d bytes, capacity %zu)",
                      dec->name, r, n);
    if (d != (int)n || (n && memcmp(out, src, n) != 0))
        fz_finding_by(cross_fault(enc, dec, block, (size_t)r, src, n), FAIL_CROSS_DECODE,
                      names[which], "%s's %d-byte block of %zu bytes decodes in %s to %d "
                      "bytes%s (parameter %d)", enc->name, r, n, dec->name, d,
                      d == (int)n ? " that differ" : "", param);
    if (d > 0)
        fz_consume(out, (size_t)d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *sa = lz4gate_subject(), *sb = lz4gate_subject_b();
    fuzz_params fp;
    uint8_t flags, mask;
    const uint8_t *dict, *block;
    size_t dict_len, exact, cap, target;
    uint64_t seed;
    int32_t param;
    fz_call ca, cb;
    int which;

    fz_input(data, size);
    fp_init_block(&fp, data, size, HEADER);
    flags = fp_u8(&fp);
    mask = (flags >> 3) & 7 ? (flags >> 3) & 7 : 7;
    dict_len = fp_dict_len(&fp);
    seed = fp_u64(&fp);
    if (fp.payload_len > (1u << 24))
        return 0;
    block = fz_src(0, fp.payload, fp.payload_len);
    dict = fz_dict(dict_len, seed);
    exact = fz_ref_whole(block, fp.payload_len, REF_PROFILE_COMPATIBLE).r.written;
    cap = fp_size_near(&fp, exact, FZ_MAX_CAP);
    target = fp_size_near(&fp, exact, FZ_MAX_CAP);
    param = fp_i32(&fp);

    memset(&ca, 0, sizeof ca);
    ca.s = sa;
    ca.src = block;
    ca.n = fp.payload_len;
    ca.cap = cap;
    ca.target = target;
    ca.side = "base";
    cb = ca;
    cb.s = sb;
    cb.side = "candidate";

    if ((mask & 1) && sa->decompress_safe && sb->decompress_safe &&
        !fz_skip("decompress_safe")) {
        ca.kind = cb.kind = FZ_SAFE;
        compare_decode(&ca, &cb);
    }
    if ((mask & 2) && sa->decompress_safe_partial && sb->decompress_safe_partial &&
        !fz_skip("decompress_safe_partial")) {
        ca.kind = cb.kind = FZ_PARTIAL;
        compare_decode(&ca, &cb);
    }
    if ((mask & 4) && sa->decompress_safe_using_dict && sb->decompress_safe_using_dict &&
        !fz_skip("decompress_safe_using_dict")) {
        ca.kind = cb.kind = (flags & 1) ? FZ_DICT_PREFIX : FZ_DICT;
        ca.dict = cb.dict = dict;
        ca.dict_len = cb.dict_len = dict_len;
        ca.target = cb.target = 0;
        compare_decode(&ca, &cb);
    }

    /* Each one's compressed block decodes in the other. */
    which = (flags >> 1) & 3;
    if (which == 3 || (which == 2 && !(flags & 128)))
        which = 0;
    if (sa->compress_default && sb->compress_default && sa->decompress_safe &&
        sb->decompress_safe && fp.payload_len <= (1u << 22)) {
        int level = which == 2 ? (int)((uint32_t)param % 20u) - 3 : param;
        int hc_ext = ((uint32_t)param >> 28) != 0;
        /* HC in one direction per input (bit 6: the candidate's block in
         * the base), the others in both */
        if (which != 2 || !(flags & 64))
            cross(sa, sb, which, level, hc_ext, block, fp.payload_len);
        if (which != 2 || (flags & 64))
            cross(sb, sa, which, level, hc_ext, block, fp.payload_len);
    }
    return 0;
}
