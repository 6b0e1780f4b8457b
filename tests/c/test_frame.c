/*
 * Unit tests of the reference frame codec (lz4frame_ref.h): xxHash-32,
 * lz4's own frames, the one-shot output capacity, streaming details, the
 * encoder's limits and the format selection. The error classes are in
 * test_frame_errors.c, the round trips in test_frame_roundtrip.c.
 *
 * Streaming must give exactly the one-shot result for every split of the
 * small inputs and for random splits of large ones (frame_split.h). Inputs
 * and outputs live in exactly sized heap buffers, for AddressSanitizer.
 *
 * Known answers were made with tools on this machine: xxh32 values with
 * `xxhsum -H32` (Debian xxhash 0.8.1) and confirmed by the content
 * checksums `lz4` 1.9.4 writes; the frames marked "lz4 1.9.4" are its
 * output, byte for byte.
 */
#include <stdint.h>

#include "alloc.h"
#include "buf.h"
#include "check.h"
#include "frame_build.h"
#include "frame_checks.h"
#include "frame_split.h"
#include "lz4frame_ref.h"

/* ---- xxHash-32 ------------------------------------------------------ */

static void test_xxh32(void)
{
    /* xxhsum -H32 (xxhash 0.8.1) on these inputs, seed 0. */
    static const struct { size_t n; int kind; uint32_t want; } known[] = {
        { 0, 0, 0x02CC5D05u }, { 1, 1, 0x550D7456u }, { 3, 2, 0x32D153FFu },
        { 16, 3, 0xB72837F4u }, { 17, 3, 0x7C77ADC2u }, { 36, 4, 0xAF9B77D3u },
        { 101, 5, 0x280B5897u }, { 1000, 6, 0xC85A5152u },
    };
    uint8_t buf[1000];
    size_t i, k;

    for (i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t n = known[i].n, j;
        for (j = 0; j < n; j++) {
            switch (known[i].kind) {
            case 1: buf[j] = 'a'; break;
            case 2: buf[j] = (uint8_t)"abc"[j]; break;
            case 3: buf[j] = (uint8_t)j; break;
            case 4: buf[j] = (uint8_t)"hello world hello world hello world\n"[j]; break;
            case 5: buf[j] = (uint8_t)(j * j + 11); break;
            default: buf[j] = (uint8_t)(j * 7 + 3); break;
            }
        }
        CHECK(ref_xxh32(n ? buf : NULL, n, 0) == known[i].want, "xxh32 of known input %zu: %08x",
              i, (unsigned)ref_xxh32(buf, n, 0));
    }

    /* Streaming: every two-piece split, and three pieces, any seed. */
    for (i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7 + 3);
    for (k = 0; k <= sizeof buf; k++) {
        uint32_t seeds[2] = { 0, 0x9E3779B1u }, si;
        for (si = 0; si < 2; si++) {
            ref_xxh32_state s;
            size_t m = k / 3;
            ref_xxh32_init(&s, seeds[si]);
            ref_xxh32_update(&s, buf, m);
            ref_xxh32_update(&s, buf + m, k - m);
            CHECK(ref_xxh32_digest(&s) == ref_xxh32(buf, k, seeds[si]),
                  "streaming xxh32 of %zu bytes (prefix)", k);
            ref_xxh32_update(&s, buf + k, sizeof buf - k);
            CHECK(ref_xxh32_digest(&s) == ref_xxh32(buf, sizeof buf, seeds[si]),
                  "streaming xxh32 split at %zu", k);
        }
    }
    {
        ref_xxh32_state s;
        ref_xxh32_init(&s, 0);
        for (i = 0; i < sizeof buf; i++)
            ref_xxh32_update(&s, buf + i, 1);
        CHECK(ref_xxh32_digest(&s) == 0xC85A5152u, "byte-at-a-time xxh32");
    }
}

/* ---- known frames --------------------------------------------------- */

static void test_known_frames(void)
{
    /* lz4 1.9.4: `lz4 -q` of an empty file, and of "hello world hello
     * world hello world\n"; `lz4 -q -l` of the same. */
    static const uint8_t empty_frame[] = { 0x04, 0x22, 0x4D, 0x18, 0x64, 0x40, 0xA7, 0, 0, 0, 0,
                                           0x05, 0x5D, 0xCC, 0x02 };
    static const uint8_t hello_frame[] = {
        0x04, 0x22, 0x4D, 0x18, 0x64, 0x40, 0xA7, 0x16, 0x00, 0x00, 0x00, 0xCF, 'h', 'e', 'l',
        'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd', ' ', 0x0C, 0x00, 0x00, 0x50, 'o', 'r', 'l',
        'd', '\n', 0, 0, 0, 0, 0xD3, 0x77, 0x9B, 0xAF };
    static const uint8_t hello_legacy[] = {
        0x02, 0x21, 0x4C, 0x18, 0x16, 0x00, 0x00, 0x00, 0xCF, 'h', 'e', 'l', 'l', 'o', ' ', 'w',
        'o', 'r', 'l', 'd', ' ', 0x0C, 0x00, 0x00, 0x50, 'o', 'r', 'l', 'd', '\n' };
    /* lz4 1.9.4 --content-size of a 100000-byte file: its header. */
    static const uint8_t csize_header[] = { 0x04, 0x22, 0x4D, 0x18, 0x6C, 0x50, 0xA0, 0x86, 0x01,
                                            0, 0, 0, 0, 0, 0x78 };
    const char *hello = "hello world hello world hello world\n";
    ref_frame_options o = frame_opts();
    ref_frame_prefs p;
    ref_frame_encoder *e = malloc(sizeof *e);
    uint8_t out[64], enc[64];
    ref_frame_result r;
    size_t n;

    r = one_shot(&o, empty_frame, sizeof empty_frame, out, sizeof out);
    CHECK(r.status == REF_FRAME_OK && r.written == 0 && r.frames == 1, "lz4's empty frame");
    r = one_shot(&o, hello_frame, sizeof hello_frame, out, 36);
    CHECK(r.status == REF_FRAME_OK && r.written == 36 && memcmp(out, hello, 36) == 0,
          "lz4's hello frame");
    r = one_shot(&o, hello_legacy, sizeof hello_legacy, out, 36);
    CHECK(r.status == REF_FRAME_OK && r.written == 36 && memcmp(out, hello, 36) == 0 &&
          r.frames == 1, "lz4 -l hello");
    every_split("lz4 hello frame", &o, hello_frame, sizeof hello_frame, 36);

    /* The encoder with lz4's defaults writes lz4's empty frame exactly
     * (lz4 picks 64 KiB blocks for small input). */
    ref_frame_prefs_default(&p);
    p.block_max = 4;
    n = ref_frame_encode(&p, NULL, 0, enc, sizeof enc);
    CHECK(n == sizeof empty_frame && memcmp(enc, empty_frame, n) == 0, "encoder: empty frame");
    n = ref_frame_encode(&p, (const uint8_t *)hello, 36, enc, sizeof enc);
    CHECK(n > 7 && memcmp(enc, hello_frame, 7) == 0, "encoder: lz4's header for hello");
    CHECK(n > 4 && memcmp(enc + n - 4, hello_frame + sizeof hello_frame - 4, 4) == 0,
          "encoder: lz4's content checksum for hello");
    p.block_max = 5;
    p.content_size = 1;
    n = ref_frame_begin(e, &p, 100000, enc, sizeof enc);
    CHECK(n == sizeof csize_header && memcmp(enc, csize_header, n) == 0,
          "encoder: lz4's header with a content size");
    /* Legacy: the magic only for empty input, like lz4 -l. */
    n = ref_legacy_encode(NULL, 0, enc, sizeof enc, 1);
    CHECK(n == 4 && memcmp(enc, hello_legacy, 4) == 0, "legacy encoder: empty input");
    r = one_shot(&o, enc, 4, out, 0);
    CHECK(r.status == REF_FRAME_OK && r.frames == 1, "empty legacy frame decodes");
    r = one_shot(&o, NULL, 0, NULL, 0);
    CHECK(r.status == REF_FRAME_OK && r.frames == 0 && r.consumed == 0, "empty input: no frames");
    free(e);
}

/* ---- one-shot output capacity -------------------------------------- */

static void test_output_capacity(void)
{
    buf f = { NULL, 0, 0 }, blk = { NULL, 0, 0 };
    ref_frame_options o = frame_opts();
    size_t cap;

    put_small_frame(&f, 0x64, 0);
    for (cap = 0; cap <= SMALL_LEN + 1; cap++) {
        uint8_t *out = malloc(cap ? cap : 1);
        ref_frame_result r = one_shot(&o, f.p, f.n, cap ? out : NULL, cap);
        if (cap >= SMALL_LEN) {
            CHECK(r.status == REF_FRAME_OK && r.written == SMALL_LEN &&
                  memcmp(out, SMALL_CONTENT, SMALL_LEN) == 0, "capacity %zu: decodes", cap);
        } else {
            CHECK(r.status == REF_FRAME_ERR_OUTPUT_FULL &&
                  r.failed_check == REF_CHECK_OUTPUT_WITHIN_CAPACITY &&
                  r.written == (cap < 5 ? 0u : 5u) && r.consumed == (cap < 5 ? 11u : 20u),
                  "capacity %zu: output full (%s, written %zu, at %llu)", cap,
                  ref_frame_status_name(r.status), r.written, (unsigned long long)r.consumed);
        }
        free(out);
    }
    /* A stored block larger than the room, block max above the room. */
    buf_free(&f);
    put_run_block(&blk, 1000);
    put_frame_header(&f, 0x60, 0x70, 0, 0);
    put_frame_block(&f, blk.p, blk.n, 0, 0);
    put_le32(&f, 0);
    {
        uint8_t *out = malloc(1006);
        ref_frame_result r = one_shot(&o, f.p, f.n, out, 1005);
        CHECK(r.status == REF_FRAME_ERR_OUTPUT_FULL, "B7 block into a small buffer");
        r = one_shot(&o, f.p, f.n, out, 1006);
        CHECK(r.status == REF_FRAME_OK && r.written == 1006, "B7 block, exact buffer");
        free(out);
    }
    buf_free(&f);
    buf_free(&blk);
}

/* ---- streaming details ---------------------------------------------- */

/* history ULZ4-2017-LZ4F-HDR: a 19-byte header fed one byte at a time. */
static void test_byte_at_a_time(void)
{
    uint8_t dict[100], data[3000], frame[4000], out[3000], one;
    ref_frame_prefs p;
    ref_frame_options o = frame_opts();
    ref_frame_stream *s;
    ref_frame_result r;
    size_t len, i, total = 0;

    fill_data(dict, sizeof dict, FILL_RANDOM, 1);
    fill_data(data, sizeof data, FILL_MIXED, 2);
    ref_frame_prefs_default(&p);
    p.block_max = 4;
    p.content_size = 1;
    p.dict_id_present = 1;
    p.dict_id = 0xCAFE;
    p.block_checksum = 1;
    p.dict = dict;
    p.dict_len = sizeof dict;
    len = ref_frame_encode(&p, data, sizeof data, frame, sizeof frame);
    CHECK(len > 19 && frame[4] == 0x7D, "19-byte header written");
    o.dict = dict;
    o.dict_len = sizeof dict;
    /* Feed one byte, drain with a one-byte output. */
    s = ref_frame_stream_new(&o);
    for (i = 0; i < len; i++) {
        uint8_t *in = xmemdup(frame + i, 1);
        size_t left = 1, c, w;
        ref_frame_status st;
        do {
            st = ref_frame_stream_decode(s, in + (1 - left), left, &c, &one, 1, &w);
            left -= c;
            if (w && total < sizeof out)
                out[total++] = one;
        } while (st == REF_FRAME_OK && (left || w == 1));
        free(in);
    }
    r = ref_frame_stream_finish(s);
    CHECK(r.status == REF_FRAME_OK && r.written == sizeof data && total == sizeof data &&
          memcmp(out, data, sizeof data) == 0, "byte at a time: %s",
          ref_frame_status_name(r.status));
    ref_frame_stream_free(s);
}

/* history ULZ4-2023-1227: after an error, reset, then a frame without a
 * content size decodes. */
static void test_reset(void)
{
    buf bad = { NULL, 0, 0 }, good = { NULL, 0, 0 };
    ref_frame_stream *s = ref_frame_stream_new(NULL);
    uint8_t out[64];
    size_t c, w;
    ref_frame_status st;
    ref_frame_result r;

    put_small_frame(&bad, 0x6C, 100);   /* content size 100, content 30 */
    put_small_frame(&good, 0x64, 0);
    st = ref_frame_stream_decode(s, bad.p, bad.n, &c, out, sizeof out, &w);
    CHECK(st == REF_FRAME_ERR_CONTENT_SIZE, "first frame fails: %s", ref_frame_status_name(st));
    st = ref_frame_stream_decode(s, good.p, good.n, &c, out, sizeof out, &w);
    CHECK(st == REF_FRAME_ERR_CONTENT_SIZE && c == 0 && w == 0, "errors are sticky");
    ref_frame_stream_reset(s);
    st = ref_frame_stream_decode(s, good.p, good.n, &c, out, sizeof out, &w);
    r = ref_frame_stream_finish(s);
    CHECK(st == REF_FRAME_OK && r.status == REF_FRAME_OK && w == SMALL_LEN && c == good.n &&
          r.consumed == good.n && memcmp(out, SMALL_CONTENT, SMALL_LEN) == 0,
          "after reset: %s", ref_frame_status_name(r.status));
    /* finish with output not taken is a usage error */
    ref_frame_stream_reset(s);
    st = ref_frame_stream_decode(s, good.p, good.n, &c, out, 10, &w);
    r = ref_frame_stream_finish(s);
    CHECK(st == REF_FRAME_OK && w == 10 && r.status == REF_FRAME_ERR_BAD_PARAMETER,
          "finish with output pending");
    ref_frame_stream_free(s);
    buf_free(&bad);
    buf_free(&good);
    {
        ref_frame_options o = frame_opts();
        o.dict_len = 3;
        CHECK(ref_frame_stream_new(&o) == NULL, "dictionary NULL with a length");
        CHECK(ref_frame_decode(&o, good.p, 0, NULL, 0).status == REF_FRAME_ERR_BAD_PARAMETER,
              "one-shot: dictionary NULL with a length");
        CHECK(ref_frame_decode(NULL, NULL, 5, NULL, 0).status == REF_FRAME_ERR_BAD_PARAMETER,
              "one-shot: NULL input with a length");
    }
}

/* ---- encoder -------------------------------------------------------- */

static void test_encoder_limits(void)
{
    static const size_t sizes[] = { 0, 1, 100, 65536, 65537 };
    uint8_t *data = malloc(65537);
    size_t si, cap;
    ref_frame_prefs p;
    ref_frame_encoder *e = malloc(sizeof *e);
    uint8_t buf[64];

    ref_frame_prefs_default(&p);
    p.block_max = 4;
    p.block_checksum = 1;
    p.content_size = 1;
    for (si = 0; si < 5; si++) {
        size_t n = sizes[si], bound = ref_frame_bound(n, &p), full;
        uint8_t *dst = malloc(bound);
        fill_data(data, n, FILL_RANDOM, si + 1);   /* incompressible: stored blocks */
        full = ref_frame_encode(&p, data, n, dst, bound);
        CHECK(full > 0 && full <= bound, "encode %zu random bytes within the bound", n);
        free(dst);
        /* Every capacity below the frame size: 0, never past the buffer. */
        for (cap = 0; cap < full; cap += cap < 64 ? 1 : 4099) {
            uint8_t *small = malloc(cap ? cap : 1);
            CHECK(ref_frame_encode(&p, data, n, cap ? small : NULL, cap) == 0,
                  "encode %zu bytes into %zu: fails", n, cap);
            free(small);
        }
    }
    /* Invalid preferences and misuse. */
    p.block_max = 3;
    CHECK(ref_frame_bound(10, &p) == 0 && ref_frame_encode(&p, data, 10, buf, sizeof buf) == 0,
          "block max 3 is refused");
    p.block_max = 4;
    CHECK(ref_frame_begin(e, &p, 5, buf, sizeof buf) > 0, "begin");
    CHECK(ref_frame_put_block(e, data, 65537, buf, sizeof buf) == 0, "block above the maximum");
    CHECK(ref_frame_put_block(e, data, 0, buf, sizeof buf) == 0, "empty block");
    CHECK(ref_frame_put_block(e, data, 4, buf, sizeof buf) > 0, "4 bytes");
    CHECK(ref_frame_end(e, buf, sizeof buf) == 0, "end: content size 5 declared, 4 given");
    CHECK(ref_legacy_put_chunk(data, REF_LEGACY_CHUNK + 1, buf, sizeof buf, 1, e->hash_state) == 0,
          "legacy chunk above 8 MiB");
    free(data);
    free(e);
}

/* ref_frame_options.formats: another format's magic is unknown, or inside
 * a legacy frame a chunk size (what LZ4F_decompress and unlz4 see). */
static void test_formats(void)
{
    static const uint8_t skippable[] = { 0x50, 0x2A, 0x4D, 0x18, 1, 0, 0, 0, 'x' };
    uint8_t data[1000], frame[2000], legacy[2000], both[4000], out[4000];
    ref_frame_prefs p;
    ref_frame_options o = frame_opts();
    ref_frame_result r;
    size_t i, lf, ll;
    for (i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 / 5);
    ref_frame_prefs_default(&p);
    lf = ref_frame_encode(&p, data, sizeof data, frame, sizeof frame);
    ll = ref_legacy_encode(data, sizeof data, legacy, sizeof legacy, 1);
    CHECK(lf && ll, "encoders");

    o.formats = REF_FORMAT_LZ4 | REF_FORMAT_SKIPPABLE;          /* LZ4F's scope */
    r = ref_frame_decode(&o, legacy, ll, out, sizeof out);
    CHECK(r.status == REF_FRAME_ERR_UNKNOWN_MAGIC && r.consumed == 0,
          "legacy frame outside the formats: %s at %llu", ref_frame_status_name(r.status),
          (unsigned long long)r.consumed);
    r = ref_frame_decode(&o, frame, lf, out, sizeof out);
    CHECK(r.status == REF_FRAME_OK && r.written == sizeof data, "LZ4 frame inside the formats");

    o.formats = REF_FORMAT_LEGACY;                               /* unlz4's scope */
    r = ref_frame_decode(&o, frame, lf, out, sizeof out);
    CHECK(r.status == REF_FRAME_ERR_UNKNOWN_MAGIC, "LZ4 frame outside the formats: %s",
          ref_frame_status_name(r.status));
    r = ref_frame_decode(&o, skippable, sizeof skippable, out, sizeof out);
    CHECK(r.status == REF_FRAME_ERR_UNKNOWN_MAGIC, "skippable frame outside the formats");
    memcpy(both, legacy, ll);
    memcpy(both + ll, frame, lf);                /* an LZ4 magic after a legacy chunk */
    r = ref_frame_decode(&o, both, ll + lf, out, sizeof out);
    CHECK(r.status == REF_FRAME_ERR_LEGACY_CHUNK_SIZE && r.consumed == ll,
          "LZ4 magic read as a legacy chunk size: %s at %llu", ref_frame_status_name(r.status),
          (unsigned long long)r.consumed);
    o.formats = REF_FORMAT_LEGACY | REF_FORMAT_LZ4 | REF_FORMAT_SKIPPABLE;
    r = ref_frame_decode(&o, both, ll + lf, out, sizeof out);
    CHECK(r.status == REF_FRAME_OK && r.written == 2 * sizeof data, "all formats: both decode");
}

/* ref_frame_info: the header fields LZ4F_getFrameInfo reports, the oracle
 * of the boundary sweep sweep.header (contracts_sweep_header.c). */
static void test_frame_info(void)
{
    /* lz4 1.9.4 --content-size of a 100000-byte file: its header (FLG
     * 0x6C: independent blocks, content size, content checksum; BD 0x50). */
    static const uint8_t csize_header[] = { 0x04, 0x22, 0x4D, 0x18, 0x6C, 0x50, 0xA0, 0x86, 0x01,
                                            0, 0, 0, 0, 0, 0x78 };
    static const uint8_t skippable[] = { 0x5A, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 'a', 'b', 'c' };
    static const uint8_t not_a_frame[] = { 0x05, 0x22, 0x4D, 0x18, 0x6C, 0x50, 0xA0 };
    ref_frame_info_t i;
    size_t k;
    CHECK(ref_frame_info(csize_header, sizeof csize_header, &i) == REF_INFO_OK &&
          i.header_len == sizeof csize_header && !i.skippable && i.block_size_id == 5 &&
          i.independent && !i.block_checksum && i.content_checksum &&
          i.content_size == 100000 && i.dict_id == 0, "frame info: every field of a header");
    for (k = 0; k < sizeof csize_header; k++)
        CHECK(ref_frame_info(csize_header, k, &i) == REF_INFO_INCOMPLETE,
              "frame info: every shorter prefix is incomplete");
    CHECK(ref_frame_info(skippable, sizeof skippable, &i) == REF_INFO_OK && i.skippable &&
          i.content_size == 3 && i.header_len == 8, "frame info: a skippable frame");
    CHECK(ref_frame_info(not_a_frame, sizeof not_a_frame, &i) == REF_INFO_INVALID,
          "frame info: an unknown magic number");
}

int main(int argc, char **argv)
{
    (void)argc;
    test_xxh32();
    test_known_frames();
    test_output_capacity();
    test_byte_at_a_time();
    test_reset();
    test_encoder_limits();
    test_formats();
    test_frame_info();
    return check_summary(argv[0]);
}
