/*
 * Block entries of the regression-case runner (regress.h): the decoders
 * (decompress_safe, _partial, _fast, _using_dict; the old kernel API's
 * old_decompress, old_decompress_unknown) and the compressors
 * (compress_default, _fast, _hc, _dest_size; old_compress, old_hc_compress).
 * Keys: regress.c. Compressed output is checked with ref's decoder.
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "alloc.h"
#include "case_parse.h"
#include "guard.h"
#include "lz4ref.h"
#include "regress.h"

/* ---- decoders ------------------------------------------------------------ */

/* High-address placement for 32-bit pointer-wrap cases
 * (docs/fix-history.md#ulz4-2014-4715): map the buffer near the top of the address space. */
static unsigned char *high_buffer(size_t size)
{
    uintptr_t hint = sizeof(void *) == 4 ? (uintptr_t)0xE0000000u : (uintptr_t)0x7F0000000000ull;
    void *p = mmap((void *)hint, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        case_die("mmap at a high address failed", "");
    return p;
}

/* Where a decode call reads and writes: separate guard-page buffers, the
 * block at the end of the output buffer (in_place=1, margin as EROFS), or
 * one mapping at a high address (high=1, no guard page). */
typedef struct placement {
    unsigned char *src, *dst;
    guard_buf gin, gout;
    int in_place, high;
    size_t high_size;
} placement;

static placement place(const buf *in, long long decoded, long long room, int argc, char **argv)
{
    placement pl;
    memset(&pl, 0, sizeof pl);
    pl.in_place = case_arg(argc, argv, "in_place") != NULL;
    pl.high = case_arg(argc, argv, "high") != NULL;
    if (pl.in_place) {
        size_t margin = (in->n >> 8) + 32;
        room = decoded + (long long)margin;
        pl.gout = guard_alloc((size_t)room, 0xA5);
        pl.dst = pl.gout.data;
        pl.src = pl.dst + room - in->n;
        memcpy(pl.src, in->p, in->n);
    } else if (pl.high) {
        pl.high_size = in->n + (size_t)room;
        pl.src = high_buffer(pl.high_size);
        pl.dst = pl.src + in->n;
        memcpy(pl.src, in->p, in->n);
        memset(pl.dst, 0xA5, (size_t)room);
    } else {
        pl.gin = guard_dup(in->p, in->n);
        pl.gout = guard_alloc((size_t)room, 0xA5);
        pl.src = pl.gin.data;
        pl.dst = pl.gout.data;
    }
    return pl;
}

static void unplace(placement *pl)
{
    if (pl->high) {
        /* unmapped, so that the next test in this process (isolate_each)
         * gets the same high address again */
        munmap(pl->src, pl->high_size);
        return;
    }
    guard_free(&pl->gout);
    if (!pl->in_place)
        guard_free(&pl->gin);
}

/* The sizes of one decode call (regress.c: src_size=, capacity=, target=,
 * original=). */
typedef struct decode_sizes {
    long long src_size, capacity, target, original;
} decode_sizes;

/* The call; *produced: the bytes the output holds (-1: the return value),
 * *len_out: the size an old-API decoder returns through its pointer. */
static int call_decoder(const struct lz4_subject *s, const char *entry, const placement *pl,
                        const decode_sizes *z, long long *produced, long long *len_out,
                        int argc, char **argv)
{
    const char *src = (const char *)pl->src;
    char *dst = (char *)pl->dst;
    int r;
    if (!strcmp(entry, "decompress_safe"))
        return s->decompress_safe(src, dst, (int)z->src_size, (int)z->capacity);
    if (!strcmp(entry, "decompress_safe_partial"))
        return s->decompress_safe_partial(src, dst, (int)z->src_size, (int)z->target,
                                          (int)z->capacity);
    if (!strcmp(entry, "decompress_fast"))
        return s->decompress_fast(src, dst, (int)z->original);
    if (!strcmp(entry, "decompress_safe_using_dict")) {
        const char *spec = case_arg(argc, argv, "dict");
        buf dict = { NULL, 0, 0 };
        case_parse_data(&dict, spec ? spec : "hex:");
        r = s->decompress_safe_using_dict(src, dst, (int)z->src_size, (int)z->capacity,
                                          (const char *)dict.p, (int)dict.n);
        buf_free(&dict);
        return r;
    }
    if (!strcmp(entry, "old_decompress")) {
        /* Old kernel API (docs/fix-history.md#old-kernel-api-g1): 0 or -1, the input consumed
         * through *src_len, exactly `original` bytes out. */
        size_t src_len = (size_t)-1;
        r = s->old_decompress(pl->src, &src_len, pl->dst, (size_t)z->original);
        *len_out = (long long)src_len;
        *produced = r == 0 ? z->original : 0;
        return r;
    }
    if (!strcmp(entry, "old_decompress_unknown")) {
        size_t dest_len = (size_t)z->capacity;
        r = s->old_decompress_unknown(pl->src, (size_t)z->src_size, pl->dst, &dest_len);
        *len_out = *produced = (long long)dest_len;
        if (r != 0)
            *produced = 0;
        return r;
    }
    case_die("unknown decode entry", entry);
    return 0;
}

/* The class of a return value expect= does not allow: a size above the
 * capacity, or above a partial decode's target, is wrong whatever the input
 * (callers read that much); otherwise what the expectation said. */
static enum fail_class decode_return_class(const char *entry, const char *expect, long long r,
                                           long long input, long long decoded,
                                           const decode_sizes *z)
{
    int fast = !strcmp(entry, "decompress_fast"), old = !strncmp(entry, "old_", 4);
    if (!fast && !old && r >= 0 && z->capacity >= 0) {
        if (r > z->capacity)
            return FAIL_RETURN_ABOVE_CAPACITY;
        if (!strcmp(entry, "decompress_safe_partial") && z->target >= 0 && r > z->target)
            return FAIL_RETURN_ABOVE_TARGET;
    }
    /* decompress_fast returns the input it read; the old API 0 or -1 */
    return case_return_class(expect, r, input, decoded,
                             fast ? CASE_RETURNS_CONSUMED
                                  : old ? CASE_RETURNS_STATUS : CASE_RETURNS_SIZE);
}

/* One decode call; expected: the bytes the output must start with (none
 * when empty). */
static case_result run_decode(const struct lz4_subject *s, const char *entry, const buf *in,
                              const buf *expected, long long decoded, int argc, char **argv)
{
    case_result res = { CASE_FAIL, FAIL_NONE, "", 0 };
    const char *expect = case_arg(argc, argv, "expect"), *v;
    long long input = (long long)in->n;
    long long len_out = -1, produced = -1;   /* old API: size through a pointer */
    decode_sizes z;
    placement pl;
    int r, ok;

    if (!expect)
        case_die("missing expect", "");
    z.src_size = case_size_arg(argc, argv, "src_size", input, decoded, input);
    z.capacity = case_size_arg(argc, argv, "capacity", input, decoded, decoded);
    z.target = case_size_arg(argc, argv, "target", input, decoded, z.capacity);
    z.original = case_size_arg(argc, argv, "original", input, decoded, decoded);
    /* A real buffer even for a capacity <= 0. */
    pl = place(in, decoded, z.capacity > 0 ? z.capacity : 64, argc, argv);
    r = call_decoder(s, entry, &pl, &z, &produced, &len_out, argc, argv);
    if (!strcmp(entry, "decompress_safe"))   /* a project API that reports no size */
        r = subject_decoded_size(s, r, (int)z.capacity,
                                 case_arg(argc, argv, "decoded") ? decoded
                                 : expected->n ? (long long)expected->n : -1);
    res.returned = r;
    ok = case_return_expected(expect, r, input, decoded);
    if (!ok)
        res.cls = decode_return_class(entry, expect, r, input, decoded, &z);
    if (ok && (v = case_arg(argc, argv, "len")) != NULL &&
        len_out != case_size_expr(v, input, decoded)) {
        /* len=: the size the old API returns through its pointer argument. */
        ok = 0;
        res.cls = FAIL_WRONG_RETURN;
        snprintf(res.evidence, sizeof res.evidence, "returned %d with the size argument set to "
                 "%lld (expected %s = %lld)", r, len_out, v, case_size_expr(v, input, decoded));
    }
    if (produced < 0)
        produced = r;
    if (ok && produced > 0 && expected->n) {
        /* Output must equal the expected bytes (the prefix for partial). */
        size_t cmp = (size_t)produced < expected->n ? (size_t)produced : expected->n;
        if (memcmp(pl.dst, expected->p, cmp) != 0) {
            ok = 0;
            res.cls = FAIL_WRONG_OUTPUT;
            snprintf(res.evidence, sizeof res.evidence, "returned %d but the output differs", r);
        }
    }
    if (!ok && !res.evidence[0])
        snprintf(res.evidence, sizeof res.evidence, "returned %d (expected %s; src_size %lld, "
                 "capacity %lld, target %lld)", r, expect, z.src_size, z.capacity, z.target);
    res.verdict = ok ? CASE_PASS : CASE_FAIL;
    unplace(&pl);
    return res;
}

case_result regress_decode_entry(const struct lz4_subject *s, const char *entry, int argc,
                                 char **argv)
{
    buf in = { NULL, 0, 0 }, expected = { NULL, 0, 0 };
    long long decoded = 0;
    const char *v = case_arg(argc, argv, "input");
    case_result res;
    if (!v)
        case_die("missing input", "");
    if (!strncmp(v, "compress:", 9)) {
        /* The block ref makes of generated data. */
        size_t bound;
        case_parse_data(&expected, v + 9);
        bound = ref_compress_bound(expected.n);
        buf_reserve(&in, bound);
        in.n = ref_compress(expected.p, expected.n, in.p, bound, 1);
        decoded = (long long)expected.n;
    } else {
        case_parse_data(&in, v);
        if ((v = case_arg(argc, argv, "decoded")) != NULL)
            decoded = strtoll(v, NULL, 0);
        if ((v = case_arg(argc, argv, "output")) != NULL)
            case_parse_data(&expected, v);
    }
    res = run_decode(s, entry, &in, &expected, decoded, argc, argv);
    buf_free(&in);
    buf_free(&expected);
    return res;
}

/* ---- compressors --------------------------------------------------------- */

/* What one compress call gave. */
typedef struct compressed {
    int returned;      /* the call's return value */
    int old_api;       /* returns 0 and the size through *dst_len (docs/fix-history.md#old-kernel-api-g1) */
    size_t dst_len;    /* old API: *dst_len after the call */
} compressed;

static compressed call_compressor(const struct lz4_subject *s, const char *entry,
                                  const buf *data, unsigned char *src, unsigned char *dst,
                                  long long cap, int *consumed, int argc, char **argv)
{
    compressed c = { 0, 0, 0 };
    const char *v;
    /* src_size=: the size passed, whatever the buffer holds (ULZ4-SVN-r107) */
    int n = (int)case_size_arg(argc, argv, "src_size", (long long)data->n, (long long)data->n,
                               (long long)data->n);
    if (!strcmp(entry, "compress_default"))
        c.returned = s->compress_default((const char *)src, (char *)dst, n, (int)cap);
    else if (!strcmp(entry, "compress_fast"))
        c.returned = s->compress_fast((const char *)src, (char *)dst, n, (int)cap,
                                      (v = case_arg(argc, argv, "acceleration")) ? atoi(v) : 1);
    else if (!strcmp(entry, "compress_hc"))
        c.returned = s->compress_hc((const char *)src, (char *)dst, n, (int)cap,
                                    (v = case_arg(argc, argv, "level")) ? atoi(v) : 9);
    else if (!strcmp(entry, "compress_dest_size"))
        c.returned = s->compress_dest_size((const char *)src, (char *)dst, consumed, (int)cap);
    else if (!strcmp(entry, "old_compress") || !strcmp(entry, "old_hc_compress")) {
        /* *dst_len on entry (dst_len=, default 0) must be ignored. */
        c.old_api = 1;
        c.dst_len = (size_t)case_size_arg(argc, argv, "dst_len", (long long)data->n,
                                          (long long)data->n, 0);
        c.returned = (entry[4] == 'h' ? s->old_hc_compress : s->old_compress)(src, data->n, dst,
                                                                                &c.dst_len);
    } else
        case_die("unknown compress entry", entry);
    return c;
}

/* One compress call at one capacity: 0 or a block that decodes (ref) to
 * the input (compress_dest_size: to the consumed prefix). */
static case_result run_compress(const struct lz4_subject *s, const char *entry, const buf *data,
                                long long cap, int argc, char **argv)
{
    case_result res = { CASE_FAIL, FAIL_NONE, "", 0 };
    guard_buf gin = guard_dup(data->p, data->n);
    guard_buf gout = guard_alloc(cap > 0 ? (size_t)cap : 0, 0xA5);
    int consumed = (int)data->n;
    compressed c = call_compressor(s, entry, data, gin.data, gout.data, cap, &consumed, argc,
                                   argv);
    int size = c.old_api ? (int)c.dst_len : c.returned;
    res.returned = c.returned;
    if (c.old_api && c.returned != 0) {
        snprintf(res.evidence, sizeof res.evidence, "capacity %lld: returned %d (want 0), "
                 "*dst_len %zu", cap, c.returned, c.dst_len);
        res.cls = FAIL_WRONG_RETURN;    /* the old API's convention: 0, the size in *dst_len */
    } else if (size < 0 || (long long)size > cap) {
        snprintf(res.evidence, sizeof res.evidence, "capacity %lld: returned %d", cap, size);
        /* the old API's size is *dst_len: a huge one is above the capacity */
        res.cls = size < 0 && !c.old_api ? FAIL_NEGATIVE_RETURN : FAIL_RETURN_ABOVE_CAPACITY;
    } else if (size > 0) {
        unsigned char *out = xmalloc(data->n + 1);
        ref_decode_result d = ref_decode_block(gout.data, (size_t)size, out, (size_t)consumed);
        if (d.status != REF_OK || d.written != (size_t)consumed ||
            memcmp(out, data->p, (size_t)consumed) != 0) {
            snprintf(res.evidence, sizeof res.evidence, "capacity %lld: %d-byte block does not "
                     "decode to the input (%s)", cap, size, ref_status_name(d.status));
            res.cls = FAIL_ROUNDTRIP;
        }
        free(out);
    }
    if (!res.evidence[0])
        res.verdict = CASE_PASS;
    guard_free(&gin);
    guard_free(&gout);
    return res;
}

case_result regress_compress_entry(const struct lz4_subject *s, const char *entry, int argc,
                                   char **argv)
{
    buf data = { NULL, 0, 0 };
    long long from, to, cap;
    const char *v = case_arg(argc, argv, "data");
    case_result res = { CASE_PASS, FAIL_NONE, "", 0 };
    if (!v)
        case_die("missing data", "");
    case_parse_data(&data, v);
    if ((v = case_arg(argc, argv, "repeat_capacity")) != NULL) {
        char lo[64], hi[64];
        if (sscanf(v, "%63[^:]:%63s", lo, hi) != 2)
            case_die("bad repeat_capacity", v);
        from = case_size_expr(lo, (long long)data.n, (long long)data.n);
        to = case_size_expr(hi, (long long)data.n, (long long)data.n);
    } else {
        from = to = case_size_arg(argc, argv, "capacity", (long long)data.n, (long long)data.n,
                                  (long long)(data.n + data.n / 255 + 16));
    }
    for (cap = from; cap <= to && res.verdict == CASE_PASS; cap++)
        res = run_compress(s, entry, &data, cap, argc, argv);
    buf_free(&data);
    return res;
}
