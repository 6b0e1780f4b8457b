/*
 * What the two files of the capacity sweep (issue 25) share:
 * contracts_sweep_capacity.c (block calls) and
 * contracts_sweep_capacity_frame.c (frame calls).
 */
#ifndef LZ4GATE_CONTRACTS_SWEEP_CAPACITY_H
#define LZ4GATE_CONTRACTS_SWEEP_CAPACITY_H

#include <stddef.h>

#include "contracts.h"
#include "guard.h"

#define SPAN 32              /* the window: exact-32 .. exact+32 */
#define BOUND_SPAN 4         /* and around the bound, where success becomes due */
#define BLOCK_64K 65536      /* BD code 4, the smallest frame block (Frame format, BD) */

/* The first capacity of a sweep around exact: exact-32, or 0. */
size_t sweep_from(size_t exact);

/* The last cap bytes of b (made big enough once, not a mapping per
 * capacity: system time), filled with 0xA5; they end at b's guard page. */
unsigned char *room_at_end(const guard_buf *b, size_t cap);

/* The frame calls' checks (contracts_sweep_capacity_frame.c). */
void contracts_add_sweep_capacity_frame(const struct lz4_subject *tested, contract_add_fn add);

#endif
