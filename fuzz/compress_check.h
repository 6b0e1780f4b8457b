/*
 * compress_check.h: one call of a subject's block compressor, judged; the
 * core that compress_roundtrip (small data, fast) and compress_large
 * (64 KiB .. 4 MiB of synthesised data) share.
 *
 * The subject compresses into a buffer of exactly the capacity it is told
 * (ending where its memory ends, so ASan sees a write past it); the
 * reference decodes the block (strict profile) to exactly the input, or the
 * consumed prefix for destSize. Checked for every mode: the return value is
 * 0 (failure) or a block of at most the capacity; with a capacity of at
 * least compress_bound(n) the call succeeds; the block decodes exactly and
 * obeys every rule of the spec (strict); the same call twice gives the same
 * bytes (when asked).
 */
#ifndef LZ4GATE_FUZZ_COMPRESS_CHECK_H
#define LZ4GATE_FUZZ_COMPRESS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "subject.h"

enum compress_mode {
    CM_DEFAULT,     /* compress_default, capacity compress_bound */
    CM_FAST,        /* compress_fast, a drawn acceleration */
    CM_LIMITED,     /* compress_default, a capacity around what it needs */
    CM_DEST_SIZE,   /* compress_dest_size, a drawn target */
    CM_HC,          /* compress_hc (or compress_hc_ext_state), a drawn level */
    CM_DICT,        /* compress_using_dict */
    CM_COUNT
};

typedef struct compress_job {
    const struct lz4_subject *s;
    int mode;
    const uint8_t *data;    /* exactly n bytes of their own (fz_src) */
    size_t n;
    const uint8_t *dict;    /* exactly dict_len bytes of their own */
    size_t dict_len;
    int param;              /* acceleration or level */
    size_t cap;
    int twice;              /* run the call a second time */
    int hc_ext;             /* CM_HC through compress_hc_ext_state */
} compress_job;

/* The mode, or CM_DEFAULT when the subject lacks it or LZ4GATE_FUZZ_SKIP
 * excludes it. */
int compress_mode_or_default(const struct lz4_subject *s, int mode);
/* The subject's compress_bound(n) (ref's when it has none). */
int compress_bound_of(const struct lz4_subject *s, size_t n);
/* Returns what one call returns, the job's capacity ignored: the size the
 * same call reaches with a capacity of compress_bound (0 on failure). */
size_t compress_needed(const compress_job *j);
/* What compress_default reaches on the job's data with compress_bound. */
size_t compress_default_size(const compress_job *j);
/* compress_using_dict (mode CM_DICT): the first sel % (*len + 1) bytes of
 * p[0..*len) become the job's dictionary (exact, fz_src slot 1); *p and
 * *len are what is left. Other modes: nothing changes. */
void compress_take_dict(compress_job *j, const uint8_t **p, size_t *len, uint32_t sel);
/* Runs the job (twice when asked) and reports what the header describes. */
void compress_check(const compress_job *j);

#endif /* LZ4GATE_FUZZ_COMPRESS_CHECK_H */
