"""The time-to-find table: how long each target needs to find a planted bug,
from its seed corpus and from an empty one."""
import glob
import os
import shutil
import statistics
import subprocess
import sys
import time

from harness.bench.common import OUT, build_ours, known_env, say
from harness.fuzzing.build import tag_of
from harness.fuzzing.campaign import DICT, read_text, seed_dir, stop_group

# Planted bugs the targets must find, from their seed corpus and from
# nothing (the same list as tests/test_fuzz.py's PLANTED, which
# tests/test_fuzz_tools.py compares): (target, subject, subject_b).
PLANTED = [
    ("decode_differential", "ref-mutant:OFFSET_IN_HISTORY", None),
    ("decode_differential", "ref-mutant:LITERALS_IN_OUTPUT", None),
    ("decode_differential", "broken:short_return", None),
    ("ref_to_subject", "ref-mutant:OFFSET_IN_HISTORY", None),
    ("ref_to_subject", "ref-mutant:LITERALS_IN_OUTPUT", None),
    ("ref_to_subject", "broken:short_return", None),
    ("decode_large", "broken:short_return", None),
    ("compress_roundtrip", "broken:write_past_capacity", None),
    ("compress_large", "broken:write_past_capacity", None),
    ("base_vs_candidate", "ref", "broken:short_return"),
    ("frame_decode", "ref-mutant:BLOCK_CHECKSUM", None),
    ("frame_decode", "broken:frame_write_past", None),
    ("frame_roundtrip", "broken:frame_write_past", None),
    ("legacy_decode", "broken:unlz4_short_flush", None),
]

# The goal of the suite (issue 15): from an empty corpus, each planted bug
# found in a median of at most this many seconds (a bug found in half the
# runs or fewer has no median below the timeout: not met).
FIND_GOAL_S = 10


def find(args):
    cases = []
    for target, s, sb in PLANTED:
        say(args, "building %s for %s" % (target, "%s -> %s" % (s, sb) if sb else s))
        cases.append((target, s, sb, build_ours(target, s, sb)))
    results = []
    total = len(cases) * args.find_runs * len(args.find_from)
    k = 0
    for start_from in args.find_from:
        for target, s, sb, binary in cases:
            times, at_load = [], 0
            env = known_env(target, s, sb)
            bug = sb or s
            for seed in range(1, args.find_runs + 1):
                k += 1
                work = os.path.join(OUT, "runs", "find-%s-%s-%s-%d" % (
                    start_from, target, tag_of(bug), seed))
                shutil.rmtree(work, ignore_errors=True)
                corpus = os.path.join(work, "corpus")
                if start_from == "seeds":
                    shutil.copytree(seed_dir(target), corpus)
                else:
                    os.makedirs(corpus)
                os.makedirs(os.path.join(work, "artifacts"))
                cmd = [binary, corpus, "-artifact_prefix=artifacts/", "-seed=%d" % seed,
                       "-max_total_time=%d" % args.find_timeout, "-timeout=60",
                       "-rss_limit_mb=4096"]
                if os.path.isfile(DICT):
                    cmd.append("-dict=" + DICT)
                start = time.time()
                log_path = os.path.join(work, "fuzz.log")
                with open(log_path, "w") as log:
                    proc = subprocess.Popen(cmd, cwd=work, stdout=log,
                                            stderr=subprocess.STDOUT, env=env,
                                            start_new_session=True)
                    try:
                        proc.wait(timeout=args.find_timeout + 60)
                    except subprocess.TimeoutExpired:
                        stop_group(proc)
                    except KeyboardInterrupt:
                        stop_group(proc)
                        raise
                wall = time.time() - start
                if glob.glob(os.path.join(work, "artifacts", "crash-*")):
                    times.append(wall)
                    # Before "INITED": an input libFuzzer runs before it
                    # mutates anything fails: a seed file, or (from an empty
                    # corpus) its own first input, the empty one.
                    loading = "INITED" not in read_text(log_path)
                    at_load += loading
                    say(args, "[%d/%d] %s on %s from %s, seed %d: found after %.1f s%s" % (
                        k, total, target, bug, start_from, seed, wall,
                        "" if not loading else
                        " (before fuzzing: %s)" % BEFORE_FUZZING[start_from]))
                else:
                    say(args, "[%d/%d] %s on %s from %s, seed %d: not found in %d s" % (
                        k, total, target, bug, start_from, seed, args.find_timeout))
            results.append((target, bug, start_from, times, at_load))
    print_find(args, results)
    return results

# What libFuzzer runs before it prints INITED and starts mutating.
BEFORE_FUZZING = {"seeds": "a file of the seed corpus",
                  "empty": "libFuzzer's own first input, the empty one"}


def print_find(args, results):
    print("Time to find planted bugs: libFuzzer, one process, with corpus/lz4_block.dict, "
          "starting from the seed corpus corpus/<target>/ (\"seeds\") or an empty corpus "
          "(\"empty\"); %d runs per bug and start (-seed=1..%d), timeout %d s per run; "
          "wall seconds from process start to the crash"
          % (args.find_runs, args.find_runs, args.find_timeout))
    print()
    hdr = ("target", "planted bug", "from", "found", "median s", "min s", "max s",
           "before fuzzing")
    lines = []
    for target, bug, start_from, times, at_load in results:
        load = "%d/%d" % (at_load, len(times))
        if times:
            lines.append((target, bug, start_from, "%d/%d" % (len(times), args.find_runs),
                          "%.1f" % statistics.median(times), "%.1f" % min(times),
                          "%.1f" % max(times), load))
        else:
            lines.append((target, bug, start_from, "0/%d" % args.find_runs, "not found", "-",
                          "-", load))
    widths = [max(len(x[i]) for x in lines + [hdr]) for i in range(len(hdr))]
    fmt = "  ".join("%%-%ds" % w if i < 3 else "%%%ds" % w for i, w in enumerate(widths))
    print(fmt % hdr)
    for l in lines:
        print(fmt % l)
    for t, b, f, ts, _ in results:
        if len(ts) < args.find_runs:
            print("not found in %d of %d runs: %s on %s from %s (timeout %d s)" % (
                args.find_runs - len(ts), args.find_runs, t, b, f, args.find_timeout))
    empty = [(t, b, ts) for t, b, f, ts, _ in results if f == "empty"]
    if empty:
        slow = ["%s on %s" % (t, b) for t, b, ts in empty
                if len(ts) * 2 <= args.find_runs or statistics.median(ts) > FIND_GOAL_S]
        print("goal: every planted bug found from an empty corpus in a median of <= %d s: %s" % (
            FIND_GOAL_S, "met" if not slow else "NOT met (%s)" % ", ".join(slow)))
    print("(median, min and max over the runs that found the bug: a run that times out is "
          "\"not found\", never a time; \"before fuzzing\": runs that failed on an input "
          "libFuzzer runs before its first mutation: %s)" % "; ".join(
              "from %s, %s" % kv for kv in sorted(BEFORE_FUZZING.items())))
    sys.stdout.flush()
