"""Replaying inputs through a target's replay build (no engine): the seed
corpora in the test suite and the gate, one crash file in triage."""
import os
import subprocess
import tempfile

from harness import symbolize, toolchain
from harness.errors import EXIT_FAIL, EXIT_OK, BadInput
from harness.fuzzing import findings
from harness.fuzzing.build import build, describe, not_applicable, subject_config
from harness.fuzzing.campaign import say, seed_dir
from harness.fuzzing.environment import target_env
from harness.paths import TOP
from harness.evidence.failure import (FAIL_RE, FAULT_RE, ORACLE_RE, UBSAN_RE, failure_of,
                                      report_of)


def replay(args):
    args.engine = "replay"
    why = not_applicable(args)
    if why:
        print("replay: %s on %s: n/a (%s)" % (args.target, describe(args), why))
        return EXIT_OK
    binary = build(args)
    paths = args.paths or [seed_dir(args.target)]
    for p in paths:
        if not os.path.exists(p):
            raise BadInput("no such file or directory: %s" % p)
    say(args, "replay: %s on %s [%s]: %s" % (args.target, describe(args), subject_config(args),
                                             " ".join(os.path.relpath(p, TOP) for p in paths)))
    env = target_env(args, "replay")
    proc = subprocess.run(toolchain.run_argv(subject_config(args), [binary] + paths),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", env=env)
    out = proc.stdout
    if proc.returncode == 0:
        print(out.strip().splitlines()[-1] if out.strip() else "replay: ok")
        return EXIT_OK
    if proc.returncode == 2 and "replay:" in out and "failing input" not in out:
        raise BadInput(out.strip().splitlines()[-1])
    lines = symbolize.texts([out])[0].splitlines()
    keep = [l for l in lines if FAIL_RE.search(l) or "failing input" in l or
            UBSAN_RE.search(l) or FAULT_RE.search(l)]
    print("replay: FAILED (%s on %s)" % (args.target, describe(args)))
    for l in keep[:12] or lines[-12:]:
        print("  " + l)
    return EXIT_FAIL

def replay_one(args, binary, path, keep_going=False):
    """Run the replay binary on one file: None if it passes, else failure_of
    (the report symbolized after the run: harness/symbolize.py). keep_going:
    the oracle records its findings and goes on, as in a campaign
    (LZ4GATE_FUZZ_RECORD): the result's "recorded" lists the CLASS@ENTRY of
    each (a replay that stopped at the first would miss a finding of a later
    call on the same input), and a crash after them is the failure."""
    env = target_env(args, "replay")
    with tempfile.TemporaryDirectory(prefix="lz4gate-replay-") as record_dir:
        if keep_going:
            env["LZ4GATE_FUZZ_RECORD"] = record_dir
        try:
            proc = subprocess.run(toolchain.run_argv(subject_config(args), [binary, path]),
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  universal_newlines=True, errors="replace", env=env,
                                  timeout=300)
        except subprocess.TimeoutExpired:
            return {"kind": "timeout", "message": "no result after 300 s", "entry": None,
                    "cls": "hang", "signature": "timeout@-", "report": "", "oracle": False}
        recorded = sorted(findings.from_records(record_dir)) if keep_going else []
    if proc.returncode == 0 and recorded:
        first = recorded[0]
        return {"kind": first, "signature": first, "entry": first.partition("@")[2] or None,
                "message": "recorded: %s" % ", ".join(recorded), "report": "",
                "oracle": True, "recorded": recorded}
    if proc.returncode == 0:
        return None
    if proc.returncode == 2 and "replay:" in proc.stdout and "failing input" not in proc.stdout:
        raise BadInput(proc.stdout.strip().splitlines()[-1])
    text = symbolize.texts([proc.stdout])[0]
    got = failure_of(text)
    # the sanitizer's report (the classifier places a crash by its stack),
    # and whether the oracle itself said FAIL (a wrong result, not a crash)
    got.update(report=report_of(text), oracle=bool(ORACLE_RE.search(text)), recorded=recorded)
    return got
