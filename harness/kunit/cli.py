"""`python3 -m harness kunit`: the regression cases as a KUnit suite.

  --generate OUT.c     write the suite (deterministic; skipped tests and
                       their reasons on stderr and in the file)
  --kunitconfig OUT    write the suite's .kunitconfig
  --ktap FILE          read KTAP output (kunit.py run --raw_output) back
                       into records, one JSON object a line on stdout
  --kernel DIR         copy the kernel tree DIR to build/kunit/tree-NAME
                       (hard links; DIR is never written), add the suite,
                       run its kunit.py on UML (--jobs, default 1), print a
                       per-case table; records in build/kunit/results-NAME.jsonl
  --fetch              the kernel is Debian's linux-source-6.12, the whole
                       tree, fetched into build/kernel/ when absent (apt-get
                       download: nothing is installed)
  --patch FILE         a patch applied to the copy (repeatable)
  --i386               also an i386 UML build (SUBARCH=i386) for the 32-bit
                       cases, compared with the kshim's 32-bit build
  --prove-bugs         then, for each case with a "kunit" "bug" (the glue
                       cases), give the copy that bug (the case's fragments
                       of the fixed code, replaced), run the case alone: it
                       must FAIL; the copy's files are put back
  --compare            then run the same tree's LZ4 files on lz4gate's kshim
                       (asan64) and compare each case's verdict: a difference
                       the case does not explain (its "kunit" "differs") fails

UML needs flex, bison and bc (apt-get install flex bison bc); the first
build of linux-source-6.12 takes about 2.5 minutes on 2 cores (--jobs 2),
a rebuild after a change of the suite about 15 s.

Exit status: 0 every row passed, every bug was seen and every difference is
explained; 1 otherwise; 2 the tree is not a kernel tree, or a tool or the
kernel package could not be had.
"""
import argparse
import json
import os
import sys

from harness import atomic
from harness.kunit import bugs, compare, emit, kernel, ktap, tree
from harness.subjects.fetch.common import Fail
from harness.toolchain import sha


def write(path, text):
    atomic.write_file(path, text.encode())


def documented(records, cases, src, patches):
    """The failing cases whose finding is documented for this tree (its
    identity, the userspace runners' rule: harness/findings/documented.py)."""
    from harness.findings import documented as doc
    from harness.subjects.build import subject_identity
    docs = doc.Documented()
    identity = subject_identity("kernel:" + src, tuple(patches))
    by_id = {c["id"]: c for c in cases}
    return {r["case"] for r in records if r["status"] == "FAIL" and r["case"] in by_id and
            doc.finding_of({"stage": "kunit", "verdict": "FAIL", "identity": identity,
                            "config": r["config"], "check": r["case"]}, docs, by_id[r["case"]])}


# KTAP's words -> the userspace runners' statuses (harness/evidence/records.py).
STATUS = {"PASS": "pass", "FAIL": "FAIL", "SKIP": "n/a"}


def write_statuses(records, known, name):
    """Each record's status in the userspace runners' words (a failure the
    case documents for this tree is a known finding), in the results file."""
    for r in records:
        r["lz4gate_status"] = "known finding" if (r["status"] == "FAIL" and
                                                  r["case"] in known) else STATUS[r["status"]]
    path = os.path.join(kernel.WORK, "results-%s.jsonl" % name)
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(dict(r, tree=name), sort_keys=True) + "\n")
    print("records: %s" % path)


def kernel_run(args, src):
    """The suite in the kernel, then the bug proofs and the kshim beside it;
    the exit status (1: failing rows, an unseen bug or an unexplained
    difference)."""
    name = args.name or ("linux-6.12" if args.fetch else None)
    if args.patch and not name:
        name = "%s-patched-%s" % (os.path.basename(src.rstrip("/")), sha(*[
            open(p).read() for p in args.patch])[:8])
    patches = [os.path.abspath(p) for p in args.patch]
    ran = kernel.main_kernel(src, name, args.jobs, isolated=not args.one_boot,
                             patches=patches, i386=args.i386)
    if ran is None:
        return 1
    records, copy, name, cases = ran
    known = documented(records, cases, src, patches)
    write_statuses(records, known, name)
    failing = sorted({"%s [%s]" % (r["case"], r["config"]) for r in records
                      if r["status"] == "FAIL" and r["case"] not in known})
    summary = ["%d case(s) with failing rows in this kernel%s" % (
        len(failing), ": " + ", ".join(failing) if failing else ""),
        "%d documented for this tree (known findings: %s)" % (
            len(known), ", ".join(sorted(known)) or "none")]
    problems = 0
    if args.prove_bugs:
        unseen = bugs.prove(copy, name, cases, args.jobs)
        problems += len(unseen)
        summary.append("%d glue bug(s) not seen" % len(unseen))
    if args.compare:
        unexplained = 0
        for uml in sorted({r["config"] for r in records}):
            shim = compare.kshim_config(uml)
            mine = [r for r in records if r["config"] == uml]
            unexplained += compare.report(compare.compare(
                cases, mine, compare.kshim_run(src, cases, shim, patches), shim),
                label="[%s] " % uml)
        problems += unexplained
        summary.append("%d unexplained difference(s) from the kshim" % unexplained)
    print("kunit %s: %s" % (name, "; ".join(summary)))
    return 1 if failing or problems else 0


def main(argv):
    ap = argparse.ArgumentParser(prog="python3 -m harness kunit", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/kunit.md")
    ap.add_argument("--generate", metavar="OUT.c")
    ap.add_argument("--kunitconfig", metavar="OUT")
    ap.add_argument("--ktap", metavar="FILE")
    ap.add_argument("--kernel", metavar="DIR")
    ap.add_argument("--fetch", action="store_true", help="use linux-source-6.12, fetched")
    ap.add_argument("--patch", action="append", default=[], metavar="FILE",
                    help="patch applied to the copy (repeatable; -p1, as git makes them)")
    ap.add_argument("--i386", action="store_true", help="also an i386 UML build (32-bit cases)")
    ap.add_argument("--prove-bugs", action="store_true")
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--name", help="name of the copy (default: DIR's base name)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--one-boot", action="store_true",
                    help="all cases in one boot (faster; a crash ends the run)")
    ap.add_argument("--cases", metavar="DIR", help="case directory (default regress/cases)")
    ap.add_argument("-q", "--quiet", action="store_true", help="do not list skipped tests")
    args = ap.parse_args(argv)
    if not (args.generate or args.kunitconfig or args.ktap or args.kernel or args.fetch):
        ap.error("nothing to do: --generate, --kunitconfig, --ktap, --kernel or --fetch")
    if args.kernel and args.fetch:
        ap.error("--kernel DIR or --fetch, not both")
    if args.generate:
        log = None if args.quiet else (lambda line: print(line, file=sys.stderr))
        text, included, skipped = emit.generate(args.cases, log=log)
        write(args.generate, text)
        rows = sum(len(r) for _, r in included)
        print("%s: %d cases, %d tests (%d skipped, with reasons)"
              % (args.generate, len(included), rows, len(skipped)))
    if args.kunitconfig:
        write(args.kunitconfig, emit.kunitconfig())
        print("%s: written" % args.kunitconfig)
    if args.ktap:
        with open(args.ktap, errors="replace") as f:
            for rec in ktap.records(f.read()):
                print(json.dumps(rec, sort_keys=True))
    if args.kernel or args.fetch:
        try:
            src = args.kernel or tree.default_tree(lambda line: print("kunit: " + line,
                                                                      file=sys.stderr))
            return kernel_run(args, src)
        except Fail as e:
            print("kunit: %s" % e.message, file=sys.stderr)
            return 2
        except kernel.KernelError as e:
            print("kunit: %s" % e, file=sys.stderr)
            return 2
    return 0
