/*
 * Broken modes that only the boundary sweeps catch (issue 25: "Find
 * one-line bugs without luck: deterministic boundary sweeps"), on the
 * reference subject; adapter_broken.c selects them (its mode table):
 *
 *   frame_bound_one_block_short  LZ4F_compressBound as lz4frame.h defines it
 *       (room for an Update of n bytes after up to a block less one byte
 *       buffered), written tight, but it counts the block headers (size
 *       field and block checksum) of the n new bytes only, forgetting the
 *       block the buffered bytes complete. Short by 4 or 8 bytes, which the
 *       EndMark's room hides unless blocks carry checksums and the content
 *       does not: an Update at exactly the bound then fails
 *       (sweep.capacity.frame_update_bound).
 *   frame_block_checksum_early   the frame decoder takes a block checksum
 *       as soon as two of its four bytes are in the input of a call, and
 *       reads the 4-byte word there: 1 or 2 bytes past the input it was
 *       given when the input is fed in pieces that end inside a checksum
 *       (sweep.input.*; one-byte pieces never hold two bytes of it).
 *   dict_prefix_64k_early  LZ4_decompress_safe_usingDict takes a dictionary
 *       that ends where the output starts as a whole 64 KiB prefix from 64
 *       KiB - 2 bytes on, one byte too early (lz4.c's test is 64 KiB - 1):
 *       with a 65534-byte dictionary, offset 65535 then reads the byte
 *       before it instead of failing (sweep.dict.decompress_safe_using_dict
 *       [contiguous]).
 *   frame_info_reads_past  LZ4F_getFrameInfo reads the FLG byte to size the
 *       header before it checks that the input holds more than the magic
 *       number: one byte past an input of exactly 4 bytes
 *       (sweep.header.frame_get_info).
 */
#include <stdlib.h>
#include <string.h>

#include "adapter_broken_sweep.h"
#include "subject.h"

const struct lz4_subject *lz4gate_ref_subject(void);

/* ---- frame_bound_one_block_short ----------------------------------------------- */

/* Block Maximum Size of a BD code (Frame format, BD); 0 is LZ4F's default, 64 KiB. */
static size_t block_bytes(int id)
{
    return id >= 4 && id <= 7 ? (size_t)65536 << (2 * (id - 4)) : 65536;
}

size_t bs_update_bound_one_block_short(size_t n, const struct subject_frame_prefs *p)
{
    size_t b = block_bytes(p ? p->block_size_id : 0);
    size_t per_block = 4 + (p && p->block_checksum ? 4 : 0);      /* size field + checksum */
    size_t end = 4 + (p && p->content_checksum ? 4 : 0);          /* EndMark + checksum */
    size_t total = n + b - 1;             /* up to a block less one byte already buffered */
    size_t full = total / b;
    size_t last = (p && p->auto_flush) || n == 0 ? total % b : 0; /* flushed as a block */
    size_t headers = n / b;               /* the bug: should be `full` */
    return headers * per_block + full * b + (last ? last + per_block : 0) + end;
}

/* ---- frame_block_checksum_early -------------------------------------------------- */

/* Where the bytes fed so far stand in the frame structure (Frame format:
 * General structure, Frame descriptor, Data blocks, Skippable frames). */
enum stage { ST_MAGIC, ST_FLG_BD, ST_HEADER_REST, ST_BLOCK_SIZE, ST_DATA, ST_BLOCK_CHECKSUM,
             ST_CONTENT_CHECKSUM, ST_SKIP_SIZE, ST_SKIP, ST_LOST };

struct position {
    enum stage stage;
    size_t need, got;          /* bytes of the current field */
    size_t in_call;            /* of them, bytes of the current call's input */
    unsigned char field[4];
    int block_checksum, content_checksum;
};

static void enter(struct position *at, enum stage s, size_t need)
{
    at->stage = s;
    at->need = need;
    at->got = 0;
    at->in_call = 0;
}

static unsigned long le32(const unsigned char *f)
{
    return (unsigned long)f[0] | (unsigned long)f[1] << 8 | (unsigned long)f[2] << 16 |
           (unsigned long)f[3] << 24;
}

/* The field just completed: where the next one starts. */
static void field_done(struct position *at)
{
    unsigned long v = le32(at->field);
    switch (at->stage) {
    case ST_MAGIC:
        if (v == 0x184D2204ul)
            enter(at, ST_FLG_BD, 2);
        else if ((v & 0xFFFFFFF0ul) == 0x184D2A50ul)
            enter(at, ST_SKIP_SIZE, 4);
        else
            enter(at, ST_LOST, 0);
        return;
    case ST_FLG_BD:
        at->block_checksum = (at->field[0] >> 4) & 1;
        at->content_checksum = (at->field[0] >> 2) & 1;
        enter(at, ST_HEADER_REST, 1 + (at->field[0] & 0x08 ? 8 : 0) + (at->field[0] & 1 ? 4 : 0));
        return;
    case ST_HEADER_REST:
    case ST_BLOCK_CHECKSUM:
        enter(at, ST_BLOCK_SIZE, 4);
        return;
    case ST_BLOCK_SIZE:
        if (v == 0)
            enter(at, at->content_checksum ? ST_CONTENT_CHECKSUM : ST_MAGIC, 4);
        else
            enter(at, ST_DATA, v & 0x7FFFFFFFul);
        return;
    case ST_DATA:
        if (at->block_checksum)
            enter(at, ST_BLOCK_CHECKSUM, 4);
        else
            enter(at, ST_BLOCK_SIZE, 4);
        return;
    case ST_SKIP_SIZE:
        enter(at, v ? ST_SKIP : ST_MAGIC, v ? v : 4);
        return;
    default:
        enter(at, ST_MAGIC, 4);
        return;
    }
}

static void advance(struct position *at, const unsigned char *p, size_t n)
{
    while (n && at->stage != ST_LOST) {
        size_t take = at->need - at->got < n ? at->need - at->got : n;
        if (at->need <= 4 && at->stage != ST_HEADER_REST)
            memcpy(at->field + at->got, p, take);
        at->got += take;
        at->in_call += take;
        p += take;
        n -= take;
        if (at->got == at->need)
            field_done(at);
    }
}

struct bs_dctx {
    void *inner;
    struct position at;
};

void *bs_dctx_create(void)
{
    struct bs_dctx *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->inner = lz4gate_ref_subject()->frame_dctx_create();
    if (!d->inner) {
        free(d);
        return NULL;
    }
    enter(&d->at, ST_MAGIC, 4);
    return d;
}

void bs_dctx_free(void *p)
{
    struct bs_dctx *d = p;
    if (!d)
        return;
    lz4gate_ref_subject()->frame_dctx_free(d->inner);
    free(d);
}

void bs_dctx_reset(void *p)
{
    struct bs_dctx *d = p;
    lz4gate_ref_subject()->frame_dctx_reset(d->inner);
    memset(&d->at, 0, sizeof d->at);
    enter(&d->at, ST_MAGIC, 4);
}

long long bs_frame_decompress_checksum_early(void *p, unsigned char *dst, size_t *dst_len,
                                             const unsigned char *src, size_t *src_len,
                                             const unsigned char *dict, size_t dict_len)
{
    struct bs_dctx *d = p;
    struct position ahead = d->at;
    long long r;
    ahead.in_call = 0;
    advance(&ahead, src, *src_len);
    if (ahead.stage == ST_BLOCK_CHECKSUM && ahead.in_call >= 2) {
        /* The bug: the checksum word read as a whole from the input of this
         * call that holds 2 or 3 of its bytes. */
        const volatile unsigned char *word = src + *src_len - ahead.in_call;
        unsigned char last = word[3];
        (void)last;
    }
    r = lz4gate_ref_subject()->frame_decompress(d->inner, dst, dst_len, src, src_len, dict,
                                                 dict_len);
    advance(&d->at, src, *src_len);
    return r;
}

/* ---- dict_prefix_64k_early ------------------------------------------------------- */

int bs_using_dict_prefix_64k_early(const char *src, char *dst, int n, int cap,
                                   const char *dict, int dict_len)
{
    const struct lz4_subject *ref = lz4gate_ref_subject();
    /* The bug: >= 65534 where the edge is 65535 (any offset fits a 64 KiB
     * prefix, so the decode no longer checks where the dictionary starts). */
    if (dict_len >= 65534 && dict + dict_len == dst)
        return ref->decompress_safe_using_dict(src, dst, n, cap, dst - 65536, 65536);
    return ref->decompress_safe_using_dict(src, dst, n, cap, dict, dict_len);
}

/* ---- frame_info_reads_past ------------------------------------------------------- */

long long bs_frame_get_info_reads_past(const unsigned char *src, size_t *src_len,
                                       struct subject_frame_info *info)
{
    if (*src_len >= 4) {
        /* The bug: FLG (byte 4) read when only the magic number may be there. */
        const volatile unsigned char *flg = src + 4;
        unsigned char v = *flg;
        (void)v;
    }
    return lz4gate_ref_subject()->frame_get_info(src, src_len, info);
}
