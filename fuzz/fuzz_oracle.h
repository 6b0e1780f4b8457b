/*
 * fuzz_oracle.h: what the lz4gate fuzz targets share besides parameter
 * drawing: calling a subject's decoder on exactly sized buffers, the
 * reference expectation for a call, and the verdict.
 *
 * Verdict of one decoder call (subject result r, reference ref/):
 *   - both accept: same return, byte-identical output;
 *   - both reject: fine (the error values need not agree);
 *   - they disagree: acceptable only when a named rule explains it:
 *       * a row of ref's profile table (ref_profile_rule_for): ref strict
 *         rejects with that row's status, and the subject's output equals
 *         ref's COMPATIBLE output, or the subject rejects too;
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
 *                                   run);
 *           PARTIAL_LOOKAHEAD_REJECT the subject rejects a block that is not
 *                                   valid as a whole before reaching the
 *                                   target, where ref stopped at the target.
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
 *
 * Findings abort with "lz4gate-fuzz TARGET: FAIL [CLASS@ENTRY]: details".
 * Decoder classes: wrong_output (a valid block decoded wrongly),
 * rejects_valid, accepts_invalid (naming ref's status and check),
 * offset0_output (offset 0 accepted without writing zeros),
 * malformed_wrong_output (partial decode of a malformed block returns bytes
 * other than the data before the defect), stale_output, wrote_before_dst,
 * return_above_capacity, return_above_target. LZ4GATE_FUZZ_IGNORE lists
 * ids (or classes) to count instead of abort, LZ4GATE_FUZZ_SKIP entry
 * points not to call (harness/fuzz.py --ignore / --skip / --known).
 */
#ifndef LZ4GATE_FUZZ_ORACLE_H
#define LZ4GATE_FUZZ_ORACLE_H

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "lz4ref.h"
#include "subject.h"

#ifndef FUZZ_TARGET_NAME
#error "define FUZZ_TARGET_NAME before including fuzz_oracle.h"
#endif

/* Capacities and targets are drawn in [0, FZ_MAX_CAP]. */
#define FZ_MAX_CAP (16u << 20)
/* "Valid as a whole": decoded with this capacity, more than any drawn one. */
#define FZ_BIG_CAP (FZ_MAX_CAP + 64u)

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define FZ_MSAN 1
#endif
#endif

/* ---- failing -------------------------------------------------------- */

static inline void fz_fail(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
static inline void fz_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "lz4gate-fuzz %s: FAIL: ", FUZZ_TARGET_NAME);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

/*
 * A finding: "class@entry", e.g. stale_output@decompress_safe_partial.
 * Aborts (the fuzzer records the input) unless the environment variable
 * LZ4GATE_FUZZ_IGNORE lists the id or its class (comma-separated): a known
 * finding must not stop every later run from looking for new ones.
 */
static int fz_ignored_count;
static inline int fz_ignored(const char *id)
{
    const char *env = getenv("LZ4GATE_FUZZ_IGNORE");
    size_t cls_len = strcspn(id, "@");
    while (env && *env) {
        size_t len = strcspn(env, ",");
        if ((len == strlen(id) && strncmp(env, id, len) == 0) ||
            (len == cls_len && strncmp(env, id, len) == 0))
            return 1;
        env += len + (env[len] == ',');
    }
    return 0;
}

static inline void fz_finding(const char *cls, const char *entry, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void fz_finding(const char *cls, const char *entry, const char *fmt, ...)
{
    char id[160];
    va_list ap;
    snprintf(id, sizeof id, "%s@%s", cls, entry);
    if (fz_ignored(id)) {
        fz_ignored_count++;
        return;
    }
    fprintf(stderr, "lz4gate-fuzz %s: FAIL [%s]: ", FUZZ_TARGET_NAME, id);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

/* The name of a row of ref's latitude table (ref/profile.c): every
 * disagreement the targets accept names one, and a missing row stops the
 * target instead of silently widening what is accepted. */
static inline const char *fz_latitude(const char *name)
{
    const ref_latitude *row = ref_latitude_named(name);
    if (!row)
        fz_fail("ref/profile.c has no latitude %s", name);
    return row->name;
}

/* Entry points listed in LZ4GATE_FUZZ_SKIP (comma-separated, e.g.
 * "decompress_fast") are not called: a way to keep fuzzing the rest of a
 * subject while one entry point has an open finding. */
static inline int fz_skip(const char *entry)
{
    const char *env = getenv("LZ4GATE_FUZZ_SKIP");
    while (env && *env) {
        size_t len = strcspn(env, ",");
        if (len == strlen(entry) && strncmp(env, entry, len) == 0)
            return 1;
        env += len + (env[len] == ',');
    }
    return 0;
}

/* ---- memory ---------------------------------------------------------- */

/* The oracle's own helpers (buffers, filling, checksumming) are not
 * instrumented for coverage: their branches depend on earlier inputs
 * (caches, buffers that grow), which would make coverage depend on the
 * order of the inputs (libFuzzer's merge assumes it does not), and under
 * -fsanitize=fuzzer every comparison of every iteration of their loops
 * would call the comparison tracer (a 64 KiB dictionary fill was 70% of
 * decode_differential's time). noinline: an inlined copy would be
 * instrumented as part of its caller. */
#if defined(__clang__) && defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define FZ_NO_COVERAGE __attribute__((noinline, no_sanitize("coverage")))
#endif
#endif
#ifndef FZ_NO_COVERAGE
#define FZ_NO_COVERAGE
#endif

/* Exactly `size` bytes (ASan bounds them exactly); never NULL. */
static inline void *fz_alloc(size_t size)
{
    void *p = malloc(size);
    if (!p && size == 0)
        p = malloc(1);
    if (!p)
        fz_fail("out of memory (%zu bytes)", size);
    return p;
}

static inline uint8_t *fz_dup(const uint8_t *p, size_t n)
{
    uint8_t *q = fz_alloc(n);
    if (n)
        memcpy(q, p, n);
    return q;
}

/* Reusable scratch for the oracle's own buffers (trusted code, so exact
 * bounds do not matter); grows, never shrinks. */
enum { FZ_SCRATCH_SLOTS = 12 };
static FZ_NO_COVERAGE __attribute__((unused)) uint8_t *fz_scratch(int slot, size_t size)
{
    static uint8_t *buf[FZ_SCRATCH_SLOTS];
    static size_t len[FZ_SCRATCH_SLOTS];
    if (size > len[slot]) {
        free(buf[slot]);
        buf[slot] = malloc(size);
        if (!buf[slot])
            fz_fail("out of memory (%zu bytes of scratch)", size);
        len[slot] = size;
    }
    return buf[slot];
}

/* Read every returned byte (MSan reports uninitialised ones here). */
static volatile uint32_t fz_sink;
static FZ_NO_COVERAGE __attribute__((unused)) void fz_consume(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    fz_sink ^= h;
}

/* Deterministic filler (dictionaries, synthetic data): splitmix64, one
 * round per byte. Counter-based: byte i depends only on seed + (i+1) *
 * FZ_GAMMA, so any stretch of a stream can be filled on its own. */
#define FZ_GAMMA 0x9E3779B97F4A7C15ull
static FZ_NO_COVERAGE __attribute__((unused)) void fz_fill_prng(uint8_t *p, size_t n,
                                                                 uint64_t seed, unsigned alphabet)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t z = (seed += FZ_GAMMA);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        p[i] = (uint8_t)(alphabet ? 'a' + z % alphabet : z);
    }
}

/* Dictionaries: a window of one fixed pseudo-random stream, chosen by the
 * seed (every seed byte moves it). One memcpy: filling a 64 KiB dictionary
 * with fz_fill_prng per input took ~100 us, several times what the rest of
 * a decode_differential run costs. */
#define FZ_DICT_WINDOWS (1u << 20)
#define FZ_DICT_MAX_LEN (1u << 17)
static FZ_NO_COVERAGE __attribute__((unused)) void fz_fill_dict(uint8_t *p, size_t n,
                                                                 uint64_t seed)
{
    static uint8_t *stream;
    uint64_t w = seed ^ (seed >> 20) ^ (seed >> 40) ^ (seed >> 60);
    if (n > FZ_DICT_MAX_LEN) {
        fz_fill_prng(p, n, seed, 0);
        return;
    }
    if (!stream) {
        stream = fz_alloc(FZ_DICT_WINDOWS + FZ_DICT_MAX_LEN);
        fz_fill_prng(stream, FZ_DICT_WINDOWS + FZ_DICT_MAX_LEN, 0x6C7A34676174ull, 0);
    }
    if (n)
        memcpy(p, stream + (size_t)(w % FZ_DICT_WINDOWS), n);
}

/* fz_fill_prng through a cache of the last stream: successive fuzz inputs
 * mostly keep their header (the fuzzer mutates the payload), so a 64 KiB
 * dictionary becomes one memcpy instead of 64 Ki rounds. Same bytes as
 * fz_fill_prng. */
#define FZ_PRNG_CACHE_MAX (1u << 20)
static FZ_NO_COVERAGE __attribute__((unused)) void fz_fill_prng_cached(uint8_t *p, size_t n,
                                                                        uint64_t seed,
                                                                        unsigned alphabet)
{
    static uint8_t *cache;
    static size_t have;
    static uint64_t cache_seed;
    static unsigned cache_alphabet;
    if (n > FZ_PRNG_CACHE_MAX) {
        fz_fill_prng(p, n, seed, alphabet);
        return;
    }
    if (!cache) {
        cache = malloc(FZ_PRNG_CACHE_MAX);
        if (!cache) {
            fz_fill_prng(p, n, seed, alphabet);
            return;
        }
    }
    if (seed != cache_seed || alphabet != cache_alphabet) {
        have = 0;
        cache_seed = seed;
        cache_alphabet = alphabet;
    }
    if (n > have) {
        fz_fill_prng(cache + have, n - have, seed + (uint64_t)have * FZ_GAMMA, alphabet);
        have = n;
    }
    if (n)
        memcpy(p, cache, n);
}

static inline size_t fz_min(size_t a, size_t b) { return a < b ? a : b; }
static inline size_t fz_max(size_t a, size_t b) { return a > b ? a : b; }

/* ---- the reference --------------------------------------------------- */

typedef struct fz_ref {
    ref_decode_result r;
    const uint8_t *out;     /* r.written bytes */
} fz_ref;

static inline fz_ref fz_ref_decode(int slot, const uint8_t *src, size_t n, size_t cap,
                            const uint8_t *dict, size_t dict_len, ref_profile profile,
                            int partial, size_t target, ref_target0 target0)
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
    out.r = ref_decode(&p);
    out.out = p.dst;
    return out;
}

static inline const char *fz_check_name(int check)
{
    return check >= 0 ? ref_check_name(check) : "-";
}

/* ---- expectations and verdicts --------------------------------------- */

typedef struct fz_expect {
    fz_ref strict, compat;  /* ref under the call's own parameters */
    int partial;
    int whole_valid;        /* partial: the block decodes (strict, no capacity limit) */
    const uint8_t *lenient; /* partial: what the input decodes to before ref's error */
    size_t lenient_len;
    size_t limit;           /* partial: min(target, capacity) */
    int empty_token;        /* EMPTY_BUFFER_ZERO_TOKEN applies */
} fz_expect;

/* The decoded bytes before the point where ref stopped, including the
 * available part of a truncated literal run (partial decoding only). */
static inline void fz_lenient(fz_expect *e, int slot, const uint8_t *src, size_t n)
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
static inline size_t fz_expect_max(const fz_expect *e)
{
    size_t m = fz_max(e->strict.r.written, e->compat.r.written);
    return e->partial ? fz_max(m, e->lenient_len) : m;
}

static inline int fz_same(int r, const uint8_t *out, const fz_ref *ref)
{
    return ref->r.status == REF_OK && r >= 0 && (size_t)r == ref->r.written &&
           (r == 0 || memcmp(out, ref->out, (size_t)r) == 0);
}

/* NULL when the subject's result is acceptable (then *rule names the rule
 * that allowed a disagreement, or "" for agreement); otherwise the class of
 * finding, with the details in why[]. */
static inline const char *fz_judge(const fz_expect *e, int r, const uint8_t *out,
                                   const char **rule, char *why, size_t why_len)
{
    const ref_decode_result *s = &e->strict.r;
    const ref_profile_rule *row = s->status == REF_OK ? NULL : ref_profile_rule_for(s->status);
    *rule = "";
    if (r >= 0 && s->status == REF_OK) {
        if (fz_same(r, out, &e->strict))
            return NULL;
        if (e->partial && !e->whole_valid && (size_t)r <= s->written &&
            (r == 0 || memcmp(out, e->strict.out, (size_t)r) == 0)) {
            *rule = fz_latitude("PARTIAL_EARLY_END");
            return NULL;
        }
        if ((size_t)r != s->written)
            snprintf(why, why_len, "returned %d, ref decodes %zu bytes", r, s->written);
        else
            snprintf(why, why_len, "returned %d bytes as ref does, but different bytes", r);
        /* A partial decode of a block that is malformed past the target:
         * wrong bytes instead of an error, a lesser finding than wrong bytes
         * for a valid block. */
        return e->partial && !e->whole_valid ? "malformed_wrong_output" : "wrong_output";
    }
    if (r < 0 && s->status != REF_OK)
        return NULL;
    if (r < 0) {
        if (e->empty_token && s->written == 0) {
            *rule = fz_latitude("EMPTY_BUFFER_ZERO_TOKEN");
            return NULL;
        }
        if (e->partial && !e->whole_valid) {
            *rule = fz_latitude("PARTIAL_LOOKAHEAD_REJECT");
            return NULL;
        }
        snprintf(why, why_len, "returned %d (error), ref strict decodes %zu bytes", r,
                 s->written);
        return "rejects_valid";
    }
    /* r >= 0, strict rejects */
    if (row && fz_same(r, out, &e->compat)) {
        *rule = row->name;
        return NULL;
    }
    if (e->partial && (size_t)r <= e->limit && (size_t)r <= e->lenient_len &&
        (r == 0 || memcmp(out, e->lenient, (size_t)r) == 0)) {
        *rule = fz_latitude("PARTIAL_EARLY_END");
        return NULL;
    }
    if (row) {
        snprintf(why, why_len,
                 "returned %d; ref strict rejects with %s (rule %s, %s) and ref compatible %s "
                 "%zu bytes, which the subject's output does not match",
                 r, ref_status_name(s->status), row->name, row->spec_section,
                 e->compat.r.status == REF_OK ? "decodes" : "also rejects after",
                 e->compat.r.written);
        /* Accepting offset 0 without writing zeros: its own class, as the
         * spec singles it out (Implementation notes, offset 0). */
        return s->status == REF_ERR_OFFSET_ZERO ? "offset0_output" : "accepts_invalid";
    }
        snprintf(why, why_len,
                 "returned %d; ref rejects with %s (check %s) at input byte %zu after %zu "
                 "output bytes, and no profile rule allows accepting it",
                 r, ref_status_name(s->status), fz_check_name(s->failed_check),
                 s->consumed, s->written);
    /* Partial decoding may return data for a malformed block, but only the
     * data before the defect (PARTIAL_EARLY_END): other bytes are wrong
     * output. */
    return e->partial ? "malformed_wrong_output" : "accepts_invalid";
}

/* ---- calling a subject's decoder -------------------------------------- */

enum fz_decoder { FZ_SAFE, FZ_PARTIAL, FZ_DICT, FZ_DICT_PREFIX };
static const char *const fz_decoder_names[] __attribute__((unused)) = {
    "decompress_safe", "decompress_safe_partial", "decompress_safe_using_dict(ext)",
    "decompress_safe_using_dict(prefix)"
};

typedef struct fz_call {
    const struct lz4_subject *s;
    enum fz_decoder kind;
    const uint8_t *src;     /* exactly n bytes of their own (fz_dup) */
    size_t n;
    size_t cap, target;
    const uint8_t *dict;    /* ext: exactly dict_len bytes of their own */
    size_t dict_len;
} fz_call;

typedef struct fz_result {
    int r;
    const uint8_t *out;     /* the returned bytes (r > 0), in an area (fz_run) */
} fz_result;

static inline int fz_has(const struct lz4_subject *s, enum fz_decoder kind)
{
    switch (kind) {
    case FZ_SAFE: return s->decompress_safe != NULL;
    case FZ_PARTIAL: return s->decompress_safe_partial != NULL;
    default: return s->decompress_safe_using_dict != NULL;
    }
}

/* Destinations live at the end of one of FZ_AREAS persistent allocations,
 * used in turn: a destination ends exactly where its allocation ends (ASan
 * reports a write or read past the capacity as a heap-buffer-overflow), and
 * under ASan the FZ_GUARD bytes before it are poisoned for the call (an
 * access before dst is reported as use-after-poison; ASan poisons whole
 * 8-byte granules, so up to 7 bytes just before an unaligned dst stay
 * addressable: the canary catches writes there). A canary before the
 * buffer catches writes before it in builds without ASan.
 * Allocating a fresh exact buffer per call was most of decode_differential's
 * time: ASan's quarantine makes every such allocation new pages (mmap, page
 * faults, the 0xbe malloc fill). A result's bytes stay valid until
 * FZ_AREAS - 1 further runs: fz_run_twice uses two areas, base_vs_candidate
 * four in a row. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(FZ_ASAN)
#define FZ_ASAN 1
#endif
#ifdef FZ_ASAN
#include <sanitizer/asan_interface.h>
#define FZ_POISON(p, n) __asan_poison_memory_region((p), (n))
#define FZ_UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define FZ_POISON(p, n) ((void)(p), (void)(n))
#define FZ_UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#if defined(FZ_MSAN)
#include <sanitizer/msan_interface.h>
#endif

enum { FZ_AREAS = 4, FZ_GUARD = 4096, FZ_CANARY = 64 };
#define FZ_AREA_SIZE (FZ_GUARD + 2u * REF_MAX_DICT + FZ_BIG_CAP)

/* The last `size` bytes of the next area, and the area's start. */
static FZ_NO_COVERAGE __attribute__((unused)) uint8_t *fz_area_tail(size_t size,
                                                                     uint8_t **area_start)
{
    static uint8_t *area[FZ_AREAS];
    static unsigned next;
    unsigned k = next++ % FZ_AREAS;
    if (!area[k])
        area[k] = fz_alloc(FZ_AREA_SIZE);
    *area_start = area[k];
    return area[k] + FZ_AREA_SIZE - size;
}

/* The input's dictionary, fz_fill_dict(seed): the last n bytes of a
 * persistent allocation, the FZ_GUARD bytes before it poisoned until the
 * next call (the same detection as an exact allocation, without a fresh
 * 64 KiB allocation per input). Valid until the next call. */
static FZ_NO_COVERAGE __attribute__((unused)) const uint8_t *fz_dict(size_t n, uint64_t seed)
{
    static uint8_t *area;
    static uint8_t *guard;
    static size_t guard_len;
    enum { DICT_AREA = FZ_GUARD + FZ_DICT_MAX_LEN };
    uint8_t *d;
    if (n > FZ_DICT_MAX_LEN)
        fz_fail("dictionary of %zu bytes: more than %u", n, (unsigned)FZ_DICT_MAX_LEN);
    if (!area)
        area = fz_alloc(DICT_AREA);
    if (guard_len)
        FZ_UNPOISON(guard, guard_len);
    d = area + DICT_AREA - n;
    fz_fill_dict(d, n, seed);
    guard_len = fz_min(FZ_GUARD, (size_t)(d - area));
    guard = d - guard_len;
    FZ_POISON(guard, guard_len);
    return d;
}

/* One call into a destination of exactly cap bytes whose first fill_len
 * bytes hold `fill` (the rest is whatever the memory held). With a prefix
 * dictionary the buffer is [dict][dst] and the prefix must come back
 * unchanged. */
static FZ_NO_COVERAGE __attribute__((unused)) fz_result fz_run(const fz_call *c, int fill, size_t fill_len)
{
    fz_result res;
    uint8_t *buf, *dst, *start, *guard;
    size_t pre = c->kind == FZ_DICT_PREFIX ? c->dict_len : 0, guard_len;
    int n = (int)c->n, cap = (int)c->cap;
    int i;

    if (pre + c->cap > FZ_AREA_SIZE - FZ_GUARD)
        fz_fail("a call of %zu + %zu bytes does not fit an area", pre, c->cap);
    buf = fz_area_tail(pre + c->cap, &start);
    guard_len = fz_min(FZ_GUARD, (size_t)(buf - start));
    guard = buf - guard_len;
    memset(buf - FZ_CANARY, 0xA5, FZ_CANARY);
    if (pre)
        memcpy(buf, c->dict, pre);
    dst = buf + pre;
#if defined(FZ_MSAN)
    if (fill == 0)      /* MSan: the 0x00 run sees an uninitialised buffer */
        __msan_poison(dst, c->cap);
    else
#endif
        memset(dst, fill, fz_min(fill_len, c->cap));
    FZ_POISON(guard, guard_len);
    switch (c->kind) {
    case FZ_SAFE:
        res.r = c->s->decompress_safe((const char *)c->src, (char *)dst, n, cap);
        break;
    case FZ_PARTIAL:
        res.r = c->s->decompress_safe_partial((const char *)c->src, (char *)dst, n,
                                               (int)c->target, cap);
        break;
    case FZ_DICT:
        res.r = c->s->decompress_safe_using_dict((const char *)c->src, (char *)dst, n, cap,
                                                 (const char *)c->dict, (int)c->dict_len);
        break;
    default:
        res.r = c->s->decompress_safe_using_dict((const char *)c->src, (char *)dst, n, cap,
                                                 (const char *)buf, (int)pre);
        break;
    }
    FZ_UNPOISON(guard, guard_len);
    if (pre && memcmp(buf, c->dict, pre) != 0)
        fz_finding("wrote_before_dst", fz_decoder_names[c->kind],
                   "%s modified the prefix dictionary before dst (block %zu bytes, "
                   "capacity %zu, prefix %zu)", c->s->name, c->n, c->cap, pre);
    for (i = 0; i < FZ_CANARY; i++)
        if (buf[i - FZ_CANARY] != 0xA5) {
            fz_finding("wrote_before_dst", fz_decoder_names[c->kind],
                       "%s wrote before the destination buffer (block %zu bytes, "
                       "capacity %zu)", c->s->name, c->n, c->cap);
            break;
        }
    if (res.r > cap) {
        fz_finding("return_above_capacity", fz_decoder_names[c->kind],
                   "%s returned %d, more than the capacity %d", c->s->name, res.r, cap);
        res.r = cap;
    }
    if (c->kind == FZ_PARTIAL && res.r > (int)c->target && c->target <= c->cap) {
        fz_finding("return_above_target", fz_decoder_names[c->kind],
                   "%s returned %d, more than the target %zu", c->s->name, res.r, c->target);
        res.r = (int)c->target;
    }
    res.out = NULL;
    if (res.r > 0) {
        fz_consume(dst, (size_t)res.r);
        res.out = dst;
    }
    return res;
}

/* Results point into an area: nothing to free (kept for the callers). */
static inline void fz_result_free(fz_result *r)
{
    r->out = NULL;
}

static inline int fz_result_equal(const fz_result *a, const fz_result *b)
{
    return a->r == b->r && (a->r <= 0 || memcmp(a->out, b->out, (size_t)a->r) == 0);
}

/* Runs the call twice (0x00- and 0xFF-filled destination); fails unless the
 * two agree. Returns the first. */
static inline fz_result fz_run_twice(const fz_call *c, size_t fill_len)
{
    fz_result a = fz_run(c, 0x00, fill_len), b = fz_run(c, 0xFF, fill_len);
    if (!fz_result_equal(&a, &b))
        fz_finding("stale_output", fz_decoder_names[c->kind],
                   "%s: output depends on the destination's previous content: "
                   "0x00-filled returned %d, 0xFF-filled returned %d%s (block %zu bytes, "
                   "capacity %zu, target %zu, dictionary %zu)",
                   c->s->name, a.r, b.r, a.r == b.r ? " with different bytes" : "", c->n,
                   c->cap, c->target, c->dict_len);
    fz_result_free(&b);
    return a;
}

/* The reference expectation for call c (target0: the convention for a
 * partial decode with nothing to produce). */
static inline fz_expect fz_expect_for(const fz_call *c, ref_target0 target0)
{
    fz_expect e;
    int partial = c->kind == FZ_PARTIAL;
    const uint8_t *dict = c->kind >= FZ_DICT ? c->dict : NULL;
    size_t dlen = c->kind >= FZ_DICT ? c->dict_len : 0;
    memset(&e, 0, sizeof e);
    e.partial = partial;
    e.strict = fz_ref_decode(0, c->src, c->n, c->cap, dict, dlen, REF_PROFILE_STRICT,
                             partial, c->target, target0);
    e.compat = fz_ref_decode(1, c->src, c->n, c->cap, dict, dlen, REF_PROFILE_COMPATIBLE,
                             partial, c->target, target0);
    if (partial) {
        fz_ref whole = fz_ref_decode(2, c->src, c->n, FZ_BIG_CAP, NULL, 0, REF_PROFILE_STRICT,
                                     0, 0, target0);
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

/* Target-0 conventions a generation may follow (history.md §7.3.1). */
static inline int fz_target0_conventions(const struct lz4_subject *s, ref_target0 conv[2])
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
 * computed); NULL if acceptable, else the message. */
static inline const char *fz_judge_call(const fz_call *c, const fz_expect *first,
                                 const fz_result *res, const char **rule, char *why,
                                 size_t why_len)
{
    ref_target0 conv[2];
    int k = fz_target0_conventions(c->s, conv), i;
    const char *msg = NULL;
    for (i = 0; i < k; i++) {
        fz_expect e;
        if (i > 0 && !(c->kind == FZ_PARTIAL && fz_min(c->target, c->cap) == 0))
            break;
        if (i == 0 && first)
            e = *first;
        else
            e = fz_expect_for(c, conv[i]);
        msg = fz_judge(&e, res->r, res->out, rule, why, why_len);
        if (!msg)
            return NULL;
    }
    return msg;
}

/* Run + judge + independence: the whole check of one decoder call. The
 * caller frees the result. */
static inline fz_result fz_check_call(const fz_call *c)
{
    char why[512];
    const char *rule;
    ref_target0 conv[2];
    const char *cls;
    fz_expect e;
    fz_result res;
    fz_target0_conventions(c->s, conv);
    e = fz_expect_for(c, conv[0]);
    res = fz_run_twice(c, fz_expect_max(&e) + 64);
    cls = fz_judge_call(c, &e, &res, &rule, why, sizeof why);
    if (cls)
        fz_finding(cls, fz_decoder_names[c->kind],
                   "%s %s (block %zu bytes, capacity %zu, target %zu, dictionary %zu)",
                   c->s->name, why, c->n, c->cap, c->target, c->dict_len);
    return res;
}

#endif /* LZ4GATE_FUZZ_ORACLE_H */
