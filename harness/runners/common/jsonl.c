#include "jsonl.h"

#include <stdio.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at s (RFC 3629, section 4:
 * no overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_sequence_length(const unsigned char *s)
{
    size_t n, i;
    unsigned char lo = 0x80, hi = 0xBF;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        n = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        n = 3;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        n = 4;
    else
        return 0;
    if (s[0] == 0xE0)
        lo = 0xA0;          /* overlong below U+0800 */
    else if (s[0] == 0xED)
        hi = 0x9F;          /* surrogates U+D800..U+DFFF */
    else if (s[0] == 0xF0)
        lo = 0x90;          /* overlong below U+10000 */
    else if (s[0] == 0xF4)
        hi = 0x8F;          /* above U+10FFFF */
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)     /* also stops at the NUL */
            return 0;
    return n;
}

void json_append_string(buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char esc[8];
    buf_append(b, "\"", 1, 0);
    while (*p) {
        size_t n;
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p++;
            buf_append(b, esc, 2, 0);
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *p++);
            buf_append(b, esc, 6, 0);
        } else if (*p < 0x80) {
            buf_append(b, p++, 1, 0);
        } else if ((n = utf8_sequence_length(p)) != 0) {
            buf_append(b, p, n, 0);
            p += n;
        } else {
            buf_append(b, "\\ufffd", 6, 0);
            p++;
        }
    }
    buf_append(b, "\"", 1, 0);
}

void json_string(const char *s)
{
    buf b = { NULL, 0, 0 };
    json_append_string(&b, s);
    fwrite(b.p, 1, b.n, stdout);
    buf_free(&b);
}

void print_record(const struct lz4_subject *s, const char *check, const isolate_result *r)
{
    printf("{\"subject\":");
    json_string(s->name);
    printf(",\"generation\":\"%s\",\"check\":", subject_generation_name(s->generation));
    json_string(check);
    printf(",\"verdict\":\"%s\"", verdict_name(r->verdict));
    if (r->verdict == V_FAIL) {
        printf(",\"fail_class\":");
        json_string(fail_class_name(r->cls));
    }
    printf(",\"evidence\":");
    json_string(r->evidence);
    printf(",\"ubsan\":");
    json_string(r->ubsan);
    if (r->report[0]) {
        printf(",\"report\":");
        json_string(r->report);
    }
    printf("}\n");
    fflush(stdout);
}
