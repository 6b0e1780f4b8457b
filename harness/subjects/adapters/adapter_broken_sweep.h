/*
 * The slots of the broken modes of the boundary sweeps (issue 25),
 * written in adapter_broken_sweep.c, that adapter_broken.c puts in its
 * table: frame_bound_one_block_short, frame_block_checksum_early,
 * dict_prefix_64k_early, frame_info_reads_past.
 */
#ifndef LZ4GATE_ADAPTER_BROKEN_SWEEP_H
#define LZ4GATE_ADAPTER_BROKEN_SWEEP_H

#include <stddef.h>

#include "subject.h"

size_t bs_update_bound_one_block_short(size_t n, const struct subject_frame_prefs *p);
void *bs_dctx_create(void);
void bs_dctx_free(void *dctx);
void bs_dctx_reset(void *dctx);
long long bs_frame_decompress_checksum_early(void *dctx, unsigned char *dst, size_t *dst_len,
                                             const unsigned char *src, size_t *src_len,
                                             const unsigned char *dict, size_t dict_len);
int bs_using_dict_prefix_64k_early(const char *src, char *dst, int n, int cap,
                                   const char *dict, int dict_len);
long long bs_frame_get_info_reads_past(const unsigned char *src, size_t *src_len,
                                       struct subject_frame_info *info);

#endif
