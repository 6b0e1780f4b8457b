/*
 * Example adapter (docs/subjects.md, "Project APIs"): a boot loader's decoder-only LZ4
 * copy behind one call that decodes an LZ4 frame, as U-Boot's ulz4fn():
 *
 *     int ulz4fn(const void *src, size_t srcn, void *dst, size_t *dstn);
 *
 * src/srcn: the frame; *dstn: the room at dst on entry, the bytes decoded
 * on return; 0 on success, a negative errno value on failure.
 *
 * It becomes the subject's frame decoder, and nothing else: caps
 * CAP_FRAME_DECOMPRESS only. The call has no context and no streaming, so
 * the subject is SUBJECT_FRAME_ONE_SHOT: every frame_decompress call gets
 * the whole input and all the output room, and is one ulz4fn() call. Its
 * result is the frame-complete hint 0, or an error; the whole input counts
 * as read (the call does not say how much it read).
 *
 *   python3 -m harness contracts project:DIR --adapter docs/examples/adapter_bootloader.c
 *
 * A copy whose header also exports upstream's block decoders (U-Boot from
 * 2022 on: LZ4_decompress_safe and LZ4_decompress_safe_partial, which its
 * file-system readers call) maps them too when built with
 * -DBOOT_BLOCK_API: --define BOOT_BLOCK_API, or --candidate-define on the
 * side that has them, so a block decoder the update brings is tested and a
 * base without it is "the base has no such entry point".
 *
 * Written from the public signature only.
 */
#include "project_adapter.h"

int ulz4fn(const void *src, size_t srcn, void *dst, size_t *dstn);

static long long boot_frame_decompress(void *dctx, unsigned char *dst, size_t *dst_len,
                                       const unsigned char *src, size_t *src_len,
                                       const unsigned char *dict, size_t dict_len)
{
    (void)dctx;
    (void)dict;           /* no dictionary slot is filled: never given one */
    (void)dict_len;
    return ulz4fn(src, *src_len, dst, dst_len) == 0 ? 0 : -1;
}

#ifdef BOOT_BLOCK_API
int LZ4_decompress_safe(const char *src, char *dst, int compressed_size, int dst_capacity);
int LZ4_decompress_safe_partial(const char *src, char *dst, int compressed_size,
                                int target_output_size, int dst_capacity);
#define BOOT_BLOCK_ENTRIES .decompress_safe = LZ4_decompress_safe, \
                           .decompress_safe_partial = LZ4_decompress_safe_partial,
#else
#define BOOT_BLOCK_ENTRIES
#endif

PROJECT_SUBJECT(BOOT_BLOCK_ENTRIES
                .frame_dctx_create = project_oneshot_dctx_create,
                .frame_dctx_free = project_oneshot_dctx_free,
                .frame_decompress = boot_frame_decompress,
                .frame_error_name = project_oneshot_error_name,
                .flags = SUBJECT_FRAME_ONE_SHOT)
