/*
 * The entries of the regression-case runner (regress.c): each runs one test
 * (key=value arguments, case_parse.h) against the subject and returns its
 * result, which main prints as the test's one JSON record.
 */
#ifndef LZ4GATE_REGRESS_H
#define LZ4GATE_REGRESS_H

#include "fail_class.h"
#include "subject.h"

enum case_verdict { CASE_PASS, CASE_FAIL, CASE_NOT_APPLICABLE };

typedef struct case_result {
    enum case_verdict verdict;
    enum fail_class cls;      /* CASE_FAIL: the failure's class (fail_class.h); else FAIL_NONE */
    char evidence[512];       /* why the test failed, or why it does not apply */
    long long returned;       /* the subject's last return value */
} case_result;

/* alloc_fail_at=N (regress.c): the subject's N-th own allocation fails
 * during the test (subject.h alloc_fail_at); 0 when not given. An entry
 * then accepts a constructor's NULL as the clean error it is. */
extern unsigned long regress_alloc_fail_at;

/* Block decoders, the old kernel API's decoders (regress_block.c). */
case_result regress_decode_entry(const struct lz4_subject *s, const char *entry, int argc,
                                 char **argv);
/* Block compressors, the old kernel API's compressors (regress_block.c). */
case_result regress_compress_entry(const struct lz4_subject *s, const char *entry, int argc,
                                   char **argv);
/* The kernel's legacy-frame decoder (regress_unlz4.c). */
case_result regress_unlz4_entry(const struct lz4_subject *s, int argc, char **argv);
/* The LZ4 frame API (regress_frame.c). */
case_result regress_frame_entry(const struct lz4_subject *s, const char *entry, int argc,
                                char **argv);

/* One test (key=value arguments from argv[1]): its record on stdout; its
 * failure's class (CHECK_PASS when it passed or does not apply). */
typedef check_result (*regress_test_fn)(const struct lz4_subject *s, int argc, char **argv);
/* regress.c --batch (regress_batch.c): the tests of stdin, each in a child. */
int regress_batch(const struct lz4_subject *s, regress_test_fn run);

#endif
