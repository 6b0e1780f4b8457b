/*
 * oracle_verdict.c: the reference expectation for one decoder call, the
 * verdict on a subject's result, and reporting findings (at the end).
 *
 * Verdict of one decoder call (subject result r, reference ref/): ref's
 * one rule (harness/runners/common/judge.h), which every target and the
 * vector and contract runners share:
 *   - a rejection is a failure only where ref strict accepts the whole
 *     input (for a partial decode: the call and the whole block);
 *   - an acceptance only where ref compatible rejects the call, or returns
 *     other bytes (the error values of two rejections need not agree);
 * so a row of ref's profile table (ref_profile_rule_for) lets the subject
 * accept with ref's COMPATIBLE output or reject. On top of it, named
 * exceptions:
 *       * a row of ref's latitude table (ref/profile.c, fz_latitude): for
 *         partial decoding only, two conventions of the API
 *         (lz4.h / linux/lz4.h, LZ4_decompress_safe_partial: "@return can
 *         be < targetOutputSize, if compressed block contains less data";
 *         decoders stop "as soon as" the target is reached), allowed only
 *         when the block is not valid as a whole (strict, no capacity limit):
 *           PARTIAL_EARLY_END       the subject accepts and returns a prefix
 *                                   of what the input decodes to before the
 *                                   point where ref found it malformed (incl.
 *                                   the available bytes of a truncated literal
 *                                   run); a prefix shorter than min(target,
 *                                   capacity) only where the input runs out
 *                                   (fz_ends_where_input_does), else it is
 *                                   accepts_invalid;
 *           PARTIAL_LOOKAHEAD_REJECT the subject rejects a block that is not
 *                                   valid as a whole before reaching the
 *                                   target, where ref stopped at the target
 *                                   (the rule above; the row names the API
 *                                   text).
 *       * EMPTY_BUFFER_ZERO_TOKEN: with a capacity of 0 (or a partial decode
 *         with nothing to produce, decoded as an empty buffer) upstream
 *         lz4.c and the kernel accept only the one-byte block 0x00 ("empty
 *         output buffer" special case), while a one-byte block whose token
 *         has a non-zero match-length nibble (0x01..0x0F) is accepted as an
 *         empty block by ref and by the same decoders at any capacity > 0.
 *         The subject may reject such a block at capacity 0.
 *     anything else is a failure, reported with ref's status and check name.
 *   - the output must not depend on the destination's previous content
 *     (0x00-filled vs 0xFF-filled: same return, same bytes), and every
 *     returned byte is read (checksummed), so MSan would see uninitialised
 *     output.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "oracle.h"
#include "subject.h"
#include "judge.h"

/* ---- the reference --------------------------------------------------- */

/* ref's decode of src into scratch slot `slot` (valid until the slot is
 * used again); known_size: LZ4_decompress_fast's mode (cap is the output
 * size, stop there). */
static fz_ref fz_ref_run(int slot, const uint8_t *src, size_t n, size_t cap,
                         const uint8_t *dict, size_t dict_len, ref_profile profile, int partial,
                         size_t target, ref_target0 target0, int known_size)
{
    ref_decode_params p;
    fz_ref out;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.src_len = n;
    p.dst = fz_scratch(slot, cap ? cap : 1);
    p.dst_cap = cap;
    if (dict_len > REF_MAX_DICT) {          /* only the last 64 KiB is reachable */
        dict += dict_len - REF_MAX_DICT;
        dict_len = REF_MAX_DICT;
    }
    p.dict = dict_len ? dict : NULL;
    p.dict_len = dict_len;
    p.profile = profile;
    p.partial = partial;
    p.target = target;
    p.target0 = target0;
    p.stop_at_output_end = known_size;
    out.r = ref_decode(&p);
    out.out = p.dst;
    return out;
}

fz_ref fz_ref_decode(int slot, const uint8_t *src, size_t n, size_t cap, const uint8_t *dict,
                     size_t dict_len, ref_profile profile, int partial, size_t target,
                     ref_target0 target0)
{
    return fz_ref_run(slot, src, n, cap, dict, dict_len, profile, partial, target, target0, 0);
}

/* Scratch slots of the whole-block decodes (fz_ref_whole). */
enum { FZ_WHOLE_SLOT_STRICT = 2, FZ_WHOLE_SLOT_COMPAT = 6 };

/* The profiles differ only in rules the strict one enforces on top
 * (profile.c: offset 0, the end-of-block rules 2 and 3, each a
 * strict_rejects row), on the same decoding path: a block strict decodes
 * decodes the same under the compatible profile, byte for byte. So a
 * strict success stands for both, and the compatible decode runs only
 * when strict rejects. */
static int fz_same_under_compat(const fz_ref *strict)
{
    return strict->r.status == REF_OK;
}

FZ_NO_COVERAGE fz_ref fz_ref_whole(const uint8_t *src, size_t n, ref_profile profile)
{
    static unsigned long epoch;
    static const uint8_t *at;
    static size_t len;
    static int have[2];
    static fz_ref memo[2];
    int k = profile == REF_PROFILE_STRICT ? 0 : 1;
    if (epoch != fz_memo_epoch || at != src || len != n) {
        epoch = fz_memo_epoch;
        at = src;
        len = n;
        have[0] = have[1] = 0;
    }
    if (!have[k]) {
        if (k == 1 && have[0] && fz_same_under_compat(&memo[0]))
            memo[1] = memo[0];
        else
            memo[k] = fz_ref_decode(k ? FZ_WHOLE_SLOT_COMPAT : FZ_WHOLE_SLOT_STRICT, src, n,
                                    FZ_BIG_CAP, NULL, 0, profile, 0, 0, 0);
        have[k] = 1;
    }
    return memo[k];
}

const char *fz_check_name(int check)
{
    return check >= 0 ? ref_check_name(check) : "-";
}

/* ---- expectations and verdicts --------------------------------------- */

/* The decoded bytes before the point where ref stopped, including the
 * available part of a truncated literal run (partial decoding only). */
static void fz_lenient(fz_expect *e, int slot, const uint8_t *src, size_t n)
{
    const fz_ref *c = &e->compat;
    size_t len = c->r.written, tail = 0;
    uint8_t *buf;
    if (c->r.status == REF_ERR_TRUNCATED_LITERALS && c->r.consumed <= n &&
        len < e->limit)
        tail = fz_min(n - c->r.consumed, e->limit - len);
    buf = fz_scratch(slot, len + tail + 1);
    if (len)
        memcpy(buf, c->out, len);
    if (tail)
        memcpy(buf + len, src + c->r.consumed, tail);
    e->lenient = buf;
    e->lenient_len = len + tail;
}

/* Largest output a correct decoder can return for this call. */
size_t fz_expect_max(const fz_expect *e)
{
    size_t m = fz_max(e->strict.r.written, e->compat.r.written);
    return e->partial ? fz_max(m, e->lenient_len) : m;
}

/* Scratch slot of the decodes the rules below run (only decode_differential,
 * ref_to_subject and base_vs_candidate judge calls; none of them uses it). */
enum { FZ_RULE_SLOT = 10 };

/* A partial decode that returns r < min(target, capacity) bytes says the
 * block ends there (lz4.h LZ4_decompress_safe_partial: "@return can be <
 * targetOutputSize, if compressed block contains less data"; "If source
 * stream is detected malformed, function returns a negative result"). On a
 * block ref rejects that is acceptable only where the input runs out:
 *   - inside the last literal run: ref stopped for lack of literal bytes
 *     and r is all of what the input holds (lenient, which fz_lenient caps
 *     at the limit);
 *   - after a literal run followed by at most 2 input bytes, too few for an
 *     offset and a next token (upstream 1.9.x and Linux 6.1 stop there): the
 *     block without its last 1 or 2 bytes decodes, ref compatible, to
 *     exactly r bytes.
 * Anywhere else the decoder skipped a sequence it had the bytes to read, and
 * must reject (regression case ULZ4-2026-1753 test 5: 1F 61 01 00 FF FF,
 * target = capacity = 10000; lz4 up to 1.8.2 returns the one literal). */
static int fz_ends_where_input_does(const fz_call *c, const fz_expect *e, int r)
{
    size_t k;
    if (e->compat.r.status == REF_ERR_TRUNCATED_LITERALS && (size_t)r == e->lenient_len)
        return 1;
    for (k = 1; k <= 2 && k <= c->n; k++) {
        fz_ref cut = fz_ref_decode(FZ_RULE_SLOT, c->src, c->n - k, c->cap, NULL, 0,
                                   REF_PROFILE_COMPATIBLE, 0, 0, 0);
        if (cut.r.status == REF_OK && cut.r.written == (size_t)r)
            return 1;
    }
    return 0;
}

/* PARTIAL_EARLY_END for an accepted prefix of r bytes: FAIL_NONE when the
 * rule allows it, else accepts_invalid (the bytes are right, ending there
 * is not). */
static enum fail_class fz_early_end(const fz_call *c, const fz_expect *e, int r, const char **rule,
                                char *why, size_t why_len)
{
    if ((size_t)r < e->limit && !fz_ends_where_input_does(c, e, r)) {
        fz_ref whole = fz_ref_whole(c->src, c->n, REF_PROFILE_STRICT);
        snprintf(why, why_len,
                 "returned %d bytes, fewer than min(target, capacity) = %zu: the right bytes, "
                 "but the block is malformed (ref: %s, check %s, at input byte %zu of %zu) "
                 "and does not end after them: input the decoder had to read is left "
                 "(PARTIAL_EARLY_END ends only where the input runs out)",
                 r, e->limit, ref_status_name(whole.r.status),
                 fz_check_name(whole.r.failed_check), whole.r.consumed, c->n);
        return FAIL_ACCEPTS_INVALID;
    }
    *rule = fz_latitude("PARTIAL_EARLY_END");
    return FAIL_NONE;
}

/* The failure classes of an accepted result ref's verdict rejects
 * (judge.h), once PARTIAL_EARLY_END is ruled out. */
static enum fail_class fz_accepted_class(const fz_call *c, const fz_expect *e, int r,
                                         const uint8_t *out, const char **rule, char *why,
                                         size_t why_len)
{
    const ref_decode_result *s = &e->strict.r;
    const ref_profile_rule *row = s->status == REF_OK ? NULL : ref_profile_rule_for(s->status);
    if (s->status == REF_OK) {
        if (e->partial && !e->whole_valid && (size_t)r <= s->written &&
            (r == 0 || memcmp(out, e->strict.out, (size_t)r) == 0))
            return fz_early_end(c, e, r, rule, why, why_len);
        if ((size_t)r != s->written)
            snprintf(why, why_len, "returned %d, ref decodes %zu bytes", r, s->written);
        else
            snprintf(why, why_len, "returned %d bytes as ref does, but different bytes", r);
        /* A partial decode of a block that is malformed past the target:
         * wrong bytes instead of an error, a lesser finding than wrong bytes
         * for a valid block. */
        return e->partial && !e->whole_valid ? FAIL_MALFORMED_WRONG_OUTPUT : FAIL_WRONG_OUTPUT;
    }
    if (e->partial && (size_t)r <= e->limit && (size_t)r <= e->lenient_len &&
        (r == 0 || memcmp(out, e->lenient, (size_t)r) == 0))
        return fz_early_end(c, e, r, rule, why, why_len);
    if (row) {
        snprintf(why, why_len,
                 "returned %d; ref strict rejects with %s (rule %s, %s) and ref compatible %s "
                 "%zu bytes, which the subject's output does not match",
                 r, ref_status_name(s->status), row->name, row->spec_section,
                 e->compat.r.status == REF_OK ? "decodes" : "also rejects after",
                 e->compat.r.written);
        /* Accepting offset 0 without writing zeros: its own class, as the
         * spec singles it out (Implementation notes, offset 0). */
        return s->status == REF_ERR_OFFSET_ZERO ? FAIL_OFFSET0_OUTPUT : FAIL_ACCEPTS_INVALID;
    }
    snprintf(why, why_len,
             "returned %d; ref rejects with %s (check %s) at input byte %zu after %zu "
             "output bytes, and no profile rule allows accepting it",
             r, ref_status_name(s->status), fz_check_name(s->failed_check),
             s->consumed, s->written);
    /* Partial decoding may return data for a malformed block, but only the
     * data before the defect (PARTIAL_EARLY_END): other bytes are wrong
     * output. */
    return e->partial ? FAIL_MALFORMED_WRONG_OUTPUT : FAIL_ACCEPTS_INVALID;
}

/* FAIL_NONE when the subject's result is acceptable (then *rule names the
 * rule that allowed a disagreement, or "" for agreement); otherwise the
 * class of finding, with the details in why[]. The verdict is ref's one
 * rule (judge.h); the latitudes are named exceptions on top of it. */
static enum fail_class fz_judge(const fz_call *c, const fz_expect *e, int r,
                                const uint8_t *out, const char **rule, char *why,
                                size_t why_len)
{
    const ref_decode_result *s = &e->strict.r;
    const ref_profile_rule *row = s->status == REF_OK ? NULL : ref_profile_rule_for(s->status);
    judge_ref ref;
    *rule = "";
    /* The input of a partial decode is the whole block (judge.h). */
    ref.strict_ok = e->partial ? judge_partial_strict_ok(s->status == REF_OK, e->whole_valid)
                               : s->status == REF_OK;
    ref.compat_ok = e->compat.r.status == REF_OK;
    ref.out = e->compat.out;
    ref.len = e->compat.r.written;
    switch (judge_output(&ref, r >= 0, out, r >= 0 ? (size_t)r : 0)) {
    case JUDGE_PASS:
        if (r < 0 && s->status == REF_OK)      /* ref stopped at the target */
            *rule = fz_latitude("PARTIAL_LOOKAHEAD_REJECT");
        else if (r >= 0 && row)
            *rule = row->name;
        return FAIL_NONE;
    case JUDGE_REJECTS_VALID:
        if (e->empty_token && s->written == 0) {
            *rule = fz_latitude("EMPTY_BUFFER_ZERO_TOKEN");
            return FAIL_NONE;
        }
        snprintf(why, why_len, "returned %d (error), ref strict decodes %zu bytes", r,
                 s->written);
        return FAIL_REJECTS_VALID;
    case JUDGE_ACCEPTS_INVALID:
    case JUDGE_WRONG_OUTPUT:
    case JUDGE_OTHER_OUTPUT:
        break;
    }
    return fz_accepted_class(c, e, r, out, rule, why, why_len);
}

/* The reference expectation for call c (target0: the convention for a
 * partial decode with nothing to produce). */
fz_expect fz_expect_for(const fz_call *c, ref_target0 target0)
{
    fz_expect e;
    int partial = c->kind == FZ_PARTIAL;
    const uint8_t *dict = c->kind >= FZ_DICT ? c->dict : NULL;
    size_t dlen = c->kind >= FZ_DICT ? c->dict_len : 0;
    memset(&e, 0, sizeof e);
    e.partial = partial;
    if (!partial && !dlen && (e.strict = fz_ref_whole(c->src, c->n, REF_PROFILE_STRICT),
                              e.strict.r.status == REF_OK && e.strict.r.written <= c->cap)) {
        /* The whole block decodes within the capacity: a decode with this
         * capacity takes the same path to the same end (every capacity
         * check passes), so the whole-block decode is this call's. */
    } else {
        e.strict = fz_ref_decode(0, c->src, c->n, c->cap, dict, dlen, REF_PROFILE_STRICT,
                                 partial, c->target, target0);
    }
    if (fz_same_under_compat(&e.strict))
        e.compat = e.strict;
    else
        e.compat = fz_ref_decode(1, c->src, c->n, c->cap, dict, dlen, REF_PROFILE_COMPATIBLE,
                                 partial, c->target, target0);
    if (partial) {
        fz_ref whole = fz_ref_whole(c->src, c->n, REF_PROFILE_STRICT);
        e.whole_valid = whole.r.status == REF_OK;
        e.limit = fz_min(c->target, c->cap);
        fz_lenient(&e, 3, c->src, c->n);
    }
    e.empty_token = c->n == 1 && c->src[0] != 0 &&
                    (partial ? (target0 == REF_TARGET0_AS_EMPTY_OUTPUT &&
                                fz_min(c->target, c->cap) == 0)
                             : c->cap == 0);
    return e;
}

/* Target-0 conventions a generation may follow
 * (docs/fix-history.md#where-the-kernel-differs-from-upstream). */
int fz_target0_conventions(const struct lz4_subject *s, ref_target0 conv[2])
{
    switch (s->generation) {
    case GEN_REF:
        conv[0] = REF_TARGET0_RETURNS_ZERO;
        return 1;
    case GEN_UPSTREAM:          /* >= 1.9.2 returns 0, older ones as empty output */
        conv[0] = REF_TARGET0_RETURNS_ZERO;
        conv[1] = REF_TARGET0_AS_EMPTY_OUTPUT;
        return 2;
    default:
        conv[0] = REF_TARGET0_AS_EMPTY_OUTPUT;
        return 1;
    }
}

/* Judges a subject result against the reference under every convention the
 * generation allows (first: the expectation for the first one, if already
 * computed); FAIL_NONE if acceptable, else the class (why[]: the details). */
enum fail_class fz_judge_call(const fz_call *c, const fz_expect *first, const fz_result *res,
                              const char **rule, char *why, size_t why_len)
{
    ref_target0 conv[2];
    int k = fz_target0_conventions(c->s, conv), i;
    enum fail_class cls = FAIL_NONE;
    for (i = 0; i < k; i++) {
        fz_expect e;
        if (i > 0 && !(c->kind == FZ_PARTIAL && fz_min(c->target, c->cap) == 0))
            break;
        if (i == 0 && first)
            e = *first;
        else
            e = fz_expect_for(c, conv[i]);
        cls = fz_judge(c, &e, res->r, res->out, rule, why, why_len);
        if (cls == FAIL_NONE)
            return FAIL_NONE;
    }
    return cls;
}

/* ---- decompress_fast on a malformed block ---------------------------- */

/* lz4gate's rule for LZ4_decompress_fast on a malformed block (regression
 * cases KLZ4-FAST and ULZ4-2022-FASTBOUND): when the block's defect is on
 * the output side, a match offset reaching before the output start or a
 * literal or match run longer than the output left of originalSize
 * (REF_ERR_OFFSET_BEFORE_START, REF_ERR_OUTPUT_OVERFLOW of ref's
 * known-size decode, compatible profile), and every byte ref read up to it
 * lies inside the input, the call must fail (return < 0) without reading
 * before dst. Stricter than lz4.h, whose note still says match offsets are
 * not validated; upstream validates them since v1.9.4 (efd123e1: runs that
 * pass the output left and offsets beyond prefix + dictionary return -1).
 * Input-side defects (a truncated block) are not judged: the call has no
 * input size and 1.9.4 presumes a well-formed input. Returns 1 when the
 * rule applies, with ref's finding in why[]. */
int fz_fast_must_reject(const uint8_t *src, size_t n, size_t original, char *why,
                        size_t why_len)
{
    ref_decode_result r = fz_ref_run(FZ_RULE_SLOT, src, n, original, NULL, 0,
                                     REF_PROFILE_COMPATIBLE, 0, 0, 0, 1).r;
    if (r.status != REF_ERR_OFFSET_BEFORE_START && r.status != REF_ERR_OUTPUT_OVERFLOW)
        return 0;
    snprintf(why, why_len, "ref's decode with the known output size stops with %s (check %s) "
             "at input byte %zu of %zu, after %zu output bytes",
             ref_status_name(r.status), fz_check_name(r.failed_check), r.consumed, n,
             r.written);
    return 1;
}

/* ---- findings -------------------------------------------------------- */

/*
 * A finding: "class@entry", e.g. stale_output@decompress_safe_partial, the
 * class named by fail_class_name (here, not in oracle.c: fuzz/make_seeds.c
 * links oracle.c without fail_class.c). Aborts (the fuzzer records the
 * input) unless
 *   - LZ4GATE_FUZZ_IGNORE lists the id or its class (comma-separated): the
 *     finding is counted (recorded, in a campaign), not stopped at;
 *   - LZ4GATE_FUZZ_RECORD names a directory (a campaign, oracle_record.c):
 *     every finding is recorded, and only with LZ4GATE_FUZZ_STOP=1 does one
 *     that is not ignored stop the target.
 */
int fz_ignored_count;
static int fz_ignored(const char *id, const char *cls)
{
    const char *env = getenv("LZ4GATE_FUZZ_IGNORE");
    while (env && *env) {
        size_t len = strcspn(env, ",");
        if ((len == strlen(id) && strncmp(env, id, len) == 0) ||
            (len == strlen(cls) && strncmp(env, cls, len) == 0))
            return 1;
        env += len + (env[len] == ',');
    }
    return 0;
}

/* A finding of a two-subject target names the side at fault as a field
 * of its own, after the message (never in its words: a tool would have to
 * parse them): "fault: SIDE" in a campaign's record (oracle_record.c, read
 * by harness/fuzzing/findings.py) and the line "lz4gate-fuzz-fault: SIDE"
 * right after the failure line (harness/evidence/failure.py). */
static void fz_finding_v(const char *side, enum fail_class cls, const char *entry,
                         const char *fmt, va_list ap)
{
    char id[160], message[2048];
    const char *name = fail_class_name(cls);
    int ignored, n;
    if (!name)      /* FAIL_NONE or out of range: the oracle's own defect */
        fz_fail("a finding at %s without a failure class (%d)", entry, (int)cls);
    snprintf(id, sizeof id, "%s@%s", name, entry);
    ignored = fz_ignored(id, name);
    fz_ignored_count += ignored;
    if (!fz_recording() && ignored)
        return;
    n = snprintf(message, sizeof message, "lz4gate-fuzz %s: FAIL [%s]: ", fz_target_name, id);
    vsnprintf(message + n, sizeof message - (size_t)n, fmt, ap);
    if (fz_recording()) {       /* a campaign: count it and keep samples */
        char record[sizeof message + 32];
        snprintf(record, sizeof record, "%s%s%s", message, side && *side ? "\nfault: " : "",
                 side && *side ? side : "");
        fz_record(id, record);
        if (ignored || !fz_stop_at_first())
            return;             /* ... and go on */
    }
    fprintf(stderr, "%s\n", message);
    if (side && *side)
        fprintf(stderr, "lz4gate-fuzz-fault: %s\n", side);
    fflush(stderr);
    abort();
}

void fz_finding(enum fail_class cls, const char *entry, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fz_finding_v(NULL, cls, entry, fmt, ap);
    va_end(ap);
}

void fz_finding_by(const char *side, enum fail_class cls, const char *entry, const char *fmt,
                   ...)
{
    va_list ap;
    va_start(ap, fmt);
    fz_finding_v(side, cls, entry, fmt, ap);
    va_end(ap);
}
