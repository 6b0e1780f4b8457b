/* One-shot and streamed frame decoding, compared (frame_split.h). */
#include "frame_split.h"

#include <string.h>

#include "alloc.h"
#include "check.h"

ref_frame_options frame_opts(void)
{
    ref_frame_options o;
    ref_frame_options_default(&o);
    return o;
}

ref_frame_result one_shot(const ref_frame_options *o, const uint8_t *src, size_t n,
                          uint8_t *dst, size_t cap)
{
    uint8_t *in = xmemdup(src, n);
    ref_frame_result r = ref_frame_decode(o, n ? in : NULL, n, dst, cap);
    free(in);
    return r;
}

/*
 * Streaming decode on s, reset first: the input cut at cuts[0..ncuts)
 * (ascending), each piece in its own exactly sized heap buffer, output
 * taken out_chunk bytes at a time and appended to out[0..out_cap).
 * The callers decode every split on one stream, reset between splits (so
 * a reset that keeps stale state fails here too): a new stream per split
 * reallocated ref's 128 KiB window each time, and under ASan those
 * allocations were two thirds of this program's run time.
 */
static ref_frame_result streamed(ref_frame_stream *s, const uint8_t *src, size_t n,
                                 const size_t *cuts, size_t ncuts, size_t out_chunk,
                                 uint8_t *out, size_t out_cap)
{
    uint8_t *chunk;
    size_t piece, start = 0, total = 0;
    ref_frame_result r;
    int stuck = 0;

    memset(&r, 0, sizeof r);
    CHECK(s != NULL, "stream allocation");
    if (!s) {
        r.status = REF_FRAME_ERR_NO_MEMORY;
        return r;
    }
    ref_frame_stream_reset(s);
    chunk = xmalloc(out_chunk);
    for (piece = 0; piece <= ncuts; piece++) {
        size_t end = piece < ncuts ? cuts[piece] : n, left = end - start;
        uint8_t *in = xmemdup(src + start, left);
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
    CHECK(!stuck, "streaming made no progress");
    CHECK(total <= out_cap, "streaming output larger than expected (%zu)", total);
    r = ref_frame_stream_finish(s);
    CHECK_EQ_SIZE(r.written, total, "streaming: written equals bytes delivered");
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

void every_split(const char *what, const ref_frame_options *o, const uint8_t *src, size_t n,
                 size_t max_out)
{
    size_t cap = max_out + SLACK, k, ci;
    uint8_t *want = xmalloc(cap), *got = xmalloc(cap);
    static const size_t chunks[] = { 1, 7, 1 << 16 };
    ref_frame_result ref = one_shot(o, src, n, want, cap);
    ref_frame_stream *s = ref_frame_stream_new(o);
    int bad = 0;

    for (ci = 0; ci < 3 && !bad; ci++) {
        for (k = 0; k <= n && !bad; k++) {
            size_t cut = k;
            ref_frame_result r = streamed(s, src, n, &cut, k == 0 || k == n ? 0 : 1,
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
    ref_frame_stream_free(s);
    free(want);
    free(got);
}

void random_splits(const char *what, const ref_frame_options *o, const uint8_t *src,
                   size_t n, size_t max_out, int rounds, uint64_t seed)
{
    size_t cap = max_out + SLACK;
    uint8_t *want = xmalloc(cap), *got = xmalloc(cap);
    ref_frame_result ref = one_shot(o, src, n, want, cap);
    ref_prng rng = { seed };
    ref_frame_stream *s = ref_frame_stream_new(o);
    int round;

    for (round = 0; round < rounds; round++) {
        size_t cuts[12], ncuts = 0, i, chunk;
        size_t pieces = 1 + ref_prng_next(&rng) % 12;
        ref_frame_result r;
        for (i = 0; i + 1 < pieces && n > 1; i++) {
            size_t c = 1 + ref_prng_next(&rng) % (n - 1);
            if (ncuts == 0 || c > cuts[ncuts - 1])
                cuts[ncuts++] = c;
        }
        chunk = 1 + ref_prng_next(&rng) % (round % 2 ? 100000 : 300);
        r = streamed(s, src, n, cuts, ncuts, chunk, got, cap);
        CHECK(same_result(r, ref) && memcmp(got, want, ref.written) == 0,
              "%s: random split round %d differs", what, round);
        if (!same_result(r, ref)) {
            print_result("one-shot", ref);
            print_result("streamed", r);
            break;
        }
    }
    ref_frame_stream_free(s);
    free(want);
    free(got);
}

