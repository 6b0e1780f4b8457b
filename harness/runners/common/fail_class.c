/* fail_class.c: the names of fail_class.h's table. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fail_class.h"

static const char *const names[FAIL_CLASS_COUNT] = {
    [FAIL_NONE] = NULL,
#define LZ4GATE_FAIL_NAME(id, name, kind, family, severity, what) [id] = name,
    LZ4GATE_FAIL_CLASSES(LZ4GATE_FAIL_NAME)
#undef LZ4GATE_FAIL_NAME
};

const char *fail_class_name(enum fail_class c)
{
    if ((int)c <= (int)FAIL_NONE || (int)c >= (int)FAIL_CLASS_COUNT)
        return NULL;
    return names[c];
}

enum fail_class fail_class_named(const char *name)
{
    int c;
    for (c = FAIL_NONE + 1; c < FAIL_CLASS_COUNT; c++)
        if (!strcmp(names[c], name))
            return (enum fail_class)c;
    return FAIL_NONE;
}

check_result check_fail(char *msg, unsigned cap, enum fail_class cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return CHECK_FAIL(cls);
}
