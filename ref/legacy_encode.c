/*
 * Reference encoder of the legacy frame format (lz4_Frame_format.md,
 * "Legacy frame"): the magic 0x184C2102, then for every 8 MiB of input a
 * 4-byte little-endian compressed size and an LZ4 block, always compressed.
 * This is what `lz4 -l` writes and what the Linux kernel's unlz4 reads.
 */
#include <string.h>

#include "lz4frame_ref.h"

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

size_t ref_legacy_bound(size_t n)
{
    size_t full = n / REF_LEGACY_CHUNK, rest = n % REF_LEGACY_CHUNK;
    size_t per_full = 4 + (size_t)REF_LEGACY_CHUNK_MAX;
    size_t last = rest ? 4 + ref_compress_bound(rest) : 0;
    if (full > (SIZE_MAX - 4 - last) / per_full)
        return 0;
    return 4 + full * per_full + last;
}

size_t ref_legacy_put_magic(uint8_t *dst, size_t dst_cap)
{
    if (!dst || dst_cap < 4)
        return 0;
    put_le32(dst, REF_LEGACY_MAGIC);
    return 4;
}

size_t ref_legacy_put_chunk(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_cap,
                            int acceleration, void *state)
{
    ref_encode_params ep;
    ref_encode_result r;

    if (!src || n == 0 || n > REF_LEGACY_CHUNK || !dst || dst_cap < 5 || !state)
        return 0;
    memset(&ep, 0, sizeof ep);
    ep.src = src;
    ep.src_len = n;
    ep.dst = dst + 4;
    ep.dst_cap = dst_cap - 4;
    ep.acceleration = acceleration;
    ep.mode = REF_ENCODE_LIMITED;
    r = ref_encode(&ep, state);
    if (!r.ok || r.consumed != n || r.written == 0)
        return 0;
    put_le32(dst, (uint32_t)r.written);
    return 4 + r.written;
}

size_t ref_legacy_encode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_cap,
                         int acceleration)
{
    uint32_t state[REF_ENCODE_STATE_SIZE / 4];
    size_t pos, done = 0;

    if (!src && n)
        return 0;
    pos = ref_legacy_put_magic(dst, dst_cap);
    while (pos && done < n) {
        size_t take = n - done < REF_LEGACY_CHUNK ? n - done : REF_LEGACY_CHUNK;
        size_t w = ref_legacy_put_chunk(src + done, take, dst + pos, dst_cap - pos,
                                        acceleration, state);
        pos = w ? pos + w : 0;
        done += take;
    }
    return pos;
}
