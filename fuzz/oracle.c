/*
 * oracle.c: the fuzz oracle's failing (its findings: oracle_verdict.c),
 * LZ4GATE_FUZZ_SKIP, ref's latitude names, and its memory: exact
 * allocations, scratch buffers, checksumming returned bytes, and the
 * deterministic fills (dictionaries, synthetic data) on ref/prng.h.
 * Linked into fuzz/make_seeds.c too, which has no fail_class.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "prng.h"

/* ---- failing -------------------------------------------------------- */

/* The rest of a failure line after its "lz4gate-fuzz TARGET: FAIL...: "
 * prefix; aborts (the fuzzer records the input). */
static void fz_abort_with(const char *fmt, va_list ap) __attribute__((noreturn));
static void fz_abort_with(const char *fmt, va_list ap)
{
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

void fz_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "lz4gate-fuzz %s: FAIL: ", fz_target_name);
    va_start(ap, fmt);
    fz_abort_with(fmt, ap);
}

/* The name of a row of ref's latitude table (ref/profile.c): every
 * disagreement the targets accept names one, and a missing row stops the
 * target instead of silently widening what is accepted. */
const char *fz_latitude(const char *name)
{
    const ref_latitude *row = ref_latitude_named(name);
    if (!row)
        fz_fail("ref/profile.c has no latitude %s", name);
    return row->name;
}

/* Entry points listed in LZ4GATE_FUZZ_SKIP (comma-separated, e.g.
 * "decompress_fast") are not called: a way to keep fuzzing the rest of a
 * subject while one entry point has an open finding. */
int fz_skip(const char *entry)
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

/* Exactly `size` bytes (ASan bounds them exactly); never NULL. */
void *fz_alloc(size_t size)
{
    void *p = malloc(size);
    if (!p && size == 0)
        p = malloc(1);
    if (!p)
        fz_fail("out of memory (%zu bytes)", size);
    return p;
}

/* The oracle's persistent buffers (scratch, areas, pools: static pointers)
 * are freed at exit, before LeakSanitizer's exit check: that check scans
 * every live block a global points to, and these hold up to 4 x 16 MiB a
 * run never touched, which the scan faulted in page by page (0.32 s of a
 * 0.39 s corpus replay of decode_differential; 0.07 s without). Our atexit
 * handler runs before LSan's, which ASan registered first. */
enum { FZ_KEPT_MAX = 32 };
static uint8_t **fz_kept[FZ_KEPT_MAX];
static int fz_nkept;

static FZ_NO_COVERAGE void fz_free_kept(void)
{
    while (fz_nkept > 0) {
        uint8_t **slot = fz_kept[--fz_nkept];
        free(*slot);
        *slot = NULL;
    }
}

FZ_NO_COVERAGE void fz_free_at_exit(uint8_t **slot)
{
    static int registered;
    if (!registered) {
        registered = 1;
        atexit(fz_free_kept);
    }
    if (fz_nkept == FZ_KEPT_MAX)
        fz_fail("more than %d persistent buffers", FZ_KEPT_MAX);
    fz_kept[fz_nkept++] = slot;
}

uint8_t *fz_dup(const uint8_t *p, size_t n)
{
    uint8_t *q = fz_alloc(n);
    if (n)
        memcpy(q, p, n);
    return q;
}

/* Reusable scratch for the oracle's own buffers (trusted code, so exact
 * bounds do not matter); grows, never shrinks. It grows to at least twice
 * its size: sizes drawn up to 16 MiB otherwise made it grow by small steps,
 * each a fresh mmap'd block under ASan (page faults, shadow poisoning, the
 * old block quarantined), 5% of ref_to_subject's time (issue 15). */
FZ_NO_COVERAGE uint8_t *fz_scratch(int slot, size_t size)
{
    static uint8_t *buf[FZ_SCRATCH_SLOTS];
    static size_t len[FZ_SCRATCH_SLOTS];
    if (size > len[slot]) {
        size_t want = fz_max(size, fz_max(2 * len[slot], 4096));
        if (!buf[slot])
            fz_free_at_exit(&buf[slot]);
        free(buf[slot]);
        buf[slot] = malloc(want);
        if (!buf[slot])
            fz_fail("out of memory (%zu bytes of scratch)", want);
        len[slot] = want;
    }
    return buf[slot];
}

/* Read every returned byte (MSan reports uninitialised ones here). Only
 * under MSan: in the other builds the loop found nothing and cost a
 * sanitizer check per byte of every output (2 per decode). */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define FZ_CONSUME_BYTES 1
#endif
#endif
#ifdef FZ_CONSUME_BYTES
static volatile uint32_t fz_sink;
FZ_NO_COVERAGE void fz_consume(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    if (h & 1)              /* a branch on the bytes: where MSan reports */
        fz_sink++;
}
#else
void fz_consume(const uint8_t *p, size_t n)
{
    (void)p;
    (void)n;
}
#endif

/* ---- deterministic fills --------------------------------------------- */

/* Deterministic filler (dictionaries, synthetic data): ref/prng.h's
 * splitmix64 stream, one round per byte. Counter-based: byte i depends only
 * on seed + (i+1) * REF_PRNG_GAMMA, so any stretch of a stream can be
 * filled on its own. */
FZ_NO_COVERAGE void fz_fill_prng(uint8_t *p, size_t n, uint64_t seed, unsigned alphabet)
{
    ref_prng_fill(p, n, seed, alphabet);
}

/* Dictionaries: a window of one fixed pseudo-random stream, chosen by the
 * seed (every seed byte moves it). One memcpy: filling a 64 KiB dictionary
 * with fz_fill_prng per input took ~100 us, several times what the rest of
 * a decode_differential run costs. */
#define FZ_DICT_WINDOWS (1u << 20)
FZ_NO_COVERAGE void fz_fill_dict(uint8_t *p, size_t n, uint64_t seed)
{
    static uint8_t *stream;
    uint64_t w = seed ^ (seed >> 20) ^ (seed >> 40) ^ (seed >> 60);
    if (n > FZ_DICT_MAX_LEN) {
        fz_fill_prng(p, n, seed, 0);
        return;
    }
    if (!stream) {
        stream = fz_alloc(FZ_DICT_WINDOWS + FZ_DICT_MAX_LEN);
        fz_free_at_exit(&stream);
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
FZ_NO_COVERAGE void fz_fill_prng_cached(uint8_t *p, size_t n, uint64_t seed, unsigned alphabet)
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
        fz_free_at_exit(&cache);
    }
    if (seed != cache_seed || alphabet != cache_alphabet) {
        have = 0;
        cache_seed = seed;
        cache_alphabet = alphabet;
    }
    if (n > have) {
        fz_fill_prng(cache + have, n - have, seed + (uint64_t)have * REF_PRNG_GAMMA, alphabet);
        have = n;
    }
    if (n)
        memcpy(p, cache, n);
}
