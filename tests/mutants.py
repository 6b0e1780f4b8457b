#!/usr/bin/env python3
"""Mutation check of the reference decoder's named checks.

For every check in ref/checks.h, build the decoder unit tests
(tests/c/test_decode.c) with that one check switched off
(-DREF_MUTANT=NAME) in a 64-bit and a 32-bit ASan+UBSan build, run them, and
require that at least one build fails. A check whose mutant survives is not
exercised by any test: that is a defect of the suite, and this script exits 1.

Usage: tests/mutants.py [NAME ...]     (default: every check)
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MUTANT_CONFIGS = ("asan64", "asan32")
PROGRAM = "test_decode"


def check_names():
    """The check names, in order, from the REF_CHECK_LIST X-macro."""
    with open(os.path.join(TOP, "ref", "checks.h")) as f:
        text = f.read()
    body = text[text.index("#define REF_CHECK_LIST"):text.index("enum ref_check_id")]
    return re.findall(r"X\((\w+),", body)


def build(name, config):
    """Build the mutant; return the binary path (raises on a build error)."""
    subprocess.run(
        ["make", "-s", "--no-print-directory", "MUTANT=" + name, "CONFIG=" + config,
         "build/mutants/%s/%s/%s" % (name, config, PROGRAM)],
        cwd=TOP, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return os.path.join(TOP, "build", "mutants", name, config, PROGRAM)


def first_failure_line(output):
    for line in output.splitlines():
        if "CHECK failed" in line or "ERROR: AddressSanitizer" in line or \
                "runtime error" in line or "DEADLYSIGNAL" in line:
            return line.strip()
    return ""


def run_mutant(name):
    """Return {config: (killed, evidence)} for one check's mutant."""
    results = {}
    for config in MUTANT_CONFIGS:
        binary = build(name, config)
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
        proc = subprocess.run([binary], cwd=TOP, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True,
                              errors="replace", timeout=300)
        results[config] = (proc.returncode != 0, first_failure_line(proc.stdout))
    return results


def main(argv):
    names = argv[1:] or check_names()
    survivors = []
    for name in names:
        results = run_mutant(name)
        killed_by = [c for c, (killed, _) in results.items() if killed]
        evidence = next((e for _, (k, e) in results.items() if k and e), "")
        status = "killed (%s)" % ", ".join(killed_by) if killed_by else "SURVIVED"
        print("%-20s %-24s %s" % (name, status, evidence[:90]), flush=True)
        if not killed_by:
            survivors.append(name)
    if survivors:
        print("mutants that no test kills: " + ", ".join(survivors))
        return 1
    print("all %d mutants killed" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
