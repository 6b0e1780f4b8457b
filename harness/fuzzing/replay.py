"""Replaying inputs through a target's replay build (no engine): the seed
corpora in the test suite and the gate, one crash file in triage."""
import os
import subprocess

from harness import symbolize, toolchain
from harness.errors import EXIT_FAIL, EXIT_OK, BadInput
from harness.fuzzing.build import build, describe, not_applicable, subject_config
from harness.fuzzing.campaign import say, seed_dir
from harness.fuzzing.environment import target_env
from harness.paths import TOP
from harness.report.failure import FAIL_RE, FAULT_RE, UBSAN_RE, failure_of


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

def replay_one(args, binary, path):
    """Run the replay binary on one file: None if it passes, else failure_of
    (the report symbolized after the run: harness/symbolize.py)."""
    env = target_env(args, "replay")
    try:
        proc = subprocess.run(toolchain.run_argv(subject_config(args), [binary, path]),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, errors="replace", env=env, timeout=300)
    except subprocess.TimeoutExpired:
        return {"kind": "timeout", "message": "no result after 300 s", "entry": None,
                "cls": "hang"}
    if proc.returncode == 0:
        return None
    if proc.returncode == 2 and "replay:" in proc.stdout and "failing input" not in proc.stdout:
        raise BadInput(proc.stdout.strip().splitlines()[-1])
    return failure_of(symbolize.texts([proc.stdout])[0])
