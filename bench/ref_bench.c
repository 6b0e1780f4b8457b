/*
 * ref_bench: speed and size of the reference codec against the system
 * liblz4 (`make bench`).
 *
 * For each data set it measures, on the same buffer:
 *   - decode MB/s: ref_decode_block vs LZ4_decompress_safe, both decoding
 *     the block liblz4 produced;
 *   - compress MB/s: ref_compress (acceleration 1) vs LZ4_compress_default;
 *   - compressed sizes of both.
 * MB/s are of uncompressed data (1 MB = 1e6 bytes). Runs of the four
 * measurements are interleaved and the best of N is kept, which filters
 * out most scheduling noise.
 *
 * Targets: decode >= 0.5x, compress >= 0.5x liblz4, and
 * ref size <= 1.03 x liblz4 size. The program always exits 0 (unless it
 * cannot run at all): it reports, it does not gate.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <lz4.h>

#include "lz4ref.h"

#define SET_MAX (8u << 20)  /* bytes per data set */
#define ROUNDS 7            /* best of this many interleaved runs */
#define MIN_RUN_SEC 0.05    /* a timed run repeats its work at least this long */

typedef struct dataset {
    const char *name;
    uint8_t *data;
    size_t len;
} dataset;

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "ref_bench: out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- data sets ----------------------------------------------------------- */

/* Appends the file at path to d (up to SET_MAX). */
static void append_file(dataset *d, const char *path)
{
    struct stat st;
    FILE *f;
    size_t got;

    if (d->len >= SET_MAX || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    f = fopen(path, "rb");
    if (!f)
        return;
    got = fread(d->data + d->len, 1, SET_MAX - d->len, f);
    d->len += got;
    fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names in dir, sorted so that the data set does not depend on readdir
 * order. Returns the count; *out is freed by the caller (names too). */
static size_t list_dir(const char *dir, char ***out)
{
    DIR *dp = opendir(dir);
    struct dirent *de;
    size_t n = 0, cap = 0;
    char **names = NULL;

    *out = NULL;
    if (!dp)
        return 0;
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **grown;
            cap = cap ? cap * 2 : 256;
            grown = realloc(names, cap * sizeof *names);
            if (!grown)
                break;
            names = grown;
        }
        names[n] = xmalloc(strlen(de->d_name) + 1);
        strcpy(names[n], de->d_name);
        n++;
    }
    closedir(dp);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    *out = names;
    return n;
}

static void free_list(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Appends dir/<name>/suffix (suffix may be empty: dir/<name>) for each name. */
static void append_dir(dataset *d, const char *dir, const char *suffix)
{
    char **names;
    size_t n = list_dir(dir, &names);
    char path[4096];

    for (size_t i = 0; i < n && d->len < SET_MAX; i++) {
        snprintf(path, sizeof path, "%s/%s%s%s", dir, names[i], *suffix ? "/" : "", suffix);
        append_file(d, path);
    }
    free_list(names, n);
}

/* Repeats of earlier data at many distances, runs and random bytes. */
static void make_synthetic(dataset *d)
{
    uint64_t s = 0x243F6A8885A308D3ull;
    size_t i = 0;
    d->len = SET_MAX;
    while (i < d->len) {
        size_t len, k;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; /* xorshift64 */
        len = 4 + (size_t)(s >> 50) % 200;
        if (len > d->len - i)
            len = d->len - i;
        switch (s % 8) {
        case 0: case 1: case 2: /* random bytes */
            for (k = 0; k < len; k++) {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                d->data[i + k] = (uint8_t)s;
            }
            break;
        case 3: /* a run */
            memset(d->data + i, (int)(s >> 24) & 0xFF, len);
            break;
        default: /* a repeat, near or far */
            if (i < 1)
                d->data[i] = 0, len = 1;
            else {
                size_t back = 1 + (size_t)(s >> 30) % (i < 60000 ? i : 60000);
                for (k = 0; k < len; k++)
                    d->data[i + k] = d->data[i + k - back];
            }
            break;
        }
        i += len;
    }
}

/* ---- measurement ----------------------------------------------------------- */

typedef struct result {
    double ref_dec, lz4_dec, ref_comp, lz4_comp; /* MB/s */
    size_t ref_size, lz4_size;
    int roundtrip_ok;
} result;

enum op { OP_REF_DEC, OP_LZ4_DEC, OP_REF_COMP, OP_LZ4_COMP, OP_COUNT };

/* Runs op once (returns 0 on a codec error). */
static int run_op(enum op op, const dataset *d, const uint8_t *lz4_blk, size_t lz4_len,
                  uint8_t *out, size_t out_cap, uint8_t *dec)
{
    switch (op) {
    case OP_REF_DEC: {
        ref_decode_result r = ref_decode_block(lz4_blk, lz4_len, dec, d->len);
        return r.status == REF_OK && r.written == d->len;
    }
    case OP_LZ4_DEC:
        return LZ4_decompress_safe((const char *)lz4_blk, (char *)dec, (int)lz4_len,
                                   (int)d->len) == (int)d->len;
    case OP_REF_COMP:
        return ref_compress(d->data, d->len, out, out_cap, 1) != 0;
    default:
        return LZ4_compress_default((const char *)d->data, (char *)out, (int)d->len,
                                    (int)out_cap) != 0;
    }
}

static result measure(const dataset *d)
{
    const size_t cap = ref_compress_bound(d->len);
    uint8_t *lz4_blk = xmalloc(cap), *out = xmalloc(cap), *dec = xmalloc(d->len);
    double best[OP_COUNT];
    size_t lz4_len;
    result res;

    memset(&res, 0, sizeof res);
    lz4_len = (size_t)LZ4_compress_default((const char *)d->data, (char *)lz4_blk,
                                           (int)d->len, (int)cap);
    res.lz4_size = lz4_len;
    res.ref_size = ref_compress(d->data, d->len, out, cap, 1);

    /* Correctness first: ref's block through liblz4, liblz4's through ref. */
    res.roundtrip_ok =
        lz4_len > 0 && res.ref_size > 0 &&
        LZ4_decompress_safe((const char *)out, (char *)dec, (int)res.ref_size,
                            (int)d->len) == (int)d->len &&
        memcmp(dec, d->data, d->len) == 0;
    if (res.roundtrip_ok) {
        ref_decode_result r = ref_decode_block(lz4_blk, lz4_len, dec, d->len);
        res.roundtrip_ok = r.status == REF_OK && r.written == d->len &&
                           memcmp(dec, d->data, d->len) == 0;
    }
    if (!res.roundtrip_ok) {
        free(lz4_blk), free(out), free(dec);
        return res;
    }

    for (int op = 0; op < OP_COUNT; op++)
        best[op] = 1e30;
    for (int round = 0; round < ROUNDS; round++) {
        for (int op = 0; op < OP_COUNT; op++) {
            /* Repeat short work so each timed run lasts >= MIN_RUN_SEC. */
            int reps = 0;
            double t0 = now_sec(), t;
            do {
                if (!run_op((enum op)op, d, lz4_blk, lz4_len, out, cap, dec))
                    res.roundtrip_ok = 0;
                reps++;
                t = now_sec() - t0;
            } while (t < MIN_RUN_SEC);
            if (t / reps < best[op])
                best[op] = t / reps;
        }
    }
    res.ref_dec = (double)d->len / best[OP_REF_DEC] / 1e6;
    res.lz4_dec = (double)d->len / best[OP_LZ4_DEC] / 1e6;
    res.ref_comp = (double)d->len / best[OP_REF_COMP] / 1e6;
    res.lz4_comp = (double)d->len / best[OP_LZ4_COMP] / 1e6;
    free(lz4_blk), free(out), free(dec);
    return res;
}

int main(void)
{
    dataset sets[3] = { { "text", NULL, 0 }, { "binary", NULL, 0 }, { "synthetic", NULL, 0 } };
    int all_pass = 1;

    for (int i = 0; i < 3; i++)
        sets[i].data = xmalloc(SET_MAX);
    append_dir(&sets[0], "/usr/share/common-licenses", "");
    append_dir(&sets[0], "/usr/share/doc", "copyright");
    append_dir(&sets[1], "/usr/bin", "");
    make_synthetic(&sets[2]);

    printf("lz4gate ref_bench: ref codec vs liblz4 %s (best of %d, MB/s of uncompressed data)\n",
           LZ4_versionString(), ROUNDS);
    printf("targets: decode >= 0.50x, compress >= 0.50x, ref size <= 1.03x liblz4 size\n\n");
    printf("%-10s %9s | %8s %8s %6s | %8s %8s %6s | %10s %10s %6s | %s\n", "data", "bytes",
           "ref dec", "lz4 dec", "ratio", "ref comp", "lz4 comp", "ratio", "ref size",
           "lz4 size", "ratio", "verdict");
    for (int i = 0; i < 3; i++) {
        const dataset *d = &sets[i];
        result r;
        double dr, cr, sr;
        int pass;

        if (d->len == 0) {
            printf("%-10s (no data found; skipped)\n", d->name);
            continue;
        }
        r = measure(d);
        if (!r.roundtrip_ok) {
            printf("%-10s %9zu | ROUND TRIP FAILED (ref size %zu, lz4 size %zu) | FAIL\n",
                   d->name, d->len, r.ref_size, r.lz4_size);
            all_pass = 0;
            continue;
        }
        dr = r.ref_dec / r.lz4_dec;
        cr = r.ref_comp / r.lz4_comp;
        sr = (double)r.ref_size / (double)r.lz4_size;
        pass = dr >= 0.5 && cr >= 0.5 && (double)r.ref_size <= 1.03 * (double)r.lz4_size;
        all_pass &= pass;
        printf("%-10s %9zu | %8.0f %8.0f %5.2fx | %8.0f %8.0f %5.2fx | %10zu %10zu %5.3fx | %s%s%s%s\n",
               d->name, d->len, r.ref_dec, r.lz4_dec, dr, r.ref_comp, r.lz4_comp, cr,
               r.ref_size, r.lz4_size, sr, pass ? "PASS" : "FAIL",
               dr < 0.5 ? " (decode slow)" : "", cr < 0.5 ? " (compress slow)" : "",
               (double)r.ref_size > 1.03 * (double)r.lz4_size ? " (size)" : "");
    }
    printf("\nverdict: %s\n", all_pass ? "PASS (all targets met)" : "FAIL (see rows above)");
    for (int i = 0; i < 3; i++)
        free(sets[i].data);
    return 0;
}
