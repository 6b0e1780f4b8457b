#!/usr/bin/env python3
"""Run the API contract tests (harness/contracts.c) on subjects.

  harness/contracts.py [--config C]... [--patch F]... [--json FILE] SPEC...

For each SPEC and CONFIG (default: asan64 asan32 O0 O2), builds the subject
(harness/subjects.py), links the contract runner against it, runs every check
in a child process, classifies the records (harness/known_findings.json) and
prints a matrix: one row per check, one column per subject/config.

Exit status: 0 when no check FAILs (known findings and n/a are fine),
1 when one does, 2 bad input (unknown SPEC, missing tree, build error).
"""
import argparse
import json
import os
import subprocess
import sys

HARNESS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HARNESS)

import records   # noqa: E402
import subjects  # noqa: E402

DEFAULT_CONFIGS = ["asan64", "asan32", "O0", "O2"]
RUNNER_SOURCES = ["contracts.c", "contracts_old_api.c", "contracts_frame.c", "frame_driver.c",
                  "isolate.c", "guard.c", "subject_names.c", "jsonl.c", "testdata.c"]
# The known-answer vectors (corpus/vectors) run with the contracts.
VECTOR_SOURCES = ["vectors.c", "isolate.c", "guard.c", "subject_names.c", "jsonl.c",
                  "sha256.c"]
VECTOR_DIR = os.path.join(subjects.TOP, "corpus", "vectors")


def link_program(subject_dir, config, main_sources, name, extra_objs=()):
    """Link harness sources + ref (oracle) + subject.o for one config."""
    cc, flags, bits = subjects.CONFIGS[config]
    if config.startswith("libfuzzer") or config == "afl":
        raise subjects.BadInput("configuration %s is for fuzzers, not runners" % config)
    with open(os.path.join(subject_dir, "subject.json")) as f:
        info = json.load(f)
    out = os.path.join(subject_dir, name)
    srcs = [os.path.join(HARNESS, s) for s in main_sources]
    ref = sorted(os.path.join(subjects.TOP, "ref", f)
                 for f in os.listdir(os.path.join(subjects.TOP, "ref")) if f.endswith(".c"))
    inputs = srcs + ref + [os.path.join(subject_dir, "subject.o")] + list(extra_objs)
    newest = max(os.path.getmtime(p) for p in inputs)
    if os.path.exists(out) and os.path.getmtime(out) >= newest:
        return out
    if config == "gcov":
        flags = flags + ["-DLZ4GATE_GCOV"]
    # Linked to a private name, then renamed: runs in parallel threads (the
    # regression mutants) may link and execute the same runner.
    import threading
    tmp = "%s.tmp.%d.%d" % (out, os.getpid(), threading.get_ident())
    cmd = [cc] + flags + subjects.OUR_WARNINGS + [
        "-I" + HARNESS, "-I" + os.path.join(subjects.TOP, "ref"), "-o", tmp] + inputs + \
        info.get("link", [])
    subjects.run_or_fail(cmd, "linking the %s runner for %s" % (name, info["spec"]))
    os.replace(tmp, out)
    return out


def run_contracts(spec, config, patches=(), quiet=False, vectors=True):
    out = subjects.build(spec, config, patches, quiet)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1",
               UBSAN_OPTIONS="print_stacktrace=0")
    findings = records.load_known_findings()
    recs = []
    runners = [(RUNNER_SOURCES, "contracts", [])]
    if vectors:
        runners.append((VECTOR_SOURCES, "vectors", ["--dir", VECTOR_DIR]))
    for sources, name, args in runners:
        program = link_program(out, config, sources, name)
        proc = subprocess.run([program] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, errors="replace", env=env, timeout=3600)
        if proc.returncode != 0:
            raise subjects.BadInput("%s runner for %s [%s] stopped: %s" % (
                name, spec, config, (proc.stderr.strip().splitlines() or ["?"])[-1]))
        recs += [records.classify(r, findings)
                 for r in records.read_jsonl(proc.stdout, config=config, spec=spec)]
    return recs


def print_matrix(all_records, out=sys.stdout):
    columns = []
    for r in all_records:
        col = "%s [%s]" % (r["spec"], r["config"])
        if col not in columns:
            columns.append(col)
    checks = []
    for r in all_records:
        if r["check"] not in checks:
            checks.append(r["check"])
    cell = {("%s [%s]" % (r["spec"], r["config"]), r["check"]): r for r in all_records}
    width = max(len(c) for c in checks)
    print("%-*s  %s" % (width, "check", "  ".join(columns)), file=out)
    for chk in checks:
        row = []
        for col in columns:
            r = cell.get((col, chk))
            text = "-" if r is None else (r.get("finding") or r["status"])
            row.append(text.ljust(len(col)))
        print("%-*s  %s" % (width, chk, "  ".join(row)), file=out)


def main(argv):
    ap = argparse.ArgumentParser(prog="contracts.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="+", metavar="SPEC")
    ap.add_argument("--config", action="append", default=[])
    ap.add_argument("--patch", action="append", default=[])
    ap.add_argument("--json", metavar="FILE", help="write all records to FILE (JSON lines)")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv[1:])
    all_records = []
    try:
        for spec in args.specs:
            for config in args.config or DEFAULT_CONFIGS:
                if spec == "system" and subjects.CONFIGS.get(config, ("", [], 64))[2] != 64:
                    continue   # Debian ships liblz4 for the native ABI only
                if not args.quiet:
                    print("contracts: %s [%s]" % (spec, config), file=sys.stderr, flush=True)
                all_records += run_contracts(spec, config, args.patch, args.quiet)
    except subjects.BadInput as e:
        print("contracts.py: %s" % e, file=sys.stderr)
        return 2
    if args.json:
        with open(args.json, "w") as f:
            for r in all_records:
                f.write(json.dumps(r) + "\n")
    print_matrix(all_records)
    failed = [r for r in all_records if r["status"] == "FAIL"]
    known = [r for r in all_records if r["status"] == "known finding"]
    ubsan = sorted({r["ubsan"] for r in all_records if r.get("ubsan")})
    print("\n%d checks: %d pass, %d FAIL, %d known findings, %d n/a" % (
        len(all_records), sum(r["status"] == "pass" for r in all_records), len(failed),
        len(known), sum(r["status"] == "n/a" for r in all_records)))
    for r in failed:
        print("FAIL %s [%s] %s: %s" % (r["spec"], r["config"], r["check"], r["evidence"]))
    for line in ubsan:
        print("UBSan in subject code: %s" % line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
