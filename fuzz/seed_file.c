/* seed_file.c: see seed_file.h. */
#include <stdio.h>
#include <stdlib.h>

#include "seed_file.h"

size_t seed_header_len(const fuzz_header_writer *w)
{
    if (w->len > w->cap) {
        fprintf(stderr, "make_seeds: a header of %zu bytes for a %zu-byte buffer\n", w->len,
                w->cap);
        exit(2);
    }
    return w->len;
}

void seed_save(seed_dir *d, const uint8_t *hdr, size_t hlen, const uint8_t *payload,
               size_t plen, const char *what)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/seed-%03d-%s", d->path, d->count++, what);
    f = fopen(path, "wb");
    if (!f || (hlen && fwrite(hdr, 1, hlen, f) != hlen) ||
        (plen && fwrite(payload, 1, plen, f) != plen) || fclose(f) != 0) {
        fprintf(stderr, "make_seeds: cannot write %s\n", path);
        exit(2);
    }
}
