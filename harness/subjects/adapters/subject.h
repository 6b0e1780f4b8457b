/*
 * The subject ABI: one table of entry points that every implementation
 * under test (a "subject") is adapted to, so that contract tests, fuzzers
 * and regression cases call every subject the same way.
 *
 * Rules for adapters (harness/subjects/adapters/adapter_*.c):
 *  - a slot is filled only when the subject has that entry point; its bit
 *    in `caps` says so;
 *  - each slot has the signature and contract of the real API it wraps:
 *    no extra bounds checks, no clamping, no error mapping beyond what the
 *    call itself does. A subject's bug must reach the caller unchanged;
 *  - work memory (wrkmem, state) is allocated per call with malloc, so ASan
 *    sees it exactly.
 *
 * A subject is built into one relocatable object whose only global symbol
 * is lz4gate_subject() (or, for a second subject in the same program,
 * lz4gate_subject_b()); everything else, including the subject's own
 * LZ4_* symbols, is made local. Two copies of LZ4 therefore link into one
 * process without clashing (harness/subjects/build.py does this).
 */
#ifndef LZ4GATE_SUBJECT_H
#define LZ4GATE_SUBJECT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Capability bits: which slots are filled. */
enum subject_cap {
    CAP_COMPRESS_BOUND = 1u << 0,
    CAP_DECOMPRESS_SAFE = 1u << 1,
    CAP_DECOMPRESS_PARTIAL = 1u << 2,
    CAP_DECOMPRESS_FAST = 1u << 3,
    CAP_DECOMPRESS_USING_DICT = 1u << 4,
    CAP_COMPRESS_DEFAULT = 1u << 5,
    CAP_COMPRESS_FAST = 1u << 6,
    CAP_COMPRESS_DEST_SIZE = 1u << 7,
    CAP_COMPRESS_HC = 1u << 8,
    CAP_COMPRESS_USING_DICT = 1u << 9,
    CAP_OLD_KERNEL_COMPRESS = 1u << 10,   /* lz4_compress (kernel 3.11-4.10) */
    CAP_OLD_KERNEL_HC_COMPRESS = 1u << 11, /* lz4hc_compress */
    CAP_OLD_KERNEL_DECOMPRESS = 1u << 12, /* lz4_decompress (exact output size) */
    CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN = 1u << 13, /* lz4_decompress_unknownoutputsize */
    CAP_UNLZ4 = 1u << 14,                 /* kernel lib/decompress_unlz4.c */
    /* LZ4 frame format (upstream lib/lz4frame.c; ref's own frame codec). */
    CAP_FRAME_DECOMPRESS = 1u << 15,      /* dctx + LZ4F_decompress */
    CAP_FRAME_RESET = 1u << 16,           /* LZ4F_resetDecompressionContext */
    CAP_FRAME_DECOMPRESS_DICT = 1u << 17, /* LZ4F_decompress_usingDict */
    CAP_FRAME_COMPRESS = 1u << 18,        /* LZ4F_compressFrame + bound */
    CAP_FRAME_COMPRESS_STREAM = 1u << 19, /* cctx + Begin / Update / End */
    CAP_FRAME_COMPRESS_CDICT = 1u << 20,  /* LZ4F_compressBegin_usingCDict */
    /* Streaming block API (lz4.h LZ4_stream_t / LZ4_streamDecode_t, lz4hc.h
     * LZ4_streamHC_t; the kernel's linux/lz4.h has the same calls). */
    CAP_STREAM_COMPRESS = 1u << 21,       /* stream_* with hc = 0: *_continue */
    CAP_STREAM_HC = 1u << 22,             /* stream_* with hc = 1: LZ4_compress_HC_continue */
    CAP_STREAM_SAVE_DICT = 1u << 23,      /* LZ4_saveDict (and LZ4_saveDictHC for HC streams) */
    CAP_STREAM_ATTACH = 1u << 24,         /* LZ4_attach_dictionary (dictCtx) */
    CAP_STREAM_HC_ATTACH = 1u << 25,      /* LZ4_attach_HC_dictionary */
    CAP_STREAM_RESET_FAST = 1u << 26,     /* LZ4_resetStream_fast / LZ4_resetStreamHC_fast */
    CAP_STREAM_DECOMPRESS = 1u << 27,     /* LZ4_setStreamDecode + LZ4_decompress_safe_continue */
    CAP_ALLOC_FAIL = 1u << 28,            /* the subject's own allocations can be made to fail */
    CAP_FRAME_CUSTOM_MEM = 1u << 29,      /* LZ4F_*_advanced with an LZ4F_CustomMem */
    CAP_FRAME_INFO = 1u << 30,            /* LZ4F_getFrameInfo */
};

/* The capability set: 64 bits. The bits from 31 on are macros, since an
 * enumeration constant is an int (C11 6.7.2.2). */
typedef unsigned long long subject_caps;
#define CAP_COMPRESS_HC_DEST_SIZE (1ull << 31)      /* LZ4_compress_HC_destSize */
#define CAP_DECOMPRESS_FAST_USING_DICT (1ull << 32) /* LZ4_decompress_fast_usingDict */
#define CAP_FRAME_FLUSH (1ull << 33)                /* LZ4F_flush */

/* Frame preferences, the fields of LZ4F_preferences_t lz4gate draws (a
 * zeroed struct is LZ4F's default). */
struct subject_frame_prefs {
    int block_size_id;            /* 0 default, 4..7 = 64 KiB .. 4 MiB */
    int block_independent;        /* 0 linked blocks (LZ4F default), 1 independent */
    int content_checksum;
    int block_checksum;
    unsigned long long content_size; /* 0: not written in the header */
    unsigned dict_id;
    int level;                    /* compressionLevel: < 0 fast acceleration, 0 default, >= 3 HC */
    int auto_flush;
    int favor_dec_speed;          /* favorDecSpeed (1.8.2+; ignored where the tree lacks it) */
};

/* The header fields LZ4F_getFrameInfo reports (frame_get_info); -1 where
 * the tree's LZ4F_frameInfo_t has no such field. */
struct subject_frame_info {
    long long skippable;          /* frameType: 1 skippable frame */
    long long block_size_id;      /* 4..7 (LZ4F_max64KB ..) */
    long long block_independent;
    long long content_checksum;
    long long block_checksum;
    long long content_size;       /* 0: not in the header; a skippable frame: its size */
    long long dict_id;            /* 0: none */
};

/* API generations: the expected behaviour where contracts differ
 * (docs/fix-history.md#where-the-kernel-differs-from-upstream) is a property of the generation, not of a test. */
enum subject_generation {
    GEN_REF = 0,          /* lz4gate's reference codec behind the upstream API */
    GEN_UPSTREAM_OLD,     /* r1xx: LZ4_uncompress / LZ4_uncompress_unknownOutputSize */
    GEN_UPSTREAM,         /* LZ4_decompress_safe era (r1xx late .. 1.10) */
    GEN_KERNEL_OLD,       /* kernel 3.11-4.10: lz4_compress / lz4_decompress */
    GEN_KERNEL,           /* kernel 4.11+: LZ4_* with wrkmem */
    GEN_COUNT
};

typedef long (*unlz4_fill_fn)(void *buf, unsigned long size);
typedef long (*unlz4_flush_fn)(void *buf, unsigned long size);
typedef void (*unlz4_error_fn)(char *msg);

struct lz4_subject {
    const char *name;          /* as given: "ref", "kernel:/path", ... */
    enum subject_generation generation;
    subject_caps caps;

    /* Upstream-style API (kernel 4.11+ has the same signatures; the adapter
     * supplies wrkmem). */
    int (*compress_bound)(int input_size);
    int (*decompress_safe)(const char *src, char *dst, int compressed_size, int dst_capacity);
    int (*decompress_safe_partial)(const char *src, char *dst, int compressed_size,
                                   int target_output_size, int dst_capacity);
    /* Returns input bytes read (the LZ4_decompress_fast contract). */
    int (*decompress_fast)(const char *src, char *dst, int original_size);
    int (*decompress_safe_using_dict)(const char *src, char *dst, int compressed_size,
                                      int dst_capacity, const char *dict, int dict_size);
    int (*compress_default)(const char *src, char *dst, int src_size, int dst_capacity);
    int (*compress_fast)(const char *src, char *dst, int src_size, int dst_capacity,
                         int acceleration);
    int (*compress_dest_size)(const char *src, char *dst, int *src_size_ptr,
                              int target_dst_size);
    int (*compress_hc)(const char *src, char *dst, int src_size, int dst_capacity, int level);
    /* The same with a state the adapter allocated once
     * (LZ4_compress_HC_extStateHC); NULL where compress_hc's own call
     * already takes the caller's memory (the kernel) or the tree lacks it. */
    int (*compress_hc_ext_state)(const char *src, char *dst, int src_size, int dst_capacity,
                                 int level);
    /* Compress src with dict as history (loadDict + compress_fast_continue). */
    int (*compress_using_dict)(const char *dict, int dict_size, const char *src, char *dst,
                               int src_size, int dst_capacity, int acceleration);
    /* LZ4_compress_HC_destSize (lz4hc.h, 1.8.0+) with a state the adapter
     * allocated once: as compress_dest_size, at an HC level. */
    int (*compress_hc_dest_size)(const char *src, char *dst, int *src_size_ptr,
                                 int target_dst_size, int level);
    /* LZ4_decompress_fast_usingDict: decompress_fast's contract (returns
     * the input bytes read) with dict[0..dict_size) as history; a
     * dictionary ending where dst starts is the "contiguous" case. */
    int (*decompress_fast_using_dict)(const char *src, char *dst, int original_size,
                                      const char *dict, int dict_size);

    /* Old kernel API (3.11-4.10), with its own conventions (docs/fix-history.md#old-kernel-api-g1). */
    int (*old_compress)(const unsigned char *src, size_t src_len, unsigned char *dst,
                        size_t *dst_len);
    int (*old_hc_compress)(const unsigned char *src, size_t src_len, unsigned char *dst,
                           size_t *dst_len);
    int (*old_decompress)(const unsigned char *src, size_t *src_len, unsigned char *dest,
                          size_t actual_dest_len);
    int (*old_decompress_unknown)(const unsigned char *src, size_t src_len,
                                  unsigned char *dest, size_t *dest_len);

    /* Kernel legacy-frame decoder (lib/decompress_unlz4.c). */
    int (*unlz4)(unsigned char *input, long in_len, unlz4_fill_fn fill, unlz4_flush_fn flush,
                 unsigned char *output, long *posp, unlz4_error_fn error);

    /* LZ4 frame API (lz4frame.h). Results: >= 0 as the call returns it, or
     * a negative LZ4F error code (-code, so LZ4F_isError(r) <=> r < 0). */
    void *(*frame_dctx_create)(void);
    void (*frame_dctx_free)(void *dctx);
    void (*frame_dctx_reset)(void *dctx);
    /* LZ4F_decompress (dict == NULL) or LZ4F_decompress_usingDict: reads up
     * to *src_len bytes, writes up to *dst_len; both updated; returns the
     * hint for the next call (0: frame complete). */
    long long (*frame_decompress)(void *dctx, unsigned char *dst, size_t *dst_len,
                                  const unsigned char *src, size_t *src_len,
                                  const unsigned char *dict, size_t dict_len);
    const char *(*frame_error_name)(long long result);
    size_t (*frame_compress_bound)(size_t src_size, const struct subject_frame_prefs *prefs);
    long long (*frame_compress)(const unsigned char *src, size_t src_size, unsigned char *dst,
                                size_t dst_capacity, const struct subject_frame_prefs *prefs);
    void *(*frame_cctx_create)(void);
    void (*frame_cctx_free)(void *cctx);
    /* LZ4F_compressBegin, or with dict != NULL LZ4F_compressBegin_usingCDict
     * on a CDict made from dict (freed with the cctx). */
    long long (*frame_compress_begin)(void *cctx, unsigned char *dst, size_t dst_capacity,
                                      const struct subject_frame_prefs *prefs,
                                      const unsigned char *dict, size_t dict_len);
    long long (*frame_compress_update)(void *cctx, unsigned char *dst, size_t dst_capacity,
                                       const unsigned char *src, size_t src_size);
    long long (*frame_compress_end)(void *cctx, unsigned char *dst, size_t dst_capacity);
    /* LZ4F_flush (CAP_FRAME_FLUSH): the data buffered by Updates written
     * out as a block now; returns the bytes written (0: nothing buffered). */
    long long (*frame_compress_flush)(void *cctx, unsigned char *dst, size_t dst_capacity);
    /* LZ4F_getFrameInfo on a new decompression context (freed after):
     * reads up to *src_len bytes of a frame's start, sets *src_len to the
     * bytes it consumed, fills *info; returns the hint, or a negative LZ4F
     * error. */
    long long (*frame_get_info)(const unsigned char *src, size_t *src_len,
                                struct subject_frame_info *info);
    /* LZ4F_compressBound: room an Update (or End, src_size 0) needs,
     * including data buffered by earlier Updates. */
    size_t (*frame_compress_update_bound)(size_t src_size, const struct subject_frame_prefs *prefs);

    /* Streaming block compression (CAP_STREAM_COMPRESS, CAP_STREAM_HC).
     * A stream handle is an LZ4_stream_t (hc = 0) or an LZ4_streamHC_t
     * (hc = 1) as the tree makes one: LZ4_createStream / LZ4_createStreamHC
     * where it has them (NULL when that allocation fails), else an exactly
     * sized malloc made ready with the tree's reset. Previous blocks must
     * stay where they were (up to 64 KiB of them), as lz4.h requires. */
    void *(*stream_create)(int hc);
    void (*stream_free)(void *st);
    /* LZ4_resetStream / LZ4_resetStreamHC(st, level); fast != 0 (only with
     * CAP_STREAM_RESET_FAST): LZ4_resetStream_fast / LZ4_resetStreamHC_fast. */
    void (*stream_reset)(void *st, int level, int fast);
    int (*stream_load_dict)(void *st, const char *dict, int dict_size);  /* LZ4_loadDict(HC) */
    int (*stream_save_dict)(void *st, char *safe, int size);             /* LZ4_saveDict(HC) */
    /* LZ4_attach_dictionary / LZ4_attach_HC_dictionary: dict_st (a stream
     * of the same kind after stream_load_dict, or NULL to detach) is used
     * as the dictionary context of st's next block, and must outlive it. */
    void (*stream_attach)(void *st, const void *dict_st);
    /* LZ4_compress_fast_continue(st, src, dst, n, cap, acceleration), or
     * for an HC stream LZ4_compress_HC_continue (the level of the last
     * reset; acceleration unused). Trees before them: the
     * *_limitedOutput_continue of the same stream types. */
    int (*stream_compress)(void *st, const char *src, char *dst, int src_size, int dst_capacity,
                           int acceleration);

    /* Streaming block decompression (CAP_STREAM_DECOMPRESS): an
     * LZ4_streamDecode_t (LZ4_createStreamDecode where the tree has it). */
    void *(*dstream_create)(void);
    void (*dstream_free)(void *ds);
    int (*dstream_set)(void *ds, const char *dict, int dict_size);      /* LZ4_setStreamDecode */
    int (*dstream_decompress)(void *ds, const char *src, char *dst, int compressed_size,
                              int dst_capacity);                       /* _safe_continue */

    /* Allocation failure (CAP_ALLOC_FAIL): from this call on, count the
     * subject's own allocations (malloc / calloc / realloc of its library
     * code, the kernel's kmalloc / vmalloc; never the adapter's) and make
     * the n-th fail (return NULL); n = 0: none fails. alloc_calls: the
     * allocations counted since. */
    void (*alloc_fail_at)(unsigned long n);
    unsigned long (*alloc_calls)(void);

    /* LZ4F with a custom memory manager (CAP_FRAME_CUSTOM_MEM): contexts
     * and CDicts made by LZ4F_create{Compression,Decompression}Context_advanced
     * and LZ4F_createCDict_advanced with an LZ4F_CustomMem whose functions
     * allocate through the counter above. mem_flags bit 0: also give
     * customCalloc (else LZ4F makes calloc from customAlloc + memset).
     * A dctx works with frame_decompress / frame_dctx_reset / frame_dctx_free
     * (frame_mem_dctx_create may be NULL: broken:MODE subjects);
     * a cctx only with the frame_mem_* slots below, which have the contract
     * of the frame_compress_* slots (begin with dict: a CDict made by
     * LZ4F_createCDict_advanced; if that returns NULL, begin returns the
     * allocation_failed error without calling LZ4F). */
    void *(*frame_mem_dctx_create)(unsigned mem_flags);
    void *(*frame_mem_cctx_create)(unsigned mem_flags);
    void (*frame_mem_cctx_free)(void *cctx);
    long long (*frame_mem_compress_begin)(void *cctx, unsigned char *dst, size_t dst_capacity,
                                          const struct subject_frame_prefs *prefs,
                                          const unsigned char *dict, size_t dict_len);
    long long (*frame_mem_compress_update)(void *cctx, unsigned char *dst, size_t dst_capacity,
                                           const unsigned char *src, size_t src_size);
    long long (*frame_mem_compress_end)(void *cctx, unsigned char *dst, size_t dst_capacity);

    /* Conventions of a project's own API that the slots above cannot
     * change (project:DIR subjects, adapters/project_adapter.h): SUBJECT_*
     * bits below; 0 for every LZ4 API. */
    unsigned flags;
};

enum subject_flag {
    /* decompress_safe tells success or failure only, as the project's call
     * does (a file system knows the size of what it stored): it returns
     * dst_capacity on success. A runner that knows how many bytes ref
     * decodes compares those (subject_decoded_size); bytes written past
     * them, within the capacity, are out of sight. */
    SUBJECT_DECODE_SIZE_UNREPORTED = 1u << 0,
    /* The frame decoder is one-shot (a boot loader's "decode this frame"):
     * every frame_decompress call gets the whole input and all the output
     * room, never pieces (harness/runners/common/frame_driver.c); the
     * streaming checks then decode whole. */
    SUBJECT_FRAME_ONE_SHOT = 1u << 1,
};

/* The size a decompress_safe result r (capacity cap) stands for: r itself,
 * or for a SUBJECT_DECODE_SIZE_UNREPORTED subject that returned cap, the
 * size ref decodes (expected, < 0: ref rejects the call or it is unknown,
 * then r stays cap and is judged as it is). */
static inline int subject_decoded_size(const struct lz4_subject *s, int r, int cap,
                                       long long expected)
{
    if ((s->flags & SUBJECT_DECODE_SIZE_UNREPORTED) && r == cap && expected >= 0 &&
        expected <= cap)
        return (int)expected;
    return r;
}

/* The subject linked into this program (and the second one, if any). */
const struct lz4_subject *lz4gate_subject(void);
const struct lz4_subject *lz4gate_subject_b(void);

/* Names for reports. */
const char *subject_generation_name(enum subject_generation g);
const char *subject_cap_name(subject_caps cap);

#ifdef __cplusplus
}
#endif
#endif /* LZ4GATE_SUBJECT_H */
