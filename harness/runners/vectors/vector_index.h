/*
 * vector_index.h: the JSON writer of make_vectors: the entries of
 * DIR/index.json (one object per vector, expectations under the strict and
 * the compatible profile) and the document around them (schema, what is not
 * covered, counts). Strings go through jsonl.h's json_append_string.
 */
#ifndef LZ4GATE_VECTOR_INDEX_H
#define LZ4GATE_VECTOR_INDEX_H

#include <stddef.h>

#include "buf.h"
#include "lz4ref.h"

/* printf appended to b. */
void jw_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One decode's result, and the SHA-256 of its output when it succeeded. */
typedef struct outcome {
    ref_decode_result r;
    char sha[65];
} outcome;

/* ",\n      "key": {strict, compatible, acceptable?, extra?}": the two
 * outcomes and, when they disagree, the profile rule that allows it (dies
 * when none does). extra: one more member ("malformed": ...), or NULL. */
void jw_expected(buf *b, const char *key, const char *id, const outcome *strict,
                 const outcome *compatible, const char *extra);

/* The index: entries in the order they are added. */
int index_has(const char *id);
void index_add(const char *id, buf *entry);     /* takes entry's memory */
size_t index_count(void);
void index_count_flag(const char *flag);
void index_count_status(ref_profile profile, ref_status status);
/* The generated vectors' features, for the counts (names[i], counts[i]). */
void index_set_features(const char *const *names, const unsigned *counts, size_t n);

/* Write DIR/index.json. */
void index_write(void);

#endif /* LZ4GATE_VECTOR_INDEX_H */
