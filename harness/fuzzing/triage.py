"""Triage: from a crash file to a regression-case skeleton (replay,
minimise with libFuzzer, write regress/cases/ID.json)."""
import copy
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from harness import atomic
from harness.errors import EXIT_FAIL, EXIT_OK, BadInput
from harness.evidence.failure import fail_class_of
from harness.fuzzing.build import OUT, build, describe, subject_config
from harness.fuzzing.campaign import say, stop_group
from harness.fuzzing.environment import documented_ids, generation_of, target_env
from harness.fuzzing.replay import replay_one
from harness.fuzzing.targets import PAIR_TARGET
from harness.paths import TOP, shown


CASE_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def minimise(args, crash, want, replay_binary):
    """libFuzzer -minimize_crash=1, bounded by --minimize-runs per step and
    --minimize-time in all; then the smallest of the inputs it wrote that
    the replay build still fails with the same kind. Returns (bytes, note,
    the failure of those bytes)."""
    with open(crash, "rb") as f:
        original = f.read()
    if args.no_minimize:
        return original, "not minimised (--no-minimize)", want
    a = copy.copy(args)
    a.engine = "libfuzzer"
    a.config = None
    binary = build(a)
    os.makedirs(os.path.join(OUT, "triage"), exist_ok=True)
    work = tempfile.mkdtemp(prefix="min-", dir=os.path.join(OUT, "triage"))
    step = max(1, args.minimize_time // 3)
    cmd = [binary, "-minimize_crash=1", "-runs=%d" % args.minimize_runs,
           "-max_total_time=%d" % step, "-timeout=60", "-rss_limit_mb=4096",
           "-artifact_prefix=" + work + "/", os.path.abspath(crash)]
    env = target_env(args, "minimize")
    say(args, "triage: minimising %d bytes (libFuzzer -minimize_crash=1, -runs=%d per step, "
              "at most %d s)" % (len(original), args.minimize_runs, args.minimize_time))
    start = time.time()
    with open(os.path.join(work, "minimize.log"), "w") as log:
        proc = subprocess.Popen(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        try:
            proc.wait(timeout=args.minimize_time)
        except subprocess.TimeoutExpired:
            stop_group(proc)
        except KeyboardInterrupt:
            stop_group(proc)
            raise
    candidates = sorted((os.path.getsize(f), f) for f in
                        glob.glob(os.path.join(work, "minimized-from-*")))
    best, tried = None, 0
    for size, f in candidates:
        if size >= len(original):
            break
        tried += 1
        got = replay_one(args, replay_binary, f)
        if got and got["kind"] == want["kind"]:
            with open(f, "rb") as fh:
                best = fh.read()
            want = got
            break
    elapsed = time.time() - start
    shutil.rmtree(work, ignore_errors=True)
    if best is None:
        return original, ("not minimised: libFuzzer found no smaller input failing with %s "
                          "in %.0f s (%d candidates)" % (want["kind"], elapsed, tried)), want
    return best, "minimised %d -> %d bytes in %.0f s, same failure (%s)" % (
        len(original), len(best), elapsed, want["kind"]), want

def case_skeleton(args, case_id, failure, data, crash, config, note, env_ignore):
    spec = args.subject_b if args.target == PAIR_TARGET else args.subject
    gen = generation_of(spec)
    call = {"entry": "fuzz:" + args.target, "input": "hex:" + data.hex(), "expect": "pass"}
    if args.target == PAIR_TARGET:
        call["base"] = args.subject
    if env_ignore:
        call["ignore"] = ",".join(env_ignore)
    if args.skip:
        call["skip"] = ",".join(args.skip)
    subject_text = describe(args)
    return {
        "id": case_id,
        "title": "TODO",
        "origin": "kernel" if gen == "kernel" else "upstream",
        "commits": ["TODO: the fix commit(s), or \"none: found by lz4gate fuzz/%s.c\""
                    % args.target],
        "cve": None,
        "generations": [gen],
        "entry": failure["entry"] or "fuzz:" + args.target,
        "class": failure["cls"],
        # the failure's class from the one table (the oracle's, or the
        # sanitizer report's type): what the case's failure means
        "fail_class": fail_class_of(failure["signature"]),
        "bits": "32" if str(args.bits) == "32" else "64",
        "trigger": failure["message"],
        "fix": "TODO: what the fix checks; what a correct implementation must do",
        "exercised": True,
        "tests": [{
            "tcId": 1,
            "comment": "fuzz input (%d bytes) from %s: %s on %s fails with %s" % (
                len(data), os.path.basename(crash), args.target, subject_text,
                failure["kind"]),
            "call": call,
            "max_seconds": 60,
        }],
        "fails_on": [spec],
        "notes": "Skeleton written by `harness fuzz triage` from %s on %s [%s] (%s). "
                 "TODO: the title, commits, CVE, fix, origin and generations; check the "
                 "class (derived from the failure message); rename the id to its fix-history "
                 "id (regress/README.md); once the bug is understood, replace or complement "
                 "the fuzz:%s test by runner-key tests of the one call (harness/runners/regress/regress.c), "
                 "and list real trees that fail under known_findings. Then: harness regress "
                 "--check, --mutants --case ID, and refresh REGRESSIONS.md."
                 % (os.path.basename(crash), subject_text, config, note, args.target),
    }

def triage(args, known=None):
    if len(args.paths) != 1:
        raise BadInput("triage needs exactly one CRASH_FILE (got %d)" % len(args.paths))
    crash = args.paths[0]
    if not os.path.isfile(crash):
        raise BadInput("no such crash file: %s" % crash)
    if args.minimize_time <= 0 or args.minimize_runs <= 0:
        raise BadInput("--minimize-time and --minimize-runs must be positive")
    if args.case_id and not CASE_ID_RE.match(args.case_id):
        raise BadInput("--id '%s' is not a valid case id (letters, digits, '-', '_', '.')"
                       % args.case_id)
    out_dir = os.path.abspath(args.out_dir or os.path.join(TOP, "regress", "cases"))
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise BadInput("--out-dir %s is not a directory" % out_dir)
    args.engine = "replay"
    replay_binary = build(args)
    config = subject_config(args)
    env_ignore = list(args.ignore) + (documented_ids(args, known) if args.known and known
                                      else [])
    args.ignore = env_ignore        # the replays below count these, as the case will
    got = replay_one(args, replay_binary, crash)
    if got is None:
        print("triage: %s does not reproduce: %s on %s [%s] passes it" % (
            crash, args.target, describe(args), config))
        return EXIT_FAIL
    print("triage: reproduces on %s [%s]: %s" % (describe(args), config, got["kind"]))
    print("  " + got["message"])
    data, note, got = minimise(args, crash, got, replay_binary)
    print("triage: " + note)
    spec = args.subject_b if args.target == PAIR_TARGET else args.subject
    case_id = args.case_id or "%s-FUZZ-%s" % (
        "KLZ4" if generation_of(spec) == "kernel" else "ULZ4",
        hashlib.sha1(data).hexdigest()[:8].upper())
    path = os.path.join(out_dir, case_id + ".json")
    if os.path.exists(path) and not args.force:
        raise BadInput("%s exists; pass another --id, or --force to overwrite" % path)
    case = case_skeleton(args, case_id, got, data, crash, config, note, env_ignore)
    os.makedirs(out_dir, exist_ok=True)
    saved = os.path.join(OUT, "triage", case_id + ".bin")
    atomic.write_file(saved, data)
    atomic.write_file(path, json.dumps(case, indent=2) + "\n")
    print("triage: wrote %s (a skeleton: fill in the TODO fields)" % shown(path))
    print("  input: %s (%d bytes)" % (os.path.relpath(saved, TOP), len(data)))
    print("next: python3 -m harness regress --check; python3 -m harness regress --mutants "
          "--case %s" % case_id)
    return EXIT_OK
