"""`python3 -m harness gate-stability`: the gate N times on the same inputs,
each run with its own fuzz seed, and a table of verdicts and findings per
run: does the verdict hold whatever fuzzing draws?

The stages that do not depend on the seed (build, contracts, regress,
compare, replay: with fuzzing off two runs give the same findings.json,
tests/test_gate.py) run once and are shared; the fuzz stage and the verdict
run N times. --full runs every stage in every run instead.

Writes OUT/stability.md (the tables), OUT/stability.json and each run's
reports in OUT/run-K/. Exit status: 0 when every run gave --expect (default
PASS), 1 otherwise, 2 when a run could not run.
"""
import argparse
import copy
import json
import os
import sys
import time

from harness.errors import EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK, BadInput
from harness.findings import policy
from harness.gate import options
from harness.gate.cli import decide, run_stages, write_reports
from harness.gate.stages import Gate, Stage, StageError, progress
from harness.paths import BUILD

HELP = __doc__ + """
Options not listed here are the gate's own (ci/gate.py --help), passed to
every run: --base, --candidate, --patch, --fuzz-time, --fuzz-targets,
--jobs, --configs, --strict, --known-findings.
"""


def parse(argv):
    ap = argparse.ArgumentParser(prog="python3 -m harness gate-stability", description=HELP,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/gate-stability.md")
    ap.add_argument("--runs", type=int, default=10, metavar="N", help="gate runs (default 10)")
    ap.add_argument("--first-seed", type=int, default=1, metavar="S",
                    help="run K uses --fuzz-seed S+K-1 (default 1)")
    ap.add_argument("--expect", choices=("PASS", "FAIL"), default="PASS",
                    help="the verdict every run must give (default PASS)")
    ap.add_argument("--expect-group", action="append", default=[], metavar="TEXT",
                    help="with --expect FAIL: every run must have a FAIL item whose id "
                         "(case, check or fuzz signature) contains TEXT (repeatable)")
    ap.add_argument("--full", action="store_true",
                    help="run every stage in every run (default: the seed-independent "
                         "stages once)")
    ap.add_argument("--title", default=None, help="the table's heading")
    ap.add_argument("--out", default=os.path.join(BUILD, "gate-stability"), metavar="DIR")
    own, rest = ap.parse_known_args(argv)
    if own.runs < 1:
        raise BadInput("--runs must be at least 1")
    if "--fuzz-seed" in rest or "--out" in rest:
        raise BadInput("gate-stability sets --fuzz-seed and --out of each run itself")
    return own, rest


def summary(decision):
    cats = decision["categories"]
    return {"verdict": "FAIL" if decision["failed"] else "PASS",
            "counts": {c: len(cats[c]) for c in policy.CATEGORIES},
            "failing": sorted({i["id"] for c in policy.CATEGORIES
                               if policy.LEVEL[c] == policy.FAIL for i in cats[c]}),
            "findings": sorted({"%s: %s" % (c, i["id"]) for c in policy.CATEGORIES
                                for i in cats[c] if i["kind"] == "fuzz"})}


def one_run(shared, opts, k, seed, full):
    o = copy.copy(opts)
    o.fuzz_seed, o.out = seed, os.path.join(shared.out, "run-%d" % k)
    if full:
        gate = Gate(o)
        run_stages(gate)
    else:
        gate = copy.copy(shared.gate)
        gate.opts = o
        gate.records = list(shared.gate.records)
        gate.fuzz_findings = list(shared.replay_findings)
        gate.fuzz_records = list(shared.replay_records)
        gate.timings, gate.seeds, gate.fuzz_log = list(shared.gate.timings), [], []
        gate.crash_triage = []
        gate.skipped = list(shared.gate.skipped)
        if o.fuzz_time > 0:
            with Stage(gate, "fuzz"):
                gate.run_fuzz()
    decision = decide(gate)
    write_reports(gate, decision)
    return gate, decision


class Shared:
    pass


# FAIL items listed per run in the table; the rest are counted (each run's
# report, OUT/run-K/, has them all).
FAILING_SHOWN = 8


def shown_failing(failing):
    if not failing:
        return "-"
    text = ", ".join("`%s`" % f for f in failing[:FAILING_SHOWN])
    more = len(failing) - FAILING_SHOWN
    return text + (" and %d more" % more if more > 0 else "")


def table(runs, title, expect):
    lines = ["### %s" % title, "",
             "| run | fuzz seed | verdict | " + " | ".join(policy.TITLE[c]
                                                        for c in policy.CATEGORIES) +
             " | FAIL items |", "|---|---|---|" + "---|" * len(policy.CATEGORIES) + "---|"]
    for r in runs:
        lines.append("| %d | %d | %s | %s | %s |" % (
            r["run"], r["seed"], r["verdict"], " | ".join(str(r["counts"][c])
                                                          for c in policy.CATEGORIES),
            shown_failing(r["failing"])))
    got = sum(r["verdict"] == expect for r in runs)
    lines += ["", "%s in %d of %d runs." % (expect, got, len(runs)), ""]
    seen = {}
    for r in runs:
        for f in r["findings"]:
            seen[f] = seen.get(f, 0) + 1
    if seen:
        lines += ["| fuzz finding (section: signature) | runs |", "|---|---|"]
        lines += ["| `%s` | %d |" % (f, n) for f, n in sorted(seen.items())]
        lines.append("")
    return lines


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        parse(["--help"])
    try:
        own, rest = parse(argv)
        opts = options.parse(rest + ["--no-coverage"])
    except BadInput as e:
        print("gate-stability: cannot run: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    shared = Shared()
    shared.out = os.path.abspath(own.out)
    os.makedirs(shared.out, exist_ok=True)
    runs = []
    try:
        if not own.full:
            o = copy.copy(opts)
            o.fuzz_time, o.out = 0, os.path.join(shared.out, "shared")
            shared.gate = Gate(o)
            run_stages(shared.gate)
            shared.gate.skipped = [s for s in shared.gate.skipped if s[0] != "fuzz"]
            shared.replay_findings = list(shared.gate.fuzz_findings)
            shared.replay_records = list(shared.gate.fuzz_records)
        for k in range(1, own.runs + 1):
            seed = own.first_seed + k - 1
            t0 = time.time()
            progress("stability run %d of %d (--fuzz-seed %d)" % (k, own.runs, seed))
            gate, decision = one_run(shared, opts, k, seed, own.full)
            row = dict(summary(decision), run=k, seed=seed, seconds=round(time.time() - t0))
            runs.append(row)
            progress("stability run %d: %s %s" % (k, row["verdict"], row["counts"]))
    except (StageError, BadInput) as e:
        print("gate-stability: cannot run: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    title = own.title or "%s -> %s, fuzzing %d s, %d runs" % (
        opts.base, opts.candidate, opts.fuzz_time, own.runs)
    lines = table(runs, title, own.expect)
    ok, missing = judged(runs, own.expect, own.expect_group)
    if missing:
        lines.append("Expected FAIL groups missing from some run: %s" % ", ".join(missing))
    with open(os.path.join(shared.out, "stability.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(shared.out, "stability.json"), "w") as f:
        json.dump({"title": title, "expect": own.expect, "runs": runs}, f, indent=1,
                  sort_keys=True)
    print("\n".join(lines))
    return EXIT_OK if ok else EXIT_FAIL


def judged(runs, expect, expect_groups):
    """(every run gave `expect` and named every expected group, the groups
    missing from some run): an expected group is text that a FAIL item's id
    of every run contains."""
    missing = [g for g in expect_groups
               if not all(any(g in f for f in r["failing"]) for r in runs)]
    return bool(runs) and all(r["verdict"] == expect for r in runs) and not missing, missing
