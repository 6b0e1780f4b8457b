/*
 * ref_frame_info: the fields of the header at the start of src, as the
 * frame decoder's parser (frame_engine.h) reads them: what LZ4F_getFrameInfo
 * reports (Frame format: "Frame Descriptor", "Skippable Frames"). The
 * boundary sweep of header fields (harness/runners/contracts/
 * contracts_sweep_header.c) judges a subject's by it.
 */
#include <string.h>

#include "frame_engine.h"

static uint32_t le32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

ref_frame_info_status ref_frame_info(const uint8_t *src, size_t n, ref_frame_info_t *info)
{
    static const uint8_t any_dict[1];
    ref_frame_options o;
    frame_engine e;
    memset(info, 0, sizeof *info);
    ref_frame_options_default(&o);
    o.formats = REF_FORMAT_LZ4 | REF_FORMAT_SKIPPABLE;   /* LZ4F's */
    /* A header may name a dictionary (Dictionary ID): reading its fields
     * needs none, unlike decoding its blocks. */
    o.dict = any_dict;
    o.dict_len = sizeof any_dict;
    ref_frame_engine_init(&e, &o, NULL, 0);
    while (e.unit == U_MAGIC || e.unit == U_DESCRIPTOR || e.unit == U_DESCRIPTOR_REST ||
           e.unit == U_SKIP_SIZE) {
        if (n - (size_t)e.pos < e.need)
            return REF_INFO_INCOMPLETE;
        if (ref_frame_engine_unit(&e, src + e.pos) != REF_FRAME_OK)
            return REF_INFO_INVALID;
    }
    info->header_len = (size_t)e.pos;
    if (e.unit == U_SKIP_DATA) {
        info->skippable = 1;
        info->content_size = e.need;   /* the user data's size */
        return REF_INFO_OK;
    }
    info->block_size_id = (e.desc[1] >> 4) & 7;
    info->independent = !e.linked;
    info->block_checksum = e.block_checksum;
    info->content_checksum = e.content_checksum;
    info->content_size = e.content_size;   /* 0: not in the header */
    info->dict_id = (e.desc[0] & 0x01) ? le32_at(e.desc + 2 + (e.has_content_size ? 8 : 0)) : 0;
    return REF_INFO_OK;
}
