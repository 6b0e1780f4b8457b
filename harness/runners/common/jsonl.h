#ifndef LZ4GATE_JSONL_H
#define LZ4GATE_JSONL_H

#include "buf.h"
#include "isolate.h"
#include "subject.h"

/*
 * The one JSON string writer of lz4gate's C: s as a JSON string literal
 * (RFC 8259, section 7), appended to b. '"' and '\' are escaped with a
 * backslash, the control characters U+0000..U+001F as \u00XX; well-formed
 * UTF-8 is copied as it is, and every byte that does not belong to a
 * well-formed UTF-8 sequence becomes \ufffd, so the output is always valid
 * JSON in valid UTF-8. The vector generator writes index.json with it.
 */
void json_append_string(buf *b, const char *s);

/* Print s to stdout as a JSON string literal (records are JSON lines). */
void json_string(const char *s);

/* One record line: {"subject", "generation", "check", "verdict",
 * "fail_class" (a FAIL's class, fail_class.h), "evidence", "ubsan", and
 * "report" for a crash} (harness/evidence/records.py reads them). */
void print_record(const struct lz4_subject *s, const char *check, const isolate_result *r);

#endif
