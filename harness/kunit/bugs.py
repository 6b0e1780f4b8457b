"""Proof that each kernel-only case can fail in a kernel: its "kunit"
"bug" (text substitutions that undo its fix, written in the case file as
short fragments of the fixed code) is applied to the copy of the tree, the
case alone is run, and it must FAIL; the copy's files are then put back.

The substitutions are made at run time in the copy of the user's tree
(with the suites lz4gate added to it): lz4gate carries no kernel code,
only the fragments that locate the fix."""
import os

from harness.kunit import emit, emit_erofs, ktap
from harness.kunit.kernel import KernelError, replace_file, run_kunit
from harness.kunit.model import kunit_tests


def cases_with_bugs(cases):
    return [c for c in cases if kunit_tests(c) and (c.get("kunit") or {}).get("bug")]


def buggy_texts(tree, case):
    """{relative path: the file's text with the case's bug}, made from the
    tree (the copy); KernelError when a fragment is not there exactly once
    (the tree does not hold the fixed code this case knows)."""
    texts = {}
    for sub in case["kunit"]["bug"]:
        rel = sub["file"]
        if rel not in texts:
            try:
                with open(os.path.join(tree, rel)) as f:
                    texts[rel] = f.read()
            except OSError as e:
                raise KernelError("%s: cannot read %s of the tree: %s"
                                  % (case["id"], rel, e.strerror))
        count = texts[rel].count(sub["old"])
        if count != 1:
            raise KernelError("%s: %s holds the fixed code's fragment %r %d times (1 needed); "
                              "this tree cannot be given the case's bug"
                              % (case["id"], rel, sub["old"], count))
        texts[rel] = texts[rel].replace(sub["old"], sub["new"])
    return texts


def prove_case(tree, name, case, jobs):
    """(failed rows, rows run, seconds) of the case on the copy with its bug."""
    texts = buggy_texts(tree, case)
    erofs = any(t["call"]["entry"] == emit_erofs.ENTRY for t in kunit_tests(case))
    suite = emit_erofs.SUITE_NAME if erofs else emit.SUITE_NAME
    originals = {}
    for rel, text in texts.items():
        with open(os.path.join(tree, rel)) as f:
            originals[rel] = f.read()
        replace_file(os.path.join(tree, rel), text)
    try:
        log, seconds, _ = run_kunit(tree, name, jobs, only="%s.%s" % (suite, case["id"]),
                                    log_name="bug-%s-%s" % (name, case["id"]))
    finally:
        for rel, text in originals.items():
            replace_file(os.path.join(tree, rel), text)
    recs = [r for r in ktap.records(log, suite=suite) if r["case"] == case["id"]]
    return [r for r in recs if r["status"] == "FAIL"], recs, seconds


def prove(tree, name, cases, jobs, say=print):
    """Every case with a bug fails on the copy that has it; the problems."""
    problems = []
    for case in cases_with_bugs(cases):
        say("bug %s: the copy given it, rebuilt, the case run alone" % case["id"])
        failed, recs, seconds = prove_case(tree, name, case, jobs)
        files = ", ".join(sorted({s["file"] for s in case["kunit"]["bug"]}))
        if failed:
            first = (failed[0]["message"].splitlines() or [""])[-1]
            say("bug %-22s (%s): fails, %d of %d rows (%.0f s): %s"
                % (case["id"], files, len(failed), len(recs), seconds, first[:110]))
        else:
            say("bug %-22s (%s): DOES NOT FAIL (%d rows run, %.0f s)"
                % (case["id"], files, len(recs), seconds))
            problems.append("%s does not fail on a tree with its bug" % case["id"])
    return problems
