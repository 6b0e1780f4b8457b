/* Generated test data (testdata.h). */
#include <stdlib.h>
#include <string.h>

#include "testdata.h"

static uint8_t next_byte(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (uint8_t)(*x >> 24);
}

/* Open-addressing set of the 4-byte windows seen; a byte that would repeat
 * one is drawn again. */
static int fill_unique(unsigned char *d, size_t n, uint64_t *x)
{
    size_t slots = 1, i;
    uint32_t *set;
    unsigned char *used;
    while (slots < 4 * n + 16)
        slots <<= 1;
    set = calloc(slots, sizeof *set);
    used = calloc(slots, 1);
    if (!set || !used) {
        free(set);
        free(used);
        return -1;
    }
    for (i = 0; i < n; i++) {
        for (;;) {
            uint32_t w;
            size_t h;
            d[i] = next_byte(x);
            if (i < 3)
                break;
            w = (uint32_t)d[i - 3] << 24 | (uint32_t)d[i - 2] << 16 | (uint32_t)d[i - 1] << 8 | d[i];
            for (h = (w * 2654435761u) & (slots - 1); used[h] && set[h] != w; h = (h + 1) & (slots - 1))
                ;
            if (!used[h]) {
                used[h] = 1;
                set[h] = w;
                break;
            }
        }
    }
    free(set);
    free(used);
    return 0;
}

int testdata_fill(unsigned char *d, size_t n, const char *kind, uint64_t seed)
{
    static const char *const words[] = { "lz4 ", "vendored ", "kernel ", "copy ", "fix ",
                                         "upstream ", "block ", "the " };
    uint64_t x = 0x9E3779B97F4A7C15ull ^ seed;
    size_t i = 0;
    if (!strcmp(kind, "unique"))
        return fill_unique(d, n, &x);
    if (strcmp(kind, "random") && strcmp(kind, "zeros") && strcmp(kind, "text") &&
        strcmp(kind, "mixed"))
        return -1;
    while (i < n) {
        uint8_t r = next_byte(&x);
        if (!strcmp(kind, "random")) {
            d[i++] = r;
        } else if (!strcmp(kind, "zeros")) {
            d[i++] = 0;
        } else if (!strcmp(kind, "text")) {
            const char *w = words[x % 8];
            while (*w && i < n)
                d[i++] = (unsigned char)*w++;
        } else {   /* mixed */
            d[i] = (i / 256) % 2 ? d[i - 256] : r;
            i++;
        }
    }
    return 0;
}

unsigned char *testdata_make(const char *kind, size_t n, uint64_t seed)
{
    unsigned char *d = malloc(n ? n : 1);
    if (!d || testdata_fill(d, n, kind, seed) != 0)
        abort();
    return d;
}
