/* Reading a regression test's arguments (case_parse.h). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_parse.h"
#include "frame_make.h"
#include "testdata.h"

const char *case_arg(int argc, char **argv, const char *key)
{
    size_t k = strlen(key);
    int i;
    for (i = 1; i < argc; i++)
        if (!strncmp(argv[i], key, k) && argv[i][k] == '=')
            return argv[i] + k + 1;
    return NULL;
}

void case_die(const char *what, const char *detail)
{
    printf("{\"verdict\":\"ERROR\",\"evidence\":\"%s: %s\"}\n", what, detail ? detail : "");
    exit(2);
}

/* Generated data (testdata.h): random | unique | zeros | text | mixed. */
static void generate(buf *b, const char *kind, size_t n, unsigned long long seed)
{
    size_t start = b->n;
    buf_append(b, NULL, n, 0);
    if (testdata_fill(b->p + start, n, kind, seed) != 0)
        case_die("unknown data kind (or out of memory)", kind);
}

static void parse_hex(buf *b, const char *spec)
{
    const char *h = spec + 4;
    while (h[0] && h[1]) {
        unsigned v;
        if (sscanf(h, "%2x", &v) != 1)
            case_die("bad hex", spec);
        buf_append(b, NULL, 1, (int)v);
        h += 2;
    }
}

static void read_file(buf *b, const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char chunk[65536];
    size_t got;
    if (!f)
        case_die("cannot open input", path);
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(b, chunk, got, 0);
    fclose(f);
}

/* pattern:FFx100,00x3: byte FF 100 times, then 00 three times. */
static void parse_pattern(buf *b, const char *spec)
{
    const char *p = spec + 8;
    while (*p) {
        unsigned v;
        unsigned long count;
        if (sscanf(p, "%2xx%lu", &v, &count) != 2)
            case_die("bad pattern", spec);
        buf_append(b, NULL, count, (int)v);
        p = strchr(p, ',');
        if (!p)
            break;
        p++;
    }
}

void case_parse_data(buf *b, const char *spec)
{
    if (!strncmp(spec, "hex:", 4)) {
        parse_hex(b, spec);
    } else if (!strncmp(spec, "file:", 5)) {
        read_file(b, spec + 5);
    } else if (!strncmp(spec, "pattern:", 8)) {
        parse_pattern(b, spec);
    } else if (!strncmp(spec, "frame:", 6) || !strncmp(spec, "legacy:", 7)) {
        case_frame_data(spec, b, NULL);
    } else if (!strncmp(spec, "concat:", 7)) {
        char *copy = strdup(spec + 7), *save = NULL, *part;
        for (part = strtok_r(copy, "+", &save); part; part = strtok_r(NULL, "+", &save))
            case_parse_data(b, part);
        free(copy);
    } else {
        char kind[32];
        unsigned long n = 0;
        unsigned long long seed = 1;
        if (sscanf(spec, "%31[a-z]:%lu:%llu", kind, &n, &seed) < 2)
            case_die("bad data spec", spec);
        generate(b, kind, n, seed);
    }
}

/* The dictionaries of the dictid and bigdict options. */
static void use_dictionary(ref_frame_prefs *p, unsigned char **dict, size_t len,
                           unsigned long long seed, unsigned dict_id)
{
    free(*dict);
    *dict = testdata_make("text", len, seed);
    p->dict = *dict;
    p->dict_len = len;
    p->dict_id_present = 1;
    p->dict_id = dict_id;
}

/* The OPTS of a frame: spec (case_parse.h) on top of ref's defaults with
 * independent blocks and no content checksum. */
static void frame_options(ref_frame_prefs *p, char *opts, unsigned char **dict)
{
    char *save = NULL, *o;
    ref_frame_prefs_default(p);
    p->linked_blocks = 0;
    p->content_checksum = 0;
    for (o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
        if (o[0] == 'B' && o[1] >= '4' && o[1] <= '7' && !o[2]) p->block_max = o[1] - '0';
        else if (!strcmp(o, "linked")) p->linked_blocks = 1;
        else if (!strcmp(o, "bcs")) p->block_checksum = 1;
        else if (!strcmp(o, "ccs")) p->content_checksum = 1;
        else if (!strcmp(o, "size")) p->content_size = 1;
        else if (!strcmp(o, "raw")) p->uncompressed = 1;
        else if (!strcmp(o, "dictid")) use_dictionary(p, dict, 20000, 99, 0x5EED1234u);
        /* ULZ4-2018-LZ4F-DICTSZ: a dictionary well above 64 KiB */
        else if (!strcmp(o, "bigdict")) use_dictionary(p, dict, 200000, 98, 0xB16D1C7u);
        else case_die("unknown frame option", o);
    }
}

void case_frame_data(const char *spec, buf *out, buf *content)
{
    char kind[32], opts[128] = "";
    unsigned long n = 0;
    unsigned long long seed = 1;
    int legacy = !strncmp(spec, "legacy:", 7);
    unsigned char *data, *dict = NULL, *frame;
    ref_frame_prefs p;
    size_t len;
    if (sscanf(spec + (legacy ? 7 : 6), "%31[a-z]:%lu:%llu:%127s", kind, &n, &seed, opts) < 2)
        case_die("bad frame spec (frame:KIND:SIZE:SEED[:OPTS] or legacy:KIND:SIZE:SEED)", spec);
    data = testdata_make(kind, n, seed);
    if (!legacy)
        frame_options(&p, opts, &dict);
    len = frame_make(legacy ? NULL : &p, data, n, &frame);
    if (!len)
        case_die("the reference encoder failed on", spec);
    buf_append(out, frame, len, 0);
    if (content)
        buf_append(content, data, n, 0);
    free(frame);
    free(data);
    free(dict);
}

long long case_size_expr(const char *expr, long long input, long long decoded)
{
    long long base = 0, delta = 0;
    const char *rest = expr;
    if (!strncmp(expr, "input", 5)) { base = input; rest = expr + 5; }
    else if (!strncmp(expr, "decoded", 7)) { base = decoded; rest = expr + 7; }
    else if (!strncmp(expr, "bound", 5)) { base = decoded + decoded / 255 + 16; rest = expr + 5; }
    else return strtoll(expr, NULL, 0);
    if (*rest)
        delta = strtoll(rest, NULL, 0);
    return base + delta;
}

long long case_size_arg(int argc, char **argv, const char *key, long long input,
                        long long decoded, long long absent)
{
    const char *v = case_arg(argc, argv, key);
    return v ? case_size_expr(v, input, decoded) : absent;
}

int case_return_expected(const char *expect, long long r, long long input, long long decoded)
{
    if (!strcmp(expect, "reject"))
        return r < 0;
    if (!strcmp(expect, "any"))
        return 1;
    if (!strcmp(expect, "decoded"))
        return r == decoded;
    if (!strncmp(expect, "return:", 7)) {
        const char *e = expect + 7;
        if (!strcmp(e, "<0")) return r < 0;
        if (!strcmp(e, ">=0")) return r >= 0;
        return r == case_size_expr(e, input, decoded);
    }
    case_die("unknown expect", expect);
    return 0;
}

enum fail_class case_return_class(const char *expect, long long r, long long input,
                                  long long decoded, enum case_returns what)
{
    int want_error;
    if (!strcmp(expect, "reject") || !strcmp(expect, "return:<0"))
        want_error = 1;
    else if (!strncmp(expect, "return:", 7) && strcmp(expect, "return:>=0") != 0)
        want_error = case_size_expr(expect + 7, input, decoded) < 0;
    else
        want_error = 0;     /* decoded, return:>=0 ("any" never fails) */
    if (want_error)
        /* another error value than the one wanted (-2 for -1): a convention */
        return r >= 0 ? FAIL_ACCEPTS_INVALID : FAIL_WRONG_RETURN;
    if (r < 0)
        return FAIL_REJECTS_VALID;
    switch (what) {
    case CASE_RETURNS_SIZE: return FAIL_WRONG_LENGTH;
    case CASE_RETURNS_CONSUMED: return FAIL_BAD_CONSUMED;
    case CASE_RETURNS_STATUS: break;
    }
    return FAIL_WRONG_RETURN;   /* a success reported otherwise than by 0 */
}
