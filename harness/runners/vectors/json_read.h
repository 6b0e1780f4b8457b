/*
 * json_read.h: a small JSON reader (RFC 8259) for the vector runner's
 * index.json, and whatever else a valid JSON document holds: objects,
 * arrays, strings (with escapes; \u escapes become UTF-8), numbers, true,
 * false, null. Out of memory stops the program (alloc.h).
 */
#ifndef LZ4GATE_JSON_READ_H
#define LZ4GATE_JSON_READ_H

#include <stddef.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jval {
    enum jtype type;
    double num;             /* J_NUM; J_BOOL: 1 or 0 */
    char *str;              /* J_STR */
    struct jval **items;    /* J_ARR, J_OBJ (values) */
    char **keys;            /* J_OBJ */
    size_t n;
} jval;

/* The document in text[0..len), or NULL with *err set to what is wrong
 * and *err_at to the byte offset where it was found. */
jval *json_parse(const char *text, size_t len, const char **err, size_t *err_at);
void json_free(jval *v);

/* The member `key` of an object (NULL when absent or obj is not an object). */
const jval *json_get(const jval *obj, const char *key);
/* A string's text, or NULL. */
const char *json_str(const jval *v);
/* A non-negative integer below 2^31 into *out; 0 when v is not one. */
int json_size(const jval *v, size_t *out);

#endif /* LZ4GATE_JSON_READ_H */
