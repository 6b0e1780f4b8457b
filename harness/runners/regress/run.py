"""Running regression cases on a subject.

Each test of each case runs in its own process (regress/*.c linked with the
subject; one runner per configuration forks a child per test, regress_batch.c),
with a timeout, in every configuration the case applies to (its
"bits" and "configs"), so a crash or a hang is a result. A case passes on a
subject when every applicable test passes in every configuration; a failure
on a generation the case lists under "known_findings" is a known finding.

A test whose entry is "fuzz:TARGET" runs its input through that fuzz
target's replay build on the subject (harness/fuzzing); expect "pass" means
the replay exits 0.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from harness import result_memo, symbolize, toolchain
from harness.errors import CaseError
from harness.fuzzing import build as fuzz_build
from harness.evidence.failure import ORACLE_RE, fail_class_of, first_sanitizer_line, report_of
from harness.fuzzing.targets import PAIR_TARGET
from harness.evidence import records
from harness.runners.link import link_runner, runner_sources
from harness.runners.regress.cases import FUZZ_ENTRY, fuzz_input
from harness.subjects.build import build, generation, info

RUNNER_SOURCES = ("regress/regress.c", "regress/case_parse.c", "regress/regress_block.c",
                  "regress/regress_unlz4.c", "regress/regress_frame.c", "common/frame_driver.c",
                  "common/frame_make.c", "common/guard.c", "subject_names.c",
                  "common/testdata.c", "regress/regress_batch.c", "common/isolate.c",
                  "common/jsonl.c", "common/fail_class.c")
DEFAULT_CONFIGS = {"64": ["asan64", "O0", "O2"], "32": ["asan32", "O0-32", "O2-32"]}


def configs_for(case, requested):
    """The configurations a case runs in: its own list or its bits' defaults;
    when configurations are requested, those of them whose bits fit (and
    that the case's own list allows)."""
    bits = ["64", "32"] if case["bits"] == "both" else [case["bits"]]
    if requested:
        wanted = [c for c in requested if not case.get("configs") or c in case["configs"]]
    else:
        # By default only what this machine can run (a kernel without IA-32
        # emulation runs the plain 32-bit builds under an emulator, not asan32).
        wanted = [c for c in case.get("configs") or [c for b in bits for c in DEFAULT_CONFIGS[b]]
                  if toolchain.runnable(c)]
    return [c for c in wanted if str(toolchain.bits_of(c)) in bits]


def call_args(call):
    return ["%s=%s" % (k, v) for k, v in sorted(call.items())]


def ubsan_line(text):
    return next((l.strip() for l in text.splitlines() if "runtime error:" in l), "")


def run_fuzz_test(test, spec, config, patches, timeout, kw=None):
    """One fuzz:TARGET test: the input through the target's replay build
    (kw: the subject's --include/--define)."""
    call = test["call"]
    target = call["entry"][len(FUZZ_ENTRY):]
    data = fuzz_input(call, "test %s" % test["tcId"])
    kw = kw or {}
    a = argparse.Namespace(target=target, engine="replay", bits=str(toolchain.bits_of(config)),
                           config=config, subject=spec, patch=list(patches), subject_b=None,
                           patch_b=[], include=list(kw.get("includes", [])),
                           define=list(kw.get("defines", [])), include_b=[], define_b=[])
    if target == PAIR_TARGET:
        a.subject, a.patch = call.get("base", "ref"), []
        a.subject_b, a.patch_b = spec, list(patches)
        a.include_b, a.define_b, a.include, a.define = a.include, a.define, [], []
    why = fuzz_build.not_applicable(a)
    if why:
        return {"verdict": "n/a", "evidence": why}
    binary = fuzz_build.build(a)
    env = toolchain.sanitizer_env("runner")
    for key, var in (("ignore", "LZ4GATE_FUZZ_IGNORE"), ("skip", "LZ4GATE_FUZZ_SKIP")):
        env.pop(var, None)
        if call.get(key):
            env[var] = call[key]
    with tempfile.NamedTemporaryFile(prefix="lz4gate-fuzz-case-", suffix=".bin") as f:
        f.write(data)
        f.flush()
        try:
            proc = subprocess.run(toolchain.run_argv(config, [binary, f.name]), stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, universal_newlines=True,
                                  errors="replace", env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"verdict": "TIMEOUT", "evidence": "no result after %d s" % timeout}
    text = proc.stdout if proc.returncode == 0 else symbolize.texts([proc.stdout])[0]
    if proc.returncode == 0:
        return {"verdict": "pass", "evidence": "", "ubsan": ubsan_line(text)}
    if proc.returncode == 2 and "replay:" in text and "failing input" not in text:
        raise CaseError("test %s: %s" % (test["tcId"], text.strip().splitlines()[-1]))
    oracle = ORACLE_RE.search(text)
    if oracle:
        return {"verdict": "FAIL", "evidence": oracle.group(0).strip(), "ubsan": ubsan_line(text),
                "fail_class": fail_class_of(oracle.group(2) or "oracle_error"),
                "entry": (oracle.group(2) or "").partition("@")[2] or None}
    return {"verdict": "CRASH", "evidence": first_sanitizer_line(text) or
            "exit status %d, no verdict" % proc.returncode, "ubsan": ubsan_line(text),
            "report": report_of(text)}


def timeout_of(case, test):
    return int(test.get("max_seconds", case.get("max_seconds", 120)))


def is_fuzz_test(test):
    return str(test["call"]["entry"]).startswith(FUZZ_ENTRY)


def batch_line(key, test):
    args = call_args(test["call"])
    bad = [a for a in args if "\t" in a or "\n" in a]
    if bad:
        raise CaseError("test %s: an argument holds a tab or a newline: %r" % (key, bad[0]))
    return "\t".join([key] + args)


def test_result(printed, closing, timeout):
    """One test's result from the batch runner's output (regress_batch.c):
    the record the test printed, else how its process ended."""
    stderr = closing["stderr"]
    if closing["timeout"]:
        return {"verdict": "TIMEOUT", "evidence": "no result after %d s" % timeout}
    for line in printed:
        if line.startswith("{"):
            rec = json.loads(line)
            if rec["verdict"] == "ERROR":
                raise CaseError(rec["evidence"])
            rec["ubsan"] = ubsan_line(stderr)
            return rec
    return {"verdict": "CRASH", "evidence": first_sanitizer_line(stderr) or
            "exit status %d, no verdict" % closing["exit"], "ubsan": ubsan_line(stderr),
            "report": report_of(stderr)}


def run_batch(program, config, jobs):
    """Results of jobs [(key, case, test)], every test in one runner process
    (each in a forked child with its own timeout: regress_batch.c), so a
    configuration costs one program start (sanitizer runtimes, qemu-i386),
    not one per test. {key: result}. With LZ4GATE_RESULT_MEMO (lz4gate's
    own test runs), a test that passed on the same program before is not
    run again (harness/result_memo.py)."""
    argv = toolchain.run_argv(config, [program, "--batch"])
    env = toolchain.sanitizer_env("runner")
    memo_keys = {key: result_memo.key(argv, env, "%d\t%s" % (timeout_of(c, t), batch_line(key, t)))
                 for key, c, t in jobs} if result_memo.directory() else {}
    reused = {key: r for key, r in ((k, result_memo.get(mk)) for k, mk in memo_keys.items()) if r}
    jobs = [j for j in jobs if j[0] not in reused]
    lines, current = [], None
    for key, case, test in jobs:
        if timeout_of(case, test) != current:
            current = timeout_of(case, test)
            lines.append("timeout=%d" % current)
        lines.append(batch_line(key, test))
    if reused:
        print("regress: %s [%s] %d passes reused (%s)" % (os.path.basename(os.path.dirname(
            os.path.dirname(program))), config, len(reused), result_memo.ENV),
              file=sys.stderr, flush=True)
    if not jobs:
        return reused
    limit = sum(timeout_of(c, t) for _, c, t in jobs) + 60
    try:
        proc = subprocess.run(argv, input="\n".join(lines) + "\n", stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              errors="replace", env=env, timeout=limit)
    except subprocess.TimeoutExpired:
        raise CaseError("the regression runner (%s) gave no result in %d s" % (config, limit))
    timeouts = {key: timeout_of(c, t) for key, c, t in jobs}
    out, printed = {}, []
    for line in proc.stdout.splitlines():
        if line.startswith('{"batch":'):
            closing = json.loads(line)
            key = closing["batch"]
            try:
                out[key] = test_result(printed, closing, timeouts[key])
            except CaseError as e:
                raise CaseError("test %s: %s" % (key, e))
            printed = []
        else:
            printed.append(line)
    symbolize.records(list(out.values()))      # the runner's reports, in one batch
    missing = [k for k, _, _ in jobs if k not in out]
    if missing:
        raise CaseError("the regression runner (%s) stopped before test %s (exit status %d): %s"
                        % (config, missing[0], proc.returncode,
                           first_sanitizer_line(proc.stderr) or "no message"))
    for key, result in out.items():
        result_memo.put(memo_keys.get(key), result)
    out.update(reused)
    return out


def test_key(case, test):
    return "%s/%s" % (case["id"], test["tcId"])


def run_case(case, spec, config, results, subject, patches=(), kw=None):
    """One record per (case, subject, config): the first failing test, or
    pass. results: the batch runner's results of the case's tests; kw: the
    subject's --include/--define."""
    rec = {"case": case["id"], "stage": "regress", "spec": spec, "config": config,
           "generation": generation(subject), "identity": subject["identity"],
           "check": case["id"], "entry": case.get("entry"), "class": case.get("class"),
           "verdict": "pass", "evidence": "", "ubsan": ""}
    if not case["exercised"]:
        rec.update(verdict="n/a", evidence="not exercised here: " + case["reason"])
        return rec
    applicable = 0
    for test in case["tests"]:
        if is_fuzz_test(test):
            r = run_fuzz_test(test, spec, config, patches, timeout_of(case, test), kw)
        else:
            r = results[test_key(case, test)]
        if r["verdict"] == "n/a":
            continue
        applicable += 1
        if r.get("ubsan") and not rec["ubsan"]:
            rec["ubsan"] = r["ubsan"]
        if r["verdict"] != "pass":
            if r.get("report"):
                rec["report"] = r["report"]
            if r["verdict"] == "FAIL":
                # The test saw a wrong result (its class, the runner's); the
                # case says which bug that is (its fail_class: an offset-0
                # leak is seen as "the output differs"). The case's class is
                # the record's, so that one bug has one class whatever saw it.
                rec["observed_class"] = r.get("fail_class")
                rec["fail_class"] = case.get("fail_class") or r.get("fail_class")
            # the entry point the failing call went through (the case's
            # own "entry" is prose for REGRESSIONS.md: "LZ4F (frame API)")
            called = str(test["call"]["entry"])
            rec["entry"] = r.get("entry") or (None if is_fuzz_test(test) else called) or \
                rec["entry"]
            rec.update(verdict=r["verdict"], test=test["tcId"],
                       evidence="test %s (%s): %s" % (test["tcId"], test["comment"],
                                                      r["evidence"]))
            break
    if not applicable:
        rec.update(verdict="n/a", evidence="the subject has none of the entry points")
    return rec


def run_subject(spec, cases, requested_configs=(), patches=(), quiet=False,
                includes=(), defines=()):
    """Records of every case on one subject, config by config (includes,
    defines: the subject's --include and --define); "status" from the
    verdict alone (the caller consults each case's documented findings:
    harness/findings/documented.py mark_all)."""
    kw = {"includes": list(includes), "defines": list(defines)}
    out = []
    configs = []
    for case in cases:
        for c in configs_for(case, requested_configs):
            if c not in configs:
                configs.append(c)
    for config in configs:
        if spec == "system" and toolchain.bits_of(config) != 64:
            continue
        subject_dir = build(spec, config, patches, quiet=True, **kw)
        program = link_runner(subject_dir, config, runner_sources(*RUNNER_SOURCES), "regress")
        subject = info(subject_dir)
        mine = [case for case in cases if config in configs_for(case, requested_configs)]
        jobs = [(test_key(case, t), case, t) for case in mine if case["exercised"]
                for t in case["tests"] if not is_fuzz_test(t)]
        if not quiet:
            print("regress: %s [%s] %d tests of %d cases" % (spec, config, len(jobs), len(mine)),
                  file=sys.stderr, flush=True)
        results = run_batch(program, config, jobs)
        for case in mine:
            rec = run_case(case, spec, config, results, subject, patches, kw)
            out.append(records.with_status(records.normalize(rec)))
    return out


def summarize(recs):
    """(case, spec) -> the worst record over configurations."""
    return records.worst_by(recs, lambda r: (r["case"], r["spec"]))
