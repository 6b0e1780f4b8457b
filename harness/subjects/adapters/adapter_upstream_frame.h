/*
 * What adapter_upstream_frame.c shares with the other upstream adapters
 * (adapter_stream_upstream.c's custom-memory frames): the translation of
 * lz4gate's frame preferences into the tree's LZ4F_preferences_t (as far
 * as its probed fields go) and of an LZ4F result into lz4gate's convention
 * (an error becomes -code). Include after lz4frame.h and subject.h.
 */
#ifndef LZ4GATE_ADAPTER_UPSTREAM_FRAME_H
#define LZ4GATE_ADAPTER_UPSTREAM_FRAME_H

#include <stddef.h>

long long upstream_lz4f_result(size_t r);
void upstream_lz4f_prefs(const struct subject_frame_prefs *p, LZ4F_preferences_t *out);

#endif
