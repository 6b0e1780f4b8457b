/*
 * Regression-case runner: one test of one case (a regress/cases JSON file),
 * flattened by harness/regress.py into key=value arguments, against the
 * subject linked into this program. Prints one JSON record; the driver runs
 * it in its own process with a timeout, so a crash or a hang is a result.
 *
 * Keys (sizes may be expressions: a number, or input|decoded|bound, with an
 * optional +N or -N; "-1" is a literal -1):
 *   entry=decompress_safe|decompress_safe_partial|decompress_fast|
 *         decompress_safe_using_dict|compress_default|compress_fast|
 *         compress_hc|compress_dest_size|unlz4 (mode=fill: fill callback)|
 *         old_decompress|old_decompress_unknown|old_compress|old_hc_compress
 *         (kernel 3.11-4.10 API: 0/-1 returns, sizes through pointers)|
 *         frame_decompress|frame_reset_then_decode|frame_compress|
 *         frame_compress_stream (LZ4 frame API: keys in regress_frame.c)
 *   input=hex:HEX | file:PATH | pattern:BYTExCOUNT,... | compress:KIND:SIZE[:SEED]
 *         (compress: the block ref makes of generated data; "decoded" = SIZE)
 *   data=KIND:SIZE[:SEED] | pattern:... | concat:SPEC+SPEC...  (compressor input)
 *   src_size= target= capacity= original= acceleration= level= dict=hex:...
 *   len=EXPR     old decoders: the size set through the pointer argument
 *                (*src_len consumed / *dest_len decoded) must equal EXPR
 *   dst_len=EXPR old compressors: *dst_len on entry (default 0; ignored by
 *                the API)
 *   expect=reject | decoded | return:EXPR | roundtrip (compressors: 0 or a block
 *          that decodes to the input; dest_size: to the consumed prefix)
 *          | any (decoders: every return value is acceptable; only a crash,
 *          a sanitizer report or a hang fails: "result": "acceptable")
 *   in_place=1   decode with the block at the end of the output buffer
 *                (margin = (compressed >> 8) + 32)
 *   high=1       place buffers at high addresses (32-bit pointer wrap)
 *   repeat_capacity=FROM:TO  run the call once per capacity in [FROM, TO]
 * Input and output buffers always end at a guard page.
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "guard.h"
#include "lz4ref.h"
#include "subject.h"
#include "regress.h"
#include "testdata.h"

const char *arg(int argc, char **argv, const char *key)
{
    size_t k = strlen(key);
    int i;
    for (i = 1; i < argc; i++)
        if (!strncmp(argv[i], key, k) && argv[i][k] == '=')
            return argv[i] + k + 1;
    return NULL;
}

void die(const char *what, const char *detail)
{
    printf("{\"verdict\":\"ERROR\",\"evidence\":\"%s: %s\"}\n", what, detail ? detail : "");
    exit(2);
}


void append(bytes *b, const unsigned char *src, size_t n, int value)
{
    unsigned char *grown = realloc(b->p, b->n + n + 1);
    if (!grown)
        die("out of memory", "");
    b->p = grown;
    if (src)
        memcpy(b->p + b->n, src, n);
    else
        memset(b->p + b->n, value, n);
    b->n += n;
}

/* Generated data (harness/testdata.h): random | unique | zeros | text | mixed. */
static void generate(bytes *b, const char *kind, size_t n, unsigned long long seed)
{
    size_t start = b->n;
    append(b, NULL, n, 0);
    if (testdata_fill(b->p + start, n, kind, seed) != 0)
        die("unknown data kind (or out of memory)", kind);
}

/* hex:.. | file:.. | pattern:FFx100,00x3 | KIND:SIZE[:SEED] | concat:A+B */
void parse_data(bytes *b, const char *spec)
{
    if (!strncmp(spec, "hex:", 4)) {
        const char *h = spec + 4;
        while (h[0] && h[1]) {
            unsigned v;
            if (sscanf(h, "%2x", &v) != 1)
                die("bad hex", spec);
            append(b, NULL, 1, (int)v);
            h += 2;
        }
    } else if (!strncmp(spec, "file:", 5)) {
        FILE *f = fopen(spec + 5, "rb");
        unsigned char buf[65536];
        size_t got;
        if (!f)
            die("cannot open input", spec + 5);
        while ((got = fread(buf, 1, sizeof buf, f)) > 0)
            append(b, buf, got, 0);
        fclose(f);
    } else if (!strncmp(spec, "pattern:", 8)) {
        const char *p = spec + 8;
        while (*p) {
            unsigned v;
            unsigned long count;
            if (sscanf(p, "%2xx%lu", &v, &count) != 2)
                die("bad pattern", spec);
            append(b, NULL, count, (int)v);
            p = strchr(p, ',');
            if (!p)
                break;
            p++;
        }
    } else if (!strncmp(spec, "frame:", 6) || !strncmp(spec, "legacy:", 7)) {
        make_frame_input(spec, b, NULL);   /* regress_frame.c */
    } else if (!strncmp(spec, "concat:", 7)) {
        char *copy = strdup(spec + 7), *save = NULL, *part;
        for (part = strtok_r(copy, "+", &save); part; part = strtok_r(NULL, "+", &save))
            parse_data(b, part);
        free(copy);
    } else {
        char kind[32];
        unsigned long n = 0;
        unsigned long long seed = 1;
        if (sscanf(spec, "%31[a-z]:%lu:%llu", kind, &n, &seed) < 2)
            die("bad data spec", spec);
        generate(b, kind, n, seed);
    }
}

/* Values: N, -N, input, decoded, bound, with +N / -N. */
long long value(const char *expr, long long input, long long decoded)
{
    long long base = 0, delta = 0;
    const char *rest = expr;
    if (!strncmp(expr, "input", 5)) { base = input; rest = expr + 5; }
    else if (!strncmp(expr, "decoded", 7)) { base = decoded; rest = expr + 7; }
    else if (!strncmp(expr, "bound", 5)) { base = decoded + decoded / 255 + 16; rest = expr + 5; }
    else return strtoll(expr, NULL, 0);
    if (*rest)
        delta = strtoll(rest, NULL, 0);
    return base + delta;
}

/* High-address placement for 32-bit pointer-wrap cases (history.md
 * ULZ4-2014-4715): map the buffer near the top of the address space. */
static unsigned char *high_buffer(size_t size)
{
    uintptr_t hint = sizeof(void *) == 4 ? (uintptr_t)0xE0000000u : (uintptr_t)0x7F0000000000ull;
    void *p = mmap((void *)hint, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        die("mmap at a high address failed", "");
    return p;
}

static int result_ok(const char *expect, int r, long long input, long long decoded)
{
    if (!strcmp(expect, "reject"))
        return r < 0;
    if (!strcmp(expect, "any"))
        return 1;
    if (!strcmp(expect, "decoded"))
        return r == decoded;
    if (!strncmp(expect, "return:", 7)) {
        const char *e = expect + 7;
        if (!strcmp(e, "<0")) return r < 0;
        if (!strcmp(e, ">=0")) return r >= 0;
        return r == value(e, input, decoded);
    }
    die("unknown expect", expect);
    return 0;
}

char evidence[512];
long long last_return;   /* the subject's last return value, for the record */

/* One decode call; returns 1 if the expectation holds. */
static int run_decode(const struct lz4_subject *s, const char *entry, bytes *in,
                      bytes *expected, long long decoded, int argc, char **argv)
{
    const char *expect = arg(argc, argv, "expect");
    long long input = (long long)in->n;
    const char *v;
    long long src_size = (v = arg(argc, argv, "src_size")) ? value(v, input, decoded) : input;
    long long capacity = (v = arg(argc, argv, "capacity")) ? value(v, input, decoded) : decoded;
    long long target = (v = arg(argc, argv, "target")) ? value(v, input, decoded) : capacity;
    long long room = capacity > 0 ? capacity : 64;   /* a real buffer even for capacity < 0 */
    int in_place = arg(argc, argv, "in_place") != NULL;
    int high = arg(argc, argv, "high") != NULL;
    guard_buf gin, gout;
    unsigned char *src, *dst;
    int r = 0, ok;
    long long len_out = -1, produced = -1;   /* old API: size through a pointer */

    if (!expect)
        die("missing expect", "");
    if (in_place) {
        size_t margin = (in->n >> 8) + 32;
        room = decoded + (long long)margin;
        gout = guard_alloc((size_t)room, 0xA5);
        dst = gout.data;
        src = dst + room - in->n;
        memcpy(src, in->p, in->n);
        gin = gout;
    } else if (high) {
        size_t total = in->n + (size_t)room;
        src = high_buffer(total);
        dst = src + in->n;
        memcpy(src, in->p, in->n);
        memset(dst, 0xA5, (size_t)room);
        gin.map = gout.map = NULL;
    } else {
        gin = guard_dup(in->p, in->n);
        gout = guard_alloc((size_t)room, 0xA5);
        src = gin.data;
        dst = gout.data;
    }

    if (!strcmp(entry, "decompress_safe"))
        r = s->decompress_safe((const char *)src, (char *)dst, (int)src_size, (int)capacity);
    else if (!strcmp(entry, "decompress_safe_partial"))
        r = s->decompress_safe_partial((const char *)src, (char *)dst, (int)src_size,
                                       (int)target, (int)capacity);
    else if (!strcmp(entry, "decompress_fast")) {
        long long original = (v = arg(argc, argv, "original")) ? value(v, input, decoded) : decoded;
        r = s->decompress_fast((const char *)src, (char *)dst, (int)original);
    } else if (!strcmp(entry, "decompress_safe_using_dict")) {
        bytes dict = { NULL, 0 };
        parse_data(&dict, arg(argc, argv, "dict") ? arg(argc, argv, "dict") : "hex:");
        r = s->decompress_safe_using_dict((const char *)src, (char *)dst, (int)src_size,
                                          (int)capacity, (const char *)dict.p, (int)dict.n);
        free(dict.p);
    } else if (!strcmp(entry, "old_decompress")) {
        /* Old kernel API (history.md §7.1): 0 or -1, the input consumed
         * through *src_len, exactly `original` bytes out. */
        long long original = (v = arg(argc, argv, "original")) ? value(v, input, decoded) : decoded;
        size_t src_len = (size_t)-1;
        r = s->old_decompress(src, &src_len, dst, (size_t)original);
        len_out = (long long)src_len;
        produced = r == 0 ? original : 0;
    } else if (!strcmp(entry, "old_decompress_unknown")) {
        size_t dest_len = (size_t)capacity;
        r = s->old_decompress_unknown(src, (size_t)src_size, dst, &dest_len);
        len_out = produced = (long long)dest_len;
        if (r != 0)
            produced = 0;
    } else
        die("unknown decode entry", entry);

    last_return = r;
    ok = result_ok(expect, r, input, decoded);
    if (ok && (v = arg(argc, argv, "len")) != NULL && len_out != value(v, input, decoded)) {
        /* len=: the size the old API returns through its pointer argument. */
        ok = 0;
        snprintf(evidence, sizeof evidence, "returned %d with the size argument set to %lld "
                 "(expected %s = %lld)", r, len_out, v, value(v, input, decoded));
    }
    if (produced < 0)
        produced = r;
    if (ok && produced > 0 && expected && expected->n) {
        /* Output must equal the expected bytes (the prefix for partial). */
        size_t cmp = (size_t)produced < expected->n ? (size_t)produced : expected->n;
        if (memcmp(dst, expected->p, cmp) != 0) {
            ok = 0;
            snprintf(evidence, sizeof evidence, "returned %d but the output differs", r);
        }
    }
    if (!ok && !evidence[0])
        snprintf(evidence, sizeof evidence, "returned %d (expected %s; src_size %lld, "
                 "capacity %lld, target %lld)", r, expect, src_size, capacity, target);
    if (!high) {
        guard_free(&gout);
        if (!in_place)
            guard_free(&gin);
    }
    return ok;
}

/* One compress call at one capacity; 1 if the contract holds. */
static int run_compress(const struct lz4_subject *s, const char *entry, bytes *data,
                        long long capacity, int argc, char **argv)
{
    const char *v;
    guard_buf gin = guard_dup(data->p, data->n), gout;
    int r = 0, consumed = (int)data->n, ok = 1;
    size_t room = capacity > 0 ? (size_t)capacity : 0;
    gout = guard_alloc(room, 0xA5);
    if (!strcmp(entry, "compress_default"))
        r = s->compress_default((const char *)gin.data, (char *)gout.data, (int)data->n,
                                (int)capacity);
    else if (!strcmp(entry, "compress_fast"))
        r = s->compress_fast((const char *)gin.data, (char *)gout.data, (int)data->n,
                             (int)capacity,
                             (v = arg(argc, argv, "acceleration")) ? atoi(v) : 1);
    else if (!strcmp(entry, "compress_hc"))
        r = s->compress_hc((const char *)gin.data, (char *)gout.data, (int)data->n,
                           (int)capacity, (v = arg(argc, argv, "level")) ? atoi(v) : 9);
    else if (!strcmp(entry, "compress_dest_size"))
        r = s->compress_dest_size((const char *)gin.data, (char *)gout.data, &consumed,
                                  (int)capacity);
    else if (!strcmp(entry, "old_compress") || !strcmp(entry, "old_hc_compress")) {
        /* Old kernel API: returns 0, the size through *dst_len, whose value
         * on entry (dst_len=, default 0) must be ignored (history.md §7.1). */
        size_t dst_len = (v = arg(argc, argv, "dst_len")) ?
                         (size_t)value(v, (long long)data->n, (long long)data->n) : 0;
        int rr = (entry[4] == 'h' ? s->old_hc_compress : s->old_compress)(
            gin.data, data->n, gout.data, &dst_len);
        last_return = rr;
        if (rr != 0) {
            snprintf(evidence, sizeof evidence, "capacity %lld: returned %d (want 0), "
                     "*dst_len %zu", capacity, rr, dst_len);
            guard_free(&gin);
            guard_free(&gout);
            return 0;
        }
        r = (int)dst_len;
    } else
        die("unknown compress entry", entry);
    if (strncmp(entry, "old_", 4) != 0)
        last_return = r;
    if (r < 0 || (long long)r > capacity) {
        ok = 0;
        snprintf(evidence, sizeof evidence, "capacity %lld: returned %d", capacity, r);
    } else if (r > 0) {
        unsigned char *out = malloc(data->n + 1);
        ref_decode_result d = ref_decode_block(gout.data, (size_t)r, out, (size_t)consumed);
        if (d.status != REF_OK || d.written != (size_t)consumed ||
            memcmp(out, data->p, (size_t)consumed) != 0) {
            ok = 0;
            snprintf(evidence, sizeof evidence, "capacity %lld: %d-byte block does not decode "
                     "to the input (%s)", capacity, r, ref_status_name(d.status));
        }
        free(out);
    }
    guard_free(&gin);
    guard_free(&gout);
    return ok;
}

/* ---- unlz4 (kernel legacy-frame decoder) ------------------------------
 * Buffer mode: the whole input in one buffer ending at a guard page, in_len =
 * its size. Fill mode (mode=fill): no input buffer, a fill callback hands out
 * what is asked for while input is left. Output goes to a flush callback,
 * collected here. */
static bytes unlz4_out;
static const unsigned char *fill_src;
static size_t fill_left;

static long collect_flush(void *buf, unsigned long size)
{
    append(&unlz4_out, buf, size, 0);
    return (long)size;
}

static long serve_fill(void *buf, unsigned long size)
{
    size_t n = size < fill_left ? size : fill_left;   /* read(2)-like: what is left */
    memcpy(buf, fill_src, n);
    fill_src += n;
    fill_left -= n;
    return (long)n;
}

static void note_error(char *msg)
{
    snprintf(evidence, sizeof evidence, "unlz4 error: %s", msg);
}

static int run_unlz4(const struct lz4_subject *s, bytes *in, bytes *expected, int argc,
                     char **argv)
{
    const char *expect = arg(argc, argv, "expect"), *v;
    guard_buf gin = guard_dup(in->p, in->n);
    long pos = 0;
    int r, ok;
    if (!expect)
        die("missing expect", "");
    if ((v = arg(argc, argv, "mode")) != NULL && !strcmp(v, "fill")) {
        fill_src = gin.data;
        fill_left = in->n;
        r = s->unlz4(NULL, 0, serve_fill, collect_flush, NULL, &pos, note_error);
    } else {
        r = s->unlz4(gin.data, (long)in->n, NULL, collect_flush, NULL, &pos, note_error);
    }
    last_return = r;
    ok = result_ok(expect, r, (long long)in->n, (long long)unlz4_out.n);
    if (ok && expected && expected->n &&
        (unlz4_out.n != expected->n || memcmp(unlz4_out.p, expected->p, expected->n) != 0)) {
        ok = 0;
        snprintf(evidence, sizeof evidence, "returned %d but flushed %zu bytes that differ "
                 "from the expected %zu", r, unlz4_out.n, expected->n);
    }
    if (!ok && !evidence[0])
        snprintf(evidence, sizeof evidence, "returned %d (expected %s), pos %ld", r, expect, pos);
    guard_free(&gin);
    return ok;
}

static const struct { const char *entry; unsigned cap; } entries[] = {
    { "unlz4", CAP_UNLZ4 },
    { "decompress_safe", CAP_DECOMPRESS_SAFE },
    { "decompress_safe_partial", CAP_DECOMPRESS_PARTIAL },
    { "decompress_fast", CAP_DECOMPRESS_FAST },
    { "decompress_safe_using_dict", CAP_DECOMPRESS_USING_DICT },
    { "compress_default", CAP_COMPRESS_DEFAULT },
    { "compress_fast", CAP_COMPRESS_FAST },
    { "compress_hc", CAP_COMPRESS_HC },
    { "compress_dest_size", CAP_COMPRESS_DEST_SIZE },
    { "old_decompress", CAP_OLD_KERNEL_DECOMPRESS },
    { "old_decompress_unknown", CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN },
    { "old_compress", CAP_OLD_KERNEL_COMPRESS },
    { "old_hc_compress", CAP_OLD_KERNEL_HC_COMPRESS },
    { "frame_decompress", CAP_FRAME_DECOMPRESS },
    { "frame_reset_then_decode", CAP_FRAME_DECOMPRESS | CAP_FRAME_RESET },
    { "frame_compress", CAP_FRAME_COMPRESS },
    { "frame_compress_stream", CAP_FRAME_COMPRESS_STREAM },
};

int main(int argc, char **argv)
{
    const struct lz4_subject *s = lz4gate_subject();
    const char *entry = arg(argc, argv, "entry"), *v;
    unsigned need = 0;
    size_t i;
    int ok = 1;

    if (!entry)
        die("missing entry", "");
    for (i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (!strcmp(entries[i].entry, entry))
            need = entries[i].cap;
    if (!need)
        die("unknown entry", entry);
    if ((s->caps & need) != need) {
        printf("{\"verdict\":\"n/a\",\"evidence\":\"no %s entry point\"}\n", entry);
        return 0;
    }
    if (!strncmp(entry, "frame_", 6)) {
        int r = run_frame_entry(s, entry, argc, argv);   /* regress_frame.c */
        if (r < 0) {
            printf("{\"verdict\":\"n/a\",\"evidence\":\"no dictionary entry point\"}\n");
            return 0;
        }
        ok = r;
    } else if (!strcmp(entry, "unlz4")) {
        bytes in = { NULL, 0 }, expected = { NULL, 0 };
        v = arg(argc, argv, "input");
        if (!v)
            die("missing input", "");
        parse_data(&in, v);
        if ((v = arg(argc, argv, "output")) != NULL)
            parse_data(&expected, v);
        ok = run_unlz4(s, &in, &expected, argc, argv);
        free(in.p);
        free(expected.p);
    } else if (!strncmp(entry, "decompress", 10) || !strncmp(entry, "old_decompress", 14)) {
        bytes in = { NULL, 0 }, expected = { NULL, 0 };
        long long decoded = 0;
        v = arg(argc, argv, "input");
        if (!v)
            die("missing input", "");
        if (!strncmp(v, "compress:", 9)) {
            /* The block ref makes of generated data. */
            size_t bound;
            parse_data(&expected, v + 9);
            bound = ref_compress_bound(expected.n);
            append(&in, NULL, bound, 0);
            in.n = ref_compress(expected.p, expected.n, in.p, bound, 1);
            decoded = (long long)expected.n;
        } else {
            parse_data(&in, v);
            if ((v = arg(argc, argv, "decoded")) != NULL)
                decoded = strtoll(v, NULL, 0);
            if ((v = arg(argc, argv, "output")) != NULL)
                parse_data(&expected, v);
        }
        ok = run_decode(s, entry, &in, &expected, decoded, argc, argv);
        free(in.p);
        free(expected.p);
    } else {
        bytes data = { NULL, 0 };
        long long from, to, c;
        v = arg(argc, argv, "data");
        if (!v)
            die("missing data", "");
        parse_data(&data, v);
        if ((v = arg(argc, argv, "repeat_capacity")) != NULL) {
            char lo[64], hi[64];
            if (sscanf(v, "%63[^:]:%63s", lo, hi) != 2)
                die("bad repeat_capacity", v);
            from = value(lo, (long long)data.n, (long long)data.n);
            to = value(hi, (long long)data.n, (long long)data.n);
        } else {
            v = arg(argc, argv, "capacity");
            from = to = v ? value(v, (long long)data.n, (long long)data.n)
                          : (long long)(data.n + data.n / 255 + 16);
        }
        for (c = from; c <= to && ok; c++)
            ok = run_compress(s, entry, &data, c, argc, argv);
        free(data.p);
    }
    printf("{\"verdict\":\"%s\",\"evidence\":\"%s\",\"return\":%lld}\n",
           ok ? "pass" : "FAIL", evidence, last_return);
    return 0;
}
