/* Names of subject generations and capabilities, for records and reports. */
#include "subject.h"

const char *subject_generation_name(enum subject_generation g)
{
    static const char *const names[GEN_COUNT] = {
        [GEN_REF] = "ref", [GEN_UPSTREAM_OLD] = "upstream-old", [GEN_UPSTREAM] = "upstream",
        [GEN_KERNEL_OLD] = "kernel-old", [GEN_KERNEL] = "kernel",
    };
    return (unsigned)g < GEN_COUNT ? names[g] : "unknown";
}

const char *subject_cap_name(subject_caps cap)
{
    if (cap == CAP_COMPRESS_HC_DEST_SIZE)   /* (the macro bits: not case labels of an int) */
        return "LZ4_compress_HC_destSize";
    if (cap == CAP_DECOMPRESS_FAST_USING_DICT)
        return "LZ4_decompress_fast_usingDict";
    if (cap == CAP_FRAME_FLUSH)
        return "LZ4F_flush";
    switch ((unsigned)cap) {
    case CAP_COMPRESS_BOUND: return "compress_bound";
    case CAP_DECOMPRESS_SAFE: return "decompress_safe";
    case CAP_DECOMPRESS_PARTIAL: return "decompress_safe_partial";
    case CAP_DECOMPRESS_FAST: return "decompress_fast";
    case CAP_DECOMPRESS_USING_DICT: return "decompress_safe_usingDict";
    case CAP_COMPRESS_DEFAULT: return "compress_default";
    case CAP_COMPRESS_FAST: return "compress_fast";
    case CAP_COMPRESS_DEST_SIZE: return "compress_destSize";
    case CAP_COMPRESS_HC: return "compress_HC";
    case CAP_COMPRESS_USING_DICT: return "compress with dictionary";
    case CAP_OLD_KERNEL_COMPRESS: return "lz4_compress";
    case CAP_OLD_KERNEL_HC_COMPRESS: return "lz4hc_compress";
    case CAP_OLD_KERNEL_DECOMPRESS: return "lz4_decompress";
    case CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN: return "lz4_decompress_unknownoutputsize";
    case CAP_UNLZ4: return "unlz4";
    case CAP_FRAME_DECOMPRESS: return "LZ4F_decompress";
    case CAP_FRAME_RESET: return "LZ4F_resetDecompressionContext";
    case CAP_FRAME_DECOMPRESS_DICT: return "LZ4F_decompress_usingDict";
    case CAP_FRAME_COMPRESS: return "LZ4F_compressFrame";
    case CAP_FRAME_COMPRESS_STREAM: return "LZ4F_compressBegin/Update/End";
    case CAP_FRAME_COMPRESS_CDICT: return "LZ4F_compressBegin_usingCDict";
    case CAP_STREAM_COMPRESS: return "LZ4_compress_fast_continue";
    case CAP_STREAM_HC: return "LZ4_compress_HC_continue";
    case CAP_STREAM_SAVE_DICT: return "LZ4_saveDict";
    case CAP_STREAM_ATTACH: return "LZ4_attach_dictionary";
    case CAP_STREAM_HC_ATTACH: return "LZ4_attach_HC_dictionary";
    case CAP_STREAM_RESET_FAST: return "LZ4_resetStream_fast";
    case CAP_STREAM_DECOMPRESS: return "LZ4_decompress_safe_continue";
    case CAP_ALLOC_FAIL: return "allocation failure";
    case CAP_FRAME_CUSTOM_MEM: return "LZ4F_*_advanced (custom memory)";
    case CAP_FRAME_INFO: return "LZ4F_getFrameInfo";
    default: return "entry point";
    }
}
