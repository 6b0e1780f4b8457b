/*
 * The difference probe's driver: the input set, the record line, the
 * validity oracle (ref) and the bounds. See probe.h.
 * Usage: probe   (one JSON line per call on stdout; exit 0)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "lz4frame_ref.h"
#include "probe.h"
#include "ref_calls.h"
#include "sha256.h"
#include "testdata.h"

const struct lz4_subject *probe_subject;

void probe_emit(const char *call, const char *kind, int valid, long long result,
                const unsigned char *bytes, size_t n)
{
    unsigned char *all = xmalloc(n + 32);
    char hex[65];
    int head = snprintf((char *)all, 32, "%lld:", result);
    if (n)
        memcpy(all + head, bytes, n);
    sha256_hex(all, (size_t)head + n, hex);
    free(all);
    hex[16] = 0;
    if (valid < 0)
        printf("{\"probe\":\"%s\",\"kind\":\"%s\",\"digest\":\"%s\"}\n", call, kind, hex);
    else
        printf("{\"probe\":\"%s\",\"kind\":\"%s\",\"valid\":%d,\"digest\":\"%s\"}\n", call,
               kind, valid, hex);
    fflush(stdout);
}

int probe_block_valid(const unsigned char *blk, size_t blk_n, const unsigned char *want,
                      size_t want_n, const unsigned char *dict, size_t dict_n)
{
    unsigned char *out = xmalloc(want_n + 1);
    ref_decode_result r = ref_decode_with(blk, blk_n, out, want_n, dict, dict_n,
                                          REF_PROFILE_STRICT, 0, 0);
    int ok = r.status == REF_OK && r.written == want_n && !memcmp(out, want, want_n);
    free(out);
    return ok;
}

int probe_frame_valid(const unsigned char *frame, size_t n, const unsigned char *want,
                      size_t want_n, const unsigned char *dict, size_t dict_n)
{
    ref_frame_options o;
    unsigned char *out = xmalloc(want_n + 1);
    ref_frame_result r;
    int ok;
    ref_frame_options_default(&o);
    o.dict = dict;
    o.dict_len = dict_n;
    r = ref_frame_decode(&o, frame, n, out, want_n);
    ok = r.status == REF_FRAME_OK && r.written == want_n && !memcmp(out, want, want_n);
    free(out);
    return ok;
}

/* Sizes around every constant of the format: MINMATCH, LASTLITERALS (5),
 * MFLIMIT (12), the 13-byte minimum for a match, the 64 KiB window and
 * the byU16 table limit (64 KiB + 11), the 255-steps of lengths. */
static const size_t SIZES[] = { 0, 1, 4, 5, 11, 12, 13, 14, 17, 19, 20, 32, 64, 100, 255,
                                270, 1000, 4096, 65535, 65536, 65546, 65547, 65548,
                                70000, 140000 };
static const char *const KINDS[] = { "text", "mixed", "random", "zeros" };

/* Repeats only at distances 65534 to 65537 (the window's edge). */
static unsigned char *window_data(size_t n)
{
    unsigned char *d = testdata_make("unique", n, 7);
    size_t p;
    int k = 0;
    for (p = 65600; p + 24 <= n; p += 300, k++)
        memcpy(d + p, d + p - (65534 + (size_t)(k % 4)), 24);
    return d;
}

static size_t make_inputs(struct probe_input *in, size_t max)
{
    size_t count = 0, s, k;
    for (s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++)
        for (k = 0; k < sizeof KINDS / sizeof KINDS[0] && count < max; k++) {
            /* random and zeros: only a few sizes (they compress trivially) */
            if (k >= 2 && SIZES[s] != 13 && SIZES[s] != 1000 && SIZES[s] != 70000)
                continue;
            snprintf(in[count].name, sizeof in[count].name, "%s-%zu", KINDS[k], SIZES[s]);
            in[count].data = testdata_make(KINDS[k], SIZES[s], 1 + s);
            in[count].n = SIZES[s];
            count++;
        }
    snprintf(in[count].name, sizeof in[count].name, "window-%d", 140000);
    in[count].data = window_data(140000);
    in[count].n = 140000;
    return count + 1;
}

void probe_bounds(void)
{
    static const long long block_sizes[] = { 0, 1, 255, 256, 65536, 0x7E000000, 0x7E000001,
                                             -1 };
    static const size_t frame_sizes[] = { 0, 1, 65535, 65536, 65537, 262144, 4194304,
                                          4194305, 10000000 };
    const struct lz4_subject *s = probe_subject;
    char call[96];
    size_t i, b;
    if (s->caps & CAP_COMPRESS_BOUND)
        for (i = 0; i < sizeof block_sizes / sizeof block_sizes[0]; i++) {
            snprintf(call, sizeof call, "compress_bound[%lld]", block_sizes[i]);
            probe_emit(call, "api", -1, s->compress_bound((int)block_sizes[i]), NULL, 0);
        }
    for (b = 0; b <= 7; b = b ? b + 1 : 4)
        for (i = 0; i < sizeof frame_sizes / sizeof frame_sizes[0]; i++) {
            struct subject_frame_prefs p;
            memset(&p, 0, sizeof p);
            p.block_size_id = (int)b;
            p.content_checksum = (int)(i & 1);
            p.block_checksum = (int)((i >> 1) & 1);
            p.auto_flush = (int)(b & 1);
            if (s->caps & CAP_FRAME_COMPRESS) {
                snprintf(call, sizeof call, "frame_compress_bound[bd=%zu,%zu]", b,
                         frame_sizes[i]);
                probe_emit(call, "api", -1, (long long)s->frame_compress_bound(frame_sizes[i], &p),
                           NULL, 0);
            }
            if (s->frame_compress_update_bound) {
                snprintf(call, sizeof call, "frame_update_bound[bd=%zu,%zu]", b,
                         frame_sizes[i]);
                probe_emit(call, "api", -1,
                           (long long)s->frame_compress_update_bound(frame_sizes[i], &p), NULL, 0);
            }
        }
}

int main(void)
{
    static struct probe_input in[128];
    size_t count, i;
    probe_subject = lz4gate_subject();
    count = make_inputs(in, sizeof in / sizeof in[0] - 1);
    probe_bounds();
    for (i = 0; i < count; i++) {
        probe_block_compressors(&in[i]);
        probe_stream_compressors(&in[i]);
        probe_frame_compressors(&in[i]);
        probe_block_decoders(&in[i]);
        probe_frame_decoders(&in[i]);
    }
    for (i = 0; i < count; i++)
        free(in[i].data);
    printf("{\"probe\":\"(end)\",\"kind\":\"api\",\"digest\":\"-\"}\n");
    return 0;
}
