#!/usr/bin/env python3
"""Mutation check of the reference decoders' named checks.

For every check in ref/checks.h (block decoder) and ref/frame_checks.h
(frame decoder), build the unit tests that must catch it (block checks:
tests/c/test_decode.c, frame checks: tests/c/test_frame.c) with that one
check switched off (-DREF_MUTANT=NAME) in a 64-bit and a 32-bit ASan+UBSan
build, run them, and require that at least one build fails. A check whose
mutant survives is not exercised by any test: that is a defect of the suite,
and this script exits 1.

Usage: tests/mutants.py [NAME ...]     (default: every check)
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MUTANT_CONFIGS = ("asan64", "asan32")
PROGRAM = "test_decode"          # kills the block decoder's checks
FRAME_PROGRAM = "test_frame"     # kills the frame decoder's checks


def _list(header, start, end):
    with open(os.path.join(TOP, "ref", header)) as f:
        text = f.read()
    body = text[text.index(start):text.index(end)]
    return re.findall(r"X\((\w+),", body)


def block_check_names():
    """The block decoder's checks, from the REF_CHECK_LIST X-macro."""
    return _list("checks.h", "#define REF_CHECK_LIST", "enum ref_check_id")


def frame_check_names():
    """The frame decoder's checks, from the REF_FRAME_CHECK_LIST X-macro."""
    return _list("frame_checks.h", "#define REF_FRAME_CHECK_LIST", "enum ref_frame_check_id")


def check_names():
    """Every check name, in mutant-id order: block checks, then frame checks."""
    return block_check_names() + frame_check_names()


def program_for(name):
    """The unit test program that must fail when check `name` is removed."""
    return FRAME_PROGRAM if name in frame_check_names() else PROGRAM


def build(name, config):
    """Build the mutant; return the binary path (raises on a build error)."""
    program = program_for(name)
    subprocess.run(
        ["make", "-s", "--no-print-directory", "MUTANT=" + name, "CONFIG=" + config,
         "build/mutants/%s/%s/%s" % (name, config, program)],
        cwd=TOP, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return os.path.join(TOP, "build", "mutants", name, config, program)


def first_failure_line(output):
    for line in output.splitlines():
        if "CHECK failed" in line or "ERROR: AddressSanitizer" in line or \
                "runtime error" in line or "DEADLYSIGNAL" in line:
            return line.strip()
    return ""


def run_mutant(name, first_kill=False):
    """Return {config: (killed, evidence)} for one check's mutant. With
    first_kill, stop at the first configuration that kills it (asan64 first;
    only the 32-bit-only checks need asan32)."""
    results = {}
    for config in MUTANT_CONFIGS:
        if first_kill and any(k for k, _ in results.values()):
            break
        binary = build(name, config)
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
        proc = subprocess.run([binary], cwd=TOP, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True,
                              errors="replace", timeout=300)
        results[config] = (proc.returncode != 0, first_failure_line(proc.stdout))
    return results


def run_all(names, jobs=2, first_kill=True):
    """{name: results} for every name, `jobs` mutants at a time (each is a
    build and a run in subprocesses: threads are enough)."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(zip(names, pool.map(lambda n: run_mutant(n, first_kill), names)))


def main(argv):
    names = argv[1:] or check_names()
    survivors = []
    for name in names:
        results = run_mutant(name)
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
