/*
 * Round trips through the reference frame codec (lz4frame_ref.h): every
 * combination of the frame flags, several blocks at every block maximum,
 * linked and independent blocks, dictionaries, legacy frames larger than
 * one chunk. Each frame decodes one-shot at exactly its content size and,
 * for some, streamed at random splits (frame_split.h).
 */
#include <stdint.h>

#include "check.h"
#include "frame_build.h"
#include "frame_checks.h"
#include "frame_split.h"
#include "lz4frame_ref.h"

/* ---- round trips ---------------------------------------------------- */

static void round_trip(const char *what, const ref_frame_prefs *p, const ref_frame_options *o,
                       const uint8_t *data, size_t n, uint64_t seed)
{
    size_t bound = ref_frame_bound(n, p), len;
    uint8_t *frame = malloc(bound), *out = malloc(n ? n : 1);
    ref_frame_result r;

    len = ref_frame_encode(p, data, n, frame, bound);
    CHECK(len > 0 && len <= bound, "%s: encodes within the bound (%zu of %zu)", what, len, bound);
    r = ref_frame_decode(o, frame, len, n ? out : NULL, n);   /* exact capacity */
    CHECK(r.status == REF_FRAME_OK && r.written == n && r.consumed == len && r.frames == 1,
          "%s: one-shot decode: %s at %llu (%s)", what, ref_frame_status_name(r.status),
          (unsigned long long)r.consumed, ref_frame_check_name(r.failed_check));
    CHECK(r.written != n || n == 0 || memcmp(out, data, n) == 0, "%s: content", what);
    if (seed)
        random_splits(what, o, frame, len, n, 2, seed);
    free(frame);
    free(out);
}

static void test_flag_combinations(void)
{
    static const size_t sizes[] = { 0, 1, 70000, 70000 };
    uint8_t *data = malloc(70000), dict[5000];
    int combo, si;
    ref_frame_options o = frame_opts();

    fill_data(dict, sizeof dict, FILL_RANDOM, 77);
    o.dict = dict;
    o.dict_len = sizeof dict;
    for (combo = 0; combo < 256; combo++) {
        ref_frame_prefs p;
        ref_frame_prefs_default(&p);
        p.block_max = 4 + (combo & 3);
        p.linked_blocks = (combo >> 2) & 1;
        p.block_checksum = (combo >> 3) & 1;
        p.content_checksum = (combo >> 4) & 1;
        p.content_size = (combo >> 5) & 1;
        p.dict_id_present = (combo >> 6) & 1;
        p.dict_id = 0x12345678u;
        p.uncompressed = (combo >> 7) & 1;
        if (combo & 0x40) {   /* with a Dict-ID, also compress with the dictionary */
            p.dict = dict;
            p.dict_len = sizeof dict;
        }
        for (si = 0; si < 4; si++) {
            char what[96];
            fill_data(data, sizes[si], si == 3 ? FILL_RANDOM : FILL_MIXED, (uint64_t)combo + 1);
            if (si == 2 && (combo & 0x40))   /* start with dictionary bytes */
                memcpy(data, dict + 1000, 3000);
            snprintf(what, sizeof what, "flags combo %d, %zu bytes", combo, sizes[si]);
            round_trip(what, &p, &o, data, sizes[si], combo % 16 == 0 ? 99 + combo : 0);
        }
    }
    free(data);
}

/* Several blocks at every block maximum, linked, with checksums. */
static void test_multi_block(void)
{
    size_t n = (4u << 20) + 300000;
    uint8_t *data = malloc(n);
    ref_frame_options o = frame_opts();
    int bm;

    fill_data(data, n, FILL_MIXED, 5);
    for (bm = 4; bm <= 7; bm++) {
        ref_frame_prefs p;
        char what[64];
        size_t len = bm == 7 ? n : ref_frame_block_max(bm) * 2 + 1234;
        ref_frame_prefs_default(&p);
        p.block_max = bm;
        p.linked_blocks = 1;
        p.block_checksum = 1;
        p.content_size = 1;
        snprintf(what, sizeof what, "multi-block B%d linked", bm);
        round_trip(what, &p, &o, data, len, bm == 4 ? 11 : 0);
    }
    free(data);
}

/* Linked blocks really reference the previous block; independent ones don't. */
static void test_linked_blocks(void)
{
    size_t n = 2 * 65536, len_linked, len_indep, i;
    uint8_t *data = malloc(n), *frame, *out = malloc(n);
    ref_frame_prefs p;
    ref_frame_options o = frame_opts();
    ref_frame_result r;

    fill_data(data, 65536, FILL_RANDOM, 3);
    /* Block 2 repeats block 1 from its second byte: distance 65535, the
     * largest offset (65536 cannot be coded). */
    memcpy(data + 65536, data + 1, 65535);
    data[n - 1] = 0;
    ref_frame_prefs_default(&p);
    p.block_max = 4;
    frame = malloc(ref_frame_bound(n, &p));
    len_indep = ref_frame_encode(&p, data, n, frame, ref_frame_bound(n, &p));
    p.linked_blocks = 1;
    len_linked = ref_frame_encode(&p, data, n, frame, ref_frame_bound(n, &p));
    CHECK(len_indep > n && len_linked < n / 2 + 1000, "linked blocks use the previous block "
          "(%zu linked, %zu independent)", len_linked, len_indep);
    r = ref_frame_decode(&o, frame, len_linked, out, n);
    CHECK(r.status == REF_FRAME_OK && r.written == n && memcmp(out, data, n) == 0,
          "linked frame decodes");
    /* The same frame marked independent (FLG bit 5, HC fixed): the second
     * block's matches reach before its start. */
    frame[4] |= 0x20;
    frame[6] = (uint8_t)(ref_xxh32(frame + 4, 2, 0) >> 8);
    r = ref_frame_decode(&o, frame, len_linked, out, n);
    CHECK(r.status == REF_FRAME_ERR_BLOCK && r.block_status == REF_ERR_OFFSET_BEFORE_START &&
          r.written == 65536, "linked blocks read as independent: %s",
          ref_frame_status_name(r.status));
    for (i = 0; i < 3; i++)
        random_splits("linked frame as independent", &o, frame, len_linked, n, 2, 40 + i);
    free(data);
    free(frame);
    free(out);
}

static void test_dictionary(void)
{
    uint8_t dict[70000], data[20000], frame[30000], out[20000];
    ref_frame_prefs p;
    ref_frame_options o = frame_opts();
    ref_frame_result r;
    size_t with_dict, without, i;

    fill_data(dict, sizeof dict, FILL_RANDOM, 9);
    for (i = 0; i < sizeof data; i++)   /* bytes 40000.. of the dictionary's last 64 KiB */
        data[i] = dict[sizeof dict - 65536 + 40000 + i];
    ref_frame_prefs_default(&p);
    p.block_max = 4;
    without = ref_frame_encode(&p, data, sizeof data, frame, sizeof frame);
    p.dict = dict;
    p.dict_len = sizeof dict;
    p.dict_id_present = 1;
    p.dict_id = 7;
    with_dict = ref_frame_encode(&p, data, sizeof data, frame, sizeof frame);
    CHECK(with_dict > 0 && with_dict < without / 2, "the dictionary helps (%zu vs %zu)",
          with_dict, without);
    o.dict = dict;
    o.dict_len = sizeof dict;
    r = one_shot(&o, frame, with_dict, out, sizeof out);
    CHECK(r.status == REF_FRAME_OK && r.written == sizeof data &&
          memcmp(out, data, sizeof data) == 0, "dictionary frame decodes");
    random_splits("dictionary frame", &o, frame, with_dict, sizeof data, 4, 21);
    /* Frame Descriptor, Dictionary ID: without the dictionary, an error. */
    o.dict = NULL;
    o.dict_len = 0;
    r = one_shot(&o, frame, with_dict, out, sizeof out);
    CHECK(r.status == REF_FRAME_ERR_DICT_MISSING && r.failed_check == REF_CHECK_FRAME_DICT_AVAILABLE
          && r.consumed == 6 && r.written == 0, "Dict-ID without a dictionary: %s",
          ref_frame_status_name(r.status));
    /* `lz4 -D` style: dictionary used, no Dict-ID written. */
    p.dict_id_present = 0;
    with_dict = ref_frame_encode(&p, data, sizeof data, frame, sizeof frame);
    r = one_shot(&o, frame, with_dict, out, sizeof out);
    CHECK(r.status == REF_FRAME_ERR_BLOCK && r.block_status == REF_ERR_OFFSET_BEFORE_START,
          "dictionary frame without Dict-ID and without dictionary: block error");
    o.dict = dict;
    o.dict_len = sizeof dict;
    r = one_shot(&o, frame, with_dict, out, sizeof out);
    CHECK(r.status == REF_FRAME_OK && r.written == sizeof data &&
          memcmp(out, data, sizeof data) == 0, "dictionary without Dict-ID decodes");
}

/* Legacy frames larger than one chunk, several members (a chunk that
 * decodes past 8 MiB is a row of frame_error_cases.c). */
static void test_legacy_large(void)
{
    size_t n = REF_LEGACY_CHUNK + 100000, bound = ref_legacy_bound(n), len, len2;
    uint8_t *data = malloc(n), *frame = malloc(2 * bound + 64), *out = malloc(2 * n);
    ref_frame_options o = frame_opts();
    ref_frame_result r;

    fill_data(data, n, FILL_MIXED, 8);
    len = ref_legacy_encode(data, n, frame, bound, 1);
    CHECK(len > 8 && len <= bound, "legacy encode of 8 MiB + 100000");
    CHECK(ref_legacy_encode(data, n, frame, len - 1, 1) == 0, "legacy encode, 1 byte short");
    len = ref_legacy_encode(data, n, frame, bound, 1);
    /* A second member of 3 bytes after the first. */
    len2 = ref_legacy_encode((const uint8_t *)"xyz", 3, frame + len, bound, 1);
    r = ref_frame_decode(&o, frame, len + len2, out, n + 3);
    CHECK(r.status == REF_FRAME_OK && r.written == n + 3 && r.frames == 2 &&
          memcmp(out, data, n) == 0 && memcmp(out + n, "xyz", 3) == 0,
          "two legacy members, the first of two chunks: %s", ref_frame_status_name(r.status));
    o.profile = REF_PROFILE_STRICT;
    r = ref_frame_decode(&o, frame, len + len2, out, n + 3);
    CHECK(r.status == REF_FRAME_OK, "strict: a full chunk, then a short last one");
    random_splits("legacy two members", &o, frame, len + len2, n + 3, 3, 31);
    /* Output buffer one byte short: the caller's capacity stops it. */
    r = ref_frame_decode(&o, frame, len + len2, out, n + 2);
    CHECK(r.status == REF_FRAME_ERR_OUTPUT_FULL &&
          r.failed_check == REF_CHECK_OUTPUT_WITHIN_CAPACITY && r.written == n,
          "legacy: output 1 byte short: %s", ref_frame_status_name(r.status));

    free(data);
    free(frame);
    free(out);
}

int main(int argc, char **argv)
{
    (void)argc;
    test_flag_combinations();
    test_multi_block();
    test_linked_blocks();
    test_dictionary();
    test_legacy_large();
    return check_summary(argv[0]);
}
