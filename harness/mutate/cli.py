"""`python3 -m harness mutate`: the mutation score of lz4gate's checks on an
lz4 tree."""
import argparse
import json
import os
import sys

from harness import toolchain
from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.mutate import checks, journal, report
from harness.mutate.generate import all_mutants, select
from harness.mutate.run import Run
from harness.mutate.tree import DEFAULT_FILES, Tree

USAGE = """\
  python3 -m harness mutate --tree DIR [--files lib/lz4.c,lib/lz4hc.c,lib/lz4frame.c]
                            [-n N] [--seed S] [--jobs J] [--out FILE.json]
                            [--mutant ID]... [--only FILE:LINE]...
                            [--checks vectors,contracts,regress] [--keep] [--list]
                            [--no-probe] [--reprobe RESULT.json] [--resume]
                            [--config asan64|asan32]
  make mutate TREE=DIR [FILES=lib/lz4.c,...] [N=50] [SEED=1] [JOBS=1]

How much of an lz4 tree's behaviour do lz4gate's checks pin down? The tool
makes mutants of the tree (one-token changes), builds each like a subject
and runs the gate's checks without fuzzing on it (asan64, or --config
asan32: the gate's 32-bit build, for code only 32-bit builds take): a mutant
the checks tell apart from the tree is killed, one they do not survives.

Mutants are found with clang's tokenizer and AST (python3-clang-14), in
the bodies of the functions on the API's paths (reachable through calls,
or a function's address taken, from an LZ4_* or LZ4F_* function with
external linkage, over every unit of the copy):
  relational  < <=, <= <, > >=, >= >     op lt2le le2lt gt2ge ge2gt
  arithmetic  + -, - +                   op add2sub sub2add
  not         a dropped !                op dropnot
  constant    an integer literal +1, -1  op inc dec
  bounds      a comparison's right operand +1, -1 (a < b: a < b+1)   op rhsinc rhsdec
A mutant's id is FILE:LINE:COL:OP (lib/lz4.c:2012:21:lt2le). N of them
(default 50) are sampled with the seed (default 1): the same tree, files,
N and seed give the same mutants.

Each mutant is a copy of the tree's LZ4 files under
build/mutate/<tree-id>/<mutant>/ (the tree is never modified), built as
upstream:<copy> (the units that read the mutated file compile anew:
8-15 s on 2 cores for lz4.c or lz4hc.c; --jobs):
  equivalent        every unit preprocesses to the base's text (a token in
                    an inactive #if branch): not built, not run
  does not compile  the compiler rejects the copy
  killed            a check passing on the tree does not on the mutant:
                    FAIL, CRASH or TIMEOUT, or its runner stops; the
                    stages run in the order of --checks (vectors,
                    contracts, regress: the quickest first) and a
                    mutant stops at the first such check. A stage running
                    5 times as long as on the tree (60 s at least) is a
                    timeout: killed, and reported so
  survived          every check passes
The tree's own results are computed once (kept in
build/mutate/<tree-id>/base-*.json for the next run); a check that does
not pass on the tree (a known finding, n/a) kills nothing.

Every survivor then goes through the difference probe (harness/mutate/
probe.py): every entry point of the tree and of the mutant called on one
fixed input set (some 40 000 calls, 10-25 s), their results compared:
  latitude          only compressed bytes differ, every output still
                    decodes (ref, strict) to its input: the encoder's
                    choice, which no check of the gate may fail
  observable        a decoder's result, a bound, a header field or an
                    output's validity differs: a miss of the checks
  no difference     an equivalent mutant, or a miss on an input the probe
                    lacks: for a human to decide
The probe never kills. Each record is appended to RESULT.journal.jsonl as
its mutant finishes; --resume (with the same --out, tree, checks and
lz4gate's checks unchanged) keeps those records and runs only the rest.
--reprobe FILE probes the survivors of an earlier
run's result again (from their copies, without running the checks) and
rewrites FILE.

The summary gives the mutation score, killed / (killed + survived), the
count of each result, the seconds per mutant, and every survivor with its
place, function and the line before and after, for a human to classify
(an equivalent mutant, or a behaviour no check looks at: docs/mutation.md).

Progress: one line per mutant on stderr (its place, operator, result and
seconds). Exit status: 0 when the run completed (whatever the score),
2 when it cannot run (no such tree, python3-clang missing, an unknown
mutant id), with one line saying why.
"""


def _list(value):
    return [v for v in value.split(",") if v.strip()]


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="harness mutate", description=USAGE, usage=argparse.SUPPRESS,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/mutation.md")
    ap.add_argument("--tree", required=True, metavar="DIR",
                    help="an lz4 source tree (its top, or a project holding one copy)")
    ap.add_argument("--files", type=_list, metavar="LIST",
                    help="comma-separated units to mutate, relative to the tree's top "
                    "(default: lib/lz4.c,lib/lz4hc.c,lib/lz4frame.c, those present)")
    ap.add_argument("-n", type=int, default=50, metavar="N",
                    help="how many mutants to sample (default 50)")
    ap.add_argument("--seed", type=int, default=1, metavar="S",
                    help="the sampling seed (default 1)")
    ap.add_argument("--mutant", action="append", default=[], metavar="ID",
                    help="run this mutant, FILE:LINE:COL:OP (repeatable; no sampling)")
    ap.add_argument("--only", action="append", default=[], metavar="FILE:LINE",
                    help="run every mutant of that line (repeatable; no sampling)")
    ap.add_argument("--checks", type=_list, default=list(checks.STAGES), metavar="LIST",
                    help="the stages, in order (default vectors,contracts,regress)")
    ap.add_argument("--config", choices=checks.CONFIGS, default=checks.CONFIG,
                    help="the sanitizer build the checks run in (default asan64; asan32: "
                    "the gate's 32-bit configuration, for survivors in 32-bit-only code)")
    ap.add_argument("--jobs", type=int, default=1, metavar="J",
                    help="mutants built and checked at once (default 1)")
    ap.add_argument("--out", metavar="FILE",
                    help="the JSON result (default build/mutate/<tree-id>/result.json)")
    ap.add_argument("--keep", action="store_true",
                    help="keep each mutant's build (build/subj/<id>/asan64: its runners, "
                    "some 17 MB) to debug it; the copies are always kept")
    ap.add_argument("--resume", action="store_true",
                    help="keep the records of the journal of an earlier run with the same "
                    "--out (RESULT.journal.jsonl) and run only the mutants it lacks")
    ap.add_argument("--no-probe", action="store_true",
                    help="do not run the difference probe on survivors")
    ap.add_argument("--reprobe", metavar="FILE",
                    help="probe the survivors of an earlier result FILE again, and rewrite it")
    ap.add_argument("--list", action="store_true",
                    help="print the chosen mutants (id, function, change) and stop")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    try:
        bad = [c for c in args.checks if c not in checks.STAGES]
        if bad or not args.checks:
            raise BadInput("--checks %s: use some of %s" % (",".join(bad) or "(none)",
                                                            ",".join(checks.STAGES)))
        if args.jobs < 1:
            raise BadInput("--jobs %d: run at least one mutant at a time" % args.jobs)
        if not toolchain.runnable(args.config):
            raise BadInput("--config %s: cannot run %s programs here" % (args.config,
                                                                       args.config))
        tree = Tree(args.tree, args.config)
        files = tree.resolve_files(args.files or [f for f in DEFAULT_FILES if
                                                  os.path.isfile(os.path.join(tree.path, f))]
                                   or [os.path.join(tree.layout, "lz4.c")])
        if args.reprobe:
            return reprobe(tree, args)
        mutants, facts = all_mutants(tree, files)
        if not mutants:
            raise BadInput("no mutant in %s: no function on the API's paths there"
                           % ", ".join(files))
        chosen = select(mutants, args.mutant, args.only, args.n, args.seed)
        if args.list:
            for m in chosen:
                print("%s  %s()  `%s` -> `%s`" % (m.id, m.function, m.original, m.mutated))
            return 0
        print("mutate: %d candidate mutants in %s; running %d (%s)" % (
            len(mutants), ", ".join(files), len(chosen), "named" if args.mutant or args.only
            else "sampled with seed %d" % args.seed), file=sys.stderr, flush=True)
        out = args.out or os.path.join(tree.out, "result.json")
        log = journal.Journal(out, tree.id, args.checks, not args.no_probe, args.resume,
                              args.config)
        recs = Run(tree, args.checks, keep=args.keep, with_probe=not args.no_probe,
                   journal=log).run(chosen, args.jobs)
        res = report.result(tree, files, args, facts, recs, args.checks)
        report.write(res, out)
    except BadInput as e:
        print("harness mutate: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    print(report.summary(res, out))
    return 0


def reprobe(tree, args):
    """--reprobe FILE: the probe's class of each survivor of FILE."""
    try:
        with open(args.reprobe) as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput("--reprobe %s: %s" % (args.reprobe, e))
    if res.get("tree_id") != tree.id:
        raise BadInput("--reprobe %s: a result of tree %s, not of %s (%s)" % (
            args.reprobe, res.get("tree_id"), tree.path, tree.id))
    survivors = [m for m in res["mutants"] if m["result"] == "survived"]
    print("mutate: probing %d survivors of %s" % (len(survivors), args.reprobe),
          file=sys.stderr, flush=True)
    Run(tree, res["checks"], keep=args.keep).run(survivors, args.jobs, work="reprobe")
    res = report.rescore(res)
    report.write(res, args.reprobe)
    print(report.summary(res, args.reprobe))
    return 0
