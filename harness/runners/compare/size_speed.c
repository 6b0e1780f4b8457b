/*
 * Base vs candidate on a small data set, for the gate report (zstd's
 * results.csv idea): compressed size of compress_default (and HC level 9
 * where both have it) and speed of compress_default / decompress_safe,
 * measured side by side in one process (best of 5 runs). Links subject.o
 * (base) and subject_b.o (candidate); prints one JSON line per data set.
 * Usage: compare [FILE...]   (files are added to the generated sets)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "subject.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct measure {
    int csize, hcsize;
    double cmbs, dmbs;
} measure;

static measure run(const struct lz4_subject *s, const char *data, int n)
{
    measure m = { 0, -1, 0, 0 };
    int bound = n + n / 255 + 16, i;
    char *block = xmalloc((size_t)bound), *out = xmalloc((size_t)n);
    double best_c = 1e9, best_d = 1e9;
    /* A subject without these slots (the old kernel API, 3.11-4.10) is not
     * measured: size -1, shown as "-" (its HC size still is, if it has one). */
    int has_block_api = (s->caps & CAP_COMPRESS_DEFAULT) && (s->caps & CAP_DECOMPRESS_SAFE);
    if (!has_block_api)
        m.csize = -1;
    for (i = 0; i < 5 && has_block_api; i++) {
        double t0 = now(), t1, t2;
        m.csize = s->compress_default(data, block, n, bound);
        t1 = now();
        if (m.csize <= 0 || s->decompress_safe(block, out, m.csize, n) != n ||
            memcmp(out, data, (size_t)n) != 0) {
            m.csize = -1;
            break;
        }
        t2 = now();
        if (t1 - t0 < best_c) best_c = t1 - t0;
        if (t2 - t1 < best_d) best_d = t2 - t1;
    }
    if (m.csize > 0) {
        m.cmbs = n / best_c / 1e6;
        m.dmbs = n / best_d / 1e6;
    }
    if (s->caps & CAP_COMPRESS_HC)
        m.hcsize = s->compress_hc(data, block, n, bound, 9);
    free(block);
    free(out);
    return m;
}

static void report(const char *name, const char *data, int n)
{
    const struct lz4_subject *base = lz4gate_subject(), *cand = lz4gate_subject_b();
    measure b = run(base, data, n), c = run(cand, data, n);
    printf("{\"data\":\"%s\",\"bytes\":%d,\"base_size\":%d,\"candidate_size\":%d,"
           "\"base_hc9_size\":%d,\"candidate_hc9_size\":%d,"
           "\"base_compress_mbs\":%.1f,\"candidate_compress_mbs\":%.1f,"
           "\"base_decompress_mbs\":%.1f,\"candidate_decompress_mbs\":%.1f}\n",
           name, n, b.csize, c.csize, b.hcsize, c.hcsize, b.cmbs, c.cmbs, b.dmbs, c.dmbs);
}

int main(int argc, char **argv)
{
    enum { N = 4 << 20 };
    char *d = xmalloc(N);
    unsigned long long x = 88172645463325252ull;
    static const char *const words[] = { "lz4 ", "vendored ", "kernel ", "copy ", "fix ",
                                         "upstream ", "block ", "the ", "\n" };
    int i, k;
    for (i = 0; i < N;) {           /* text-like */
        const char *w;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        for (w = words[x % 9]; *w && i < N; w++)
            d[i++] = *w;
    }
    report("text", d, N);
    for (i = 0; i < N; i++) {       /* random 256-byte runs and their repeats */
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        d[i] = (i / 256) % 2 ? d[i - 256] : (char)(x >> 24);
    }
    report("mixed", d, N);
    for (k = 1; k < argc; k++) {
        FILE *f = fopen(argv[k], "rb");
        size_t n;
        if (!f)
            continue;
        n = fread(d, 1, N, f);
        fclose(f);
        report(argv[k], d, (int)n);
    }
    free(d);
    return 0;
}
