"""`python3 -m harness contracts`: API contract tests and known-answer vectors."""
import argparse
import json
import sys

from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.runners.contracts import planted
from harness.runners.contracts.run import DEFAULT_CONFIGS, configs_for, run_contracts
from harness import toolchain
from harness.subjects import options, project
from harness.report.groups import explain
from harness.findings import documented
from harness.findings.documented import star_match

USAGE = """\
  python3 -m harness contracts [--config C]... [--patch F]... [--include DIR]...
                               [--define NAME[=VALUE]]... [--check ID]... [--json FILE]
                               [--adapter FILE.c [--sources A.c,B.c]] SPEC...
  python3 -m harness contracts --planted

For each SPEC and CONFIG (default: asan64 asan32 O0 O2), builds the subject,
links the contract runner against it, runs every check in a child process,
classifies the records (harness/findings/known_findings.json) and prints a
matrix: one row per check, one column per subject/config.

--include DIR and --define NAME[=VALUE] (repeatable) apply to every SPEC: a
header the copy keeps elsewhere, a configuration macro (part of the subject).
An entry point the copy does not have is n/a, never a failure.

--adapter FILE.c: the adapter of project:DIR SPECs (a copy behind its
project's own API; docs/subjects.md, "Project APIs"), --sources the .c files of DIR
to compile.

--check ID (repeatable; '*' is a wildcard) shows only those checks, and the
exit status is theirs: the gate's reproducer for one failing check.

--planted (no SPEC) shows that each boundary sweep class (sweep.window,
sweep.end, sweep.lengths, sweep.capacity, sweep.input, sweep.dict, sweep.stream,
sweep.header, sweep.alloc) catches its planted bug, a ref encoder mutant or a broken
subject, in asan64 (harness/runners/contracts/planted.py; part of `make
mutants`); exit 1 when one does not.

Exit status: 0 when no check FAILs (known findings and n/a are fine),
1 when one does, 2 bad input (unknown SPEC, missing tree, build error).
"""


def print_matrix(all_records, out=sys.stdout):
    columns, checks, cell = [], [], {}
    for r in all_records:
        col = "%s [%s]" % (r["spec"], r["config"])
        if col not in columns:
            columns.append(col)
        if r["check"] not in checks:
            checks.append(r["check"])
        cell[(col, r["check"])] = r
    width = max(len(c) for c in checks)
    print("%-*s  %s" % (width, "check", "  ".join(columns)), file=out)
    for chk in checks:
        row = []
        for col in columns:
            r = cell.get((col, chk))
            text = "-" if r is None else (r.get("finding") or r["status"])
            row.append(text.ljust(len(col)))
        print("%-*s  %s" % (width, chk, "  ".join(row)), file=out)


def run_planted_cli(args):
    if not args.planted or args.specs:
        print("harness contracts: give SPEC..., or --planted alone", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        problems = planted.run_planted()
    except BadInput as e:
        print("harness contracts: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    for p in problems:
        print("PLANTED BUG NOT CAUGHT: " + p)
    return 1 if problems else 0


def main(argv):
    ap = argparse.ArgumentParser(prog="harness contracts", description=USAGE,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/contracts.md")
    ap.add_argument("specs", nargs="*", metavar="SPEC")
    ap.add_argument("--planted", action="store_true",
                    help="show that each sweep class catches its planted bug")
    ap.add_argument("--config", action="append", default=[])
    ap.add_argument("--patch", action="append", default=[])
    options.add_arguments(ap)
    ap.add_argument("--check", action="append", default=[], metavar="ID",
                    help="only these checks (a '*' pattern; repeatable)")
    ap.add_argument("--json", metavar="FILE", help="write all records to FILE (JSON lines)")
    ap.add_argument("-q", "--quiet", action="store_true")
    project.add_arguments(ap)
    args = ap.parse_args(argv)
    if args.planted or not args.specs:
        return run_planted_cli(args)
    all_records = []
    try:
        project.check_used(args, args.specs)
        args.specs = project.apply_arguments(args, args.specs)
        for c in args.config:
            toolchain.config(c)
        for spec in args.specs:
            for config in configs_for(spec, args.config or DEFAULT_CONFIGS):
                if not args.quiet:
                    print("contracts: %s [%s]" % (spec, config), file=sys.stderr, flush=True)
                all_records += run_contracts(spec, config, args.patch, args.quiet,
                                             **options.side(args))
        documented.mark_all(all_records, documented.Documented())
    except BadInput as e:
        print("harness contracts: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.check:
        all_records = [r for r in all_records if any(star_match(p, r["check"])
                                                     for p in args.check)]
        if not all_records:
            print("harness contracts: no check matches %s" % ", ".join(args.check),
                  file=sys.stderr)
            return EXIT_BAD_INPUT
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
        print("  " + explain(r))
    for line in ubsan:
        print("UBSan in subject code: %s" % line)
    return 1 if failed else 0
