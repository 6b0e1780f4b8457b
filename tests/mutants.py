#!/usr/bin/env python3
"""Mutation check of the reference decoders' named checks.

For every check in ref/checks.h (block decoder) and ref/frame_checks.h
(frame decoder), build ref's unit tests with that one check switched off
(-DREF_MUTANT=NAME; the object cache recompiles only the files that read
it) in a 64-bit and, if it survives, a 32-bit ASan+UBSan build, run them,
and require that a test fails. A check whose mutant survives is not
exercised by any test: that is a defect of the suite, and this script
exits 1.

Usage: tests/mutants.py [NAME ...]     (default: every check)
"""
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import reftests  # noqa: E402
from harness.subjects.refcodec import check_names, frame_check_names  # noqa: E402

# 64-bit, then 32-bit: ASan+UBSan, or the plain 32-bit build where this machine
# cannot run 32-bit sanitizer builds (harness/toolchain.py exec_prefix).
MUTANT_CONFIGS = ("asan64", "asan32" if reftests.runnable("asan32") else "gcc-O2-m32")


def programs_for(name):
    """Every unit-test program, the family's own first (block checks:
    test_decode*, frame checks: test_frame*): a mutant usually dies there."""
    family = "test_frame" if name in frame_check_names() else "test_decode"
    progs = reftests.programs()
    return [p for p in progs if p.startswith(family)] + \
        [p for p in progs if not p.startswith(family)]


def first_failure_line(output):
    for line in output.splitlines():
        if "CHECK failed" in line or "ERROR: AddressSanitizer" in line or \
                "runtime error" in line or "DEADLYSIGNAL" in line:
            return line.strip()
    return ""


def mutant_ids():
    """{check name: its number in ref/mutant.h} (LZ4REF_MUTANT_ID)."""
    with open(os.path.join(reftests.REF, "mutant.h")) as f:
        return {m.group(1): m.group(2) for m in
                re.finditer(r"^#define REF_MUTANT_ID_(\w+) (\d+)$", f.read(), re.M)}


def run_order(name):
    """(config, program) pairs in the order a mutant is run: the family's
    programs in every configuration first (the 32-bit-only length-wrap
    checks die in test_decode's 32-bit run: measured, 0.3 s instead of the
    22 s of every 64-bit program first), then the other programs."""
    family = "test_frame" if name in frame_check_names() else "test_decode"
    progs = programs_for(name)
    return [(c, p) for own in (True, False) for c in MUTANT_CONFIGS
            for p in progs if p.startswith(family) == own and p in reftests.programs_for(c)]


def run_mutant(name, first_kill=False):
    """{config: (killed, evidence)} for one check's mutant. With first_kill,
    stop at the first run that kills it (run_order)."""
    results = {c: (False, "") for c in MUTANT_CONFIGS}
    for config, prog in run_order(name):
        if first_kill and any(k for k, _ in results.values()):
            break
        if results[config][0]:
            continue
        # One build serves every mutant: the check is chosen at start-up.
        binary = reftests.build(config, reftests.ANY_MUTANT, only=[prog])[prog]
        status, text = reftests.run(binary, timeout=300, purpose="runner", config=config,
                                    LZ4GATE_CHECK_FIRST="1",
                                    LZ4REF_MUTANT_ID=mutant_ids()[name])
        if status != 0:
            results[config] = (True, "%s: %s" % (prog, first_failure_line(text)))
    return results


def run_all(names, jobs=2, first_kill=True):
    """{name: results} for every name, `jobs` mutants at a time."""
    reftests.build(MUTANT_CONFIGS[0], reftests.ANY_MUTANT)    # shared: once, before the threads
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(zip(names, pool.map(lambda n: run_mutant(n, first_kill), names)))


def main(argv):
    names = argv[1:] or check_names()
    survivors = []
    for name, results in run_all(names).items():
        killed_by = [c for c, (killed, _) in results.items() if killed]
        evidence = next((e for _, (k, e) in results.items() if k and e), "")
        status = "killed (%s)" % ", ".join(killed_by) if killed_by else "SURVIVED"
        print("%-24s %-24s %s" % (name, status, evidence[:90]), flush=True)
        if not killed_by:
            survivors.append(name)
    if survivors:
        print("mutants that no test kills: " + ", ".join(survivors))
        return 1
    print("all %d mutants killed" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
