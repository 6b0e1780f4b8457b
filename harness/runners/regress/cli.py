"""`python3 -m harness regress`: run the regression cases on subjects."""
import argparse
import json
import os
import sys
import tempfile

from harness.report.groups import explain
from harness import toolchain
from harness.subjects import options, project
from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.findings import documented
from harness.runners.regress.cases import load_cases
from harness.runners.regress.mutants import run_mutants
from harness.report.regressions.cli import DEFAULT_RESULTS, snapshot
from harness.runners.regress.run import run_subject, summarize

USAGE = """\
  python3 -m harness regress [--config C]... [--patch F]... [--include DIR]...
                             [--define NAME[=VALUE]]... [--case ID]... [--json FILE]
                             [--adapter FILE.c [--sources A.c,B.c]] SPEC...
  python3 -m harness regress --mutants [--case ID]...
  python3 -m harness regress --check        validate every case file, run nothing
  python3 -m harness regress --write-results [--case ID]... [SPEC...]

--include DIR and --define NAME[=VALUE] (repeatable) apply to every SPEC (a
header the copy keeps elsewhere, a configuration macro); a case whose entry
points the copy does not have is n/a.

Each test of each case runs in its own process with a timeout, in every
configuration the case applies to (its "bits" and "configs"). A case passes
on a subject when every applicable test passes in every configuration; a
failure on a generation the case lists under "known_findings" is reported
as a known finding.

--mutants shows that every case can fail: each case names, in "fails_on",
subjects that have the bug (ref mutants, broken adapters, real trees); the
case must FAIL on each of them and pass on ref.

A test whose entry is "fuzz:TARGET" runs its input (hex:HEX or file:PATH)
through that fuzz target's replay build on the subject; expect "pass" means
the replay exits 0. Optional call keys: "base" (base_vs_candidate: the base
subject, default ref), "ignore" and "skip" (LZ4GATE_FUZZ_IGNORE /
LZ4GATE_FUZZ_SKIP). These tests come from `python3 -m harness fuzz triage`.

--write-results runs the cases (all, or those of --case) on the SPECs
(default: ref upstream kernel) in every configuration and merges their
records into the committed snapshot regress/results/default.jsonl (records
of the same case, subject and configuration are replaced); then refresh
REGRESSIONS.md with `python3 -m harness regressions-md --write`.

Exit status: 0 ok, 1 an unexpected FAIL (or, with --mutants, a case that
nothing fails), 2 bad input.
"""


# The subjects of the committed snapshot (REGRESSIONS.md's status columns).
DEFAULT_RESULT_SPECS = ("ref", "upstream", "kernel")


def write_results(recs):
    """Merge recs into regress/results/default.jsonl (later records win)."""
    path = DEFAULT_RESULTS
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    try:
        n = snapshot(path, [path, f.name])
    finally:
        os.remove(f.name)
    print("regress: %d records -> %s" % (n, path), file=sys.stderr)


def print_matrix(recs, out=sys.stdout):
    cells = summarize(recs)
    specs, cases = [], []
    for r in recs:
        if r["spec"] not in specs:
            specs.append(r["spec"])
        if r["case"] not in cases:
            cases.append(r["case"])
    width = max([len(c) for c in cases] + [4])
    print("%-*s  %s" % (width, "case", "  ".join("%-14s" % s for s in specs)), file=out)
    for c in cases:
        row = ["%-14s" % ("-" if cells.get((c, s)) is None else cells[(c, s)]["status"])
               for s in specs]
        print("%-*s  %s" % (width, c, "  ".join(row)), file=out)
    for (c, s), r in sorted(cells.items()):
        if r["status"] in ("FAIL", "known finding"):
            print("%s %s on %s [%s]: %s" % (r["status"], c, s, r["config"], r["evidence"]),
                  file=out)
            if r.get("report"):
                print("  " + explain(r), file=out)


def main(argv):
    ap = argparse.ArgumentParser(prog="harness regress", description=USAGE,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/regression-cases.md")
    ap.add_argument("specs", nargs="*", metavar="SPEC")
    ap.add_argument("--config", action="append", default=[])
    ap.add_argument("--patch", action="append", default=[])
    options.add_arguments(ap)
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--mutants", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--write-results", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    project.add_arguments(ap)
    args = ap.parse_args(argv)
    try:
        project.check_used(args, args.specs)
        args.specs = project.apply_arguments(args, args.specs)
        for c in args.config:
            if c not in toolchain.CONFIGS:
                raise BadInput("unknown configuration '%s'; use one of: %s"
                               % (c, ", ".join(toolchain.RUNNER_CONFIGS)))
        cases = documented.check_cases(load_cases(args.case), documented.Documented())
        if args.check:
            print("%d cases valid" % len(cases))
            return 0
        if args.mutants:
            problems = run_mutants(cases)
            for p in problems:
                print("DEFECT: " + p)
            print("%d cases: %s" % (len(cases), "every exercised case fails on its bug"
                                    if not problems else "%d problems" % len(problems)))
            return 1 if problems else 0
        if args.write_results and not args.specs:
            args.specs = list(DEFAULT_RESULT_SPECS)
        if not args.specs:
            raise BadInput("name at least one SPEC (e.g. ref upstream kernel)")
        recs = []
        for spec in args.specs:
            recs += run_subject(spec, cases, args.config, args.patch, args.quiet,
                                **options.side(args))
        documented.mark_all(recs, documented.Documented(), cases)
    except BadInput as e:
        print("harness regress: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        with open(args.json, "w") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
    if args.write_results:
        write_results(recs)
    print_matrix(recs)
    return 1 if any(r["status"] == "FAIL" for r in recs) else 0
