#!/usr/bin/env python3
"""Run the regression cases (regress/cases/*.json) on subjects.

  harness/regress.py [--config C]... [--patch F]... [--case ID]... [--json FILE] SPEC...
  harness/regress.py --mutants [--case ID]...
  harness/regress.py --check        validate every case file, run nothing

Each test of each case runs in its own process (harness/regress.c linked
with the subject), with a timeout, in every configuration the case applies
to (its "bits" and "configs"), so a crash or a hang is a result. A case
passes on a subject when every applicable test passes in every
configuration; a failure on a generation the case lists under
"known_findings" is reported as a known finding.

--mutants shows that every case can fail: each case names, in "fails_on",
subjects that have the bug (ref mutants with one named check switched off,
deliberately broken adapters, real trees); the case must FAIL on each of
them and pass on ref. A case nothing can fail is a defect.

A test whose entry is "fuzz:TARGET" runs its input (hex:HEX or file:PATH)
through that fuzz target's replay build (harness/fuzz.py build --engine
replay, in the configuration being run) on the subject; expect "pass" means
the replay exits 0. Optional call keys: "base" (base_vs_candidate: the base
subject, default ref; the subject being run is the candidate), "ignore" and
"skip" (LZ4GATE_FUZZ_IGNORE / LZ4GATE_FUZZ_SKIP, comma-separated). These
tests come from harness/fuzz.py triage.

Exit status: 0 ok, 1 an unexpected FAIL (or, with --mutants, a case that
nothing fails), 2 bad input.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HARNESS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HARNESS)

import records    # noqa: E402
import subjects   # noqa: E402
from contracts import link_program   # noqa: E402
import fuzz       # noqa: E402

CASES_DIR = os.path.join(subjects.TOP, "regress", "cases")
RUNNER_SOURCES = ["regress.c", "regress_frame.c", "frame_driver.c", "guard.c",
                  "subject_names.c", "testdata.c"]
DEFAULT_CONFIGS = {"64": ["asan64", "O0", "O2"], "32": ["asan32", "O0-32", "O2-32"]}
REQUIRED = ("id", "title", "origin", "commits", "cve", "class", "bits", "trigger", "fix",
            "exercised")
# The proof that a case can fail runs in the sanitizer builds.
MUTANT_CONFIGS = ("asan64", "asan32")
GENERATIONS = ("ref", "upstream", "upstream-old", "kernel", "kernel-old")


class CaseError(Exception):
    pass


def load_cases(only=()):
    cases = []
    for name in sorted(os.listdir(CASES_DIR)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(CASES_DIR, name)
        with open(path) as f:
            try:
                case = json.load(f)
            except ValueError as e:
                raise CaseError("%s: not valid JSON: %s" % (name, e))
        validate(case, name)
        if not only or case["id"] in only:
            cases.append(case)
    if only and len(cases) != len(set(only)):
        missing = set(only) - {c["id"] for c in cases}
        raise CaseError("no such case: %s" % ", ".join(sorted(missing)))
    return cases


def validate(case, name):
    for key in REQUIRED:
        if key not in case:
            raise CaseError("%s: missing field '%s'" % (name, key))
    if name != case["id"] + ".json":
        raise CaseError("%s: file name must be the id (%s.json)" % (name, case["id"]))
    if case["bits"] not in ("32", "64", "both"):
        raise CaseError("%s: bits must be 32, 64 or both" % name)
    if case["exercised"]:
        if not case.get("tests"):
            raise CaseError("%s: an exercised case needs tests" % name)
        if not case.get("fails_on"):
            raise CaseError("%s: no way to see it fail ('fails_on' is empty); a case "
                            "nothing can fail is a defect" % name)
        for t in case["tests"]:
            for key in ("tcId", "comment", "call", "result"):
                if key not in t:
                    raise CaseError("%s: test without '%s'" % (name, key))
            if t["result"] not in ("valid", "invalid", "acceptable"):
                raise CaseError("%s: test %s: result must be valid/invalid/acceptable"
                                % (name, t["tcId"]))
            for key in ("entry", "expect"):
                if key not in t["call"]:
                    raise CaseError("%s: test %s: call without '%s'" % (name, t["tcId"], key))
            if str(t["call"]["entry"]).startswith(FUZZ_ENTRY):
                validate_fuzz_call(name, t)
    elif not case.get("reason"):
        raise CaseError("%s: a case not exercised here must say why ('reason')" % name)
    for k in case.get("known_findings", []):
        if k.get("generation") not in GENERATIONS:
            raise CaseError("%s: known finding without a valid generation" % name)


FUZZ_ENTRY = "fuzz:"
FUZZ_CALL_KEYS = ("entry", "input", "expect", "base", "ignore", "skip")


def validate_fuzz_call(name, test):
    call = test["call"]
    where = "%s: test %s" % (name, test["tcId"])
    target = call["entry"][len(FUZZ_ENTRY):]
    if target not in fuzz.TARGETS:
        raise CaseError("%s: unknown fuzz target '%s'; use one of: %s"
                        % (where, target, ", ".join(fuzz.TARGETS)))
    if call["expect"] != "pass":
        raise CaseError("%s: a fuzz:%s test expects 'pass' (the replay exits 0)" % (where, target))
    extra = sorted(set(call) - set(FUZZ_CALL_KEYS))
    if extra:
        raise CaseError("%s: key '%s' does not apply to a fuzz test (keys: %s)"
                        % (where, extra[0], ", ".join(FUZZ_CALL_KEYS)))
    if "base" in call and target != fuzz.PAIR_TARGET:
        raise CaseError("%s: 'base' is for fuzz:%s only" % (where, fuzz.PAIR_TARGET))
    fuzz_input(call, where)


def fuzz_input(call, where):
    """The bytes of a fuzz test's input (hex:HEX or file:PATH)."""
    spec = str(call.get("input", ""))
    if spec.startswith("hex:"):
        try:
            return bytes.fromhex(spec[4:])
        except ValueError:
            raise CaseError("%s: input is not valid hex" % where)
    if spec.startswith("file:"):
        path = os.path.join(subjects.TOP, spec[5:])
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as e:
            raise CaseError("%s: cannot read %s: %s" % (where, spec[5:], e.strerror))
    raise CaseError("%s: a fuzz test needs input=hex:HEX or input=file:PATH" % where)


def run_fuzz_test(test, spec, config, patches, timeout):
    """One fuzz:TARGET test: the input through the target's replay build."""
    call = test["call"]
    target = call["entry"][len(FUZZ_ENTRY):]
    data = fuzz_input(call, "test %s" % test["tcId"])
    a = argparse.Namespace(target=target, engine="replay", bits=str(subjects.CONFIGS[config][2]),
                           config=config, subject=spec, patch=list(patches), subject_b=None,
                           patch_b=[])
    if target == fuzz.PAIR_TARGET:
        a.subject, a.patch = call.get("base", "ref"), []
        a.subject_b, a.patch_b = spec, list(patches)
    try:
        binary = fuzz.build(a)
    except fuzz.BadInput as e:
        raise subjects.BadInput(str(e))
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1",
               UBSAN_OPTIONS="print_stacktrace=0")
    for key, var in (("ignore", "LZ4GATE_FUZZ_IGNORE"), ("skip", "LZ4GATE_FUZZ_SKIP")):
        env.pop(var, None)
        if call.get(key):
            env[var] = call[key]
    with tempfile.NamedTemporaryFile(prefix="lz4gate-fuzz-case-", suffix=".bin") as f:
        f.write(data)
        f.flush()
        try:
            proc = subprocess.run([binary, f.name], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, universal_newlines=True,
                                  errors="replace", env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"verdict": "TIMEOUT", "evidence": "no result after %d s" % timeout}
    text = proc.stdout
    ubsan = next((l.strip() for l in text.splitlines() if "runtime error:" in l), "")
    if proc.returncode == 0:
        return {"verdict": "pass", "evidence": "", "ubsan": ubsan}
    if proc.returncode == 2 and "replay:" in text and "failing input" not in text:
        raise CaseError("test %s: %s" % (test["tcId"], text.strip().splitlines()[-1]))
    oracle = fuzz.ORACLE_RE.search(text)
    if oracle:
        return {"verdict": "FAIL", "evidence": oracle.group(0).strip(), "ubsan": ubsan}
    return {"verdict": "CRASH", "evidence": first_sanitizer_line(text) or
            "exit status %d, no verdict" % proc.returncode, "ubsan": ubsan}


def configs_for(case, requested):
    """The configurations a case runs in: its own list or its bits' defaults;
    when configurations are requested, those of them whose bits fit (and
    that the case's own list allows)."""
    bits = ["64", "32"] if case["bits"] == "both" else [case["bits"]]
    if requested:
        wanted = [c for c in requested if not case.get("configs") or c in case["configs"]]
    else:
        wanted = case.get("configs") or [c for b in bits for c in DEFAULT_CONFIGS[b]]
    return [c for c in wanted if str(subjects.CONFIGS[c][2]) in bits]


def call_args(call):
    return ["%s=%s" % (k, v) for k, v in sorted(call.items())]


def first_sanitizer_line(text):
    for pat in ("ERROR: AddressSanitizer", "runtime error:", "ERROR: "):
        for line in text.splitlines():
            if pat in line:
                return line.strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def run_test(program, test, timeout):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1",
               UBSAN_OPTIONS="print_stacktrace=0")
    try:
        proc = subprocess.run([program] + call_args(test["call"]), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              errors="replace", env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"verdict": "TIMEOUT", "evidence": "no result after %d s" % timeout}
    ubsan = next((l.strip() for l in proc.stderr.splitlines() if "runtime error:" in l), "")
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            rec = json.loads(line)
            if rec["verdict"] == "ERROR":
                raise CaseError("test %s: %s" % (test["tcId"], rec["evidence"]))
            rec["ubsan"] = ubsan
            return rec
    return {"verdict": "CRASH", "evidence": first_sanitizer_line(proc.stderr) or
            "exit status %d, no verdict" % proc.returncode, "ubsan": ubsan}


def run_case(case, spec, config, program, generation, patches=()):
    """One record per (case, subject, config): the worst test result."""
    rec = {"case": case["id"], "spec": spec, "config": config, "generation": generation,
           "check": case["id"], "verdict": "pass", "evidence": "", "ubsan": ""}
    if not case["exercised"]:
        rec.update(verdict="n/a", evidence="not exercised here: " + case["reason"])
        return rec
    applicable = 0
    for test in case["tests"]:
        timeout = int(test.get("max_seconds", case.get("max_seconds", 120)))
        if str(test["call"]["entry"]).startswith(FUZZ_ENTRY):
            r = run_fuzz_test(test, spec, config, patches, timeout)
        else:
            r = run_test(program, test, timeout)
        if r["verdict"] == "n/a":
            continue
        applicable += 1
        if r.get("ubsan") and not rec["ubsan"]:
            rec["ubsan"] = r["ubsan"]
        if r["verdict"] != "pass":
            rec.update(verdict=r["verdict"],
                       evidence="test %s (%s): %s" % (test["tcId"], test["comment"],
                                                      r["evidence"]))
            break
    if not applicable:
        rec.update(verdict="n/a", evidence="the subject has none of the entry points")
    return rec


def classify(rec, case):
    records.classify(rec, [])
    if rec["status"] == "FAIL":
        for k in case.get("known_findings", []):
            if k["generation"] == rec["generation"]:
                rec["status"] = "known finding"
                rec["finding"] = case["id"]
    return rec


def run_subject(spec, cases, requested_configs=(), patches=(), quiet=False):
    out = []
    configs = []
    for case in cases:
        for c in configs_for(case, requested_configs):
            if c not in configs:
                configs.append(c)
    for config in configs:
        if spec == "system" and subjects.CONFIGS[config][2] != 64:
            continue
        subject_dir = subjects.build(spec, config, patches, quiet=True)
        program = link_program(subject_dir, config, RUNNER_SOURCES, "regress")
        with open(os.path.join(subject_dir, "subject.json")) as f:
            info = json.load(f)
        kind = info["kind"]
        generation = {"ref-mutant": "ref", "broken": "ref", "system": "upstream"}.get(kind, kind)
        if generation in ("kernel", "upstream") and \
                "LZ4_decompress_safe" not in info.get("entry_points", ["LZ4_decompress_safe"]):
            generation += "-old"   # kernel 3.11-4.10 / upstream r1xx API (subject.h)
        for case in cases:
            if config not in configs_for(case, requested_configs):
                continue
            if not quiet:
                print("regress: %s [%s] %s" % (spec, config, case["id"]), file=sys.stderr,
                      flush=True)
            out.append(classify(run_case(case, spec, config, program, generation, patches),
                                case))
    return out


def summarize(recs):
    """case x subject -> one status (worst over configs) and its evidence."""
    order = {"FAIL": 0, "known finding": 1, "pass": 2, "n/a": 3}
    cells = {}
    for r in recs:
        key = (r["case"], r["spec"])
        if key not in cells or order[r["status"]] < order[cells[key]["status"]]:
            cells[key] = r
    return cells


def print_matrix(recs, out=sys.stdout):
    cells = summarize(recs)
    specs = []
    for r in recs:
        if r["spec"] not in specs:
            specs.append(r["spec"])
    cases = []
    for r in recs:
        if r["case"] not in cases:
            cases.append(r["case"])
    width = max([len(c) for c in cases] + [4])
    print("%-*s  %s" % (width, "case", "  ".join("%-14s" % s for s in specs)), file=out)
    for c in cases:
        row = []
        for s in specs:
            r = cells.get((c, s))
            row.append("%-14s" % ("-" if r is None else r["status"]))
        print("%-*s  %s" % (width, c, "  ".join(row)), file=out)
    for (c, s), r in sorted(cells.items()):
        if r["status"] in ("FAIL", "known finding"):
            print("%s %s on %s [%s]: %s" % (r["status"], c, s, r["config"], r["evidence"]),
                  file=out)


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
            failed = [r for r in recs if r["verdict"] in records.FAILING]
            if failed:
                break
        lines.append("%-22s %-34s %s" % (case["id"], spec,
                                         "fails [%s]: %s" % (failed[0]["config"],
                                                             failed[0]["evidence"][:70])
                                         if failed else "DOES NOT FAIL"))
        if not failed:
            problems.append("%s does not fail on %s" % (case["id"], spec))
    return lines, problems


def run_mutants(cases, quiet=False, jobs=2):
    """Every exercised case fails on each subject in fails_on and passes on
    ref. Cases run `jobs` at a time (subject builds are locked per subject)."""
    from concurrent.futures import ThreadPoolExecutor
    problems = []
    exercised = [c for c in cases if c["exercised"]]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for lines, probs in pool.map(mutant_case, exercised):
            for line in lines:
                print(line, flush=True)
            problems += probs
    return problems


def main(argv):
    ap = argparse.ArgumentParser(prog="regress.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="*", metavar="SPEC")
    ap.add_argument("--config", action="append", default=[])
    ap.add_argument("--patch", action="append", default=[])
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--mutants", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv[1:])
    try:
        for c in args.config:
            if c not in subjects.CONFIGS:
                raise subjects.BadInput("unknown configuration '%s'" % c)
        cases = load_cases(args.case)
        if args.check:
            print("%d cases valid" % len(cases))
            return 0
        if args.mutants:
            problems = run_mutants(cases, args.quiet)
            for p in problems:
                print("DEFECT: " + p)
            print("%d cases: %s" % (len(cases), "every exercised case fails on its bug"
                                    if not problems else "%d problems" % len(problems)))
            return 1 if problems else 0
        if not args.specs:
            raise subjects.BadInput("name at least one SPEC (e.g. ref upstream kernel)")
        recs = []
        for spec in args.specs:
            recs += run_subject(spec, cases, args.config, args.patch, args.quiet)
    except (subjects.BadInput, CaseError) as e:
        print("regress.py: %s" % e, file=sys.stderr)
        return 2
    if args.json:
        with open(args.json, "w") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
    print_matrix(recs)
    failed = [r for r in recs if r["status"] == "FAIL"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
