"""The proof that every regression case can fail: each exercised case fails
on every subject of its "fails_on" (ref mutants, broken adapters, real
trees) and passes on ref. A case nothing can fail is a defect."""
from concurrent.futures import ThreadPoolExecutor

from harness import toolchain
from harness.report import records
from harness.runners.regress.run import configs_for, run_subject

# The proof runs in the sanitizer builds; where this machine cannot run
# 32-bit sanitizer builds, in the plain 32-bit build (under an emulator).
MUTANT_CONFIGS = ("asan64", "asan32" if toolchain.runnable("asan32") else "O2-32")


def mutant_case(case):
    """(lines, problems) for one case: it passes on ref, and fails on each
    subject of fails_on in at least one configuration (tried in turn: a
    subject that fails in asan64 is not built for asan32)."""
    lines, problems = [], []
    ref = run_subject("ref", [case], MUTANT_CONFIGS, quiet=True)
    bad_ref = [r for r in ref if r["status"] != "pass" and r["verdict"] != "n/a"]
    if bad_ref:
        problems.append("%s does not pass on ref: %s" % (case["id"], bad_ref[0]["evidence"]))
    for spec in case["fails_on"]:
        failed = []
        for config in MUTANT_CONFIGS:
            if not configs_for(case, [config]):
                continue   # a 32-bit-only case has no asan64 run, and so on
            recs = run_subject(spec, [case], [config], quiet=True)
            failed = [r for r in recs if r["verdict"] in records.FAILED_VERDICTS]
            if failed:
                break
        lines.append("%-22s %-34s %s" % (case["id"], spec,
                                         "fails [%s]: %s" % (failed[0]["config"],
                                                             failed[0]["evidence"][:70])
                                         if failed else "DOES NOT FAIL"))
        if not failed:
            problems.append("%s does not fail on %s" % (case["id"], spec))
    return lines, problems


def run_mutants(cases, jobs=2):
    """Every exercised case fails on each subject in fails_on and passes on
    ref. Cases run `jobs` at a time (subject builds are locked per subject)."""
    problems = []
    exercised = [c for c in cases if c["exercised"]]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for lines, probs in pool.map(mutant_case, exercised):
            for line in lines:
                print(line, flush=True)
            problems += probs
    return problems
