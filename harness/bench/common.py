"""What the speed and find tables share: building our targets, their
environment, and one timed libFuzzer run."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

from harness import toolchain
from harness.fuzzing.build import build
from harness.fuzzing.campaign import read_text, stop_group
from harness.findings import documented
from harness.fuzzing.environment import documented_ids
from harness.paths import BUILD
from harness.evidence.failure import FAIL_RE

OUT = os.path.join(BUILD, "fuzz-bench")
PROGRESS_EVERY = 5


def say(args, msg):
    if not args.quiet:
        print("fuzz-bench: " + msg, file=sys.stderr, flush=True)


def fuzzer_flags():
    """The flags our libFuzzer targets are built with (toolchain CONFIGS)."""
    cc, flags, _ = toolchain.CONFIGS["libfuzzer"]
    return cc, [f for f in flags if f != "-fsanitize=fuzzer-no-link"] + ["-fsanitize=fuzzer"]


def target_args(target, subject, subject_b=None):
    return argparse.Namespace(target=target, subject=subject, subject_b=subject_b, patch=[],
                              patch_b=[], engine="libfuzzer", bits="64", config=None,
                              ignore=[], skip=[], known=False, quiet=True)


def build_ours(target, subject, subject_b=None):
    return build(target_args(target, subject, subject_b))


def known_env(target, subject, subject_b=None, record_dir=None):
    """The environment of a bench run. Speed (record_dir): the target records
    every finding and goes on (LZ4GATE_FUZZ_RECORD), so no run stops early.
    Time to find: the tested subject's own documented findings are counted,
    anything else stops the run (as `harness fuzz run --stop-at-first`)."""
    env = toolchain.sanitizer_env("libfuzzer")
    env.pop("LZ4GATE_FUZZ_SKIP", None)
    env.pop("LZ4GATE_FUZZ_IGNORE", None)
    if record_dir:
        shutil.rmtree(record_dir, ignore_errors=True)
        os.makedirs(record_dir)
        env["LZ4GATE_FUZZ_RECORD"] = record_dir
        return env
    ids = documented_ids(target_args(target, subject, subject_b),
                         documented.FuzzKnown(documented.Documented()))
    if ids:
        env["LZ4GATE_FUZZ_IGNORE"] = ",".join(ids)
    return env


STAT_RE = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)

STATUS_RE = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+)(?:.*exec/s: (\d+))?", re.M)

def last_status(text):
    m = None
    for m in STATUS_RE.finditer(text):
        pass
    if not m:
        return 0, 0, 0
    return int(m.group(1)), int(m.group(2)), int(m.group(4) or 0)

def run_libfuzzer(args, label, binary, flags, env, workdir, seconds, quiet_progress=False):
    """One libFuzzer run in workdir; returns a dict of its figures."""
    shutil.rmtree(workdir, ignore_errors=True)
    corpus = os.path.join(workdir, "corpus")
    os.makedirs(corpus)
    os.makedirs(os.path.join(workdir, "artifacts"))
    log_path = os.path.join(workdir, "fuzz.log")
    cmd = [binary, corpus, "-print_final_stats=1", "-artifact_prefix=artifacts/",
           "-max_total_time=%d" % seconds] + flags
    start = time.time()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, cwd=workdir, stdout=log, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
        last = start
        try:
            while proc.poll() is None:
                time.sleep(0.25)
                now = time.time()
                if now > start + seconds + 120:
                    stop_group(proc)
                    break
                if not quiet_progress and now - last >= PROGRESS_EVERY:
                    last = now
                    execs, cov, rate = last_status(read_text(log_path))
                    say(args, "  %s: %3d/%d s, %d execs, %d exec/s, cov %d" % (
                        label, now - start, seconds, execs, rate, cov))
        except KeyboardInterrupt:
            stop_group(proc)
            raise
    wall = time.time() - start
    text = read_text(log_path)
    stats = {k: int(v) for k, v in STAT_RE.findall(text)}
    execs, cov, _ = last_status(text)
    execs = stats.get("number_of_executed_units", execs)
    rate = stats.get("average_exec_per_sec", 0)
    crashed = bool(glob.glob(os.path.join(workdir, "artifacts", "crash-*"))) or \
        "ERROR: libFuzzer" in text or "ERROR: AddressSanitizer" in text
    if crashed or not rate:
        rate = int(execs / wall) if wall > 0 else 0
    fail = next((l.strip() for l in text.splitlines()
                 if FAIL_RE.search(l) and "SUMMARY" not in l), "")
    return {"exec_s": rate, "execs": execs, "cov": cov, "wall": wall, "crashed": crashed,
            "fail": fail, "returncode": proc.returncode}
