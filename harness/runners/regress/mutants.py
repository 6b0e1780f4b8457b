"""The proof that every regression case can fail: each exercised case fails
on every subject of its "fails_on" (ref mutants, broken adapters, real
trees) and passes on ref. A case nothing can fail is a defect."""
from concurrent.futures import ThreadPoolExecutor

from harness import toolchain
from harness.evidence import records
from harness.runners.regress.run import configs_for, run_subject

# The proof runs in the sanitizer builds; where this machine cannot run
# 32-bit sanitizer builds, in the plain 32-bit build (under an emulator).
MUTANT_CONFIGS = ("asan64", "asan32" if toolchain.runnable("asan32") else "O2-32")


def failures_on(spec, cases):
    """{case id: first failed record} of cases on spec: each configuration
    in turn, with the cases that have not failed yet (a subject that fails
    in asan64 is not built for asan32), all of them in one runner start."""
    failed = {}
    for config in MUTANT_CONFIGS:
        todo = [c for c in cases if c["id"] not in failed and configs_for(c, [config])]
        if not todo:
            continue   # a 32-bit-only case has no asan64 run, and so on
        for r in run_subject(spec, todo, [config], quiet=True):
            if r["verdict"] in records.FAILED_VERDICTS:
                failed.setdefault(r["case"], r)
    return failed


def run_mutants(cases, jobs=2):
    """Every exercised case fails on each subject in fails_on and passes on
    ref. Subjects run `jobs` at a time, each with every case that names it
    (subject builds are locked per subject); one line per (case, subject)."""
    problems = []
    exercised = [c for c in cases if c["exercised"]]
    bad_ref = {}
    for r in run_subject("ref", exercised, MUTANT_CONFIGS, quiet=True):
        if r["status"] != "pass" and r["verdict"] != "n/a":
            bad_ref.setdefault(r["case"], r)
    specs = sorted({spec for c in exercised for spec in c["fails_on"]})
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        failed = dict(zip(specs, pool.map(
            lambda spec: failures_on(spec, [c for c in exercised if spec in c["fails_on"]]),
            specs)))
    for case in exercised:
        if case["id"] in bad_ref:
            problems.append("%s does not pass on ref: %s" % (case["id"],
                                                            bad_ref[case["id"]]["evidence"]))
        for spec in case["fails_on"]:
            f = failed[spec].get(case["id"])
            print("%-22s %-34s %s" % (case["id"], spec,
                                      "fails [%s]: %s" % (f["config"], f["evidence"][:70])
                                      if f else "DOES NOT FAIL"), flush=True)
            if not f:
                problems.append("%s does not fail on %s" % (case["id"], spec))
    return problems
