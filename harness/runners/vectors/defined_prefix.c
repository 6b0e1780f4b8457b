/* The bytes a malformed block defines before its defect (defined_prefix.h). */
#include "defined_prefix.h"

#include <stdlib.h>
#include <string.h>

#include "ref_calls.h"

size_t defined_prefix(const uint8_t *blk, size_t blen, size_t cap, const uint8_t *dict,
                      size_t dict_len, uint8_t *out)
{
    ref_decode_result r = ref_decode_with(blk, blen, out, cap, dict, dict_len,
                                          REF_PROFILE_COMPATIBLE, 1, cap);
    size_t n = r.written;
    if (r.status == REF_ERR_TRUNCATED_LITERALS && r.consumed <= blen) {
        size_t avail = blen - r.consumed, room = cap - n;
        size_t k = avail < room ? avail : room;
        memcpy(out + n, blk + r.consumed, k);
        n += k;
    }
    return n;
}

int ends_where_input_does(const uint8_t *blk, size_t blen, size_t cap, size_t r)
{
    uint8_t *out = malloc(cap ? cap : 1);
    ref_decode_result whole;
    size_t k;
    int ends = 0;
    if (!out)
        return 0;
    whole = ref_decode_with(blk, blen, out, cap, NULL, 0, REF_PROFILE_COMPATIBLE, 1, cap);
    if (whole.status == REF_ERR_TRUNCATED_LITERALS &&
        defined_prefix(blk, blen, cap, NULL, 0, out) == r)
        ends = 1;
    for (k = 1; !ends && k <= 2 && k <= blen; k++) {
        ref_decode_result cut = ref_decode_with(blk, blen - k, out, cap, NULL, 0,
                                                REF_PROFILE_COMPATIBLE, 0, 0);
        ends = cut.status == REF_OK && cut.written == r;
    }
    free(out);
    return ends;
}
