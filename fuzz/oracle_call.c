/*
 * oracle_call.c: running one decoder call of a subject on exactly sized
 * buffers in persistent areas (with the input's dictionary), twice (0x00-
 * and 0xFF-filled destination), and the whole check of one call: run,
 * judge against ref (oracle_verdict.c), independence of the destination's
 * previous content.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "subject.h"
#include "judge.h"

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define FZ_MSAN 1
#endif
#endif

/* ---- calling a subject's decoder -------------------------------------- */

const char *const fz_decoder_names[] = {
    "decompress_safe", "decompress_safe_partial", "decompress_safe_using_dict(ext)",
    "decompress_safe_using_dict(prefix)"
};

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
static FZ_NO_COVERAGE uint8_t *fz_area_tail(size_t size, uint8_t **area_start)
{
    static uint8_t *area[FZ_AREAS];
    static unsigned next;
    unsigned k = next++ % FZ_AREAS;
    if (!area[k]) {
        area[k] = fz_alloc(FZ_AREA_SIZE);
        fz_free_at_exit(&area[k]);
    }
    *area_start = area[k];
    return area[k] + FZ_AREA_SIZE - size;
}

/* fz_src (oracle.h): area `slot` holds open[slot] addressable bytes at its
 * start, the rest poisoned; a call changes only the difference (an exact
 * allocation per input cost fresh pages under ASan's quarantine). ASan
 * poisons the tail of a granule exactly (a shadow value k means "the first
 * k bytes are addressable"), so the first byte past the input always
 * reports. */
FZ_NO_COVERAGE const uint8_t *fz_src(int slot, const uint8_t *p, size_t n)
{
    static uint8_t *area[FZ_SRC_SLOTS];
    static size_t size[FZ_SRC_SLOTS], open[FZ_SRC_SLOTS];
    fz_memo_epoch++;
    if (slot < 0 || slot >= FZ_SRC_SLOTS)
        fz_fail("fz_src slot %d", slot);
    if (n > size[slot] || !area[slot]) {
        size_t want = 1u << 16;
        while (want < n)
            want *= 2;
        if (!area[slot])
            fz_free_at_exit(&area[slot]);
        free(area[slot]);
        area[slot] = fz_alloc(want);
        size[slot] = want;
        FZ_POISON(area[slot], want);
        open[slot] = 0;
    }
    if (n > open[slot])
        FZ_UNPOISON(area[slot] + open[slot], n - open[slot]);
    else if (n < open[slot])
        FZ_POISON(area[slot] + n, open[slot] - n);
    open[slot] = n;
    if (n)
        memcpy(area[slot], p, n);
    return area[slot];
}

/* The input's dictionary, fz_fill_dict(seed): the last n bytes of a
 * persistent allocation, the FZ_GUARD bytes before it poisoned until the
 * next call (the same detection as an exact allocation, without a fresh
 * 64 KiB allocation per input). Valid until the next call. */
FZ_NO_COVERAGE const uint8_t *fz_dict(size_t n, uint64_t seed)
{
    static uint8_t *area;
    static uint8_t *guard;
    static size_t guard_len;
    enum { DICT_AREA = FZ_GUARD + FZ_DICT_MAX_LEN };
    uint8_t *d;
    if (n > FZ_DICT_MAX_LEN)
        fz_fail("dictionary of %zu bytes: more than %u", n, (unsigned)FZ_DICT_MAX_LEN);
    if (!area) {
        area = fz_alloc(DICT_AREA);
        fz_free_at_exit(&area);
    }
    if (guard_len)
        FZ_UNPOISON(guard, guard_len);
    d = area + DICT_AREA - n;
    fz_fill_dict(d, n, seed);
    guard_len = fz_min(FZ_GUARD, (size_t)(d - area));
    guard = d - guard_len;
    FZ_POISON(guard, guard_len);
    return d;
}

/* Opens `size` bytes at the end of the next area: canary and a guard of
 * `guard` bytes before them (poisoned until fz_out_close). */
static FZ_NO_COVERAGE uint8_t *fz_open_tail(fz_out *o, size_t size, size_t guard)
{
    uint8_t *start, *buf;
    if (size > FZ_AREA_SIZE - FZ_GUARD)
        fz_fail("a call of %zu bytes does not fit an area", size);
    buf = fz_area_tail(size, &start);
    o->guard_len = fz_min(guard, (size_t)(buf - start));
    o->guard = buf - o->guard_len;
    memset(buf - FZ_CANARY, 0xA5, FZ_CANARY);
    return buf;
}

/* Unpoisons the guard; 1 if the canary is intact. */
static FZ_NO_COVERAGE int fz_close_tail(fz_out *o, const uint8_t *buf)
{
    int i;
    FZ_UNPOISON(o->guard, o->guard_len);
    for (i = 0; i < FZ_CANARY; i++)
        if (buf[i - FZ_CANARY] != 0xA5)
            return 0;
    return 1;
}

FZ_NO_COVERAGE uint8_t *fz_out_open(fz_out *o, size_t cap, int fill, size_t fill_len)
{
    o->dst = fz_open_tail(o, cap, FZ_GUARD);
    o->cap = cap;
    memset(o->dst, fill, fz_min(fill_len, cap));
    FZ_POISON(o->guard, o->guard_len);
    return o->dst;
}

FZ_NO_COVERAGE int fz_out_close(fz_out *o)
{
    return fz_close_tail(o, o->dst);
}

/* One call into a destination of exactly cap bytes whose first fill_len
 * bytes hold `fill` (the rest is whatever the memory held). With a prefix
 * dictionary the buffer is [dict][dst] and the prefix must come back
 * unchanged. A negative size (neg_cap, neg_target) must give an error: any
 * return >= 0 is above it (lz4.h: the return is "necessarily <=
 * dstCapacity", "<= targetOutputSize"; CVE-2021-3520: upstream before
 * 1.9.4 reached memmove with a negative size). */
/* The size ref (compatible profile) decodes c's block to within c's
 * capacity, or -1: what decompress_safe's success stands for when the
 * subject's API reports no size (subject.h SUBJECT_DECODE_SIZE_UNREPORTED). */
static long long fz_size_ref_decodes(const fz_call *c)
{
    fz_ref w = fz_ref_whole(c->src, c->n, REF_PROFILE_COMPATIBLE);
    return w.r.status == REF_OK && w.r.written <= c->cap ? (long long)w.r.written : -1;
}

FZ_NO_COVERAGE fz_result fz_run(const fz_call *c, int fill, size_t fill_len)
{
    fz_result res;
    fz_out o;
    uint8_t *buf, *dst;
    size_t pre = c->kind == FZ_DICT_PREFIX ? c->dict_len : 0;
    int n = (int)c->n;
    int cap = c->neg_cap ? c->neg_cap : (int)c->cap;
    int target = c->neg_target ? c->neg_target : (int)c->target;

    buf = fz_open_tail(&o, pre + c->cap, FZ_GUARD);
    if (pre)
        memcpy(buf, c->dict, pre);
    dst = buf + pre;
#if defined(FZ_MSAN)
    if (fill == 0)      /* MSan: the 0x00 run sees an uninitialised buffer */
        __msan_poison(dst, c->cap);
    else
#endif
        memset(dst, fill, fz_min(fill_len, c->cap));
    FZ_POISON(o.guard, o.guard_len);
    switch (c->kind) {
    case FZ_SAFE:
        res.r = c->s->decompress_safe((const char *)c->src, (char *)dst, n, cap);
        if (res.r == cap && (c->s->flags & SUBJECT_DECODE_SIZE_UNREPORTED))
            res.r = subject_decoded_size(c->s, res.r, cap, fz_size_ref_decodes(c));
        break;
    case FZ_PARTIAL:
        res.r = c->s->decompress_safe_partial((const char *)c->src, (char *)dst, n, target,
                                               cap);
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
    if (!fz_close_tail(&o, buf))
        fz_finding_by(c->side, FAIL_WROTE_BEFORE_DST, fz_decoder_names[c->kind],
                      "%s wrote before the destination buffer (block %zu bytes, "
                      "capacity %zu)", c->s->name, c->n, c->cap);
    if (pre && memcmp(buf, c->dict, pre) != 0)
        fz_finding_by(c->side, FAIL_WROTE_BEFORE_DST, fz_decoder_names[c->kind],
                      "%s modified the prefix dictionary before dst (block %zu bytes, "
                      "capacity %zu, prefix %zu)", c->s->name, c->n, c->cap, pre);
    if (res.r >= 0 && res.r > cap) {
        fz_finding_by(c->side, FAIL_RETURN_ABOVE_CAPACITY, fz_decoder_names[c->kind],
                      "%s returned %d, more than the capacity %d", c->s->name, res.r, cap);
        res.r = cap;
    }
    if (c->kind == FZ_PARTIAL && res.r >= 0 && res.r > target && target <= cap) {
        fz_finding_by(c->side, FAIL_RETURN_ABOVE_TARGET, fz_decoder_names[c->kind],
                      "%s returned %d, more than the target %d", c->s->name, res.r, target);
        res.r = target;
    }
    res.out = NULL;
    if (res.r > 0) {
        fz_consume(dst, (size_t)res.r);
        res.out = dst;
    }
    return res;
}

/* Results point into an area: nothing to free (kept for the callers). */
void fz_result_free(fz_result *r)
{
    r->out = NULL;
}

int fz_result_equal(const fz_result *a, const fz_result *b)
{
    return a->r == b->r && (a->r <= 0 || memcmp(a->out, b->out, (size_t)a->r) == 0);
}

/* Runs the call twice (0x00- and 0xFF-filled destination); fails unless the
 * two agree. Returns the first. */
fz_result fz_run_twice(const fz_call *c, size_t fill_len)
{
    fz_result a = fz_run(c, 0x00, fill_len), b = fz_run(c, 0xFF, fill_len);
    if (!fz_result_equal(&a, &b))
        fz_finding_by(c->side, FAIL_STALE_OUTPUT, fz_decoder_names[c->kind],
                      "%s: output depends on the destination's previous content: "
                      "0x00-filled returned %d, 0xFF-filled returned %d%s (block %zu bytes, "
                      "capacity %zu, target %zu, dictionary %zu)",
                      c->s->name, a.r, b.r, a.r == b.r ? " with different bytes" : "", c->n,
                      c->cap, c->target, c->dict_len);
    fz_result_free(&b);
    return a;
}

/* Run + judge + independence: the whole check of one decoder call. The
 * caller frees the result. */
fz_result fz_check_call(const fz_call *c)
{
    char why[512];
    const char *rule;
    ref_target0 conv[2];
    enum fail_class cls;
    fz_expect e;
    fz_result res;
    fz_target0_conventions(c->s, conv);
    e = fz_expect_for(c, conv[0]);
    res = fz_run_twice(c, fz_expect_max(&e) + 64);
    cls = fz_judge_call(c, &e, &res, &rule, why, sizeof why);
    if (cls != FAIL_NONE)
        fz_finding_by(c->side, cls, fz_decoder_names[c->kind],
                      "%s %s (block %zu bytes, capacity %zu, target %zu, dictionary %zu)",
                      c->s->name, why, c->n, c->cap, c->target, c->dict_len);
    return res;
}

void fz_check_safe_and_partial(fz_call *c)
{
    fz_result r;
    if (c->s->decompress_safe && !fz_skip("decompress_safe")) {
        c->kind = FZ_SAFE;
        r = fz_check_call(c);
        fz_result_free(&r);
    }
    if (c->s->decompress_safe_partial && !fz_skip("decompress_safe_partial")) {
        c->kind = FZ_PARTIAL;
        r = fz_check_call(c);
        fz_result_free(&r);
    }
}

/* ---- decode_differential's further modes ------------------------------ */

/* In-place decoding (lz4.h, "In-place compression and decompression";
 * regression cases ULZ4-2019-INPLACE, KLZ4-2020-INPLACE): the block lies at
 * the end of a buffer of D + LZ4_DECOMPRESS_INPLACE_MARGIN(n) bytes,
 * margin (n >> 8) + 32 as fs/erofs computes it, and is decoded into the
 * buffer's start with capacity (and target) D, its decoded size. The last
 * literal run overlaps its destination when it is longer than the margin,
 * so a decoder must copy it as memmove does; the block, valid as a whole,
 * must decode to ref's D bytes. A block longer than the buffer is not
 * decoded in place. */
void fz_check_in_place(const fz_call *c, const uint8_t *want)
{
    fz_out o;
    size_t d = c->cap, size = d + (c->n >> 8) + 32;
    uint8_t *buf, *src;
    judgement v;
    int r;
    if (c->n > size || size > FZ_AREA_SIZE - FZ_GUARD)
        return;
    buf = fz_open_tail(&o, size, FZ_GUARD);
    memset(buf, 0, size - c->n);
    src = buf + size - c->n;
    memcpy(src, c->src, c->n);
    FZ_POISON(o.guard, o.guard_len);
    if (c->kind == FZ_PARTIAL)
        r = c->s->decompress_safe_partial((const char *)src, (char *)buf, (int)c->n, (int)d,
                                          (int)d);
    else
        r = c->s->decompress_safe((const char *)src, (char *)buf, (int)c->n, (int)d);
    if (!fz_close_tail(&o, buf))
        fz_finding_by(c->side, FAIL_WROTE_BEFORE_DST, fz_decoder_names[c->kind],
                      "%s decoding in place wrote before the buffer (block %zu bytes)",
                      c->s->name, c->n);
    /* The block is valid as a whole, strict (the caller's): ref's one
     * verdict (judge.h) leaves it no other result than want[0..d). */
    v = judge_decode(r >= 0, r == (int)d && memcmp(buf, want, d) == 0, 1, 1);
    if (v != JUDGE_PASS)
        fz_finding_by(c->side, judgement_class(v), fz_decoder_names[c->kind],
                      "%s decoding in place (a valid block of %zu bytes at the end of a %zu-byte "
                      "buffer, decoded size %zu) returned %d%s", c->s->name, c->n, size, d, r,
                      r == (int)d ? " with other bytes than ref" : "");
    fz_consume(buf, r > 0 ? fz_min((size_t)r, d) : 0);
}

/* Readable zero bytes after the block of a decompress_fast call: decoders
 * may read ahead in wide copies (the input size is not part of the call). */
enum { FZ_FAST_PAD = 64, FZ_FAST_PAD_SLOT = 11 };
/* Before dst: the guard covers every offset (<= 65535) and then some, so a
 * read before dst is reported under ASan wherever it lands. */
#define FZ_FAST_GUARD (REF_MAX_DICT + FZ_GUARD)

/* decompress_fast(block, dst, originalSize = c->cap) where
 * fz_fast_must_reject (oracle_verdict.c) says the rule applies: the call
 * must return < 0, and read nothing before dst and write nothing outside
 * its originalSize bytes (ASan: the guard, the area's end; the canary). */
void fz_check_fast(const fz_call *c)
{
    char why[400];
    fz_out o;
    uint8_t *pad, *dst;
    const uint8_t *src;
    int r;
    if (c->cap == 0 || c->cap > FZ_MAX_CAP || !c->s->decompress_fast ||
        !fz_fast_must_reject(c->src, c->n, c->cap, why, sizeof why))
        return;
    pad = fz_scratch(FZ_FAST_PAD_SLOT, c->n + FZ_FAST_PAD);
    if (c->n)
        memcpy(pad, c->src, c->n);
    memset(pad + c->n, 0, FZ_FAST_PAD);
    src = fz_src(1, pad, c->n + FZ_FAST_PAD);
    dst = fz_open_tail(&o, c->cap, FZ_FAST_GUARD);
    FZ_POISON(o.guard, o.guard_len);
    r = c->s->decompress_fast((const char *)src, (char *)dst, (int)c->cap);
    if (!fz_close_tail(&o, dst))
        fz_finding_by(c->side, FAIL_WROTE_BEFORE_DST, "decompress_fast",
                      "%s wrote before the destination (block %zu bytes, originalSize %zu)",
                      c->s->name, c->n, c->cap);
    if (r >= 0)
        fz_finding_by(c->side, FAIL_ACCEPTS_INVALID, "decompress_fast",
                      "%s returned %d for originalSize %zu, block %zu bytes (+%d readable zero "
                      "bytes): %s, a defect on the output side that must give an error "
                      "(fz_fast_must_reject)", c->s->name, r, c->cap, c->n, (int)FZ_FAST_PAD, why);
}
