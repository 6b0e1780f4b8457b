/*
 * oracle_needs.c: is a fuzz target applicable to the subject(s) it is
 * linked with? A target names the capabilities it exercises (FZ_NEEDS in
 * oracle.h); a subject with none of them (a decoder-only copy for the
 * compressor targets, a copy without lz4frame.c for the frame targets) is
 * n/a for it: the target would run and test nothing. The replay main asks
 * (replay_main.c --applicable), and so does the fuzz driver before a
 * campaign (harness/fuzzing/campaign.py applicable).
 */
#include <stdio.h>
#include <string.h>

#include "oracle.h"
#include "subject.h"

/* Defined (1) by the pair target only. */
__attribute__((weak)) const int fz_target_pair = 0;

int fz_applicable(char *why, size_t cap)
{
    const struct lz4_subject *s = lz4gate_subject();
    unsigned both = s->caps, bit;
    size_t n;
    if (fz_target_pair)
        both &= lz4gate_subject_b()->caps;
    if (fz_target_needs == 0 || (both & fz_target_needs))
        return 1;
    snprintf(why, cap, "%s has none of the entry points %s exercises:",
             fz_target_pair ? "one of the two subjects" : s->name, fz_target_name);
    for (bit = 1; bit && (n = strlen(why)) + 1 < cap; bit <<= 1)
        if (fz_target_needs & bit)
            snprintf(why + n, cap - n, " %s", subject_cap_name(bit));
    return 0;
}
