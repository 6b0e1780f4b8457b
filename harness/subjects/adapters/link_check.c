/*
 * The smallest program a subject links into (harness/subjects/build.py
 * _link_check): a subject whose code calls a function nothing in the copy
 * defines fails here, when it is built, with the linker's own words
 * ("undefined reference to `X'"), not later in every runner.
 */
#include "subject.h"

int main(void)
{
    return lz4gate_subject() == NULL;
}
