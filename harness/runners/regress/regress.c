/*
 * Regression-case runner: one test of one case (a regress/cases JSON file),
 * flattened by harness/runners/regress/run.py into key=value arguments,
 * against the subject linked into this program. Prints one JSON record
 * ({"verdict", "evidence", "return"}, and "fail_class" when it fails: the
 * class of fail_class.h its failure site names); the driver runs it in its own
 * process with a timeout, so a crash or a hang is a result. With the one
 * argument --batch it runs many tests, one per line of stdin, each in a
 * forked child (regress_batch.c): one program start per configuration
 * instead of one per test.
 *
 * Keys (sizes may be expressions: a number, or input|decoded|bound, with an
 * optional +N or -N; "-1" is a literal -1):
 *   entry=decompress_safe|decompress_safe_partial|decompress_fast|
 *         decompress_safe_using_dict|compress_default|compress_fast|
 *         compress_hc|compress_dest_size|unlz4 (mode=fill: fill callback)|
 *         old_decompress|old_decompress_unknown|old_compress|old_hc_compress
 *         (kernel 3.11-4.10 API: 0/-1 returns, sizes through pointers)|
 *         frame_decompress|frame_reset_then_decode|frame_compress|
 *         frame_compress_stream (LZ4 frame API: keys in regress_frame.c)
 *         (decoders and compressors: regress_block.c; unlz4: regress_unlz4.c)
 *   input=hex:HEX | file:PATH | pattern:BYTExCOUNT,... | compress:KIND:SIZE[:SEED]
 *         (compress: the block ref makes of generated data; "decoded" = SIZE)
 *   data=KIND:SIZE[:SEED] | pattern:... | concat:SPEC+SPEC...  (compressor input)
 *   src_size= target= capacity= original= acceleration= level= dict=hex:...
 *   len=EXPR     old decoders: the size set through the pointer argument
 *                (*src_len consumed / *dest_len decoded) must equal EXPR
 *   dst_len=EXPR old compressors: *dst_len on entry (default 0; ignored by
 *                the API)
 *   expect=reject | decoded | return:EXPR | roundtrip (compressors: 0 or a block
 *          that decodes to the input; dest_size: to the consumed prefix)
 *          | any (decoders: every return value is acceptable; only a crash,
 *          a sanitizer report or a hang fails: "result": "acceptable")
 *   in_place=1   decode with the block at the end of the output buffer
 *                (margin = (compressed >> 8) + 32)
 *   high=1       place buffers at high addresses (32-bit pointer wrap)
 *   repeat_capacity=FROM:TO  run the call once per capacity in [FROM, TO]
 *   src_size=EXPR  compressors: the size passed (default: the data's size;
 *                the input buffer holds the data only, ULZ4-SVN-r107)
 *   alloc_fail_at=N  the subject's N-th own allocation during the call fails
 *                (subject.h alloc_fail_at; a subject without CAP_ALLOC_FAIL:
 *                n/a): a crash fails, a clean error passes
 *   custom_mem=F frame_compress_stream through LZ4F_*_advanced with a custom
 *                memory manager (CAP_FRAME_CUSTOM_MEM; F bit 0: customCalloc)
 * Input and output buffers always end at a guard page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_parse.h"
#include "regress.h"
#include "subject.h"

unsigned long regress_alloc_fail_at;

static const struct { const char *entry; unsigned cap; } entries[] = {
    { "unlz4", CAP_UNLZ4 },
    { "decompress_safe", CAP_DECOMPRESS_SAFE },
    { "decompress_safe_partial", CAP_DECOMPRESS_PARTIAL },
    { "decompress_fast", CAP_DECOMPRESS_FAST },
    { "decompress_safe_using_dict", CAP_DECOMPRESS_USING_DICT },
    { "compress_default", CAP_COMPRESS_DEFAULT },
    { "compress_fast", CAP_COMPRESS_FAST },
    { "compress_hc", CAP_COMPRESS_HC },
    { "compress_dest_size", CAP_COMPRESS_DEST_SIZE },
    { "old_decompress", CAP_OLD_KERNEL_DECOMPRESS },
    { "old_decompress_unknown", CAP_OLD_KERNEL_DECOMPRESS_UNKNOWN },
    { "old_compress", CAP_OLD_KERNEL_COMPRESS },
    { "old_hc_compress", CAP_OLD_KERNEL_HC_COMPRESS },
    { "frame_decompress", CAP_FRAME_DECOMPRESS },
    { "frame_reset_then_decode", CAP_FRAME_DECOMPRESS | CAP_FRAME_RESET },
    { "frame_compress", CAP_FRAME_COMPRESS },
    { "frame_compress_stream", CAP_FRAME_COMPRESS_STREAM },
};

static case_result run_entry(const struct lz4_subject *s, const char *entry, int argc,
                             char **argv)
{
    if (!strncmp(entry, "frame_", 6))
        return regress_frame_entry(s, entry, argc, argv);
    if (!strcmp(entry, "unlz4"))
        return regress_unlz4_entry(s, argc, argv);
    if (!strncmp(entry, "decompress", 10) || !strncmp(entry, "old_decompress", 14))
        return regress_decode_entry(s, entry, argc, argv);
    return regress_compress_entry(s, entry, argc, argv);
}

/* One test: its JSON record on stdout; its failure's class when it did not
 * pass (the batch then runs the next test in a fresh process:
 * regress_batch.c). */
static check_result run_test(const struct lz4_subject *s, int argc, char **argv)
{
    const char *entry = case_arg(argc, argv, "entry");
    unsigned need = 0;
    case_result res;
    size_t i;

    regress_alloc_fail_at = 0;      /* not the last test's */
    if (!entry)
        case_die("missing entry", "");
    for (i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (!strcmp(entries[i].entry, entry))
            need = entries[i].cap;
    if (!need)
        case_die("unknown entry", entry);
    if ((s->caps & need) != need) {
        printf("{\"verdict\":\"n/a\",\"evidence\":\"no %s entry point\"}\n", entry);
        return CHECK_PASS;
    }
    if (case_arg(argc, argv, "alloc_fail_at")) {
        if (!(s->caps & CAP_ALLOC_FAIL)) {
            printf("{\"verdict\":\"n/a\",\"evidence\":\"its allocations cannot be made "
                   "to fail\"}\n");
            return CHECK_PASS;
        }
        regress_alloc_fail_at = strtoul(case_arg(argc, argv, "alloc_fail_at"), NULL, 0);
        s->alloc_fail_at(regress_alloc_fail_at);
    }
    res = run_entry(s, entry, argc, argv);
    if (s->alloc_fail_at)
        s->alloc_fail_at(0);
    if (res.verdict == CASE_FAIL && !fail_class_name(res.cls))   /* a verdict is never guessed */
        case_die("a failure without a class of fail_class.h (a defect of the runner)",
                 res.evidence);
    if (res.verdict == CASE_NOT_APPLICABLE)
        printf("{\"verdict\":\"n/a\",\"evidence\":\"%s\"}\n", res.evidence);
    else if (res.verdict == CASE_FAIL)
        printf("{\"verdict\":\"FAIL\",\"fail_class\":\"%s\",\"evidence\":\"%s\","
               "\"return\":%lld}\n", fail_class_name(res.cls), res.evidence, res.returned);
    else
        printf("{\"verdict\":\"pass\",\"evidence\":\"%s\",\"return\":%lld}\n", res.evidence,
               res.returned);
    return res.verdict == CASE_FAIL ? CHECK_FAIL(res.cls) : CHECK_PASS;
}

int main(int argc, char **argv)
{
    const struct lz4_subject *s = lz4gate_subject();
    if (argc == 2 && !strcmp(argv[1], "--batch"))
        return regress_batch(s, run_test);
    (void)run_test(s, argc, argv);
    return 0;
}
