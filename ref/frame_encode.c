/*
 * Reference LZ4 frame encoder (lz4_Frame_format.md): header with the chosen
 * flags, blocks from ref_encode() (stored uncompressed when compression
 * does not make them smaller, as "Block Size" requires for incompressible
 * data), EndMark and content checksum.
 */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "lz4frame_ref.h"

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

void ref_frame_prefs_default(ref_frame_prefs *p)
{
    memset(p, 0, sizeof *p);
    p->block_max = 7;
    p->content_checksum = 1;
    p->acceleration = 1;
}

static int prefs_valid(const ref_frame_prefs *p)
{
    return p && ref_frame_block_max(p->block_max) != 0 && (p->dict || !p->dict_len);
}

static size_t header_size(const ref_frame_prefs *p)
{
    return 4 + 2 + (p->content_size ? 8 : 0) + (p->dict_id_present ? 4 : 0) + 1;
}

size_t ref_frame_bound(size_t n, const ref_frame_prefs *p)
{
    size_t bmax, blocks, fixed;
    if (!prefs_valid(p))
        return 0;
    bmax = ref_frame_block_max(p->block_max);
    blocks = n / bmax + (n % bmax != 0);
    /* header + per block: size field and checksum + EndMark + checksum */
    fixed = REF_FRAME_HEADER_MAX + 8;
    if (blocks > (SIZE_MAX - fixed) / 8 || n > SIZE_MAX - fixed - 8 * blocks)
        return 0;
    return fixed + 8 * blocks + n;
}

size_t ref_frame_begin(ref_frame_encoder *e, const ref_frame_prefs *p, uint64_t content_size,
                       uint8_t *dst, size_t dst_cap)
{
    size_t hlen, i = 4;
    uint8_t *d;

    if (!e || !prefs_valid(p) || !dst || dst_cap < header_size(p))
        return 0;
    memset(e, 0, sizeof *e);
    e->prefs = *p;
    e->prefs.dict = NULL;   /* the copy below is what is used */
    e->block_max = ref_frame_block_max(p->block_max);
    e->content_size = content_size;
    if (p->dict_len) {
        /* Only the last 64 KiB can be referenced. */
        e->dict_len = p->dict_len > REF_FRAME_HISTORY ? REF_FRAME_HISTORY : p->dict_len;
        memcpy(e->dict_copy, p->dict + (p->dict_len - e->dict_len), e->dict_len);
        memcpy(e->history, e->dict_copy, e->dict_len);
        e->history_len = e->dict_len;
    }
    ref_xxh32_init(&e->content_hash, 0);

    hlen = header_size(p);
    put_le32(dst, REF_FRAME_MAGIC);
    d = dst + 4;  /* the descriptor: FLG BD (Content Size) (Dict-ID) HC */
    d[0] = (uint8_t)(0x40 | (p->linked_blocks ? 0 : 0x20) | (p->block_checksum ? 0x10 : 0) |
                     (p->content_size ? 0x08 : 0) | (p->content_checksum ? 0x04 : 0) |
                     (p->dict_id_present ? 0x01 : 0));
    d[1] = (uint8_t)(p->block_max << 4);
    i = 2;
    if (p->content_size) {
        put_le32(d + i, (uint32_t)content_size);
        put_le32(d + i + 4, (uint32_t)(content_size >> 32));
        i += 8;
    }
    if (p->dict_id_present) {
        put_le32(d + i, p->dict_id);
        i += 4;
    }
    d[i] = (uint8_t)(ref_xxh32(d, i, 0) >> 8);
    e->stage = 1;
    return hlen;
}

/* Linked blocks: the history becomes the last 64 KiB of history + block. */
static void remember(ref_frame_encoder *e, const uint8_t *src, size_t n)
{
    ref_history_append(e->history, &e->history_len, REF_FRAME_HISTORY, src, n);
}

size_t ref_frame_put_block(ref_frame_encoder *e, const uint8_t *src, size_t n,
                           uint8_t *dst, size_t dst_cap)
{
    const size_t chk = e && e->prefs.block_checksum ? 4 : 0;
    size_t room, size = 0;
    uint32_t field;

    if (!e || e->stage != 1 || !src || n == 0 || n > e->block_max || !dst || dst_cap < 4 + chk)
        return 0;
    room = dst_cap - 4 - chk;
    if (!e->prefs.uncompressed && n > 1) {
        ref_encode_params ep;
        ref_encode_result r;
        memset(&ep, 0, sizeof ep);
        ep.src = src;
        ep.src_len = n;
        ep.dst = dst + 4;
        ep.dst_cap = n - 1 < room ? n - 1 : room;   /* only worth it if smaller */
        ep.acceleration = e->prefs.acceleration;
        ep.dict = e->prefs.linked_blocks ? e->history : e->dict_copy;
        ep.dict_len = e->prefs.linked_blocks ? e->history_len : e->dict_len;
        if (!ep.dict_len)
            ep.dict = NULL;
        ep.mode = REF_ENCODE_LIMITED;
        r = ref_encode(&ep, e->hash_state);
        if (r.ok && r.consumed == n && r.written > 0 && r.written < n)
            size = r.written;
    }
    if (size) {
        field = (uint32_t)size;
    } else {
        /* Block Size: "such data block must be passed using uncompressed format". */
        if (n > room)
            return 0;
        memcpy(dst + 4, src, n);
        size = n;
        field = (uint32_t)n | 0x80000000u;
    }
    put_le32(dst, field);
    if (chk)
        put_le32(dst + 4 + size, ref_xxh32(dst + 4, size, 0));
    if (e->prefs.content_checksum)
        ref_xxh32_update(&e->content_hash, src, n);
    e->total_in += n;
    if (e->prefs.linked_blocks)
        remember(e, src, n);
    return 4 + size + chk;
}

size_t ref_frame_end(ref_frame_encoder *e, uint8_t *dst, size_t dst_cap)
{
    const size_t len = e && e->prefs.content_checksum ? 8 : 4;
    if (!e || e->stage != 1 || !dst || dst_cap < len)
        return 0;
    if (e->prefs.content_size && e->total_in != e->content_size)
        return 0;   /* the header would lie */
    put_le32(dst, 0);   /* EndMark */
    if (len == 8)
        put_le32(dst + 4, ref_xxh32_digest(&e->content_hash));
    e->stage = 2;
    return len;
}

size_t ref_frame_encode(const ref_frame_prefs *p, const uint8_t *src, size_t n,
                        uint8_t *dst, size_t dst_cap)
{
    ref_frame_encoder *e;
    size_t pos, done = 0, w;

    if ((!src && n) || !prefs_valid(p))
        return 0;
    e = malloc(sizeof *e);
    if (!e)
        return 0;
    pos = ref_frame_begin(e, p, n, dst, dst_cap);
    while (pos && done < n) {
        size_t take = n - done < e->block_max ? n - done : e->block_max;
        w = ref_frame_put_block(e, src + done, take, dst + pos, dst_cap - pos);
        pos = w ? pos + w : 0;
        done += take;
    }
    if (pos) {
        w = ref_frame_end(e, dst + pos, dst_cap - pos);
        pos = w ? pos + w : 0;
    }
    free(e);
    return pos;
}
