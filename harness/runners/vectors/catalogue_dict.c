/*
 * The dictionary vectors: hand-made blocks whose matches reach into an
 * external dictionary (LZ4_decompress_safe_usingDict), at its first byte,
 * across its end into the output, and one byte beyond it; the dictionaries
 * are 1000 and 65536 bytes of the literal stream.
 */
#include <stdlib.h>

#include "alloc.h"
#include "catalogue.h"

/* With dict-1000.dict. */
static const handmade_vector small_dict[] = {
    { "edge-dict-oldest-byte",
      "no literals, then a match of 20 at offset 1000 with a 1000-byte dictionary: starts "
      "at the dictionary's first byte",
      "edge dictionary", { SEQ(0, 20, 1000), LAST(5) },
      VALID(10) },
    { "edge-dict-spanning",
      "a match that starts 10 bytes into the end of the dictionary and continues into the "
      "output (overlapping it)",
      "edge dictionary overlap", { SEQ(4, 40, 14), LAST(12) },
      VALID(0) },
    { "edge-dict-short-offset",
      "a match of 30 at offset 3 from output byte 0: 3 dictionary bytes, repeated",
      "edge dictionary overlap", { SEQ(0, 30, 3), SEQ(5, 100, 999), LAST(5) },
      VALID(0) },
    { "inv-dict-offset-beyond",
      "a match at offset 1001 from output byte 0 with a 1000-byte dictionary: one byte "
      "before the history",
      "invalid dictionary offset_before_start", { SEQ(0, 4, 1001), LAST(8) },
      FIXED(64), REF_ERR_OFFSET_BEFORE_START, REF_ERR_OFFSET_BEFORE_START, 0 },
};

/* With dict-65536.dict. */
static const handmade_vector big_dict[] = {
    { "edge-dict-64k-offset-65535",
      "a 64 KiB dictionary: matches at offset 65535 from output bytes 0 and 400, then one "
      "spanning dictionary and output",
      "edge dictionary MAX_OFFSET",
      { SEQ(0, 300, 65535), SEQ(100, 50, 65535), SEQ(3, 70, 600), LAST(5) },
      VALID(1) },
};

void dict_vectors(void)
{
    uint8_t *small = xmalloc(1000), *big = xmalloc(65536);
    size_t i;
    for (i = 0; i < 1000; i++)
        small[i] = bld_literal();
    for (i = 0; i < 65536; i++)
        big[i] = bld_literal();
    add_handmade_table(small_dict, sizeof small_dict / sizeof small_dict[0], "dict-1000.dict",
                       small, 1000);
    add_handmade_table(big_dict, sizeof big_dict / sizeof big_dict[0], "dict-65536.dict", big,
                       65536);
    free(small);
    free(big);
}
