/*
 * Two subjects in one program (subject.o and subject_b.o of different
 * trees): each one's compressed output must decode in the other. Used by the
 * tests to show that symbol isolation works; prints one line per direction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subject.h"

static int one_way(const struct lz4_subject *enc, const struct lz4_subject *dec)
{
    enum { N = 100000 };
    static char data[N], block[N + N / 255 + 16], out[N];
    int i, n, r;
    for (i = 0; i < N; i++)
        data[i] = (char)((i / 7) % 13 == 0 ? rand() : 'a' + i % 5);
    n = enc->compress_default(data, block, N, (int)sizeof block);
    r = n > 0 ? dec->decompress_safe(block, out, n, N) : -1;
    printf("%s -> %s: %d bytes, decoded %d: %s\n", enc->name, dec->name, n, r,
           r == N && memcmp(out, data, N) == 0 ? "ok" : "MISMATCH");
    return r == N && memcmp(out, data, N) == 0 ? 0 : 1;
}

int main(void)
{
    const struct lz4_subject *a = lz4gate_subject(), *b = lz4gate_subject_b();
    const unsigned need = CAP_COMPRESS_DEFAULT | CAP_DECOMPRESS_SAFE;
    if (a == b) {
        printf("both entry points return the same table\n");
        return 1;
    }
    if ((a->caps & b->caps & need) != need) {
        printf("a subject lacks compress_default or decompress_safe\n");
        return 1;
    }
    return one_way(a, b) | one_way(b, a);
}
