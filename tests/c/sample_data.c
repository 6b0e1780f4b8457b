/* The encoder tests' data (sample_data.h). */
#include "sample_data.h"

#include <string.h>

#include "prng.h"

const char *const sample_kind_names[SAMPLE_KINDS] = { "mixed", "zero", "text", "noise" };

/* Runs of 1..64 bytes, each literals, one repeated byte, or a copy of
 * earlier data (some beyond the 64 KiB an offset reaches). */
static void fill_mixed(uint8_t *b, size_t n, ref_prng *rng)
{
    size_t i = 0, k;
    while (i < n) {
        uint64_t r = ref_prng_next(rng);
        size_t len = 1 + (size_t)(r >> 8) % 64;
        if (len > n - i)
            len = n - i;
        switch (r % 4) {
        case 0: /* literals */
            for (k = 0; k < len; k++)
                b[i + k] = (uint8_t)ref_prng_next(rng);
            break;
        case 1: /* run of one byte */
            memset(b + i, (int)(uint8_t)(r >> 40), len);
            break;
        default: /* copy from up to ~70000 bytes back */
            if (i == 0) {
                b[i] = (uint8_t)r;
                len = 1;
            } else {
                size_t back = 1 + (size_t)(r >> 20) % (i < 70000 ? i : 70000);
                for (k = 0; k < len; k++)
                    b[i + k] = b[i + k - back];
            }
            break;
        }
        i += len;
    }
}

static void fill_text(uint8_t *b, size_t n, ref_prng *rng)
{
    static const char *const words[] = {
        "the", "block", "format", "of", "a", "sequence", "literal", "match",
        "offset", "length", "token", "decoder", "must", "is", "and", "to",
        "compressed", "input", "output", "bytes", "end", "condition", "LZ4",
        "specification", "implementation", "dictionary", "history", "window",
    };
    size_t i = 0, k;
    while (i < n) {
        uint64_t r = ref_prng_next(rng);
        const char *w = words[r % (sizeof words / sizeof words[0])];
        for (k = 0; w[k] && i < n; k++)
            b[i++] = (uint8_t)w[k];
        if (i < n)
            b[i++] = (r >> 32) % 11 == 0 ? '\n' : ((r >> 32) % 7 == 0 ? ',' : ' ');
    }
}

void sample_fill(enum sample_kind k, uint8_t *b, size_t n, uint64_t seed)
{
    ref_prng rng = { seed };
    size_t i;
    switch (k) {
    case SAMPLE_MIXED: fill_mixed(b, n, &rng); break;
    case SAMPLE_ZERO: memset(b, 0, n); break;
    case SAMPLE_TEXT: fill_text(b, n, &rng); break;
    default:
        for (i = 0; i < n; i++)
            b[i] = (uint8_t)ref_prng_next(&rng);
        break;
    }
}
