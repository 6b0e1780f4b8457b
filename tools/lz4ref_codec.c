/*
 * lz4ref: the compression and decompression loops, over stdio streams.
 * Compression reads one block at a time (the frame encoder's incremental
 * API; legacy: 8 MiB chunks). Decompression feeds the streaming frame
 * decoder 1 MiB at a time, so any input size works in bounded memory.
 */
#include <stdlib.h>
#include <string.h>

#include "frame_checks.h"
#include "lz4ref_cli.h"

#define IN_CHUNK ((size_t)1 << 20)
#define OUT_CHUNK ((size_t)1 << 20)

/* fread until n bytes or end of input; returns the count, -1 on error. */
static long long read_full(FILE *f, uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        size_t r = fread(buf + got, 1, n - got, f);
        if (r == 0)
            break;
        got += r;
    }
    return ferror(f) ? -1 : (long long)got;
}

static int write_all(tool_job *job, const uint8_t *p, size_t n)
{
    if (!job->out || n == 0)
        return 1;
    if (fwrite(p, 1, n, job->out) != n) {
        fprintf(stderr, "lz4ref: write error\n");
        return 0;
    }
    return 1;
}

static int io_error(tool_job *job, const char *what)
{
    fprintf(stderr, "lz4ref: %s: %s\n", job->in_name, what);
    return EXIT_USAGE_IO;
}

static int compress_legacy(tool_job *job)
{
    const size_t cap = 4 + REF_LEGACY_CHUNK_MAX;
    uint8_t *in = malloc(REF_LEGACY_CHUNK), *out = malloc(cap);
    uint32_t state[REF_ENCODE_STATE_SIZE / 4];
    int rc = EXIT_OK;
    long long n;

    if (!in || !out) {
        rc = io_error(job, "out of memory");
        goto done;
    }
    if (!write_all(job, out, ref_legacy_put_magic(out, cap))) {
        rc = EXIT_USAGE_IO;
        goto done;
    }
    while ((n = read_full(job->in, in, REF_LEGACY_CHUNK)) > 0) {
        size_t w = ref_legacy_put_chunk(in, (size_t)n, out, cap, job->prefs.acceleration, state);
        if (w == 0) {
            rc = io_error(job, "legacy chunk does not fit its bound (internal error)");
            goto done;
        }
        if (!write_all(job, out, w)) {
            rc = EXIT_USAGE_IO;
            goto done;
        }
    }
    if (n < 0)
        rc = io_error(job, "read error");
done:
    free(in);
    free(out);
    return rc;
}

int tool_compress(tool_job *job)
{
    ref_frame_encoder *e;
    uint8_t *in, *out;
    size_t bmax, w;
    long long n;
    int rc = EXIT_OK;

    if (job->legacy)
        return compress_legacy(job);
    bmax = ref_frame_block_max(job->prefs.block_max);
    e = malloc(sizeof *e);
    in = malloc(bmax);
    out = malloc(REF_FRAME_BLOCK_BOUND(bmax));
    if (!e || !in || !out) {
        rc = io_error(job, "out of memory");
        goto done;
    }
    if (job->prefs.content_size && !job->content_size_known) {
        /* As lz4 1.9.4 does: the size of a pipe is not known in advance. */
        if (!job->quiet)
            fprintf(stderr, "lz4ref: %s: size unknown (not a regular file): "
                    "content size not written\n", job->in_name);
        job->prefs.content_size = 0;
    }
    w = ref_frame_begin(e, &job->prefs, job->content_size, out, REF_FRAME_HEADER_MAX);
    if (w == 0 || !write_all(job, out, w)) {
        rc = w ? EXIT_USAGE_IO : io_error(job, "invalid frame preferences");
        goto done;
    }
    while ((n = read_full(job->in, in, bmax)) > 0) {
        w = ref_frame_put_block(e, in, (size_t)n, out, REF_FRAME_BLOCK_BOUND(bmax));
        if (w == 0 || !write_all(job, out, w)) {
            rc = w ? EXIT_USAGE_IO : io_error(job, "block does not fit its bound (internal error)");
            goto done;
        }
    }
    if (n < 0) {
        rc = io_error(job, "read error");
        goto done;
    }
    w = ref_frame_end(e, out, 8);
    if (w == 0) {
        rc = io_error(job, "input size changed while reading (content size would be wrong)");
        goto done;
    }
    if (!write_all(job, out, w))
        rc = EXIT_USAGE_IO;
done:
    free(e);
    free(in);
    free(out);
    return rc;
}

/* One line: which named check fired, and where. */
static int report_corrupt(tool_job *job, ref_frame_result r)
{
    if (r.status == REF_FRAME_ERR_NO_MEMORY)
        return io_error(job, "out of memory");
    if (r.status == REF_FRAME_ERR_BAD_PARAMETER)
        return io_error(job, "internal error (decoder misuse)");
    if (r.failed_check >= 0 && r.failed_check < REF_CHECK_COUNT)
        fprintf(stderr, "lz4ref: %s: corrupt input at byte %llu: %s (LZ4 block: %s; %s)\n",
                job->in_name, (unsigned long long)r.consumed, ref_frame_check_name(r.failed_check),
                ref_frame_check_what(r.failed_check), ref_status_name(r.block_status));
    else
        fprintf(stderr, "lz4ref: %s: corrupt input at byte %llu: %s (%s)\n", job->in_name,
                (unsigned long long)r.consumed, ref_frame_check_name(r.failed_check),
                ref_frame_check_what(r.failed_check));
    return EXIT_CORRUPT;
}

int tool_decompress(tool_job *job)
{
    ref_frame_stream *s = ref_frame_stream_new(&job->dopt);
    uint8_t *in = malloc(IN_CHUNK), *out = malloc(OUT_CHUNK);
    ref_frame_status st = REF_FRAME_OK;
    ref_frame_result r;
    long long n;
    int rc = EXIT_OK;

    if (!s || !in || !out) {
        rc = io_error(job, "out of memory");
        goto done;
    }
    while (st == REF_FRAME_OK && (n = read_full(job->in, in, IN_CHUNK)) > 0) {
        const uint8_t *p = in;
        size_t left = (size_t)n, c, w;
        do {
            st = ref_frame_stream_decode(s, p, left, &c, out, OUT_CHUNK, &w);
            if (!write_all(job, out, w)) {
                rc = EXIT_USAGE_IO;
                goto done;
            }
            p += c;
            left -= c;
        } while (st == REF_FRAME_OK && (left || w == OUT_CHUNK));
    }
    if (ferror(job->in)) {
        rc = io_error(job, "read error");
        goto done;
    }
    r = ref_frame_stream_finish(s);
    if (r.status != REF_FRAME_OK)
        rc = report_corrupt(job, r);
    else if (job->verbose)
        fprintf(stderr, "lz4ref: %s: %u frame(s), %llu bytes in, %zu bytes out\n",
                job->in_name, r.frames, (unsigned long long)r.consumed, r.written);
done:
    ref_frame_stream_free(s);
    free(in);
    free(out);
    return rc;
}
