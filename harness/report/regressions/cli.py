"""`python3 -m harness regressions-md`: generate and check REGRESSIONS.md.

  --write              write REGRESSIONS.md from the case files and the results
  --check              REGRESSIONS.md lists exactly the cases (ids, titles, CVEs)
  --snapshot OUT RAW.. compact raw results files (harness regress --json) into OUT

The "fixes by release" table comes from the tree snapshots (every *.jsonl of
--snapshots except default.jsonl, e.g. regress/results/releases.jsonl from
`python3 -m harness releases`) and harness/findings/release_ranges.json.

The case files are the source of truth for what the list contains; the
results file (JSON lines written by `harness regress --json FILE SPEC...`, or
the committed snapshot regress/results/default.jsonl) only fills in the
status columns. --check reads nothing but the case files and REGRESSIONS.md,
so a case added, removed or retitled without regenerating is an error.

Exit status: 0 ok, 1 --check found a difference, 2 bad input.
"""
import argparse
import json
import os
import sys

from harness import atomic
from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.paths import CASES_DIR, TOP
from harness.report.regressions.check import check
from harness.evidence.snapshots import RESULTS_DIR
from harness.report.regressions.render import render
from harness.report.regressions.results import compact, config_key, load_results
from harness.runners.regress.cases import load_cases

MD_PATH = os.path.join(TOP, "REGRESSIONS.md")
DEFAULT_RESULTS = os.path.join(TOP, "regress", "results", "default.jsonl")


def snapshot(out_path, raw_paths):
    """Merge raw results files into a compact, sorted snapshot (a later file
    overrides an earlier one for the same case/spec/config)."""
    merged = {}
    for path in raw_paths:
        for r in compact(load_results(path)):
            merged[(r["case"], r["spec"], r["config"])] = r
    out = sorted(merged.values(), key=lambda r: (r["case"], r["spec"], config_key(r["config"])))
    atomic.write_file(out_path, "".join(json.dumps(r, sort_keys=True) + "\n" for r in out))
    return len(out)


def write(cases, results, md_path, to_stdout=False, snapshots=RESULTS_DIR):
    recs = compact(load_results(results)) if results else []
    ids = {c["id"] for c in cases}
    recs = [r for r in recs if r["case"] in ids]
    name = os.path.relpath(os.path.abspath(results), TOP) if results else "no results"
    text = render(cases, recs, name, snapshots)
    if to_stdout:
        sys.stdout.write(text)
        return
    atomic.write_file(md_path, text)
    print("wrote %s (%d cases, %d result records)" % (md_path, len(cases), len(recs)))


def main(argv):
    ap = argparse.ArgumentParser(prog="harness regressions-md", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/regression-cases.md")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="write REGRESSIONS.md")
    mode.add_argument("--check", action="store_true",
                      help="REGRESSIONS.md lists exactly the cases (ids, titles, CVEs)")
    mode.add_argument("--snapshot", metavar="OUT",
                      help="compact raw results files (harness regress --json) into OUT")
    ap.add_argument("raw", nargs="*", metavar="RAW", help="raw results files for --snapshot")
    ap.add_argument("--results", metavar="FILE",
                    help="results (JSON lines) for the status columns; default: %s"
                    % os.path.relpath(DEFAULT_RESULTS, TOP))
    ap.add_argument("--cases", metavar="DIR", default=CASES_DIR,
                    help="case directory (default: regress/cases)")
    ap.add_argument("--md", metavar="FILE", default=MD_PATH,
                    help="the Markdown file to write or check (default: REGRESSIONS.md)")
    ap.add_argument("--stdout", action="store_true", help="with --write: print, do not write")
    ap.add_argument("--snapshots", metavar="DIR", default=RESULTS_DIR,
                    help="tree snapshots for the fixes-by-release table: every *.jsonl of "
                    "DIR except default.jsonl (default: regress/results)")
    args = ap.parse_args(argv)
    try:
        if args.snapshot:
            if not args.raw:
                raise BadInput("--snapshot needs at least one raw results file")
            print("%d records -> %s" % (snapshot(args.snapshot, args.raw), args.snapshot))
            return 0
        cases = load_cases(cases_dir=args.cases)
        if args.check:
            problems = check(cases, args.md)
            for p in problems:
                print("regressions-md: " + p, file=sys.stderr)
            if problems:
                print("regressions-md: REGRESSIONS.md is out of date; run "
                      "python3 -m harness regressions-md --write", file=sys.stderr)
                return 1
            print("REGRESSIONS.md lists the %d cases of regress/cases" % len(cases))
            return 0
        results = args.results or DEFAULT_RESULTS
        if args.results is None and not os.path.exists(results):
            results = None
        write(cases, results, args.md, args.stdout, args.snapshots)
        return 0
    except BadInput as e:
        print("harness regressions-md: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
