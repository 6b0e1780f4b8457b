/*
 * The broken modes of the verdict policy's planted scenarios (issue 40):
 * one bug per example of the policy table (README.md "Verdict policy"), each seen by
 * the runners with fuzzing off unless its note says otherwise. Written in
 * adapter_broken_policy.c; adapter_broken.c installs them last.
 */
#ifndef LZ4GATE_ADAPTER_BROKEN_POLICY_H
#define LZ4GATE_ADAPTER_BROKEN_POLICY_H

#include "subject.h"

/* Replace the slots of t that mode (adapter_broken_modes.h) breaks; other
 * modes leave t as it is. */
void bv_install(struct lz4_subject *t, int mode);

#endif
