/*
 * Deliberately broken subjects, to show that the contract tests, fuzzers
 * and regression cases fail when a subject misbehaves. Built as the spec
 * "broken:MODE"; wraps the reference adapter and breaks one contract:
 *
 *   write_past_capacity  compressors write one byte at dst[capacity]
 *   short_return         decompress_safe reports one byte less than written
 *   ignore_capacity      decompress_safe decodes as if the capacity were 1 MiB
 *   partial_overshoot    decompress_safe_partial writes past the target
 *   bad_bound            compress_bound forgets the +16
 *   no_negative_guard    decompress_safe_partial lacks the "size < 0" guard
 *                        (the pre-CVE-2021-3520 pattern)
 *   partial_stops_early  decompress_safe_partial returns the bytes decoded
 *                        before a defect instead of rejecting the block
 *                        (lz4 up to 1.8.2: ULZ4-2026-1753)
 *   frame_reset_noop     LZ4F-style reset does nothing: a context that saw an
 *                        error stays unusable (the ULZ4-2023-1227 class)
 *   frame_write_past     the frame decoder writes one byte past the output
 *                        room it was offered
 *   frame_state_reuse    a compression context keeps the work state it
 *                        allocated for its first frame's level and reuses it
 *                        for a later, higher level (the ULZ4-2021-974 class)
 *   frame_dict_uninit    a fresh decompression context given a dictionary on
 *                        its first call reads it through a pointer not yet
 *                        set up (the ULZ4-2017-LZ4F-DICT class)
 *   frame_dict_unbounded the dictionary is copied whole into a 64 KiB window
 *                        (the ULZ4-2018-LZ4F-DICTSZ class)
 *   unlz4_short_flush    unlz4 hands one byte less of each chunk to flush()
 *   unlz4_no_padding     unlz4 fails on a zero word between members, as
 *                        before Linux 5.14 (KLZ4-UNLZ4-PAD)
 *   unlz4_fill_eof_error unlz4 in fill mode reports "data corrupted" at the
 *                        end of a good stream (the 3.11 KLZ4-UNLZ4-FILL class)
 *   overread_and_overwrite two defects at once, for the gate report's
 *                        grouping: decompress_safe reads the byte after its
 *                        input when the block decodes to 17 mod 64 bytes,
 *                        and compress_default writes one byte at
 *                        dst[capacity] for inputs of 17 mod 64 bytes
 *   compress_flip_last   compress_default flips a bit of the block's last
 *                        byte (a literal): a valid block of other data
 *   partial_rejects_cut  decompress_safe_partial rejects a valid block whose
 *                        output goes on past the target (the wrong side of
 *                        issue 23's rule: the block is valid as a whole)
 *   leak_on_error        decompress_safe leaks 16 bytes each time it
 *                        rejects a block (what the replays' LeakSanitizer
 *                        check at exit must report)
 *   frame_bound_one_block_short, frame_block_checksum_early,
 *   dict_prefix_64k_early, stream_history_one_short,
 *   frame_info_reads_past: bugs only the
 *                        boundary sweeps catch (adapter_broken_sweep.c says
 *                        what each does; stream_history_one_short is in
 *                        adapter_stream_ref.c: the stream decoder keeps
 *                        65534 bytes of a previous output that moved)
 *
 * and two conformant subjects, on either side of ref's profile table
 * (adapter_broken_profile.c), which lz4gate's verdict must not fault:
 *   strict_decoders      every decoder rejects what ref's strict profile
 *                        rejects: decompress_safe_partial a block invalid
 *                        past its target too, LZ4F_decompress and unlz4 a
 *                        stream with such a block (issue 23)
 *   compatible_decoders  the block decoders accept what ref's compatible
 *                        profile accepts (offset 0 as zeros, the end-of-block
 *                        rules unchecked), with its output
 *   frequent_and_rare    two crashes, one far more frequent, for crash
 *                        triage (issue 27): decompress_safe reads the byte
 *                        after its input on small malformed blocks (at
 *                        most FR_SMALL bytes, 1 in FR_FREQUENT of them by a
 *                        hash of the bytes); decompress_safe_partial writes
 *                        the byte after its capacity on large blocks (at
 *                        least FR_LARGE bytes, 1 in FR_RARE of them)
 *
 * The list of modes is the MODE_ table, adapter_broken_modes.h
 * (harness/subjects/spec.py reads it); the modes of the verdict policy's
 * planted scenarios are in adapter_broken_policy.c.
 */
#include <stdlib.h>
#include <string.h>

#include "adapter_broken_policy.h"
#include "adapter_broken_profile.h"
#include "adapter_broken_sweep.h"
#include "lz4ref.h"
#include "subject.h"

const struct lz4_subject *lz4gate_ref_subject(void);


#include "adapter_broken_modes.h"
/* The mode of this subject: a one-line object beside this one defines it
 * (recipes/ref.py), so that every mode shares this file's object. */
extern const int lz4gate_broken_mode;
#define SELECTED lz4gate_broken_mode

static struct lz4_subject broken;

/* frequent_and_rare: which blocks crash (FNV-1a of the block: no input
 * byte is compared with a constant the fuzzer could learn). The salt is
 * chosen so that no seed of corpus/decode_differential crashes
 * (tests/test_fuzz_triage.py replays them). */
enum { FR_SMALL = 64, FR_FREQUENT = 4, FR_LARGE = 256, FR_RARE = 64 };
#define FR_SALT 2u

static unsigned fr_hash(const char *s, int n)
{
    unsigned h = FR_SALT;
    int i;
    for (i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h ^ (h >> 16);
}

static int b_compress_default(const char *s, char *d, int n, int cap)
{
    int r = lz4gate_ref_subject()->compress_default(s, d, n, cap);
    if (SELECTED == MODE_write_past_capacity && cap >= 0)
        d[cap] = 0x5A;     /* one byte past the capacity */
    /* the same write, for inputs of 17 mod 64 bytes only (as its over-read) */
    if (SELECTED == MODE_overread_and_overwrite && cap >= 0 && (n & 63) == 17)
        d[cap] = 0x5A;
    if (SELECTED == MODE_compress_flip_last && r > 0)
        d[r - 1] ^= 1;     /* the last literal: still a valid block */
    return r;
}

static int b_decompress_safe(const char *s, char *d, int n, int cap)
{
    int r;
    if (SELECTED == MODE_compatible_decoders)
        return bp_decode(s, d, n, cap, 0, 0, NULL, 0, REF_PROFILE_COMPATIBLE);
    if (SELECTED == MODE_ignore_capacity)
        cap = 1 << 20;
    r = lz4gate_ref_subject()->decompress_safe(s, d, n, cap);
    /* One byte past the input, for blocks decoding to 17 mod 64 bytes only:
     * a defect on every call would make each check of a run crash. */
    if (SELECTED == MODE_overread_and_overwrite && n > 0 && r >= 0 && (r & 63) == 17)
        r += *(const volatile char *)(s + n) == 0x7f;
    if (SELECTED == MODE_short_return && r > 0)
        r--;
    if (SELECTED == MODE_frequent_and_rare && n > 0 && n <= FR_SMALL && r < 0 &&
        fr_hash(s, n) % FR_FREQUENT == 0)
        r -= *(const volatile char *)(s + n) == 0x7f;    /* one byte past the input */
    if (SELECTED == MODE_leak_on_error && r < 0) {
        /* through a volatile pointer: the call is made, its result dropped */
        void *(*volatile allocate)(size_t) = malloc;
        (void)allocate(16);
    }
    return r;
}

/* ref's partial decode with the sizes as the caller gave them (a negative
 * one becomes a huge unsigned value). */
static ref_decode_result ref_partial(const char *s, char *d, int n, int target, int cap,
                                     ref_profile profile)
{
    ref_decode_params p;
    memset(&p, 0, sizeof p);
    p.src = (const uint8_t *)s; p.src_len = (size_t)n;
    p.dst = (uint8_t *)d; p.dst_cap = (size_t)cap;
    p.partial = 1; p.target = (size_t)target;
    p.profile = profile;
    return ref_decode(&p);
}

static int b_decompress_safe_partial(const char *s, char *d, int n, int target, int cap)
{
    int r;
    if (SELECTED == MODE_no_negative_guard && (target < 0 || cap < 0)) {
        /* The sizes go through as huge unsigned values, as in a decoder
         * without the guard. */
        ref_decode_result res = ref_partial(s, d, n, target, cap, REF_PROFILE_STRICT);
        return res.status == REF_OK ? (int)res.written : -1;
    }
    if (SELECTED == MODE_partial_stops_early && n >= 0 && target >= 0 && cap >= 0) {
        ref_decode_result res = ref_partial(s, d, n, target, cap, REF_PROFILE_COMPATIBLE);
        if (res.status == REF_ERR_TRUNCATED_LITERALS && res.consumed <= (size_t)n) {
            /* and the literal bytes that are there, as upstream does */
            size_t k = (size_t)n - res.consumed, room = (size_t)cap - res.written;
            k = k < room ? k : room;
            memcpy(d + res.written, s + res.consumed, k);
            res.written += k;
        }
        return (int)res.written;      /* what came before the defect, if any */
    }
    if (SELECTED == MODE_compatible_decoders)
        return bp_decode(s, d, n, cap, 1, target, NULL, 0, REF_PROFILE_COMPATIBLE);
    if (SELECTED == MODE_strict_decoders && !bp_strict_whole(s, n))
        return -1;         /* the input is the whole block, invalid */
    r = lz4gate_ref_subject()->decompress_safe_partial(s, d, n, target, cap);
    if (SELECTED == MODE_partial_rejects_cut && r >= 0) {
        char *whole = malloc((size_t)r + 1);
        int fits = whole && lz4gate_ref_subject()->decompress_safe(s, whole, n, r) == r;
        free(whole);
        if (!fits)
            return -1;     /* more output after the target */
    }
    if (SELECTED == MODE_partial_overshoot && r >= 0 && r < cap)
        d[r] = 0x5A, r++;
    if (SELECTED == MODE_frequent_and_rare && n >= FR_LARGE && cap >= 0 &&
        fr_hash(s, n) % FR_RARE == 0)
        ((volatile char *)d)[cap] = 0x5A;                /* one byte past the capacity */
    return r;
}

static int b_decompress_safe_using_dict(const char *s, char *d, int n, int cap,
                                        const char *dict, int dict_len)
{
    if (SELECTED == MODE_compatible_decoders)
        return bp_decode(s, d, n, cap, 0, 0, dict, dict_len, REF_PROFILE_COMPATIBLE);
    if (SELECTED == MODE_dict_prefix_64k_early)
        return bs_using_dict_prefix_64k_early(s, d, n, cap, dict, dict_len);
    return lz4gate_ref_subject()->decompress_safe_using_dict(s, d, n, cap, dict, dict_len);
}

static int b_compress_bound(int n)
{
    int r = lz4gate_ref_subject()->compress_bound(n);
    return SELECTED == MODE_bad_bound && r > 0 ? r - 16 : r;
}

static void b_frame_reset(void *dctx)
{
    if (SELECTED != MODE_frame_reset_noop)
        lz4gate_ref_subject()->frame_dctx_reset(dctx);
}

static long long b_frame_decompress(void *dctx, unsigned char *dst, size_t *dst_len,
                                    const unsigned char *src, size_t *src_len,
                                    const unsigned char *dict, size_t dict_len)
{
    size_t room = *dst_len;
    long long r = lz4gate_ref_subject()->frame_decompress(dctx, dst, dst_len, src, src_len, dict,
                                                          dict_len);
    if (SELECTED == MODE_frame_write_past && *dst_len > 0)
        dst[room] = 0x5A;     /* one byte past the room offered */
    return r;
}

/* Decompression contexts: the reference's, plus what the faults need. */
struct b_dctx {
    void *inner;
    int started;
    const unsigned char *dict_seen;   /* set on the first call: read before it */
};

static void *b_dctx_create(void)
{
    struct b_dctx *d = calloc(1, sizeof *d);
    if (!d)
        abort();
    d->inner = lz4gate_ref_subject()->frame_dctx_create();
    if (!d->inner) {            /* ref's allocation failed (alloc_fail): a clean NULL */
        free(d);
        return NULL;
    }
    return d;
}

static void b_dctx_free(void *p)
{
    struct b_dctx *d = p;
    if (!d)
        return;
    lz4gate_ref_subject()->frame_dctx_free(d->inner);
    free(d);
}

static void b_frame_reset2(void *p)
{
    struct b_dctx *d = p;
    d->started = 0;
    b_frame_reset(d->inner);
}

static long long b_frame_decompress2(void *p, unsigned char *dst, size_t *dst_len,
                                     const unsigned char *src, size_t *src_len,
                                     const unsigned char *dict, size_t dict_len)
{
    struct b_dctx *d = p;
    if (SELECTED == MODE_frame_dict_uninit && dict && !d->started) {
        volatile unsigned char first = d->dict_seen[0];   /* NULL: not set up yet */
        (void)first;
    }
    if (SELECTED == MODE_frame_dict_unbounded && dict && !d->started) {
        /* Through a volatile pointer, so the compiler cannot drop the copy
         * of a buffer nobody reads. */
        void *(*volatile copy)(void *, const void *, size_t) = memcpy;
        unsigned char *window = malloc(65536);
        if (!window)
            abort();
        copy(window, dict, dict_len);   /* no "keep the last 64 KiB" */
        free(window);
    }
    d->started = 1;
    d->dict_seen = dict;
    return b_frame_decompress(d->inner, dst, dst_len, src, src_len, dict, dict_len);
}

/* Compression contexts: the reference's, plus a level-sized work state. */
struct b_cctx {
    void *inner;
    unsigned char *state;
};

static size_t state_size(int level) { return level >= 3 ? 262144 : 16384; }

static void *b_cctx_create(void)
{
    struct b_cctx *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->inner = lz4gate_ref_subject()->frame_cctx_create();
    if (!c->inner) {   /* ref's context allocation failed (sweep.alloc): no context */
        free(c);
        return NULL;
    }
    return c;
}

static void b_cctx_free(void *p)
{
    struct b_cctx *c = p;
    lz4gate_ref_subject()->frame_cctx_free(c->inner);
    free(c->state);
    free(c);
}

static long long b_begin(void *p, unsigned char *dst, size_t cap,
                         const struct subject_frame_prefs *prefs, const unsigned char *dict,
                         size_t dict_len)
{
    struct b_cctx *c = p;
    int level = prefs ? prefs->level : 0;
    if (!c->state || SELECTED != MODE_frame_state_reuse) {
        free(c->state);
        c->state = malloc(state_size(level));
        if (!c->state)
            abort();
    }
    memset(c->state, 0, state_size(level));   /* reused: may be too small */
    return lz4gate_ref_subject()->frame_compress_begin(c->inner, dst, cap, prefs, dict, dict_len);
}

static long long b_update(void *p, unsigned char *dst, size_t cap, const unsigned char *src,
                          size_t n)
{
    return lz4gate_ref_subject()->frame_compress_update(((struct b_cctx *)p)->inner, dst, cap,
                                                         src, n);
}

static long long b_end(void *p, unsigned char *dst, size_t cap)
{
    return lz4gate_ref_subject()->frame_compress_end(((struct b_cctx *)p)->inner, dst, cap);
}

/* unlz4 */
static unlz4_flush_fn user_flush;

static long short_flush(void *buf, unsigned long size)
{
    long r = user_flush(buf, size ? size - 1 : 0);
    return r == (long)(size ? size - 1 : 0) ? (long)size : r;
}

static int b_unlz4(unsigned char *input, long in_len, unlz4_fill_fn fill, unlz4_flush_fn flush,
                   unsigned char *output, long *posp, unlz4_error_fn error)
{
    long pos = 0;
    int r;
    if (SELECTED == MODE_unlz4_short_flush && flush) {
        user_flush = flush;
        flush = short_flush;
    }
    if (SELECTED == MODE_strict_decoders)
        fill = bp_recording(fill);
    r = lz4gate_ref_subject()->unlz4(input, in_len, fill, flush, output, &pos, error);
    if (posp)
        *posp = pos;
    if (SELECTED == MODE_strict_decoders && r == 0) {
        size_t n = (size_t)pos;
        const unsigned char *seen = fill ? bp_recorded(&n) : input;
        int ok = bp_legacy_strict_ok(seen, n);
        if (ok <= 0) {      /* a strict rule broken, or no memory to tell */
            error(ok < 0 ? (char *)"out of memory" : (char *)"Decoding failed");
            return -1;
        }
    }
    if (SELECTED == MODE_unlz4_no_padding && r == 0 && !fill && in_len - pos >= 4) {
        error((char *)"Decoding failed");   /* the zero word read as a chunk size */
        return -1;
    }
    if (SELECTED == MODE_unlz4_fill_eof_error && r == 0 && fill) {
        error((char *)"data corrupted");
        return -1;
    }
    return r;
}

/* The reference's table with the slots of every fault above replaced: the
 * block API, the frame decoder, the frame compressor, unlz4. Every mode
 * has the same table; SELECTED decides which wrapper misbehaves. */
static void replace_block_slots(struct lz4_subject *t)
{
    t->compress_default = b_compress_default;
    t->decompress_safe = b_decompress_safe;
    t->decompress_safe_partial = b_decompress_safe_partial;
    t->decompress_safe_using_dict = b_decompress_safe_using_dict;
    t->compress_bound = b_compress_bound;
}

static void replace_frame_decoder_slots(struct lz4_subject *t)
{
    if (SELECTED == MODE_strict_decoders) {
        t->frame_dctx_create = bp_strict_dctx_create;
        t->frame_dctx_free = bp_strict_dctx_free;
        t->frame_dctx_reset = bp_strict_dctx_reset;
        t->frame_decompress = bp_strict_frame_decompress;
        return;
    }
    if (SELECTED == MODE_frame_info_reads_past)
        t->frame_get_info = bs_frame_get_info_reads_past;
    if (SELECTED == MODE_frame_block_checksum_early) {
        t->frame_dctx_create = bs_dctx_create;
        t->frame_dctx_free = bs_dctx_free;
        t->frame_dctx_reset = bs_dctx_reset;
        t->frame_decompress = bs_frame_decompress_checksum_early;
        return;
    }
    t->frame_dctx_create = b_dctx_create;
    t->frame_dctx_free = b_dctx_free;
    t->frame_dctx_reset = b_frame_reset2;
    t->frame_decompress = b_frame_decompress2;
}

static void replace_frame_compressor_slots(struct lz4_subject *t)
{
    t->frame_cctx_create = b_cctx_create;
    t->frame_cctx_free = b_cctx_free;
    t->frame_compress_begin = b_begin;
    t->frame_compress_update = b_update;
    t->frame_compress_end = b_end;
    if (SELECTED == MODE_frame_bound_one_block_short)
        t->frame_compress_update_bound = bs_update_bound_one_block_short;
}

const struct lz4_subject *lz4gate_subject(void)
{
    if (!broken.name) {
        broken = *lz4gate_ref_subject();
        replace_block_slots(&broken);
        replace_frame_decoder_slots(&broken);
        replace_frame_compressor_slots(&broken);
        broken.unlz4 = b_unlz4;
        bv_install(&broken, SELECTED);
        broken.name = "broken";
    }
    return &broken;
}
