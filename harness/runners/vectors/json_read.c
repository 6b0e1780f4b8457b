/* A small JSON reader (json_read.h). */
#include "json_read.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"

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
    v->items = xrealloc(v->items, (v->n + 1) * sizeof *v->items);
    if (v->type == J_OBJ) {
        v->keys = xrealloc(v->keys, (v->n + 1) * sizeof *v->keys);
        v->keys[v->n] = key;
    }
    v->items[v->n++] = item;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Code point cp (below 0x10000) as UTF-8. A surrogate half is kept as it
 * is (never in our index). */
static void put_utf8(buf *out, unsigned long cp)
{
    unsigned char u[3];
    size_t n;
    if (cp < 0x80) {
        u[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (unsigned char)(0xC0 | cp >> 6);
        u[1] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 2;
    } else {
        u[0] = (unsigned char)(0xE0 | cp >> 12);
        u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 3;
    }
    buf_append(out, u, n, 0);
}

/* The escape after a backslash (p->s at the character after it) into out;
 * 0 and p->err set when it is not one. */
static int jescape(jparser *p, buf *out)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k;
    unsigned long cp = 0;
    int i, d;
    if (p->s >= p->end) {
        p->err = "bad escape";
        return 0;
    }
    if (*p->s != 'u') {
        if (!*p->s || !(k = strchr(from, *p->s))) {
            p->err = "bad escape";
            return 0;
        }
        buf_append(out, &to[k - from], 1, 0);
        p->s++;
        return 1;
    }
    p->s++;
    if (p->end - p->s < 4) {
        p->err = "bad \\u escape";
        return 0;
    }
    for (i = 0; i < 4; i++) {
        if ((d = hexval(p->s[i])) < 0) {
            p->err = "bad \\u escape";
            return 0;
        }
        cp = cp * 16 + (unsigned long)d;
    }
    p->s += 4;
    put_utf8(out, cp);
    return 1;
}

static char *jstring(jparser *p)
{
    buf out = { NULL, 0, 0 };
    p->s++; /* opening quote */
    for (;;) {
        if (p->s >= p->end) {
            p->err = "unterminated string";
            break;
        }
        if (*p->s == '"') {
            p->s++;
            buf_append(&out, "", 1, 0);
            return (char *)out.p;
        }
        if ((unsigned char)*p->s < 0x20) {
            p->err = "control character in string";
            break;
        }
        if (*p->s != '\\') {
            buf_append(&out, p->s++, 1, 0);
            continue;
        }
        p->s++;
        if (!jescape(p, &out))
            break;
    }
    buf_free(&out);
    return NULL;
}

static jval *jvalue(jparser *p, int depth);

/* An object or an array (p->s at its opening bracket). */
static jval *jcontainer(jparser *p, int depth)
{
    int obj = *p->s == '{';
    char close = obj ? '}' : ']';
    jval *v = jnew(obj ? J_OBJ : J_ARR);
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
                break;
            }
            if (!(key = jstring(p)))
                break;
            jskip(p);
            if (p->s >= p->end || *p->s != ':') {
                p->err = "expected ':'";
                free(key);
                break;
            }
            p->s++;
        }
        if (!(item = jvalue(p, depth + 1))) {
            free(key);
            break;
        }
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
        break;
    }
    json_free(v);
    return NULL;
}

static jval *jnumber(jparser *p)
{
    char text[64], *endp;
    size_t n = 0;
    jval *v;
    while (p->s + n < p->end && n < sizeof text - 1 && strchr("+-0123456789.eE", p->s[n]))
        n++;
    memcpy(text, p->s, n);
    text[n] = 0;
    v = jnew(J_NUM);
    v->num = strtod(text, &endp);
    if (endp != text + n) {
        p->err = "bad number";
        json_free(v);
        return NULL;
    }
    p->s += n;
    return v;
}

/* true, false or null (p->s at its first letter). */
static jval *jliteral(jparser *p)
{
    static const struct { const char *word; enum jtype type; double num; } words[] = {
        { "true", J_BOOL, 1 }, { "false", J_BOOL, 0 }, { "null", J_NULL, 0 },
    };
    size_t i;
    for (i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i].word);
        if ((size_t)(p->end - p->s) >= n && !strncmp(p->s, words[i].word, n)) {
            jval *v = jnew(words[i].type);
            v->num = words[i].num;
            p->s += n;
            return v;
        }
    }
    p->err = "unexpected character";
    return NULL;
}

static jval *jvalue(jparser *p, int depth)
{
    jskip(p);
    if (p->s >= p->end) {
        p->err = "unexpected end of input";
        return NULL;
    }
    if (depth > 64) {
        p->err = "nested too deeply";
        return NULL;
    }
    if (*p->s == '{' || *p->s == '[')
        return jcontainer(p, depth);
    if (*p->s == '"') {
        char *s = jstring(p);
        jval *v;
        if (!s)
            return NULL;
        v = jnew(J_STR);
        v->str = s;
        return v;
    }
    if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9'))
        return jnumber(p);
    return jliteral(p);
}

jval *json_parse(const char *text, size_t len, const char **err, size_t *err_at)
{
    jparser p;
    jval *root;
    p.s = text;
    p.end = text + len;
    p.err = NULL;
    root = jvalue(&p, 0);
    if (root) {
        jskip(&p);
        if (p.s != p.end)
            p.err = "trailing characters after the document";
    }
    if (!root || p.err) {
        json_free(root);
        *err = p.err ? p.err : "?";
        *err_at = (size_t)(p.s - text);
        return NULL;
    }
    return root;
}

void json_free(jval *v)
{
    size_t i;
    if (!v)
        return;
    for (i = 0; i < v->n; i++) {
        json_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

const jval *json_get(const jval *obj, const char *key)
{
    size_t i;
    if (!obj || obj->type != J_OBJ)
        return NULL;
    for (i = 0; i < obj->n; i++)
        if (!strcmp(obj->keys[i], key))
            return obj->items[i];
    return NULL;
}

const char *json_str(const jval *v)
{
    return v && v->type == J_STR ? v->str : NULL;
}

int json_size(const jval *v, size_t *out)
{
    if (!v || v->type != J_NUM || v->num < 0 || v->num > 2147483647.0 ||
        v->num != (double)(long)v->num)
        return 0;
    *out = (size_t)v->num;
    return 1;
}
