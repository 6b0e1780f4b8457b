"""`python3 -m harness releases`: the regression list and the contract checks
on every upstream lz4 release of a git clone.

  python3 -m harness releases --lz4-git DIR [--tags TAG...] [--since TAG]
                              [--head REF | --no-head] [--configs C...]
                              [--cases ID...] [--no-contracts] [--jobs N]
                              [--out FILE]

For each release tag of the clone (rN, rcNvM, lz4-rN, vX.Y.Z[.N]; from
--since, default r117, in release order; or exactly --tags; a tag on the
commit of an earlier one is an alias, run once and listed in that tree's
"aliases") and for the head
of its development branch (--head, default "dev" when the clone has it,
else HEAD): export the tree into build/releases/NAME (git archive; reused
while it holds the same commit; the clone is only read), record the commit
id and the version lz4.h reports, build it as upstream:build/releases/NAME
and run every regression case (regress/cases) and every contract check and
known-answer vector in each configuration, with one progress line per tree.

Configurations: asan64 and O2-32 by default, plus asan32 where this machine
can run 32-bit ASan programs (harness/toolchain.py runnable()).

The results go to a snapshot, --out (default regress/results/releases.jsonl):
one record per tree (tag, commit, version, identity), per (case, tree,
configuration) and per (contract check, tree, configuration), each with its
status; what was not run this time is kept, so --tags, --cases and
--configs update those cells only (run.py merge()). Of the contract checks
only those that did not pass are kept as records; the tree record counts
them all. REGRESSIONS.md's "fixes by release" table is generated
from it: python3 -m harness regressions-md --write.

Nothing here names or downloads a particular clone: point --lz4-git at any
clone of lz4 (a work tree or a bare repository). A run of every release
takes hours; it is a development-time command, its snapshot is committed.

Exit status: 0 every tree ran (FAILs are data, shown in the table), 2 a tree
or configuration could not be exported, built or run (one line each), or
bad input.
"""
import argparse
import os
import re
import sys

from harness import toolchain
from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.findings import documented
from harness.paths import TOP
from harness.runners.regress.cases import load_cases
from harness.subjects import releases as git
from harness.runners.releases.run import progress, run_all, tree_record

DEFAULT_OUT = os.path.join(TOP, "regress", "results", "releases.jsonl")


def default_configs():
    return ["asan64", "O2-32"] + (["asan32"] if toolchain.runnable("asan32") else [])


def trees_of(args):
    """(name, tag, ref) of every tree to run, in release order."""
    tags = git.release_tags(args.lz4_git, args.since, args.tags)
    out = [("lz4-" + t, t, t) for t in tags]
    if not args.no_head:
        head = args.head
        if head is None:
            branches = git.git(args.lz4_git, "branch", "--list", "--format=%(refname:short)")
            head = "dev" if "dev" in branches.split() else "HEAD"
        out.append(("lz4-" + re.sub(r"[^A-Za-z0-9._-]", "_", head), head, head))
    return out


def unique_trees(clone, trees):
    """(order, name, tag, ref, aliases) of each distinct commit of trees: a
    tag on the commit of an earlier one (rc129v0 = r129, lz4-r130 = r130,
    r127 = r126) is an alias, the same tree run once under its first tag."""
    out, seen = [], {}
    # the column order: a tag's place among all the clone's release tags, the
    # head after them, whatever --since or --tags chose (runs merge)
    every = git.release_tags(clone, since="r0")
    for name, tag, ref in trees:
        order = every.index(tag) if tag in every else len(every)
        commit = git.commit_of(clone, ref)
        if commit in seen:
            seen[commit][4].append(tag)
            print("releases: %s is %s (same commit %s), run once"
                  % (tag, seen[commit][2], commit[:12]), file=sys.stderr)
            continue
        out.append((order, name, tag, ref, []))
        seen[commit] = out[-1]
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog="harness releases", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/regression-cases.md")
    ap.add_argument("--lz4-git", required=True, metavar="DIR",
                    help="an lz4 git clone (work tree or bare repository)")
    ap.add_argument("--tags", nargs="+", default=[], metavar="TAG",
                    help="run these tags only (their cells are updated in --out)")
    ap.add_argument("--since", default=git.DEFAULT_SINCE, metavar="TAG",
                    help="the first release tag (default %(default)s)")
    ap.add_argument("--head", metavar="REF", help="the development head to run too "
                    "(default: dev if the clone has it, else HEAD)")
    ap.add_argument("--no-head", action="store_true", help="run release tags only")
    ap.add_argument("--configs", nargs="+", metavar="C",
                    help="configurations (default: %s)" % " ".join(default_configs()))
    ap.add_argument("--cases", nargs="+", default=[], metavar="ID",
                    help="run these regression cases only (default: every case)")
    ap.add_argument("--no-contracts", action="store_true",
                    help="regression cases only (no contract checks or vectors)")
    ap.add_argument("--jobs", type=int, default=1, metavar="N",
                    help="trees run at once (default 1)")
    ap.add_argument("--out", default=DEFAULT_OUT, metavar="FILE",
                    help="the snapshot to write (default regress/results/releases.jsonl)")
    args = ap.parse_args(argv)
    try:
        if not os.path.isdir(args.lz4_git):
            raise BadInput("--lz4-git %s is not a directory" % args.lz4_git)
        configs = args.configs or default_configs()
        for c in configs:
            if c not in toolchain.RUNNER_CONFIGS:
                raise BadInput("unknown configuration %s; use: %s"
                               % (c, " ".join(toolchain.RUNNER_CONFIGS)))
        if args.tags and args.no_head is False and args.head is None:
            args.no_head = True      # --tags alone: just those tags
        cases = load_cases()
        unknown = sorted(set(args.cases) - {c["id"] for c in cases})
        if unknown:
            raise BadInput("no regression case %s (regress/cases)" % ", ".join(unknown))
        if args.cases:
            cases = [c for c in cases if c["id"] in args.cases]
        trees = []
        for order, name, tag, ref, aliases in unique_trees(args.lz4_git, trees_of(args)):
            path, commit = git.export(args.lz4_git, ref, tag if ref == tag else name[4:])
            trees.append(tree_record(name, order, tag, commit, path))
            if aliases:
                trees[-1]["aliases"] = aliases
    except BadInput as e:
        print("harness releases: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    return run_all("releases", trees, cases, configs, not args.no_contracts, args.jobs,
                   args.out, progress, documented.Marker(documented.Documented()))
