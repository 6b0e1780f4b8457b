/* Reading the vectors of a directory (vector_load.h). */
#include "vector_load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "defined_prefix.h"
#include "json_read.h"
#include "sha256.h"

void fatal(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "vectors: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(stdout);
    _exit(2);
}

/* The whole file, or NULL (errno says why). */
static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    buf b = { NULL, 0, 0 };
    size_t r;
    if (!f)
        return NULL;
    do {
        buf_reserve(&b, 4096);
        r = fread(b.p + b.n, 1, b.cap - b.n, f);
        b.n += r;
    } while (r > 0);
    if (ferror(f)) {
        fclose(f);
        buf_free(&b);
        return NULL;
    }
    fclose(f);
    *len = b.n;
    return b.p;
}

/* An "expected" or "expected_partial" object into e; NULL or what is wrong. */
static const char *read_expectation(const jval *obj, expectation *e)
{
    static const char *const names[2] = { "strict", "compatible" };
    int i;
    memset(e, 0, sizeof *e);
    if (!obj)
        return NULL;
    if (obj->type != J_OBJ)
        return "an expectation is not an object";
    e->present = 1;
    for (i = 0; i < 2; i++) {
        const jval *p = json_get(obj, names[i]);
        const char *result = json_str(json_get(p, "result"));
        const char *status = json_str(json_get(p, "status"));
        if (!result || (strcmp(result, "valid") && strcmp(result, "invalid")))
            return "a profile has no result valid/invalid";
        snprintf(e->prof[i].status, sizeof e->prof[i].status, "%s", status ? status : "?");
        e->prof[i].valid = !strcmp(result, "valid");
        if (e->prof[i].valid) {
            const char *sha = json_str(json_get(p, "output_sha256"));
            if (!json_size(json_get(p, "output_size"), &e->prof[i].output_size) || !sha ||
                strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64)
                return "a valid profile lacks output_size or a lower-case hex output_sha256";
            memcpy(e->prof[i].sha, sha, 65);
        }
    }
    if (json_get(obj, "malformed")) {
        const jval *m = json_get(obj, "malformed");
        const char *sha = json_str(json_get(m, "prefix_sha256"));
        if (!json_size(json_get(m, "prefix_size"), &e->prefix_size) || !sha ||
            strlen(sha) != 64)
            return "\"malformed\" lacks prefix_size or prefix_sha256";
        e->malformed = 1;
        memcpy(e->prefix_sha, sha, 65);
    }
    return NULL;
}

/* The block or dictionary file `name` of dir, which must hold `size` bytes. */
static unsigned char *read_vector_file(const char *dir, const char *name, size_t size,
                                       size_t *len, const char *id)
{
    char path[4096];
    unsigned char *data;
    if (strchr(name, '/'))
        fatal("vector %s: file name %s is not in the directory", id, name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(data = read_file(path, len)))
        fatal("cannot read %s: %s", path, strerror(errno));
    if (*len != size)
        fatal("%s: size differs from the index (%s)", path, id);
    return data;
}

/* Vector x from its index entry v. */
static void load_vector(const char *dir, const jval *v, vector *x)
{
    const char *id = json_str(json_get(v, "id")), *file = json_str(json_get(v, "file"));
    const char *dict = json_str(json_get(v, "dict")), *err;
    size_t size = 0, dict_size = 0;
    memset(x, 0, sizeof *x);
    if (!id || !file || !json_size(json_get(v, "capacity"), &x->capacity) ||
        !json_size(json_get(v, "size"), &size) || strlen(id) >= sizeof x->id)
        fatal("%s/index.json: a vector lacks id, file, size or capacity (%s)", dir,
              id ? id : "?");
    snprintf(x->id, sizeof x->id, "%s", id);
    if ((err = read_expectation(json_get(v, "expected"), &x->whole)) != NULL ||
        (err = read_expectation(json_get(v, "expected_partial"), &x->partial)) != NULL)
        fatal("vector %s: %s", id, err);
    if (!x->whole.present)
        fatal("vector %s: no \"expected\"", id);
    x->block = read_vector_file(dir, file, size, &x->block_len, id);
    if (dict) {
        if (!json_size(json_get(v, "dict_size"), &dict_size))
            fatal("vector %s: bad dict_size", id);
        x->dict = read_vector_file(dir, dict, dict_size, &x->dict_len, id);
    }
    if (x->partial.malformed) {
        char sha[65];
        size_t got;
        x->prefix = xmalloc(x->capacity);
        got = defined_prefix(x->block, x->block_len, x->capacity, x->dict, x->dict_len,
                             x->prefix);
        sha256_hex(x->prefix, got, sha);
        if (got != x->partial.prefix_size || strcmp(sha, x->partial.prefix_sha))
            fatal("vector %s: the index says the block defines %zu bytes before its "
                  "defect, the reference decoder finds %zu (or other bytes)", id,
                  x->partial.prefix_size, got);
    }
}

vector *load_vectors(const char *dir, size_t *count)
{
    char path[4096];
    size_t len, i, err_at;
    unsigned char *text;
    const char *err;
    jval *root;
    const jval *list;
    vector *vs;

    snprintf(path, sizeof path, "%s/index.json", dir);
    text = read_file(path, &len);
    if (!text)
        fatal("cannot read %s: %s (run from the top of lz4gate or pass --dir)", path,
              strerror(errno));
    root = json_parse((const char *)text, len, &err, &err_at);
    if (!root)
        fatal("%s: not valid JSON at byte %zu: %s", path, err_at, err);
    list = json_get(root, "vectors");
    if (!list || list->type != J_ARR)
        fatal("%s has no \"vectors\" array", path);
    vs = xmalloc(list->n * sizeof *vs);
    for (i = 0; i < list->n; i++)
        load_vector(dir, list->items[i], &vs[i]);
    *count = list->n;
    json_free(root);
    free(text);
    return vs;
}

void free_vectors(vector *vs, size_t count)
{
    size_t k;
    for (k = 0; k < count; k++) {
        free(vs[k].block);
        free(vs[k].dict);
        free(vs[k].prefix);
    }
    free(vs);
}
