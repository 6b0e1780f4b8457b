/*
 * frame_make.h: generated data encoded by ref as one LZ4 frame, or as a
 * legacy frame (lz4 -l, the kernel's unlz4 format), in a malloc'd buffer:
 * the frames the contract checks, the regression cases and the seed
 * generators hand to subjects.
 */
#ifndef LZ4GATE_FRAME_MAKE_H
#define LZ4GATE_FRAME_MAKE_H

#include <stddef.h>

#include "lz4frame_ref.h"

/* data[0..n) as one frame with preferences p, or as a legacy frame
 * (acceleration 1) when p is NULL. *out is malloc'd (alloc.h: exit 2 when
 * memory runs out) and is the caller's to free. Returns the frame size, or
 * 0 when ref's encoder fails (invalid preferences); *out is then NULL. */
size_t frame_make(const ref_frame_prefs *p, const unsigned char *data, size_t n,
                  unsigned char **out);

#endif
