#ifndef LZ4GATE_JSONL_H
#define LZ4GATE_JSONL_H

/* Print s to stdout as a JSON string literal (records are JSON lines). */
void json_string(const char *s);

#endif
