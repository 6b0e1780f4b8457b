"""The gate's opt-in in-kernel stage (--kunit): for each side that is a whole
kernel tree (kernel:DIR with tools/testing/kunit), the generated KUnit
suites run in a copy of that tree (the candidate's with its patches) under
UML, as `make kunit` runs them (harness/kunit). Each regression case
becomes one record per side, stage "kunit", configuration "uml64", so the
verdict compares it like a regression case: a case the base passes in its
kernel and the candidate fails in its own is a lost fix."""
import os

from harness.errors import BadInput
from harness.kunit import kernel
from harness.evidence import records as evidence_records
from harness.findings import documented
from harness.subjects.spec import Subject
from harness.toolchain import sha

CONFIG = "uml64"


def whole_tree(spec):
    """The kernel tree a side names, when it is a whole tree, else None."""
    try:
        s = Subject(spec)
    except BadInput:
        return None
    if s.kind != "kernel" or not s.path:
        return None
    return s.path if os.path.isfile(os.path.join(s.path, kernel.KUNIT_PY)) else None


def case_records(rows, cases, role, identity, docs):
    """One gate record per case from its in-kernel rows: FAIL when a row
    failed (or the case's boot ended), pass when a row ran, else n/a."""
    by_case = {}
    for r in rows:
        by_case.setdefault(r["case"], []).append(r)
    out = []
    for case in cases:
        mine = by_case.get(case["id"], [])
        failed = [r for r in mine if r["status"] == "FAIL"]
        ran = [r for r in mine if r["status"] != "SKIP"]
        # A row that ended its boot (UML panics on a fault in kernel code)
        # is a crash of the case.
        crashed = [r for r in failed if r["tcId"] is None]
        verdict = "CRASH" if crashed else "FAIL" if failed else "pass" if ran else "n/a"
        first = (crashed or failed or [None])[0]
        evidence = ""
        if first:
            lines = first["message"].splitlines() or [""]
            said = lines[-1][:300]
            evidence = "in-kernel (UML): " + (said if said.startswith("tc ") else
                                              "tc %s: %s" % (first["tcId"], said))
        rec = {"case": case["id"], "check": case["id"], "stage": "kunit", "config": CONFIG,
               "role": role, "spec": None, "identity": identity, "verdict": verdict,
               "evidence": evidence, "test": first["tcId"] if first else None,
               "entry": case.get("entry"), "class": case.get("class", "")}
        # A KTAP row says pass or not ok: a failing row is the case's own
        # bug (its fail_class); a row that ended the boot is a crash.
        if verdict == "FAIL":
            rec["fail_class"] = case["fail_class"]
        elif verdict == "CRASH":
            rec["fail_class"] = "crash"
        out.append(documented.mark(evidence_records.normalize(rec), docs, case))
    return out


def run_side(role, spec, patches, identity, docs, jobs, say):
    """The records of one side, or None when it is not a whole kernel tree."""
    src = whole_tree(spec)
    if not src:
        return None
    name = "gate-%s-%s" % (role, sha(src, *[open(p).read() for p in patches])[:10])
    try:
        tree, cases, _, _ = kernel.prepare(src, name, patches)
    except kernel.KernelError as e:
        raise BadInput(str(e))
    say("  kunit %s (%s): UML build and boots, log build/kunit/run-%s.log" % (role, spec, name))
    text, _, _ = kernel.run_kunit(tree, name, jobs)
    rows = kernel.suite_records(text)
    if not rows:
        raise BadInput("no KTAP output from the %s's kernel (build failed?): "
                       "build/kunit/run-%s.log" % (role, name))
    out = case_records(rows, cases, role, identity, docs)
    for r in out:
        r["spec"] = spec
    return out
