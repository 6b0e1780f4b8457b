"""`python3 -m harness kernels`: the regression list and the contract checks
on real Linux kernel trees.

  python3 -m harness kernels DIR... [--configs C...] [--cases ID...] [--no-contracts]
                             [--jobs N] [--out FILE]

(The trees come first: --configs and --cases take every word after them;
end their list with -- to name trees after them.)

Each DIR is a kernel tree, whole or only its LZ4 files (lib/lz4/,
include/linux/lz4.h, lib/decompress_unlz4.c, include/linux/decompress/).
It is built as kernel:DIR (the tree is only read; staging copies it) and
every regression case (regress/cases) and every contract check and
known-answer vector runs in each configuration, one progress line per tree.
The old API's contracts (3.11-4.10) run wherever the tree has that API.

Each tree gets a record with its name (the directory's name), where it came
from, its kernel version (top Makefile) and its LZ4 API generation: G1 the
old API (3.11-4.10), G2 the LZ4 1.7.2-based API of the 2017 update
(4.11-4.19), G3 the 5.x-6.x code; decided from the code, since vendor trees
mix them. A PROVENANCE.json in the tree ({"repository", "commit",
"generation", "android"}) is taken as given; without one the commit is the
tree's git HEAD when it is a git work tree, else empty.

Configurations: every configuration whose programs run on this machine
(asan64, O0, O2, gcov, and O0-32/O2-32/asan32 where 32-bit programs run).

The results go to --out (default regress/results/kernels.jsonl), one record
per tree, per (case, tree, configuration) and per (contract check, tree,
configuration), in the format of releases.jsonl (harness/runners/releases/
run.py) plus "repository", "generation" and "android" in tree records;
records of trees not run this time are kept. REGRESSIONS.md renders it with
the release snapshots. A run of many trees takes long: it is a
development-time command, its snapshot is committed as data.

Exit status: 0 every tree ran (FAILs are data), 2 a tree or configuration
could not be built or run (one line each), or bad input.
"""
import argparse
import os
import sys

from harness import toolchain
from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.findings import documented
from harness.paths import TOP
from harness.runners.kernels.tree import tree_record
from harness.runners.regress.cases import load_cases
from harness.runners.releases.run import run_all

DEFAULT_OUT = os.path.join(TOP, "regress", "results", "kernels.jsonl")


def default_configs():
    return [c for c in toolchain.RUNNER_CONFIGS if toolchain.runnable(c)]


def progress(n, total, tree, recs, seconds):
    counts = {}
    for r in recs[1:]:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print("kernels: [%d/%d] %s (%s, %s %s, %s): %s (%d s)" % (
        n, total, tree["tree"], tree["generation"] or "no generation",
        tree["repository"] or "no repository", tree["commit"][:12] or "no commit",
        tree["version"] or "no version",
        ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())) or "nothing ran",
        seconds), file=sys.stderr, flush=True)


def main(argv):
    ap = argparse.ArgumentParser(prog="harness kernels", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/regression-cases.md")
    ap.add_argument("trees", nargs="+", metavar="DIR", help="kernel trees")
    ap.add_argument("--configs", nargs="+", metavar="C",
                    help="configurations (default: %s)" % " ".join(default_configs()))
    ap.add_argument("--no-contracts", action="store_true",
                    help="regression cases only (no contract checks or vectors)")
    ap.add_argument("--cases", nargs="+", default=[], metavar="ID",
                    help="run these regression cases only (default: every case)")
    ap.add_argument("--jobs", type=int, default=1, metavar="N",
                    help="trees run at once (default 1)")
    ap.add_argument("--out", default=DEFAULT_OUT, metavar="FILE",
                    help="the snapshot to write (default regress/results/kernels.jsonl)")
    args = ap.parse_args(argv)
    try:
        configs = args.configs or default_configs()
        for c in configs:
            if c not in toolchain.RUNNER_CONFIGS:
                raise BadInput("unknown configuration %s; use: %s"
                               % (c, " ".join(toolchain.RUNNER_CONFIGS)))
        cases = load_cases()
        unknown = sorted(set(args.cases) - {c["id"] for c in cases})
        if unknown:
            raise BadInput("no regression case %s (regress/cases)" % ", ".join(unknown))
        if args.cases:
            cases = [c for c in cases if c["id"] in args.cases]
        trees = [tree_record(p, n) for n, p in enumerate(args.trees)]
        names = [t["tree"] for t in trees]
        dup = sorted({x for x in names if names.count(x) > 1})
        if dup:
            raise BadInput("two trees are named %s (names are directory names)" % dup[0])
    except BadInput as e:
        print("harness kernels: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    return run_all("kernels", trees, cases, configs, not args.no_contracts, args.jobs,
                   args.out, progress, documented.Marker(documented.Documented()))
