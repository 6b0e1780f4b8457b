/*
 * adapter_broken_profile.h: decoders on either side of ref's profile table
 * for the conformant broken modes (adapter_broken.c: strict_decoders,
 * compatible_decoders), on the reference codec.
 */
#ifndef LZ4GATE_ADAPTER_BROKEN_PROFILE_H
#define LZ4GATE_ADAPTER_BROKEN_PROFILE_H

#include <stddef.h>

#include "lz4ref.h"
#include "subject.h"

/* ref's decode of s[0..n) into d[0..cap) under `profile`: whole, or partial
 * up to `target`; dict[0..dict_len) an external dictionary (or none).
 * Returns the bytes written or -1. */
int bp_decode(const char *s, char *d, int n, int cap, int partial, int target, const char *dict,
              int dict_len, ref_profile profile);

/* bp_decode's whole result: ref's status, the bytes written. */
ref_decode_result bp_decode_result(const char *s, char *d, int n, int cap, int partial,
                                   int target, const char *dict, int dict_len,
                                   ref_profile profile);

/* 1 when ref strict accepts s[0..n) as a whole block, whatever the capacity. */
int bp_strict_whole(const char *s, int n);

/* The LZ4F decoder slots (subject.h) on ref's streaming frame decoder with
 * the strict profile. */
void *bp_strict_dctx_create(void);
void bp_strict_dctx_free(void *dctx);
void bp_strict_dctx_reset(void *dctx);
long long bp_strict_frame_decompress(void *dctx, unsigned char *dst, size_t *dst_len,
                                     const unsigned char *src, size_t *src_len,
                                     const unsigned char *dict, size_t dict_len);

/* unlz4's input in fill mode, recorded: bp_recording(fill) is the fill to
 * pass (NULL for NULL), bp_recorded the bytes it handed out since. */
unlz4_fill_fn bp_recording(unlz4_fill_fn fill);
const unsigned char *bp_recorded(size_t *n);
/* 1 when ref strict decodes p[0..n) as legacy frames, 0 when not, -1 when
 * memory runs out. */
int bp_legacy_strict_ok(const unsigned char *p, size_t n);

#endif /* LZ4GATE_ADAPTER_BROKEN_PROFILE_H */
