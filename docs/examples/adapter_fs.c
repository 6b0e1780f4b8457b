/*
 * Example adapter (docs/subjects.md, "Project APIs"): a file system's LZ4 copy behind
 * its compression hooks, as OpenZFS's lz4_compress_zfs / lz4_decompress_zfs:
 *
 *     size_t lz4_compress_zfs(void *src, void *dst, size_t s_len, size_t d_len, int level);
 *     int lz4_decompress_zfs(void *src, void *dst, size_t s_len, size_t d_len, int level);
 *     void lz4_init(void);
 *
 * The stored form is a 4-byte big-endian length, then the LZ4 block.
 * Compression returns the bytes written, prefix included, or s_len when
 * the data did not compress into d_len; decompression returns 0 on
 * success and 1 on failure, not the size decoded (the file system knows
 * it). lz4_init() sets up the work memory the compressor takes.
 *
 * Mapped: compress_default (the block after the prefix, 0 when the call
 * failed) and decompress_safe (the block behind a prefix that gives its
 * length; SUBJECT_DECODE_SIZE_UNREPORTED: success returns the capacity).
 * The prefixed copies live in project_bufs, which end at a guard page (the
 * compressor's output 8-aligned: the project stores the prefix as a word).
 *
 *   python3 -m harness contracts project:DIR --adapter docs/examples/adapter_fs.c
 *
 * Written from the public signatures only.
 */
#include "project_adapter.h"

size_t lz4_compress_zfs(void *src, void *dst, size_t s_len, size_t d_len, int level);
int lz4_decompress_zfs(void *src, void *dst, size_t s_len, size_t d_len, int level);
void lz4_init(void);

enum { PREFIX = 4 };

static int fs_compress_default(const char *src, char *dst, int n, int cap)
{
    /* Room for the prefix and the caller's capacity; sizes as C converts
     * them (a negative one is the project's to meet). */
    size_t room = cap > 0 ? (size_t)cap : 0, r, len;
    project_buf out = project_buf_alloc(PREFIX + room, 8);   /* its buffers are aligned */
    if (!out.data)
        return 0;
    memset(out.data, 0xFF, PREFIX);   /* no length: the call did not store one */
    r = lz4_compress_zfs((void *)src, out.data, (size_t)n, (size_t)cap + PREFIX, 0);
    if ((r == (size_t)n && project_get_be32(out.data) == 0xFFFFFFFFu) || r < PREFIX) {
        project_buf_free(&out);
        return 0;                    /* "did not compress" */
    }
    len = r - PREFIX;                /* the block the call says it wrote */
    memcpy(dst, out.data + PREFIX, len < room ? len : room);
    project_buf_free(&out);
    return (int)len;                 /* above cap: the runners see it */
}

static int fs_decompress_safe(const char *src, char *dst, int n, int cap)
{
    size_t body = n > 0 ? (size_t)n : 0;
    project_buf in = project_buf_alloc(PREFIX + body, 1);
    int r;
    if (!in.data)
        return -1;
    project_put_be32(in.data, (uint32_t)n);
    memcpy(in.data + PREFIX, src, body);
    r = lz4_decompress_zfs(in.data, dst, (size_t)n + PREFIX, (size_t)cap, 0);
    project_buf_free(&in);
    return r == 0 ? cap : -1;
}

PROJECT_SUBJECT_INIT(lz4_init,
                     .compress_default = fs_compress_default,
                     .decompress_safe = fs_decompress_safe,
                     .flags = SUBJECT_DECODE_SIZE_UNREPORTED)
