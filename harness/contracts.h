/*
 * Pieces of the contract runner (contracts.c) shared with the check files
 * of one API generation each (contracts_old_api.c).
 */
#ifndef LZ4GATE_CONTRACTS_H
#define LZ4GATE_CONTRACTS_H

#include "isolate.h"
#include "subject.h"

typedef struct check {
    char id[96];
    unsigned caps;           /* required capability bits */
    check_fn fn;
    int a, b;                /* parameters (acceleration, level, kind...) */
} check;

/* Register one check: id, required capability bits, function, and two
 * parameters the function reads from its `const check *` argument. */
typedef void (*contract_add_fn)(const char *id, unsigned caps, check_fn fn, int a, int b);

/* The old kernel API (3.11-4.10, history.md §7.1). */
void contracts_add_old_api(const struct lz4_subject *subject, contract_add_fn add);
/* The LZ4 frame API (lz4frame.h), against ref's frame codec. */
void contracts_add_frame(const struct lz4_subject *subject, contract_add_fn add);

#endif
