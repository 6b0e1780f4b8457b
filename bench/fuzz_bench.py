#!/usr/bin/env python3
"""lz4gate fuzz benchmark: exec/s of our fuzz targets next to upstream lz4's
own fuzzers, and the time each target needs to find a planted bug.

Run `bench/fuzz_bench.py --help` for the manual.
"""
import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(BENCH)
sys.path.insert(0, os.path.join(TOP, "harness"))

import fuzz       # noqa: E402
import subjects   # noqa: E402

OUT = os.path.join(TOP, "build", "fuzz-bench")
EXIT_OK, EXIT_BAD_INPUT = 0, 2
PROGRESS_EVERY = 5

# Upstream's own block fuzzers (ossfuzz/ of an lz4 release tree) and what
# they link: each fuzzer, its two helpers, and liblz4's sources (as their
# Makefile's liblz4.a).
UPSTREAM_FUZZERS = ("decompress_fuzzer", "round_trip_fuzzer")
UPSTREAM_HELPERS = ("ossfuzz/lz4_helpers.c", "ossfuzz/fuzz_data_producer.c")
UPSTREAM_LIB = ("lib/lz4.c", "lib/lz4hc.c", "lib/lz4frame.c", "lib/xxhash.c")
# The preprocessor flags of upstream's ossfuzz/Makefile (LZ4_CPPFLAGS).
UPSTREAM_CPPFLAGS = ["-DXXH_NAMESPACE=LZ4_", "-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"]

# Our block-format targets, measured against upstream's block fuzzers.
BLOCK_TARGETS = ("decode_differential", "compress_roundtrip", "ref_to_subject",
                 "base_vs_candidate")

# Planted bugs the targets must find from their seed corpus (the same list
# as tests/test_fuzz.py): (target, subject, subject_b).
PLANTED = [
    ("decode_differential", "ref-mutant:OFFSET_IN_HISTORY", None),
    ("decode_differential", "ref-mutant:LITERALS_IN_OUTPUT", None),
    ("decode_differential", "broken:short_return", None),
    ("ref_to_subject", "ref-mutant:OFFSET_IN_HISTORY", None),
    ("ref_to_subject", "ref-mutant:LITERALS_IN_OUTPUT", None),
    ("ref_to_subject", "broken:short_return", None),
    ("compress_roundtrip", "broken:write_past_capacity", None),
    ("base_vs_candidate", "ref", "broken:short_return"),
]

HELP = """\
NAME
    fuzz_bench.py - exec/s of lz4gate's fuzz targets next to upstream lz4's
    own fuzzers, and time to find planted bugs

SYNOPSIS
    bench/fuzz_bench.py [--time SECONDS] [--max-len N] [--seed N] [--rounds N]
                        [--subject SPEC] [--base SPEC] [--candidate SPEC]
                        [--upstream-tree DIR] [--upstream-debuglevel N] [--only A,B,...]
                        [--find] [--no-speed] [--find-runs N] [--find-timeout SECONDS]
                        [--find-from seeds,empty]
                        [-q]

DESCRIPTION
    Speed (default). Builds, then runs one after the other, each for --time
    seconds:
      our targets       decode_differential, compress_roundtrip and
                        ref_to_subject on --subject (default upstream);
                        base_vs_candidate with --base -> --candidate
                        (default kernel -> upstream); built by
                        harness/fuzz.py build --engine libfuzzer
      upstream's own    decompress_fuzzer and round_trip_fuzzer, compiled at
                        run time from DIR/ossfuzz/ and DIR/lib/ (default DIR:
                        the default upstream tree, build/subjects/lz4-upstream)
                        into build/fuzz-bench/upstream/; nothing of upstream
                        is copied into lz4gate
    Every fuzzer starts under the same conditions: libFuzzer, one process
    (no -jobs), an empty corpus directory, no dictionary, the same
    -max_len, -seed, -timeout and -rss_limit_mb, the same compiler and flags
    (clang, the flags of the libfuzzer subject configuration of
    harness/subjects.py with -fsanitize=fuzzer: -O1 -g, ASan + UBSan). The
    known findings of our subjects are ignored (as make fuzz does), so that
    no run stops early; a run that stops on a crash anyway is marked.
    exec/s is libFuzzer's own figure, stat::average_exec_per_sec of
    -print_final_stats=1 (executions / seconds of the run). The table gives
    each fuzzer's exec/s and our targets' ratio to each upstream fuzzer
    (ours / upstream); the goal stated for the suite is
    decode_differential >= 0.5x decompress_fuzzer.

    With --rounds N the whole sequence runs N times, interleaved, and the
    table shows the median per fuzzer. Figures measured while other work
    runs on the machine are noisy: compare the ratios of one run, not
    absolute figures of different runs.

    Time to find (--find). For each planted bug (a ref mutant with one named
    check compiled out, or a deliberately broken adapter; the list of
    tests/test_fuzz.py) and the target that must find it, --find-runs
    libFuzzer runs (default 5) with -seed=1..N, each from a fresh copy of
    the target's seed corpus (corpus/<T>/) with the dictionary, as
    harness/fuzz.py run does, and (--find-from) as many from an empty
    corpus, until the first crash or --find-timeout seconds (default 60).
    Time is wall-clock seconds from the start of the libFuzzer process (the
    seed corpus load included) to its exit on the crash. The table gives the
    median, min and max over the runs that found the bug, and how many did;
    a run that hits the timeout is "not found", never counted as a time.
    "at seed load" counts the runs where an input of the seed corpus itself
    failed, before libFuzzer's first mutation: the seeds alone exercise that
    check, and the empty-corpus runs show what the fuzzer finds on its own.

OPTIONS
    --time S              seconds per fuzzer for the speed table (default 30)
    --max-len N           libFuzzer -max_len for every fuzzer (default 4096)
    --seed N              libFuzzer -seed for the speed runs (default 1)
    --rounds N            repeat the speed sequence N times, median (default 1)
    --subject SPEC        subject of the single-subject targets (default upstream)
    --base SPEC, --candidate SPEC
                          subjects of base_vs_candidate (default kernel, upstream)
    --upstream-tree DIR   the lz4 tree whose ossfuzz/ fuzzers are built
    --upstream-debuglevel N
                          LZ4_DEBUG for upstream's fuzzers (default 0: asserts
                          off, as in lz4gate's subject build; upstream's
                          ossfuzz/Makefile defaults to 1)
    --only A,B,...        speed: run only these fuzzers (names as in the table)
    --find                also run the time-to-find table
    --no-speed            skip the speed table (with --find: only time to find)
    --find-runs N         runs per planted bug (default 5)
    --find-timeout S      per-run timeout in seconds (default 60)
    --find-from LIST      seeds, empty or seeds,empty (default): start from the
                          seed corpus, from an empty corpus, or both
    -q, --quiet           no progress lines (the tables are still printed)

FILES
    build/fuzz-bench/upstream/   upstream's fuzzers, built here
    build/fuzz-bench/runs/       corpora and logs of the last runs

EXIT STATUS
    0  the tables were printed (the bench reports, it does not gate)
    2  bad input or a build failure (one line on stderr)

EXAMPLES
    make fuzz-bench                      # speed table, 30 s per fuzzer
    make fuzz-bench TIME=120 FIND=1      # both tables
    bench/fuzz_bench.py --time 2         # a quick look
    bench/fuzz_bench.py --find --no-speed --find-runs 5 --find-timeout 60
"""


class BadInput(Exception):
    pass


def say(args, msg):
    if not args.quiet:
        print("fuzz-bench: " + msg, file=sys.stderr, flush=True)


# ---- building ----------------------------------------------------------------

def fuzzer_flags():
    """The flags our libFuzzer targets are built with (harness/subjects.py)."""
    cc, flags, _ = subjects.CONFIGS["libfuzzer"]
    return cc, [f for f in flags if f != "-fsanitize=fuzzer-no-link"] + ["-fsanitize=fuzzer"]


def build_upstream(args):
    """Compile upstream's fuzzers from the tree; return {name: binary}."""
    tree = args.upstream_tree or subjects.DEFAULT_TREES["upstream"]
    if not os.path.isdir(tree):
        raise BadInput("no lz4 tree at %s; run: make subjects (or pass --upstream-tree DIR)"
                       % tree)
    needed = [os.path.join(tree, f) for f in UPSTREAM_HELPERS + UPSTREAM_LIB] + \
        [os.path.join(tree, "ossfuzz", n + ".c") for n in UPSTREAM_FUZZERS]
    missing = [p for p in needed if not os.path.isfile(p)]
    if missing:
        raise BadInput("%s is not an lz4 tree with ossfuzz/ fuzzers: %s is missing"
                       % (tree, os.path.relpath(missing[0], tree)))
    cc, flags = fuzzer_flags()
    flags = flags + ["-DLZ4_DEBUG=%d" % args.upstream_debuglevel, "-w",
                     "-I" + os.path.join(tree, "lib")] + UPSTREAM_CPPFLAGS
    key = subjects.sha(cc, flags, subjects.file_digest(
        needed + glob.glob(os.path.join(tree, "ossfuzz", "*.h")) +
        glob.glob(os.path.join(tree, "lib", "*.h"))))
    out = os.path.join(OUT, "upstream", key)
    bins = {n: os.path.join(out, n) for n in UPSTREAM_FUZZERS}
    if all(os.path.isfile(b) for b in bins.values()):
        return bins, flags
    say(args, "building upstream's %s from %s" % (" and ".join(UPSTREAM_FUZZERS), tree))
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    objs = []
    for src in [os.path.join(tree, f) for f in UPSTREAM_HELPERS + UPSTREAM_LIB]:
        obj = os.path.join(tmp, os.path.basename(src)[:-2] + ".o")
        nolink = [f if f != "-fsanitize=fuzzer" else "-fsanitize=fuzzer-no-link" for f in flags]
        run_or_fail([cc] + nolink + ["-c", src, "-o", obj], "compiling upstream's " + src)
        objs.append(obj)
    for name in UPSTREAM_FUZZERS:
        run_or_fail([cc] + flags + ["-o", os.path.join(tmp, name),
                                    os.path.join(tree, "ossfuzz", name + ".c")] + objs,
                    "building upstream's " + name)
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    return bins, flags


def run_or_fail(cmd, what):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace")
    if proc.returncode != 0:
        lines = [l for l in proc.stdout.splitlines() if "error" in l] or \
            proc.stdout.splitlines() or ["(no output)"]
        raise BadInput("%s failed: %s" % (what, lines[0].strip()))


def target_args(target, subject, subject_b=None):
    return argparse.Namespace(target=target, subject=subject, subject_b=subject_b, patch=[],
                              patch_b=[], engine="libfuzzer", bits="64", config=None,
                              ignore=[], skip=[], known=False, quiet=True)


def build_ours(target, subject, subject_b=None):
    a = target_args(target, subject, subject_b)
    try:
        return fuzz.build(a)
    except fuzz.BadInput as e:
        raise BadInput(str(e))


def known_env(target, subject, subject_b=None):
    """The environment harness/fuzz.py run --known gives a target, with the
    known findings of both subjects of base_vs_candidate."""
    ids = fuzz.known_ignores(target_args(target, subject, subject_b))
    if subject_b:
        ids += [i for i in fuzz.known_ignores(target_args(target, subject_b, subject))
                if i not in ids]
    env = dict(os.environ)
    env.pop("LZ4GATE_FUZZ_SKIP", None)
    if ids:
        env["LZ4GATE_FUZZ_IGNORE"] = ",".join(ids)
    else:
        env.pop("LZ4GATE_FUZZ_IGNORE", None)
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    return env


# ---- running -----------------------------------------------------------------

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
                    fuzz.stop_group(proc)
                    break
                if not quiet_progress and now - last >= PROGRESS_EVERY:
                    last = now
                    execs, cov, rate = last_status(fuzz.read_text(log_path))
                    say(args, "  %s: %3d/%d s, %d execs, %d exec/s, cov %d" % (
                        label, now - start, seconds, execs, rate, cov))
        except KeyboardInterrupt:
            fuzz.stop_group(proc)
            raise
    wall = time.time() - start
    text = fuzz.read_text(log_path)
    stats = {k: int(v) for k, v in STAT_RE.findall(text)}
    execs, cov, _ = last_status(text)
    execs = stats.get("number_of_executed_units", execs)
    rate = stats.get("average_exec_per_sec", 0)
    crashed = bool(glob.glob(os.path.join(workdir, "artifacts", "crash-*"))) or \
        "ERROR: libFuzzer" in text or "ERROR: AddressSanitizer" in text
    if crashed or not rate:
        rate = int(execs / wall) if wall > 0 else 0
    fail = next((l.strip() for l in text.splitlines()
                 if fuzz.FAIL_RE.search(l) and "SUMMARY" not in l), "")
    return {"exec_s": rate, "execs": execs, "cov": cov, "wall": wall, "crashed": crashed,
            "fail": fail, "returncode": proc.returncode}


def speed(args):
    cc, flags = fuzzer_flags()
    lf_flags = ["-max_len=%d" % args.max_len, "-seed=%d" % args.seed, "-timeout=60",
                "-rss_limit_mb=4096"]
    ours = [(t, args.base, args.candidate) if t == fuzz.PAIR_TARGET else (t, args.subject, None)
            for t in BLOCK_TARGETS]
    rows = []
    known = [t for t, _, _ in ours] + list(UPSTREAM_FUZZERS)
    for name in args.only:
        if name not in known:
            raise BadInput("unknown fuzzer '%s' for --only; use: %s" % (name, ", ".join(known)))
    for target, s, sb in ours:
        say(args, "building %s for %s" % (target, "%s -> %s" % (s, sb) if sb else s))
        if args.only and target not in args.only:
            rows.append({"name": target, "what": "%s -> %s" % (s, sb) if sb else s,
                         "ours": True, "figures": []})
            continue
        rows.append({"name": target, "what": "%s -> %s" % (s, sb) if sb else s,
                     "binary": build_ours(target, s, sb), "env": known_env(target, s, sb),
                     "ours": True, "figures": []})
    bins, up_flags = build_upstream(args)
    for name in UPSTREAM_FUZZERS:
        env = dict(os.environ)
        env.pop("LZ4GATE_FUZZ_IGNORE", None)
        rows.append({"name": name, "what": "upstream ossfuzz", "binary": bins[name],
                     "env": env, "ours": False, "figures": []})
    # Interleave: each of ours next to its upstream peer, so that load
    # changes during the run hit both sides of a ratio alike.
    order = [rows[i] for i in (0, 4, 1, 5, 2, 3)]
    if args.only:
        order = [r for r in order if r["name"] in args.only]
    total = len(order) * args.rounds
    say(args, "speed: %d fuzzers x %d s x %d round(s); each from an empty corpus, 1 job, "
              "no dictionary, -max_len=%d -seed=%d" % (len(order), args.time, args.rounds,
                                                       args.max_len, args.seed))
    k = 0
    for rnd in range(args.rounds):
        for row in order:
            k += 1
            label = "[%d/%d] %s" % (k, total, row["name"])
            say(args, "%s (%s): %d s" % (label, row["what"], args.time))
            fig = run_libfuzzer(args, label, row["binary"], lf_flags, row["env"],
                                os.path.join(OUT, "runs", "speed-%s" % row["name"]), args.time)
            row["figures"].append(fig)
            say(args, "%s: %d exec/s (%d execs, cov %d)%s" % (
                label, fig["exec_s"], fig["execs"], fig["cov"],
                "; STOPPED EARLY on a crash: %s" % fig["fail"] if fig["crashed"] else ""))
    print_speed(args, rows, cc, flags, up_flags)
    return rows


def median_of(row, key):
    return statistics.median(f[key] for f in row["figures"])


def ratio(a, b):
    """ours / upstream, with at least two significant digits."""
    if not b:
        return "n/a"
    q = a / b
    return "%.2fx" % q if q >= 0.1 else "%.4fx" % q


def print_speed(args, rows, cc, flags, up_flags):
    rows = [r for r in rows if r["figures"]]
    up = {r["name"]: median_of(r, "exec_s") for r in rows if not r["ours"]}
    print("Fuzz target speed: libFuzzer, one process each, in turn; %d s per fuzzer%s; "
          "every fuzzer from an empty corpus, no dictionary, -max_len=%d -seed=%d; "
          "%s %s" % (args.time, ", median of %d rounds" % args.rounds if args.rounds > 1 else "",
                     args.max_len, args.seed, cc, " ".join(flags)))
    print("upstream fuzzers: built from %s with LZ4_DEBUG=%d and their Makefile's %s" % (
        os.path.relpath(args.upstream_tree or subjects.DEFAULT_TREES["upstream"], TOP),
        args.upstream_debuglevel, " ".join(UPSTREAM_CPPFLAGS)))
    print()
    hdr = ("fuzzer", "subject", "exec/s", "execs", "cov", "vs decompress_fuzzer",
           "vs round_trip_fuzzer")
    lines = []
    for r in rows:
        rate = median_of(r, "exec_s")
        crashed = any(f["crashed"] for f in r["figures"])
        lines.append((r["name"] + (" (crashed)" if crashed else ""), r["what"],
                      "%d" % rate, "%d" % median_of(r, "execs"), "%d" % median_of(r, "cov"),
                      ratio(rate, up.get("decompress_fuzzer")) if r["ours"] else "-",
                      ratio(rate, up.get("round_trip_fuzzer")) if r["ours"] else "-"))
    widths = [max(len(x[i]) for x in lines + [hdr]) for i in range(len(hdr))]
    fmt = "  ".join("%%-%ds" % w if i < 2 else "%%%ds" % w for i, w in enumerate(widths))
    print(fmt % hdr)
    for l in lines:
        print(fmt % l)
    print()
    dd = next((r for r in rows if r["name"] == "decode_differential"), None)
    if dd and up.get("decompress_fuzzer"):
        q = median_of(dd, "exec_s") / up["decompress_fuzzer"]
        print("goal: decode_differential >= 0.50x decompress_fuzzer exec/s: %s (%.2fx)" % (
            "met" if q >= 0.5 else "NOT met", q))
    print("(ours check every result against the reference codec, run each decoder twice "
          "and compress/decode several ways per input; upstream's only call the API)")
    sys.stdout.flush()


# ---- time to find ---------------------------------------------------------------

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
                    start_from, target, fuzz.tag_of(bug), seed))
                shutil.rmtree(work, ignore_errors=True)
                corpus = os.path.join(work, "corpus")
                if start_from == "seeds":
                    shutil.copytree(fuzz.seed_dir(target), corpus)
                else:
                    os.makedirs(corpus)
                os.makedirs(os.path.join(work, "artifacts"))
                cmd = [binary, corpus, "-artifact_prefix=artifacts/", "-seed=%d" % seed,
                       "-max_total_time=%d" % args.find_timeout, "-timeout=60",
                       "-rss_limit_mb=4096"]
                if os.path.isfile(fuzz.DICT):
                    cmd.append("-dict=" + fuzz.DICT)
                start = time.time()
                log_path = os.path.join(work, "fuzz.log")
                with open(log_path, "w") as log:
                    proc = subprocess.Popen(cmd, cwd=work, stdout=log,
                                            stderr=subprocess.STDOUT, env=env,
                                            start_new_session=True)
                    try:
                        proc.wait(timeout=args.find_timeout + 60)
                    except subprocess.TimeoutExpired:
                        fuzz.stop_group(proc)
                    except KeyboardInterrupt:
                        fuzz.stop_group(proc)
                        raise
                wall = time.time() - start
                if glob.glob(os.path.join(work, "artifacts", "crash-*")):
                    times.append(wall)
                    # Before "INITED": an input of the seed corpus itself fails.
                    loading = "INITED" not in fuzz.read_text(log_path)
                    at_load += loading
                    say(args, "[%d/%d] %s on %s from %s, seed %d: found after %.1f s%s" % (
                        k, total, target, bug, start_from, seed, wall,
                        " (while loading the seed corpus)" if loading else ""))
                else:
                    say(args, "[%d/%d] %s on %s from %s, seed %d: not found in %d s" % (
                        k, total, target, bug, start_from, seed, args.find_timeout))
            results.append((target, bug, start_from, times, at_load))
    print_find(args, results)
    return results


def print_find(args, results):
    print("Time to find planted bugs: libFuzzer, one process, with corpus/lz4_block.dict, "
          "starting from the seed corpus corpus/<target>/ (\"seeds\") or an empty corpus "
          "(\"empty\"); %d runs per bug and start (-seed=1..%d), timeout %d s per run; "
          "wall seconds from process start to the crash"
          % (args.find_runs, args.find_runs, args.find_timeout))
    print()
    hdr = ("target", "planted bug", "from", "found", "median s", "min s", "max s",
           "at seed load")
    lines = []
    for target, bug, start_from, times, at_load in results:
        load = "%d/%d" % (at_load, len(times)) if start_from == "seeds" else "-"
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
    print("(median, min and max over the runs that found the bug: a run that times out is "
          "\"not found\", never a time; \"at seed load\": runs where an input of the seed "
          "corpus itself failed, before any fuzzing)")
    sys.stdout.flush()


# ---- command line ---------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(message + "; see bench/fuzz_bench.py --help")


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help", "help"):
        print(HELP)
        return EXIT_OK
    ap = Parser(prog="fuzz_bench.py", add_help=False)
    ap.add_argument("--time", type=int, default=30)
    ap.add_argument("--max-len", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--subject", default="upstream")
    ap.add_argument("--base", default="kernel")
    ap.add_argument("--candidate", default="upstream")
    ap.add_argument("--upstream-tree")
    ap.add_argument("--upstream-debuglevel", type=int, default=0)
    ap.add_argument("--find", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--find-runs", type=int, default=5)
    ap.add_argument("--find-timeout", type=int, default=60)
    ap.add_argument("--find-from", default="seeds,empty")
    ap.add_argument("--only", default="")
    ap.add_argument("-q", "--quiet", action="store_true")
    try:
        args = ap.parse_args(argv[1:])
        args.only = [n for n in args.only.split(",") if n]
        args.find_from = [f for f in args.find_from.split(",") if f]
        if not args.find_from or set(args.find_from) - {"seeds", "empty"}:
            raise BadInput("--find-from takes seeds, empty or seeds,empty")
        for name in ("time", "max_len", "rounds", "find_runs", "find_timeout"):
            if getattr(args, name) <= 0:
                raise BadInput("--%s must be positive" % name.replace("_", "-"))
        if args.no_speed and not args.find:
            raise BadInput("--no-speed leaves nothing to do; add --find")
        if not args.no_speed:
            speed(args)
        if args.find:
            if not args.no_speed:
                print()
            find(args)
    except (BadInput, fuzz.BadInput, subjects.BadInput) as e:
        print("fuzz_bench.py: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
