/*
 * Unit tests of the reference frame codec (lz4frame_ref.h): xxHash-32,
 * the frame and legacy decoders (one-shot and streaming), the encoders.
 *
 * Every frame check (frame_checks.h) has an input here that fails with it,
 * so `tests/mutants.py FRAME_...` (the check compiled out) fails this
 * program. Streaming must give exactly the one-shot result for every split
 * of the small inputs and for random splits of large ones. Inputs and
 * outputs live in exactly sized heap buffers, for AddressSanitizer.
 *
 * Known answers were made with tools on this machine: xxh32 values with
 * `xxhsum -H32` (Debian xxhash 0.8.1) and confirmed by the content
 * checksums `lz4` 1.9.4 writes; the frames marked "lz4 1.9.4" are its
 * output, byte for byte.
 */
#include <stdint.h>

#include "check.h"
#include "frame_checks.h"
#include "lz4frame_ref.h"

/* ---- helpers -------------------------------------------------------- */

typedef struct bytes {
    uint8_t *p;
    size_t n, cap;
} bytes;

static void b_put(bytes *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        b->p = realloc(b->p, cap);
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void b_byte(bytes *b, unsigned v) { uint8_t c = (uint8_t)v; b_put(b, &c, 1); }

static void b_le32(bytes *b, uint32_t v)
{
    uint8_t c[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    b_put(b, c, 4);
}

static void b_le64(bytes *b, uint64_t v)
{
    b_le32(b, (uint32_t)v);
    b_le32(b, (uint32_t)(v >> 32));
}

static void b_free(bytes *b) { free(b->p); b->p = NULL; b->n = b->cap = 0; }

static uint8_t *heap_copy(const void *p, size_t n)
{
    uint8_t *q = malloc(n ? n : 1);
    if (n)
        memcpy(q, p, n);
    return q;
}

/* Frame header: magic, FLG, BD, the optional fields FLG asks for, HC. */
static void b_header(bytes *b, unsigned flg, unsigned bd, uint64_t csize, uint32_t dict_id)
{
    size_t start;
    b_le32(b, REF_FRAME_MAGIC);
    start = b->n;
    b_byte(b, flg);
    b_byte(b, bd);
    if (flg & 0x08)
        b_le64(b, csize);
    if (flg & 0x01)
        b_le32(b, dict_id);
    b_byte(b, (ref_xxh32(b->p + start, b->n - start, 0) >> 8) & 0xFF);
}

/* A block: size field (high bit for stored data), data, optional checksum. */
static void b_block(bytes *b, const void *data, size_t n, int stored, int checksum)
{
    b_le32(b, (uint32_t)n | (stored ? 0x80000000u : 0));
    b_put(b, data, n);
    if (checksum)
        b_le32(b, ref_xxh32(data, n, 0));
}

/* An LZ4 sequence (block format): literals, then a match unless last. */
static void b_sequence(bytes *b, const void *lits, size_t nlit, int match, unsigned offset,
                       size_t mlen)
{
    size_t lcode = nlit < 15 ? nlit : 15, mcode = 0, rest;
    if (match)
        mcode = mlen - 4 < 15 ? mlen - 4 : 15;
    b_byte(b, (unsigned)(lcode << 4 | mcode));
    if (nlit >= 15) {
        for (rest = nlit - 15; rest >= 255; rest -= 255)
            b_byte(b, 255);
        b_byte(b, (unsigned)rest);
    }
    b_put(b, lits, nlit);
    if (!match)
        return;
    b_byte(b, offset & 255);
    b_byte(b, offset >> 8);
    if (mlen - 4 >= 15) {
        for (rest = mlen - 4 - 15; rest >= 255; rest -= 255)
            b_byte(b, 255);
        b_byte(b, (unsigned)rest);
    }
}

/* An LZ4 block decoding to 'a' x (1 + run) then "tail!" (run + 6 bytes). */
static void lz4_run_block(bytes *b, size_t run)
{
    b_sequence(b, "a", 1, 1, 1, run);
    b_sequence(b, "tail!", 5, 0, 0, 0);
}

static void fill_data(uint8_t *p, size_t n, int kind, unsigned long long seed)
{
    size_t i;
    for (i = 0; i < n; i++) {
        switch (kind) {
        case 0: p[i] = (uint8_t)check_rand(&seed); break;                 /* random */
        case 1: p[i] = "the quick brown fox jumps "[i % 26]; break;        /* text */
        case 2: p[i] = (uint8_t)(i % 251 < 120 ? 0 : check_rand(&seed)); break; /* mixed */
        default: p[i] = 0; break;
        }
    }
}

/* Room the one-shot gets past the expected output: one block maximum of the
 * frames these tests split (64 KiB; legacy cases pass max_out >= 8 MiB), so
 * that its capacity never stops a block and the results compare. */
#define SLACK ((size_t)1 << 16)

static ref_frame_options opts(void)
{
    ref_frame_options o;
    ref_frame_options_default(&o);
    return o;
}

/* One-shot decode from an exactly sized copy of the input. */
static ref_frame_result one_shot(const ref_frame_options *o, const uint8_t *src, size_t n,
                                 uint8_t *dst, size_t cap)
{
    uint8_t *in = heap_copy(src, n);
    ref_frame_result r = ref_frame_decode(o, n ? in : NULL, n, dst, cap);
    free(in);
    return r;
}

/*
 * Streaming decode: the input cut at cuts[0..ncuts) (ascending), each piece
 * in its own exactly sized heap buffer, output taken out_chunk bytes at a
 * time and appended to out[0..out_cap).
 */
static ref_frame_result streamed(const ref_frame_options *o, const uint8_t *src, size_t n,
                                 const size_t *cuts, size_t ncuts, size_t out_chunk,
                                 uint8_t *out, size_t out_cap)
{
    ref_frame_stream *s = ref_frame_stream_new(o);
    uint8_t *chunk = malloc(out_chunk);
    size_t piece, start = 0, total = 0;
    ref_frame_result r;
    int stuck = 0;

    for (piece = 0; piece <= ncuts && s; piece++) {
        size_t end = piece < ncuts ? cuts[piece] : n, left = end - start;
        uint8_t *in = heap_copy(src + start, left);
        const uint8_t *at = in;
        ref_frame_status st;
        size_t c, w;
        do {
            st = ref_frame_stream_decode(s, left ? at : NULL, left, &c, chunk, out_chunk, &w);
            if (w && total + w <= out_cap)
                memcpy(out + total, chunk, w);
            total += w;
            at += c;
            left -= c;
            if (st == REF_FRAME_OK && c == 0 && w == 0 && left) {
                stuck = 1;
                break;
            }
        } while (st == REF_FRAME_OK && (left || w == out_chunk));
        free(in);
        start = end;
        if (st != REF_FRAME_OK || stuck)
            break;
    }
    CHECK(s != NULL, "stream allocation");
    CHECK(!stuck, "streaming made no progress");
    CHECK(total <= out_cap, "streaming output larger than expected (%zu)", total);
    r = ref_frame_stream_finish(s);
    CHECK_EQ_SIZE(r.written, total, "streaming: written equals bytes delivered");
    ref_frame_stream_free(s);
    free(chunk);
    return r;
}

static int same_result(ref_frame_result a, ref_frame_result b)
{
    return a.status == b.status && a.written == b.written && a.consumed == b.consumed &&
           a.failed_check == b.failed_check && a.frames == b.frames &&
           (a.status != REF_FRAME_ERR_BLOCK || a.block_status == b.block_status);
}

static void print_result(const char *what, ref_frame_result r)
{
    fprintf(stderr, "  %s: %s check %s written %zu offset %llu frames %u\n", what,
            ref_frame_status_name(r.status), ref_frame_check_name(r.failed_check), r.written,
            (unsigned long long)r.consumed, r.frames);
}

/* Streaming equals one-shot for every split point and a few output chunk
 * sizes (the one-shot gets room for every block). */
static void every_split(const char *what, const ref_frame_options *o, const uint8_t *src, size_t n,
                        size_t max_out)
{
    size_t cap = max_out + SLACK, k, ci;
    uint8_t *want = malloc(cap), *got = malloc(cap);
    static const size_t chunks[] = { 1, 7, 1 << 16 };
    ref_frame_result ref = one_shot(o, src, n, want, cap);
    int bad = 0;

    for (ci = 0; ci < 3 && !bad; ci++) {
        for (k = 0; k <= n && !bad; k++) {
            size_t cut = k;
            ref_frame_result r = streamed(o, src, n, &cut, k == 0 || k == n ? 0 : 1,
                                          chunks[ci], got, cap);
            if (!same_result(r, ref) || memcmp(got, want, ref.written) != 0) {
                bad = 1;
                CHECK(0, "%s: streaming differs from one-shot at split %zu, chunk %zu",
                      what, k, chunks[ci]);
                print_result("one-shot", ref);
                print_result("streamed", r);
            }
        }
    }
    free(want);
    free(got);
}

/* Streaming with `pieces` random cuts and random chunk sizes equals one-shot. */
static void random_splits(const char *what, const ref_frame_options *o, const uint8_t *src,
                          size_t n, size_t max_out, int rounds, unsigned long long seed)
{
    size_t cap = max_out + SLACK;
    uint8_t *want = malloc(cap), *got = malloc(cap);
    ref_frame_result ref = one_shot(o, src, n, want, cap);
    int round;

    for (round = 0; round < rounds; round++) {
        size_t cuts[12], ncuts = 0, i, chunk;
        size_t pieces = 1 + check_rand(&seed) % 12;
        ref_frame_result r;
        for (i = 0; i + 1 < pieces && n > 1; i++) {
            size_t c = 1 + check_rand(&seed) % (n - 1);
            if (ncuts == 0 || c > cuts[ncuts - 1])
                cuts[ncuts++] = c;
        }
        chunk = 1 + check_rand(&seed) % (round % 2 ? 100000 : 300);
        r = streamed(o, src, n, cuts, ncuts, chunk, got, cap);
        CHECK(same_result(r, ref) && memcmp(got, want, ref.written) == 0,
              "%s: random split round %d differs", what, round);
        if (!same_result(r, ref)) {
            print_result("one-shot", ref);
            print_result("streamed", r);
            break;
        }
    }
    free(want);
    free(got);
}

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
    ref_frame_options o = opts();
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

/* ---- round trips ---------------------------------------------------- */

static void round_trip(const char *what, const ref_frame_prefs *p, const ref_frame_options *o,
                       const uint8_t *data, size_t n, unsigned long long seed)
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
    ref_frame_options o = opts();

    fill_data(dict, sizeof dict, 0, 77);
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
            fill_data(data, sizes[si], si == 3 ? 0 : 2, (unsigned long long)combo + 1);
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
    ref_frame_options o = opts();
    int bm;

    fill_data(data, n, 2, 5);
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
    ref_frame_options o = opts();
    ref_frame_result r;

    fill_data(data, 65536, 0, 3);
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
    ref_frame_options o = opts();
    ref_frame_result r;
    size_t with_dict, without, i;

    fill_data(dict, sizeof dict, 0, 9);
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

/* ---- error classes: one input per named check ------------------------ */

typedef struct error_case {
    const char *what;
    bytes in;
    ref_frame_options o;
    ref_frame_status status;
    int check;           /* REF_CHECK_* */
    long long offset;    /* -1: not checked */
    size_t written;
    size_t max_out;
} error_case;

static error_case ec_new(const char *what)
{
    error_case c;
    memset(&c, 0, sizeof c);
    c.what = what;
    c.o = opts();
    c.check = -1;
    c.offset = -1;
    c.max_out = 1 << 17;
    return c;
}

/* A small valid frame: header (FLG flg, BD 0x40) + stored "hello" +
 * LZ4 block "a"x19 + "tail!" + EndMark (+ content checksum). */
static const char *const small_content = "helloaaaaaaaaaaaaaaaaaaaatail!";
#define SMALL_LEN 30

static void small_frame(bytes *b, unsigned flg, uint64_t csize)
{
    bytes blk = { 0, 0, 0 };
    lz4_run_block(&blk, 19);
    b_header(b, flg, 0x40, csize, 0);
    b_block(b, "hello", 5, 1, flg & 0x10);
    b_block(b, blk.p, blk.n, 0, flg & 0x10);
    b_le32(b, 0);
    if (flg & 0x04)
        b_le32(b, ref_xxh32(small_content, SMALL_LEN, 0));
    b_free(&blk);
}

static void run_error_case(error_case *c, int splits)
{
    uint8_t *out = malloc(c->max_out + SLACK);
    ref_frame_result r = one_shot(&c->o, c->in.p, c->in.n, out, c->max_out + SLACK);
    CHECK(r.status == c->status, "%s: status %s, want %s", c->what,
          ref_frame_status_name(r.status), ref_frame_status_name(c->status));
    CHECK(r.failed_check == c->check, "%s: check %s, want %s", c->what,
          ref_frame_check_name(r.failed_check), ref_frame_check_name(c->check));
    CHECK(c->offset < 0 || r.consumed == (uint64_t)c->offset, "%s: offset %llu, want %lld",
          c->what, (unsigned long long)r.consumed, c->offset);
    CHECK_EQ_SIZE(r.written, c->written, c->what);
    if (splits)
        every_split(c->what, &c->o, c->in.p, c->in.n, c->max_out);
    else
        random_splits(c->what, &c->o, c->in.p, c->in.n, c->max_out, 3, 5);
    free(out);
    b_free(&c->in);
}

static void test_header_errors(void)
{
    error_case c;
    unsigned v, bit, code;

    c = ec_new("valid small frame");
    small_frame(&c.in, 0x64, 0);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);

    c = ec_new("unknown magic");
    small_frame(&c.in, 0x64, 0);
    c.in.p[0] = 0x05;
    c.status = REF_FRAME_ERR_UNKNOWN_MAGIC;
    c.check = REF_CHECK_FRAME_MAGIC_KNOWN;
    c.offset = 0;
    run_error_case(&c, 1);

    c = ec_new("garbage after a frame");
    small_frame(&c.in, 0x64, 0);
    b_put(&c.in, "garbage!", 8);
    c.status = REF_FRAME_ERR_UNKNOWN_MAGIC;
    c.check = REF_CHECK_FRAME_MAGIC_KNOWN;
    c.offset = (long long)c.in.n - 8;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);

    c = ec_new("2 bytes after a frame");
    small_frame(&c.in, 0x64, 0);
    b_put(&c.in, "\x04\x22", 2);
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = (long long)c.in.n - 2;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);

    c = ec_new("descriptor cut after FLG");
    b_le32(&c.in, REF_FRAME_MAGIC);
    b_byte(&c.in, 0x64);
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = 4;
    run_error_case(&c, 1);

    c = ec_new("descriptor cut inside the content size");
    b_header(&c.in, 0x6C, 0x40, 5, 0);
    c.in.n = 10;
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = 6;
    run_error_case(&c, 1);

    c = ec_new("cut inside a block size field");
    small_frame(&c.in, 0x64, 0);
    c.in.n = 9;
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = 7;
    run_error_case(&c, 1);

    c = ec_new("cut inside the content checksum");
    small_frame(&c.in, 0x64, 0);
    c.in.n -= 1;
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = (long long)c.in.n - 3;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);

    c = ec_new("cut before the EndMark");
    small_frame(&c.in, 0x60, 0);
    c.in.n -= 4;
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = (long long)c.in.n;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);

    /* Version Number must be 01: 00, 10, 11 (HC valid, so only this fails). */
    for (v = 0; v < 4; v++) {
        if (v == 1)
            continue;
        c = ec_new("FLG version not 01");
        small_frame(&c.in, (v << 6) | 0x24, 0);
        c.status = REF_FRAME_ERR_VERSION;
        c.check = REF_CHECK_FRAME_VERSION;
        c.offset = 4;
        run_error_case(&c, v == 0);
    }
    /* Reserved bits: FLG bit 1, BD bit 7 and bits 3..0. */
    c = ec_new("FLG reserved bit 1");
    small_frame(&c.in, 0x66, 0);
    c.status = REF_FRAME_ERR_RESERVED_BIT;
    c.check = REF_CHECK_FRAME_RESERVED_BITS;
    c.offset = 4;
    run_error_case(&c, 1);
    for (bit = 0; bit < 8; bit++) {
        if (bit >= 4 && bit <= 6)
            continue;
        c = ec_new("BD reserved bit");
        b_header(&c.in, 0x60, 0x40 | (1u << bit), 0, 0);
        b_le32(&c.in, 0);
        c.status = REF_FRAME_ERR_RESERVED_BIT;
        c.check = REF_CHECK_FRAME_RESERVED_BITS;
        c.offset = 5;
        run_error_case(&c, bit == 7);
    }
    /* Block Maximum Size: 0..3 are not defined; 4..7 are. */
    for (code = 0; code < 8; code++) {
        c = ec_new("BD block maximum size code");
        b_header(&c.in, 0x60, code << 4, 0, 0);
        b_le32(&c.in, 0);
        c.status = code >= 4 ? REF_FRAME_OK : REF_FRAME_ERR_BLOCK_MAX;
        c.check = code >= 4 ? -1 : REF_CHECK_FRAME_BLOCK_MAX_VALID;
        c.offset = code >= 4 ? 11 : 5;
        run_error_case(&c, code == 0);
    }
    c = ec_new("header checksum");
    small_frame(&c.in, 0x64, 0);
    c.in.p[6] ^= 1;
    c.status = REF_FRAME_ERR_HEADER_CHECKSUM;
    c.check = REF_CHECK_FRAME_HEADER_CHECKSUM;
    c.offset = 6;
    run_error_case(&c, 1);

    c = ec_new("header checksum, 19-byte header");
    b_header(&c.in, 0x6D, 0x40, 0, 99);
    b_le32(&c.in, 0);
    c.in.p[18] ^= 0x80;
    c.status = REF_FRAME_ERR_HEADER_CHECKSUM;
    c.check = REF_CHECK_FRAME_HEADER_CHECKSUM;
    c.offset = 18;
    run_error_case(&c, 1);

    c = ec_new("Dict-ID after the content size, no dictionary");
    b_header(&c.in, 0x69, 0x40, 0, 99);
    b_le32(&c.in, 0);
    c.status = REF_FRAME_ERR_DICT_MISSING;
    c.check = REF_CHECK_FRAME_DICT_AVAILABLE;
    c.offset = 14;
    run_error_case(&c, 1);
}

static void test_block_errors(void)
{
    error_case c;
    uint8_t *big = calloc(65537 + 8, 1);
    bytes blk = { 0, 0, 0 };

    /* Block Size larger than the block maximum: stored and compressed. */
    c = ec_new("stored block of 65537 bytes with B4");
    b_header(&c.in, 0x60, 0x40, 0, 0);
    b_block(&c.in, big, 65537, 1, 0);
    b_le32(&c.in, 0);
    c.status = REF_FRAME_ERR_BLOCK_SIZE;
    c.check = REF_CHECK_BLOCK_SIZE_WITHIN_MAX;
    c.offset = 7;
    run_error_case(&c, 0);
    c = ec_new("stored block of 65536 bytes with B4 (the limit)");
    b_header(&c.in, 0x60, 0x40, 0, 0);
    b_block(&c.in, big, 65536, 1, 0);
    b_le32(&c.in, 0);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = 65536;
    run_error_case(&c, 0);
    c = ec_new("compressed block size field 65537 with B4");
    b_header(&c.in, 0x60, 0x40, 0, 0);
    b_le32(&c.in, 65537);
    c.status = REF_FRAME_ERR_BLOCK_SIZE;
    c.check = REF_CHECK_BLOCK_SIZE_WITHIN_MAX;
    c.offset = 7;
    run_error_case(&c, 1);

    c = ec_new("block data cut");
    small_frame(&c.in, 0x64, 0);
    c.in.n = 14;
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_BLOCK_DATA_IN_INPUT;
    c.offset = 11;
    run_error_case(&c, 1);
    c = ec_new("block checksum cut");
    small_frame(&c.in, 0x74, 0);
    c.in.n = 18;
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_BLOCK_DATA_IN_INPUT;
    c.offset = 11;
    run_error_case(&c, 1);

    c = ec_new("block checksum mismatch (data)");
    small_frame(&c.in, 0x74, 0);
    c.in.p[12] ^= 0x20;   /* "hello" -> "hEllo" */
    c.status = REF_FRAME_ERR_BLOCK_CHECKSUM;
    c.check = REF_CHECK_BLOCK_CHECKSUM;
    c.offset = 16;
    run_error_case(&c, 1);
    c = ec_new("block checksum mismatch, second block");
    small_frame(&c.in, 0x74, 0);
    c.in.p[c.in.n - 9] ^= 1;
    c.status = REF_FRAME_ERR_BLOCK_CHECKSUM;
    c.check = REF_CHECK_BLOCK_CHECKSUM;
    c.offset = (long long)c.in.n - 12;
    c.written = 5;
    run_error_case(&c, 1);
    c = ec_new("empty stored block with its checksum");
    b_header(&c.in, 0x70, 0x40, 0, 0);
    b_block(&c.in, "", 0, 1, 1);
    b_le32(&c.in, 0);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    run_error_case(&c, 1);

    /* A compressed block that decodes to block max + 1 (B4). */
    c = ec_new("compressed block decodes to 65537 bytes with B4");
    lz4_run_block(&blk, 65531);
    b_header(&c.in, 0x60, 0x40, 0, 0);
    b_block(&c.in, blk.p, blk.n, 0, 0);
    b_le32(&c.in, 0);
    c.status = REF_FRAME_ERR_BLOCK_OUTPUT_SIZE;
    c.check = REF_CHECK_BLOCK_OUTPUT_WITHIN_MAX;
    run_error_case(&c, 1);
    c = ec_new("compressed block decodes to 65536 bytes with B4");
    blk.n = 0;
    lz4_run_block(&blk, 65530);
    b_header(&c.in, 0x60, 0x40, 0, 0);
    b_block(&c.in, blk.p, blk.n, 0, 0);
    b_le32(&c.in, 0);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = 65536;
    run_error_case(&c, 0);

    /* Invalid LZ4 blocks: the block decoder's check, with the profile. */
    c = ec_new("block with a truncated literal run");
    b_header(&c.in, 0x60, 0x40, 0, 0);
    b_block(&c.in, "\x30" "ab", 3, 0, 0);
    b_le32(&c.in, 0);
    c.status = REF_FRAME_ERR_BLOCK;
    c.check = REF_CHECK_LITERALS_IN_INPUT;
    c.offset = 12;
    run_error_case(&c, 1);
    c = ec_new("block with 4 final literals, compatible profile");
    blk.n = 0;
    b_sequence(&blk, "abcdefgh", 8, 1, 8, 16);
    b_sequence(&blk, "wxyz", 4, 0, 0, 0);
    b_header(&c.in, 0x60, 0x40, 0, 0);
    b_block(&c.in, blk.p, blk.n, 0, 0);
    b_le32(&c.in, 0);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = 28;
    run_error_case(&c, 1);
    c = ec_new("block with 4 final literals, strict profile");
    b_header(&c.in, 0x60, 0x40, 0, 0);
    b_block(&c.in, blk.p, blk.n, 0, 0);
    b_le32(&c.in, 0);
    c.o.profile = REF_PROFILE_STRICT;
    c.status = REF_FRAME_ERR_BLOCK;
    c.check = REF_CHECK_EOB_LAST_LITERALS;
    run_error_case(&c, 1);

    /* Content Size: larger than the content (seen at the EndMark), and
     * smaller (seen at the block that passes it). */
    c = ec_new("content size larger than the content");
    small_frame(&c.in, 0x6C, SMALL_LEN + 1);
    c.status = REF_FRAME_ERR_CONTENT_SIZE;
    c.check = REF_CHECK_CONTENT_SIZE_MATCHES;
    c.offset = (long long)c.in.n - 8;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);
    c = ec_new("content size smaller than the content");
    small_frame(&c.in, 0x6C, 7);
    c.status = REF_FRAME_ERR_CONTENT_SIZE;
    c.check = REF_CHECK_CONTENT_SIZE_MATCHES;
    c.offset = 24;
    c.written = 5;
    run_error_case(&c, 1);
    c = ec_new("content size exact");
    small_frame(&c.in, 0x6C, SMALL_LEN);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);

    c = ec_new("content checksum mismatch");
    small_frame(&c.in, 0x64, 0);
    c.in.p[c.in.n - 1] ^= 0x40;
    c.status = REF_FRAME_ERR_CONTENT_CHECKSUM;
    c.check = REF_CHECK_CONTENT_CHECKSUM;
    c.offset = (long long)c.in.n - 4;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);

    b_free(&blk);
    free(big);
}

static void test_skippable_and_concatenation(void)
{
    error_case c;
    bytes leg = { 0, 0, 0 }, blk = { 0, 0, 0 };
    unsigned m;

    lz4_run_block(&blk, 19);   /* 25 bytes: "a" x 20 + "tail!" */
    b_le32(&leg, REF_LEGACY_MAGIC);
    b_le32(&leg, (uint32_t)blk.n);
    b_put(&leg, blk.p, blk.n);

    c = ec_new("frame, skippables (every magic), legacy, frame");
    small_frame(&c.in, 0x64, 0);
    for (m = 0; m < 16; m++) {
        b_le32(&c.in, REF_SKIPPABLE_MAGIC_MIN + m);
        b_le32(&c.in, m);
        b_put(&c.in, "0123456789abcdef", m);
    }
    b_put(&c.in, leg.p, leg.n);
    small_frame(&c.in, 0x7C, SMALL_LEN);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = 2 * SMALL_LEN + 25;
    c.max_out = 200;
    run_error_case(&c, 1);

    c = ec_new("skippable frame first, then a frame");
    b_le32(&c.in, REF_SKIPPABLE_MAGIC_MAX);
    b_le32(&c.in, 3);
    b_put(&c.in, "xyz", 3);
    small_frame(&c.in, 0x64, 0);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);

    c = ec_new("skippable user data cut");
    b_le32(&c.in, REF_SKIPPABLE_MAGIC_MIN + 5);
    b_le32(&c.in, 5);
    b_put(&c.in, "1234", 4);
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_SKIPPABLE_DATA_IN_INPUT;
    c.offset = 8;
    run_error_case(&c, 1);
    c = ec_new("skippable size field cut");
    b_le32(&c.in, REF_SKIPPABLE_MAGIC_MIN);
    b_put(&c.in, "\x05\x00", 2);
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = 4;
    run_error_case(&c, 1);
    b_free(&leg);
    b_free(&blk);
}

/* ---- legacy frames -------------------------------------------------- */

static void test_legacy_errors(void)
{
    error_case c;
    bytes blk = { 0, 0, 0 }, leg = { 0, 0, 0 };
    lz4_run_block(&blk, 19);
    b_le32(&leg, REF_LEGACY_MAGIC);
    b_le32(&leg, (uint32_t)blk.n);
    b_put(&leg, blk.p, blk.n);

    c = ec_new("two legacy members");
    b_put(&c.in, leg.p, leg.n);
    b_put(&c.in, leg.p, leg.n);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = 50;
    run_error_case(&c, 1);

    c = ec_new("legacy chunk size above the bound");
    b_le32(&c.in, REF_LEGACY_MAGIC);
    b_le32(&c.in, REF_LEGACY_CHUNK_MAX + 1);
    b_put(&c.in, blk.p, blk.n);
    c.status = REF_FRAME_ERR_LEGACY_CHUNK_SIZE;
    c.check = REF_CHECK_LEGACY_CHUNK_WITHIN_MAX;
    c.offset = 4;
    run_error_case(&c, 1);
    c = ec_new("legacy member then garbage");
    b_put(&c.in, leg.p, leg.n);
    b_put(&c.in, "garbage!", 8);
    c.status = REF_FRAME_ERR_LEGACY_CHUNK_SIZE;
    c.check = REF_CHECK_LEGACY_CHUNK_WITHIN_MAX;
    c.offset = (long long)leg.n;
    c.written = 25;
    run_error_case(&c, 1);
    c = ec_new("legacy chunk size at the bound, data cut");
    b_le32(&c.in, REF_LEGACY_MAGIC);
    b_le32(&c.in, REF_LEGACY_CHUNK_MAX);
    b_put(&c.in, blk.p, blk.n);
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_LEGACY_CHUNK_IN_INPUT;
    c.offset = 8;
    run_error_case(&c, 1);
    /* history KLZ4-UNLZ4-CHUNK: 1 MiB announced, 10 bytes present. */
    c = ec_new("legacy chunk of 1 MiB, 10 bytes present");
    b_le32(&c.in, REF_LEGACY_MAGIC);
    b_le32(&c.in, 1u << 20);
    b_put(&c.in, blk.p, 10);
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_LEGACY_CHUNK_IN_INPUT;
    c.offset = 8;
    run_error_case(&c, 1);
    c = ec_new("legacy chunk size cut");
    b_put(&c.in, leg.p, leg.n);
    b_put(&c.in, "\x10\x00", 2);
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = (long long)leg.n;
    c.written = 25;
    run_error_case(&c, 1);

    /* "All blocks must be completely filled, except the last one." */
    c = ec_new("short legacy chunk then another, strict");
    b_put(&c.in, leg.p, leg.n);
    b_le32(&c.in, (uint32_t)blk.n);
    b_put(&c.in, blk.p, blk.n);
    c.o.profile = REF_PROFILE_STRICT;
    c.status = REF_FRAME_ERR_LEGACY_CHUNK_SHORT;
    c.check = REF_CHECK_LEGACY_CHUNK_FULL;
    c.offset = (long long)leg.n;
    c.written = 25;
    run_error_case(&c, 1);
    c = ec_new("short legacy chunk then another, compatible (lz4 1.9.4 accepts)");
    b_put(&c.in, leg.p, leg.n);
    b_le32(&c.in, (uint32_t)blk.n);
    b_put(&c.in, blk.p, blk.n);
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = 50;
    run_error_case(&c, 1);

    /* Zero padding (KLZ4-UNLZ4-PAD): rejected by default like lz4 1.9.4
     * (a chunk of size 0 is an empty, invalid block), accepted on request. */
    c = ec_new("legacy, 4 zero bytes, legacy: default");
    b_put(&c.in, leg.p, leg.n);
    b_le32(&c.in, 0);
    b_put(&c.in, leg.p, leg.n);
    c.status = REF_FRAME_ERR_BLOCK;
    c.check = REF_CHECK_TOKEN_IN_INPUT;
    c.offset = (long long)leg.n + 4;
    c.written = 25;
    run_error_case(&c, 1);
    c = ec_new("legacy, 4 zero bytes, legacy: zero padding");
    b_put(&c.in, leg.p, leg.n);
    b_le32(&c.in, 0);
    b_put(&c.in, leg.p, leg.n);
    b_le32(&c.in, 0);
    b_le32(&c.in, 0);
    b_put(&c.in, "\0\0", 2);
    c.o.zero_padding = 1;
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = 50;
    run_error_case(&c, 1);
    c = ec_new("padding ends a legacy frame: a chunk after it is not a magic");
    b_put(&c.in, leg.p, leg.n);
    b_le32(&c.in, 0);
    b_le32(&c.in, (uint32_t)blk.n);
    c.o.zero_padding = 1;
    c.status = REF_FRAME_ERR_UNKNOWN_MAGIC;
    c.check = REF_CHECK_FRAME_MAGIC_KNOWN;
    c.offset = (long long)leg.n + 4;
    c.written = 25;
    run_error_case(&c, 1);
    c = ec_new("frame, 3 zero bytes: default");
    small_frame(&c.in, 0x64, 0);
    b_put(&c.in, "\0\0\0", 3);
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = (long long)c.in.n - 3;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);
    c = ec_new("zero words, frame, zero words, 3 zero bytes: zero padding");
    b_le32(&c.in, 0);
    small_frame(&c.in, 0x64, 0);
    b_le32(&c.in, 0);
    b_put(&c.in, "\0\0\0", 3);
    c.o.zero_padding = 1;
    c.status = REF_FRAME_OK;
    c.offset = (long long)c.in.n;
    c.written = SMALL_LEN;
    run_error_case(&c, 1);
    c = ec_new("legacy, 2 non-zero bytes: zero padding");
    b_put(&c.in, leg.p, leg.n);
    b_put(&c.in, "\0\1", 2);
    c.o.zero_padding = 1;
    c.status = REF_FRAME_ERR_TRUNCATED;
    c.check = REF_CHECK_FRAME_FIELD_IN_INPUT;
    c.offset = (long long)leg.n;
    c.written = 25;
    run_error_case(&c, 1);
    b_free(&blk);
    b_free(&leg);
}

/* Legacy frames larger than one chunk, several members, a chunk that
 * decodes past 8 MiB. */
static void test_legacy_large(void)
{
    size_t n = REF_LEGACY_CHUNK + 100000, bound = ref_legacy_bound(n), len, len2;
    uint8_t *data = malloc(n), *frame = malloc(2 * bound + 64), *out = malloc(2 * n);
    ref_frame_options o = opts();
    ref_frame_result r;
    error_case c;
    bytes blk = { 0, 0, 0 };

    fill_data(data, n, 2, 8);
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

    c = ec_new("legacy chunk decoding to 8 MiB + 1");
    lz4_run_block(&blk, REF_LEGACY_CHUNK - 5);
    b_le32(&c.in, REF_LEGACY_MAGIC);
    b_le32(&c.in, (uint32_t)blk.n);
    b_put(&c.in, blk.p, blk.n);
    c.status = REF_FRAME_ERR_BLOCK_OUTPUT_SIZE;
    c.check = REF_CHECK_BLOCK_OUTPUT_WITHIN_MAX;
    c.max_out = REF_LEGACY_CHUNK + 64;
    run_error_case(&c, 0);
    b_free(&blk);
    free(data);
    free(frame);
    free(out);
}

/* ---- one-shot output capacity -------------------------------------- */

static void test_output_capacity(void)
{
    bytes f = { 0, 0, 0 }, blk = { 0, 0, 0 };
    ref_frame_options o = opts();
    size_t cap;

    small_frame(&f, 0x64, 0);
    for (cap = 0; cap <= SMALL_LEN + 1; cap++) {
        uint8_t *out = malloc(cap ? cap : 1);
        ref_frame_result r = one_shot(&o, f.p, f.n, cap ? out : NULL, cap);
        if (cap >= SMALL_LEN) {
            CHECK(r.status == REF_FRAME_OK && r.written == SMALL_LEN &&
                  memcmp(out, small_content, SMALL_LEN) == 0, "capacity %zu: decodes", cap);
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
    b_free(&f);
    lz4_run_block(&blk, 1000);
    b_header(&f, 0x60, 0x70, 0, 0);
    b_block(&f, blk.p, blk.n, 0, 0);
    b_le32(&f, 0);
    {
        uint8_t *out = malloc(1006);
        ref_frame_result r = one_shot(&o, f.p, f.n, out, 1005);
        CHECK(r.status == REF_FRAME_ERR_OUTPUT_FULL, "B7 block into a small buffer");
        r = one_shot(&o, f.p, f.n, out, 1006);
        CHECK(r.status == REF_FRAME_OK && r.written == 1006, "B7 block, exact buffer");
        free(out);
    }
    b_free(&f);
    b_free(&blk);
}

/* ---- streaming details ---------------------------------------------- */

/* history ULZ4-2017-LZ4F-HDR: a 19-byte header fed one byte at a time. */
static void test_byte_at_a_time(void)
{
    uint8_t dict[100], data[3000], frame[4000], out[3000], one;
    ref_frame_prefs p;
    ref_frame_options o = opts();
    ref_frame_stream *s;
    ref_frame_result r;
    size_t len, i, total = 0;

    fill_data(dict, sizeof dict, 0, 1);
    fill_data(data, sizeof data, 2, 2);
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
        uint8_t *in = heap_copy(frame + i, 1);
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
    bytes bad = { 0, 0, 0 }, good = { 0, 0, 0 };
    ref_frame_stream *s = ref_frame_stream_new(NULL);
    uint8_t out[64];
    size_t c, w;
    ref_frame_status st;
    ref_frame_result r;

    small_frame(&bad, 0x6C, 100);   /* content size 100, content 30 */
    small_frame(&good, 0x64, 0);
    st = ref_frame_stream_decode(s, bad.p, bad.n, &c, out, sizeof out, &w);
    CHECK(st == REF_FRAME_ERR_CONTENT_SIZE, "first frame fails: %s", ref_frame_status_name(st));
    st = ref_frame_stream_decode(s, good.p, good.n, &c, out, sizeof out, &w);
    CHECK(st == REF_FRAME_ERR_CONTENT_SIZE && c == 0 && w == 0, "errors are sticky");
    ref_frame_stream_reset(s);
    st = ref_frame_stream_decode(s, good.p, good.n, &c, out, sizeof out, &w);
    r = ref_frame_stream_finish(s);
    CHECK(st == REF_FRAME_OK && r.status == REF_FRAME_OK && w == SMALL_LEN && c == good.n &&
          r.consumed == good.n && memcmp(out, small_content, SMALL_LEN) == 0,
          "after reset: %s", ref_frame_status_name(r.status));
    /* finish with output not taken is a usage error */
    ref_frame_stream_reset(s);
    st = ref_frame_stream_decode(s, good.p, good.n, &c, out, 10, &w);
    r = ref_frame_stream_finish(s);
    CHECK(st == REF_FRAME_OK && w == 10 && r.status == REF_FRAME_ERR_BAD_PARAMETER,
          "finish with output pending");
    ref_frame_stream_free(s);
    b_free(&bad);
    b_free(&good);
    {
        ref_frame_options o = opts();
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
        fill_data(data, n, 0, si + 1);   /* incompressible: stored blocks */
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
    ref_frame_options o = opts();
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

int main(int argc, char **argv)
{
    (void)argc;
    test_xxh32();
    test_known_frames();
    test_flag_combinations();
    test_multi_block();
    test_linked_blocks();
    test_dictionary();
    test_header_errors();
    test_block_errors();
    test_skippable_and_concatenation();
    test_legacy_errors();
    test_legacy_large();
    test_output_capacity();
    test_byte_at_a_time();
    test_reset();
    test_encoder_limits();
    test_formats();
    return check_summary(argv[0]);
}
