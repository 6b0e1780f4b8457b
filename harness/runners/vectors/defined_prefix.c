/* The bytes a malformed block defines before its defect (defined_prefix.h). */
#include "defined_prefix.h"

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
