#ifndef LZ4GATE_JSONL_H
#define LZ4GATE_JSONL_H

#include "isolate.h"
#include "subject.h"

/* Print s to stdout as a JSON string literal (records are JSON lines). */
void json_string(const char *s);

/* One record line: {"subject", "generation", "check", "verdict", "evidence",
 * "ubsan"} (harness/records.py reads them). */
void print_record(const struct lz4_subject *s, const char *check, const isolate_result *r);

#endif
