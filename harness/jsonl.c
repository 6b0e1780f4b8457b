#include "jsonl.h"

#include <stdio.h>

void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

void print_record(const struct lz4_subject *s, const char *check, const isolate_result *r)
{
    printf("{\"subject\":");
    json_string(s->name);
    printf(",\"generation\":\"%s\",\"check\":", subject_generation_name(s->generation));
    json_string(check);
    printf(",\"verdict\":\"%s\",\"evidence\":", verdict_name(r->verdict));
    json_string(r->evidence);
    printf(",\"ubsan\":");
    json_string(r->ubsan);
    printf("}\n");
    fflush(stdout);
}
