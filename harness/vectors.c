/*
 * Known-answer vectors: runs every vector of corpus/vectors/ (written by
 * harness/make_vectors.c, described by its index.json) on the subject
 * linked into this program.
 *
 * For each vector and each decoder entry point the subject has:
 *   decompress_safe             whole-block vectors without a dictionary
 *   decompress_safe_partial     target = capacity (vectors without a
 *                               dictionary and with capacity > 0)
 *   decompress_safe_using_dict  vectors with a dictionary
 * the block is copied to a buffer that ends at a guard page (harness/guard.h),
 * the output buffer ends at one too, and the call runs in a child process
 * (harness/isolate.h). It runs twice, into an output buffer filled with 0x00
 * and one filled with 0xFF: the result must not depend on what the buffer
 * held (the information leak the spec warns about for offset 0).
 *
 * Verdict: pass iff
 *   the subject accepts (returns r >= 0) and a profile whose expectation is
 *   "valid" has output_size r and the SHA-256 of the r bytes written, or
 *   the subject rejects (r < 0) and a profile expects "invalid";
 * and both runs agree. One exception: a partial decode of a block that is
 * "malformed" (no profile accepts it even with ample capacity: truncated,
 * bad offset...) may also return its first r bytes, r <= prefix_size, as far
 * as the block defines them before its defect: upstream's
 * LZ4_decompress_safe_partial returns what it decoded when the input ends,
 * the kernel's does for some truncations, the reference rejects; none of
 * these is wrong, producing bytes the block does not define is. The prefix
 * is recomputed with the reference decoder and checked against the index.
 * That exception is the row PARTIAL_EARLY_END of ref's latitude table
 * (ref/profile.c); the runner refuses to start if the row is missing.
 * Otherwise FAIL (or CRASH: a guard page, ASan, a signal). One JSON record per line, the same fields as harness/contracts.c:
 *   {"subject","generation","check":"vector.<id>.<entry point>","verdict",
 *    "evidence","ubsan"}
 *
 * Usage: vectors [--list] [--no-fork] [--only PREFIX] [--dir DIR]
 *   DIR defaults to corpus/vectors (run from the top of lz4gate).
 * Exit status: 0 when every record was printed (verdicts are in the records),
 * 2 when the index or a vector file cannot be read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guard.h"
#include "isolate.h"
#include "jsonl.h"
#include "sha256.h"
#include "lz4ref.h"
#include "subject.h"

static const struct lz4_subject *S;

__attribute__((format(printf, 1, 2), noreturn)) static void fatal(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "vectors: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(stdout);
    _exit(2);   /* not exit(): LeakSanitizer would turn 2 into its own status */
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        fatal("out of memory");
    return p;
}

/* ---- a small JSON reader ------------------------------------------------
 * Enough JSON for index.json and whatever else a valid JSON document holds:
 * objects, arrays, strings (with escapes), numbers, true, false, null. */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jval {
    enum jtype type;
    double num;
    char *str;              /* J_STR */
    struct jval **items;    /* J_ARR, J_OBJ (values) */
    char **keys;            /* J_OBJ */
    size_t n;
} jval;

typedef struct jparser {
    const char *s, *end;
    const char *err;
} jparser;

static void jskip(jparser *p)
{
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
        p->s++;
}

static jval *jnew(enum jtype t)
{
    jval *v = xmalloc(sizeof *v);
    memset(v, 0, sizeof *v);
    v->type = t;
    return v;
}

static void jpush(jval *v, char *key, jval *item)
{
    v->items = realloc(v->items, (v->n + 1) * sizeof *v->items);
    if (v->type == J_OBJ)
        v->keys = realloc(v->keys, (v->n + 1) * sizeof *v->keys);
    if (!v->items || (v->type == J_OBJ && !v->keys))
        fatal("out of memory");
    if (v->type == J_OBJ)
        v->keys[v->n] = key;
    v->items[v->n++] = item;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static char *jstring(jparser *p)
{
    size_t cap = 16, n = 0;
    char *out = xmalloc(cap);
    p->s++; /* opening quote */
    for (;;) {
        unsigned long cp;
        if (p->s >= p->end) {
            p->err = "unterminated string";
            free(out);
            return NULL;
        }
        if (n + 5 >= cap) {
            cap *= 2;
            out = realloc(out, cap);
            if (!out)
                fatal("out of memory");
        }
        if (*p->s == '"') {
            p->s++;
            break;
        }
        if ((unsigned char)*p->s < 0x20) {
            p->err = "control character in string";
            free(out);
            return NULL;
        }
        if (*p->s != '\\') {
            out[n++] = *p->s++;
            continue;
        }
        if (p->end - p->s < 2) {
            p->err = "bad escape";
            free(out);
            return NULL;
        }
        p->s++;
        switch (*p->s++) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            int i, d;
            cp = 0;
            if (p->end - p->s < 4) {
                p->err = "bad \\u escape";
                free(out);
                return NULL;
            }
            for (i = 0; i < 4; i++) {
                if ((d = hexval(p->s[i])) < 0) {
                    p->err = "bad \\u escape";
                    free(out);
                    return NULL;
                }
                cp = cp * 16 + (unsigned long)d;
            }
            p->s += 4;
            /* UTF-8; a surrogate half is kept as is (never in our index). */
            if (cp < 0x80) {
                out[n++] = (char)cp;
            } else if (cp < 0x800) {
                out[n++] = (char)(0xC0 | cp >> 6);
                out[n++] = (char)(0x80 | (cp & 0x3F));
            } else {
                out[n++] = (char)(0xE0 | cp >> 12);
                out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                out[n++] = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default:
            p->err = "bad escape";
            free(out);
            return NULL;
        }
    }
    out[n] = 0;
    return out;
}

static jval *jvalue(jparser *p, int depth)
{
    jval *v;
    jskip(p);
    if (p->s >= p->end) {
        p->err = "unexpected end of input";
        return NULL;
    }
    if (depth > 64) {
        p->err = "nested too deeply";
        return NULL;
    }
    if (*p->s == '{' || *p->s == '[') {
        int obj = *p->s == '{';
        char close = obj ? '}' : ']';
        v = jnew(obj ? J_OBJ : J_ARR);
        p->s++;
        jskip(p);
        if (p->s < p->end && *p->s == close) {
            p->s++;
            return v;
        }
        for (;;) {
            char *key = NULL;
            jval *item;
            jskip(p);
            if (obj) {
                if (p->s >= p->end || *p->s != '"') {
                    p->err = "expected a string key";
                    return NULL;
                }
                if (!(key = jstring(p)))
                    return NULL;
                jskip(p);
                if (p->s >= p->end || *p->s != ':') {
                    p->err = "expected ':'";
                    return NULL;
                }
                p->s++;
            }
            if (!(item = jvalue(p, depth + 1)))
                return NULL;
            jpush(v, key, item);
            jskip(p);
            if (p->s < p->end && *p->s == ',') {
                p->s++;
                continue;
            }
            if (p->s < p->end && *p->s == close) {
                p->s++;
                return v;
            }
            p->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
            return NULL;
        }
    }
    if (*p->s == '"') {
        v = jnew(J_STR);
        if (!(v->str = jstring(p)))
            return NULL;
        return v;
    }
    if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9')) {
        char buf[64], *endp;
        size_t n = 0;
        while (p->s + n < p->end && n < sizeof buf - 1 && strchr("+-0123456789.eE", p->s[n]))
            n++;
        memcpy(buf, p->s, n);
        buf[n] = 0;
        v = jnew(J_NUM);
        v->num = strtod(buf, &endp);
        if (endp != buf + n) {
            p->err = "bad number";
            return NULL;
        }
        p->s += n;
        return v;
    }
    if (p->end - p->s >= 4 && !strncmp(p->s, "true", 4)) {
        v = jnew(J_BOOL);
        v->num = 1;
        p->s += 4;
        return v;
    }
    if (p->end - p->s >= 5 && !strncmp(p->s, "false", 5)) {
        v = jnew(J_BOOL);
        p->s += 5;
        return v;
    }
    if (p->end - p->s >= 4 && !strncmp(p->s, "null", 4)) {
        p->s += 4;
        return jnew(J_NULL);
    }
    p->err = "unexpected character";
    return NULL;
}

static void jfree(jval *v)
{
    size_t i;
    if (!v)
        return;
    for (i = 0; i < v->n; i++) {
        jfree(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

static const jval *jget(const jval *obj, const char *key)
{
    size_t i;
    if (!obj || obj->type != J_OBJ)
        return NULL;
    for (i = 0; i < obj->n; i++)
        if (!strcmp(obj->keys[i], key))
            return obj->items[i];
    return NULL;
}

/* ---- reading the vectors ------------------------------------------------ */

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    size_t cap = 4096, n = 0, r;
    if (!f)
        return NULL;
    buf = xmalloc(cap);
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf)
                fatal("out of memory");
        }
    }
    if (ferror(f)) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

typedef struct expect {
    int valid;
    size_t output_size;
    char sha[65];
    char status[48];
} expect;

typedef struct expectation {
    int present;
    expect prof[2];        /* strict, compatible */
    /* Partial decode of a malformed block: reject, or a prefix of these bytes. */
    int malformed;
    size_t prefix_size;
    char prefix_sha[65];
} expectation;

enum entry_point { EP_SAFE, EP_PARTIAL, EP_USING_DICT, EP_COUNT };
static const char *const ep_names[EP_COUNT] = {
    "decompress_safe", "decompress_safe_partial", "decompress_safe_using_dict"
};
static const unsigned ep_caps[EP_COUNT] = {
    CAP_DECOMPRESS_SAFE, CAP_DECOMPRESS_PARTIAL, CAP_DECOMPRESS_USING_DICT
};

typedef struct vector {
    char id[96];
    unsigned char *block;
    size_t block_len;
    unsigned char *dict;    /* NULL: no dictionary */
    size_t dict_len;
    size_t capacity;
    unsigned char *prefix;  /* malformed: the bytes the block defines before its defect */
    expectation whole, partial;
} vector;

static int as_size(const jval *v, size_t *out)
{
    if (!v || v->type != J_NUM || v->num < 0 || v->num > 2147483647.0 ||
        v->num != (double)(long)v->num)
        return 0;
    *out = (size_t)v->num;
    return 1;
}

static const char *as_str(const jval *v)
{
    return v && v->type == J_STR ? v->str : NULL;
}

/* Returns NULL or what is wrong. */
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
        const jval *p = jget(obj, names[i]);
        const char *result = as_str(jget(p, "result")), *status = as_str(jget(p, "status"));
        if (!result || (strcmp(result, "valid") && strcmp(result, "invalid")))
            return "a profile has no result valid/invalid";
        snprintf(e->prof[i].status, sizeof e->prof[i].status, "%s", status ? status : "?");
        e->prof[i].valid = !strcmp(result, "valid");
        if (e->prof[i].valid) {
            const char *sha = as_str(jget(p, "output_sha256"));
            if (!as_size(jget(p, "output_size"), &e->prof[i].output_size) || !sha ||
                strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64)
                return "a valid profile lacks output_size or a lower-case hex output_sha256";
            memcpy(e->prof[i].sha, sha, 65);
        }
    }
    if (jget(obj, "malformed")) {
        const jval *m = jget(obj, "malformed");
        const char *sha = as_str(jget(m, "prefix_sha256"));
        if (!as_size(jget(m, "prefix_size"), &e->prefix_size) || !sha || strlen(sha) != 64)
            return "\"malformed\" lacks prefix_size or prefix_sha256";
        e->malformed = 1;
        memcpy(e->prefix_sha, sha, 65);
    }
    return NULL;
}

/*
 * The bytes a malformed block defines before its defect (make_vectors.c has
 * the same definition and records their size and SHA-256; load_vectors
 * checks that both agree): ref's partial decode, compatible profile, target =
 * capacity; when it fails, what it wrote before the error plus the literal
 * bytes present when the input ended inside a literal run.
 */
static size_t defined_prefix(const vector *v, unsigned char *out)
{
    ref_decode_params p;
    ref_decode_result r;
    size_t n;
    memset(&p, 0, sizeof p);
    p.src = v->block;
    p.src_len = v->block_len;
    p.dst = out;
    p.dst_cap = v->capacity;
    p.dict = v->dict;
    p.dict_len = v->dict_len;
    p.profile = REF_PROFILE_COMPATIBLE;
    p.partial = 1;
    p.target = v->capacity;
    p.target0 = REF_TARGET0_RETURNS_ZERO;
    r = ref_decode(&p);
    n = r.written;
    if (r.status == REF_ERR_TRUNCATED_LITERALS && r.consumed <= v->block_len) {
        size_t avail = v->block_len - r.consumed, room = v->capacity - n;
        size_t k = avail < room ? avail : room;
        memcpy(out + n, v->block + r.consumed, k);
        n += k;
    }
    return n;
}

static vector *load_vectors(const char *dir, size_t *count)
{
    char path[4096];
    size_t len, i;
    unsigned char *text;
    jparser p;
    jval *root;
    const jval *list;
    vector *vs;

    snprintf(path, sizeof path, "%s/index.json", dir);
    text = read_file(path, &len);
    if (!text)
        fatal("cannot read %s: %s (run from the top of lz4gate or pass --dir)", path,
              strerror(errno));
    p.s = (const char *)text;
    p.end = p.s + len;
    p.err = NULL;
    root = jvalue(&p, 0);
    if (root) {
        jskip(&p);
        if (p.s != p.end)
            p.err = "trailing characters after the document";
    }
    if (!root || p.err) {
        char where[64];
        snprintf(where, sizeof where, "byte %ld", (long)(p.s - (const char *)text));
        fatal("%s: not valid JSON at %s: %s", path, where, p.err ? p.err : "?");
    }
    list = jget(root, "vectors");
    if (!list || list->type != J_ARR)
        fatal("%s has no \"vectors\" array", path);
    vs = xmalloc(list->n * sizeof *vs);
    for (i = 0; i < list->n; i++) {
        const jval *v = list->items[i];
        vector *x = &vs[i];
        const char *id = as_str(jget(v, "id")), *file = as_str(jget(v, "file"));
        const char *dict = as_str(jget(v, "dict")), *err;
        size_t size = 0, dict_size = 0;
        memset(x, 0, sizeof *x);
        if (!id || !file || strchr(file, '/') || !as_size(jget(v, "capacity"), &x->capacity) ||
            !as_size(jget(v, "size"), &size) || strlen(id) >= sizeof x->id)
            fatal("%s: a vector lacks id, file, size or capacity (%s)", path, id ? id : "?");
        snprintf(x->id, sizeof x->id, "%s", id);
        if ((err = read_expectation(jget(v, "expected"), &x->whole)) != NULL ||
            (err = read_expectation(jget(v, "expected_partial"), &x->partial)) != NULL)
            fatal("vector %s: %s", id, err);
        if (!x->whole.present)
            fatal("vector %s: no \"expected\"", id);
        snprintf(path, sizeof path, "%s/%s", dir, file);
        if (!(x->block = read_file(path, &x->block_len)))
            fatal("cannot read %s: %s", path, strerror(errno));
        if (x->block_len != size)
            fatal("%s: size differs from the index (%s)", path, id);
        if (dict) {
            if (strchr(dict, '/') || !as_size(jget(v, "dict_size"), &dict_size))
                fatal("vector %s: bad dict or dict_size", id);
            snprintf(path, sizeof path, "%s/%s", dir, dict);
            if (!(x->dict = read_file(path, &x->dict_len)))
                fatal("cannot read %s: %s", path, strerror(errno));
            if (x->dict_len != dict_size)
                fatal("%s: dict_size differs from the index (%s)", path, id);
        }
        if (x->partial.malformed) {
            char sha[65];
            size_t got;
            x->prefix = xmalloc(x->capacity);
            got = defined_prefix(x, x->prefix);
            sha256_hex(x->prefix, got, sha);
            if (got != x->partial.prefix_size || strcmp(sha, x->partial.prefix_sha))
                fatal("vector %s: the index says the block defines %zu bytes before its "
                      "defect, the reference decoder finds %zu (or other bytes)", id,
                      x->partial.prefix_size, got);
        }
    }
    *count = list->n;
    jfree(root);
    free(text);
    return vs;
}

/* ---- the check ---------------------------------------------------------- */

typedef struct job {
    const vector *v;
    enum entry_point ep;
} job;

static int call(const job *j, const guard_buf *in, const guard_buf *dict, guard_buf *out)
{
    const vector *v = j->v;
    int cap = (int)v->capacity;
    switch (j->ep) {
    case EP_SAFE:
        return S->decompress_safe((const char *)in->data, (char *)out->data, (int)v->block_len,
                                  cap);
    case EP_PARTIAL:
        return S->decompress_safe_partial((const char *)in->data, (char *)out->data,
                                          (int)v->block_len, cap, cap);
    case EP_USING_DICT:
        return S->decompress_safe_using_dict((const char *)in->data, (char *)out->data,
                                             (int)v->block_len, cap,
                                             (const char *)dict->data, (int)v->dict_len);
    case EP_COUNT:
        break;
    }
    return -1;
}

static void describe(char *buf, size_t cap, const expectation *e)
{
    static const char *const names[2] = { "strict", "compatible" };
    size_t n = 0;
    int i;
    buf[0] = 0;
    for (i = 0; i < 2 && n < cap; i++) {
        const expect *x = &e->prof[i];
        int w = x->valid ? snprintf(buf + n, cap - n, "%s%s: valid, %zu bytes (%.12s)",
                                    i ? "; " : "", names[i], x->output_size, x->sha)
                         : snprintf(buf + n, cap - n, "%s%s: invalid (%s)", i ? "; " : "",
                                    names[i], x->status);
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

/* The latitude this runner applies (ref/profile.c), looked up in main. */
static const ref_latitude *early_end;

static int chk_vector(const void *arg, char *msg, unsigned cap)
{
    const job *j = arg;
    const vector *v = j->v;
    const expectation *e = j->ep == EP_PARTIAL ? &v->partial : &v->whole;
    guard_buf in = guard_dup(v->block, v->block_len);
    guard_buf dict = guard_dup(v->dict ? v->dict : (const unsigned char *)"", v->dict_len);
    guard_buf o0 = guard_alloc(v->capacity, 0x00), o1 = guard_alloc(v->capacity, 0xFF);
    char want[300], got_sha[65] = "";
    int r0 = call(j, &in, &dict, &o0);
    int r1 = call(j, &in, &dict, &o1);
    int bad = 0, i;

    describe(want, sizeof want, e);
    if (r0 != r1 || (r0 > 0 && (size_t)r0 <= v->capacity &&
                     memcmp(o0.data, o1.data, (size_t)r0) != 0)) {
        snprintf(msg, cap, "the result depends on the output buffer's previous content: "
                 "returned %d into 0x00 bytes, %d into 0xFF bytes%s", r0, r1,
                 r0 == r1 ? ", different bytes" : "");
        bad = 1;
    } else if (r0 >= 0 && j->ep == EP_PARTIAL && e->malformed) {
        /* Malformed block, partial decode: a prefix of what it defines. */
        if ((size_t)r0 > e->prefix_size ||
            (r0 > 0 && memcmp(o0.data, v->prefix, (size_t)r0) != 0)) {
            if ((size_t)r0 <= v->capacity)
                sha256_hex(o0.data, (size_t)r0, got_sha);
            snprintf(msg, cap, "malformed block accepted: returned %d (output %.12s), not a "
                     "prefix of the %zu bytes it defines before its defect (%.12s), which "
                     "is all %s allows", r0, got_sha, e->prefix_size, e->prefix_sha,
                     early_end->name);
            bad = 1;
        }
    } else if (r0 >= 0) {
        int matched = 0;
        if ((size_t)r0 > v->capacity) {
            snprintf(msg, cap, "accepted: returned %d, more than the capacity %zu", r0,
                     v->capacity);
            bad = 1;
        } else {
            sha256_hex(o0.data, (size_t)r0, got_sha);
            for (i = 0; i < 2; i++)
                if (e->prof[i].valid && e->prof[i].output_size == (size_t)r0 &&
                    !strcmp(e->prof[i].sha, got_sha))
                    matched = 1;
            if (!matched) {
                snprintf(msg, cap, "accepted: returned %d (output %.12s); expected %s", r0,
                         got_sha, want);
                bad = 1;
            }
        }
    } else if (r0 < 0 && j->ep == EP_PARTIAL && e->malformed) {
        /* rejecting a malformed block is always right */
    } else if (e->prof[0].valid && e->prof[1].valid) {
        snprintf(msg, cap, "rejected: returned %d; expected %s", r0, want);
        bad = 1;
    }
    guard_free(&in);
    guard_free(&dict);
    guard_free(&o0);
    guard_free(&o1);
    return bad;
}

/* ---- main ----------------------------------------------------------------- */

static int applies(const vector *v, enum entry_point ep)
{
    switch (ep) {
    case EP_SAFE: return v->dict == NULL;
    case EP_PARTIAL: return v->dict == NULL && v->partial.present && v->capacity > 0;
    case EP_USING_DICT: return v->dict != NULL;
    case EP_COUNT: break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int i, list = 0, no_fork = 0;
    const char *only = NULL, *dir = "corpus/vectors";
    vector *vs;
    size_t n, k;

    early_end = ref_latitude_named("PARTIAL_EARLY_END");
    if (!early_end) {
        fprintf(stderr, "vectors: ref/profile.c has no PARTIAL_EARLY_END latitude\n");
        return 2;
    }
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--no-fork"))
            no_fork = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--list] [--no-fork] [--only PREFIX] [--dir DIR]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!sha256_self_test())
        fatal("SHA-256 self-test failed");
    S = lz4gate_subject();
    vs = load_vectors(dir, &n);
    for (k = 0; k < n; k++) {
        int ep;
        for (ep = 0; ep < EP_COUNT; ep++) {
            char id[160];
            job j;
            isolate_result r;
            if (!applies(&vs[k], (enum entry_point)ep))
                continue;
            snprintf(id, sizeof id, "vector.%s.%s", vs[k].id, ep_names[ep]);
            if (only && strncmp(id, only, strlen(only)) != 0)
                continue;
            if (list) {
                printf("%s\n", id);
                continue;
            }
            j.v = &vs[k];
            j.ep = (enum entry_point)ep;
            if ((S->caps & ep_caps[ep]) != ep_caps[ep]) {
                memset(&r, 0, sizeof r);
                r.verdict = V_NOT_APPLICABLE;
                snprintf(r.evidence, sizeof r.evidence, "no %s entry point",
                         subject_cap_name(ep_caps[ep]));
            } else {
                r = isolate_run(chk_vector, &j, 30, no_fork);
            }
            print_record(S, id, &r);
        }
    }
    for (k = 0; k < n; k++) {
        free(vs[k].block);
        free(vs[k].dict);
        free(vs[k].prefix);
    }
    free(vs);
    return 0;
}
