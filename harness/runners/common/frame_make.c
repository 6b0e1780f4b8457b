/* Frames made by ref (frame_make.h). */
#include <stdlib.h>

#include "alloc.h"
#include "frame_make.h"

size_t frame_make(const ref_frame_prefs *p, const unsigned char *data, size_t n,
                  unsigned char **out)
{
    size_t cap = p ? ref_frame_bound(n, p) : ref_legacy_bound(n);
    size_t len;
    *out = xmalloc(cap);
    len = p ? ref_frame_encode(p, data, n, *out, cap) : ref_legacy_encode(data, n, *out, cap, 1);
    if (!len) {
        free(*out);
        *out = NULL;
    }
    return len;
}
