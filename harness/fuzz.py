#!/usr/bin/env python3
"""lz4gate fuzz driver: build, run and replay the fuzz targets of fuzz/.

Run `harness/fuzz.py --help` for the manual.
"""
import argparse
import copy
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HARNESS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HARNESS)

import subjects  # noqa: E402

TOP = subjects.TOP
FUZZ = os.path.join(TOP, "fuzz")
CORPUS = os.path.join(TOP, "corpus")
OUT = os.path.join(TOP, "build", "fuzz")
TARGETS = ("decode_differential", "compress_roundtrip", "ref_to_subject", "base_vs_candidate",
           "frame_decode", "frame_roundtrip", "legacy_decode")
# Harness sources a target links besides its own file and ref/.
TARGET_SOURCES = {t: ["frame_driver.c", "guard.c"]
                  for t in ("frame_decode", "frame_roundtrip", "legacy_decode")}
PAIR_TARGET = "base_vs_candidate"
ENGINES = ("libfuzzer", "afl", "replay")
AFL_DRIVER = "/usr/lib/afl/libAFLDriver.a"
DICT = os.path.join(CORPUS, "lz4_block.dict")
PROGRESS_EVERY = 5          # seconds between progress lines (the brief: <= 10)
EXIT_OK, EXIT_FOUND, EXIT_BAD_INPUT = 0, 1, 2

HELP = """\
NAME
    fuzz.py - build, run and replay lz4gate's fuzz targets; minimise their
    corpora; turn a crash into a regression-case skeleton

SYNOPSIS
    harness/fuzz.py build  --target T --subject SPEC [--subject-b SPEC]
                           --engine libfuzzer|afl|replay [--bits 32|64] [--config CONFIG]
    harness/fuzz.py run    --target T --subject SPEC [--subject-b SPEC]
                           --engine libfuzzer|afl [--time SECONDS] [--jobs N] [--runs N]
                           [--seed N] [--fresh] [--ignore ID]... [--skip ENTRY]... [--known]
    harness/fuzz.py replay --target T --subject SPEC [--subject-b SPEC] [--bits 32|64]
                           [--config CONFIG] [--ignore ID]... [--skip ENTRY]... [PATH...]
    harness/fuzz.py corpus --target T|all
    harness/fuzz.py corpus-min --target T|all [--engine libfuzzer|afl] [--subject SPEC]
                           [--subject-b SPEC] [--dir DIR] [--dry-run]
    harness/fuzz.py triage CRASH_FILE --target T --subject SPEC [--subject-b SPEC]
                           [--id ID] [--out-dir DIR] [--force] [--bits 32|64]
                           [--minimize-time S] [--minimize-runs N] [--no-minimize]
                           [--ignore ID]... [--skip ENTRY]... [--known]
    harness/fuzz.py list

DESCRIPTION
    The targets (fuzz/<T>.c, one LLVMFuzzerTestOneInput each) test a subject
    built by harness/subjects.py against lz4gate's reference codec (ref/):

    decode_differential  arbitrary bytes as a block; every decoder of the
                         subject against ref (profile table tolerance)
    compress_roundtrip   the subject compresses drawn data in a drawn mode
                         into an exactly sized buffer; ref decodes it exactly
    ref_to_subject       valid blocks from ref's encoder and generator must
                         decode exactly in the subject (full, partial, dict)
    base_vs_candidate    two subjects in one program (--subject is the base,
                         --subject-b the candidate): same verdicts, and each
                         one's compressed blocks decode in the other

    build   compiles the target with the subject (and the second subject) for
            an engine and prints the binary's path:
              libfuzzer  clang -fsanitize=fuzzer,address,undefined
                         (subject config libfuzzer, or libfuzzer32 with --bits 32)
              afl        afl-clang-fast + ASan/UBSan + """ + AFL_DRIVER + """
                         (subject config afl)
              replay     fuzz/replay_main.c, no engine: runs files and
                         directories given on its command line (subject
                         config asan64, asan32 with --bits 32, or --config:
                         any configuration of harness/subjects.py list, e.g.
                         O2-32 or gcov)
    run     builds, copies the seed corpus corpus/<T>/ to
            build/fuzz/<T>/<subjects>/<engine>/corpus (kept between runs
            unless --fresh) and fuzzes for --time seconds with --jobs
            processes (libFuzzer: -jobs/-workers, AFL++: one -M and N-1 -S
            instances). Prints a progress line at least every 10 seconds,
            then the crashes found, copied to
            build/fuzz/<T>/<subjects>/<engine>/crashes/, with the failure line
            of each. UBSan reports in subject code (which continue) are listed,
            and do not count as crashes.
    replay  builds the replay binary and runs it on corpus/<T>/ (or the
            PATHs given): every input must pass.
    corpus  regenerates corpus/<T>/ with fuzz/make_seeds.c (ref's encoder
            and generator; deterministic).
    corpus-min
            minimises corpus/<T>/ (or --dir DIR) for the target built with
            --subject (default upstream; base_vs_candidate: kernel ->
            upstream; the subject's known findings are ignored, as with
            --known): libFuzzer -merge=1 (ENGINE libfuzzer) or afl-cmin
            (ENGINE afl) into build/fuzz/corpus-min/<T>/. Prints the file
            count, bytes and coverage before and after. libFuzzer's merge
            keeps, of the inputs it is given, a subset that has every
            coverage feature of the whole set (afl-cmin: every edge tuple);
            corpus-min checks this again by loading both sets (-runs=0;
            afl-showmap -C) and replaces the corpus only when the new set
            covers at least as much, keeping the original file names. The
            new set is staged next to the corpus and swapped in by two
            renames; on any error the old corpus stays (an interrupted swap
            is undone by the next corpus-min). --dry-run only reports. An
            input that fails on the subject stops it (corpus unchanged).
            Note: the committed corpora are what fuzz/make_seeds.c writes
            (a test checks this); minimise a corpus that grew from fuzzing
            runs, or regenerate with `corpus` afterwards.
    triage  from a crash to a regression-case skeleton:
              1. replays CRASH_FILE with the replay build (asan64, asan32
                 with --bits 32): if it passes, prints "does not reproduce"
                 and exits 1;
              2. minimises it with libFuzzer -minimize_crash=1 (each step
                 -runs=--minimize-runs and -max_total_time=--minimize-time/3,
                 all of it stopped after --minimize-time seconds, default
                 30), then keeps the smallest input the replay build still
                 fails with the same kind: the oracle's CLASS@ENTRY, or the
                 sanitizer report type, READ/WRITE and API entry (else the
                 original input);
              3. writes DIR/ID.json (default DIR regress/cases, default ID
                 KLZ4-FUZZ-<hash> for a kernel subject, else
                 ULZ4-FUZZ-<hash>): id, title "TODO", origin, generations,
                 entry and class (from the failure message), trigger (the
                 failure message), exercised, one test with the input as
                 hex and entry "fuzz:<T>" (harness/regress.py runs it through
                 the target's replay build; expect "pass": it exits 0),
                 fails_on [the subject with the bug], notes on what to fill
                 in. The input is also saved in build/fuzz/triage/ID.bin.
              Never overwrites a case unless --force.
    list    prints the targets, engines and subject configurations.

OPTIONS
    --target T       one of: """ + ", ".join(TARGETS) + """
    --subject SPEC   ref | system | upstream | kernel | upstream:DIR | kernel:DIR |
                     ref-mutant:CHECK | broken:MODE (see harness/subjects.py)
    --subject-b SPEC the candidate, for base_vs_candidate only (default: the
                     same as --subject)
    --patch FILE     apply FILE to --subject's tree (repeatable)
    --patch-b FILE   apply FILE to --subject-b's tree (repeatable)
    --engine E       libfuzzer (default), afl or replay
    --bits 32|64     word size (default 64; system has no 32-bit build)
    --config C       subject configuration for the replay engine
    --time S         fuzzing time in seconds (default 60)
    --jobs N         parallel fuzzing processes (default 1)
    --runs N         libFuzzer: stop after N executions per job (-runs)
    --seed N         libFuzzer: random seed (-seed)
    --fresh          start from the seed corpus again (drop the run's corpus)
    --ignore ID      a finding not to stop at: CLASS or CLASS@ENTRY, e.g.
                     stale_output@decompress_safe_partial (sets
                     LZ4GATE_FUZZ_IGNORE; the targets print the ids)
    --skip ENTRY     an entry point not to call, e.g. decompress_fast (sets
                     LZ4GATE_FUZZ_SKIP)
    --known          also ignore the fuzz ids of the subject's known findings:
                     the "fuzz" list of each entry of harness/known_findings.json
                     whose generation is the subject's (for base_vs_candidate:
                     the candidate's)
    --id ID          triage: the case id (and file name)
    --out-dir DIR    triage: where the case goes (default regress/cases)
    --force          triage: overwrite DIR/ID.json
    --minimize-time S  triage: minimisation budget in seconds (default 30)
    --minimize-runs N  triage: -runs of each minimisation step (default 200000)
    --no-minimize    triage: keep the input as it is
    --dir DIR        corpus-min: the corpus directory (default corpus/<T>)
    --dry-run        corpus-min: report, do not replace
    -q, --quiet      no progress lines

FILES
    fuzz/<T>.c, fuzz/fuzz_params.h (parameters from the input header),
    fuzz/fuzz_oracle.h (verdicts), fuzz/replay_main.c, fuzz/make_seeds.c,
    corpus/<T>/ (seeds), corpus/lz4_block.dict (libFuzzer/AFL++ dictionary),
    build/fuzz/ (binaries, run corpora, crashes).

EXIT STATUS
    0  success (build, corpus, replay: all inputs pass; run: no crash;
       corpus-min: minimised or already minimal; triage: case written)
    1  run: a crash was found; replay: an input failed; triage: the input
       does not reproduce; corpus-min: the corpus was not replaced (less
       coverage, a failing input, a tool failure)
    2  bad input (unknown target, subject, engine; a missing file or tool;
       a subject that does not build; triage: the case file exists), with
       one line on stderr saying what to do

EXAMPLES
    harness/fuzz.py run --target decode_differential --subject upstream --time 300 --jobs 2
    harness/fuzz.py run --target base_vs_candidate --subject kernel --subject-b kernel:/src/linux
    harness/fuzz.py replay --target ref_to_subject --subject kernel --bits 32
    harness/fuzz.py corpus-min --target all --engine libfuzzer --dry-run
    harness/fuzz.py triage build/fuzz/decode_differential/kernel/run-libfuzzer/crashes/crash-1f2e \
        --target decode_differential --subject kernel --id KLZ4-PARTIAL-NEWBUG
"""


class BadInput(Exception):
    pass


def say(args, msg):
    if not getattr(args, "quiet", False):
        print("fuzz: " + msg, file=sys.stderr, flush=True)


def tag_of(spec):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", spec).strip("_") or "subject"


def check_target(args):
    if args.target not in TARGETS:
        raise BadInput("unknown target '%s'; use one of: %s" % (args.target, ", ".join(TARGETS)))
    if args.subject_b and args.target != PAIR_TARGET:
        raise BadInput("--subject-b is for %s only" % PAIR_TARGET)
    if args.target == PAIR_TARGET and not args.subject_b:
        args.subject_b = args.subject
        args.patch_b = args.patch_b or args.patch


def subject_config(args):
    """The harness/subjects.py configuration for this engine and word size."""
    bits = str(getattr(args, "bits", "64") or "64")
    if bits not in ("32", "64"):
        raise BadInput("--bits must be 32 or 64, not '%s'" % bits)
    if args.engine == "libfuzzer":
        if args.config:
            raise BadInput("--config is for the replay engine; libFuzzer uses libfuzzer/libfuzzer32")
        return "libfuzzer32" if bits == "32" else "libfuzzer"
    if args.engine == "afl":
        if bits == "32":
            raise BadInput("the AFL++ build is 64-bit only here; use --engine libfuzzer --bits 32 "
                           "or --engine replay --bits 32")
        return "afl"
    if args.config:
        if args.config not in subjects.CONFIGS or args.config.startswith("libfuzzer") or \
                args.config == "afl":
            raise BadInput("unknown replay configuration '%s'; use one of: %s" % (
                args.config, ", ".join(c for c in subjects.CONFIGS
                                       if not c.startswith("libfuzzer") and c != "afl")))
        return args.config
    return "asan32" if bits == "32" else "asan64"


def run_dir(args):
    tag = tag_of(args.subject)
    if args.target == PAIR_TARGET:
        tag += "__" + tag_of(args.subject_b)
    return os.path.join(OUT, args.target, tag)


def build(args):
    """Build the target binary; return its path."""
    check_target(args)
    if args.engine not in ENGINES:
        raise BadInput("unknown engine '%s'; use one of: %s" % (args.engine, ", ".join(ENGINES)))
    config = subject_config(args)
    cc, flags, bits = subjects.CONFIGS[config]
    if args.engine == "afl":
        for tool in ("afl-clang-fast", "afl-fuzz"):
            if shutil.which(tool) is None:
                raise BadInput("%s not found; run: make deps (Debian package afl++)" % tool)
        if not os.path.isfile(AFL_DRIVER):
            raise BadInput("%s not found; run: make deps (Debian package afl++)" % AFL_DRIVER)
    try:
        dir_a = subjects.build(args.subject, config, args.patch, quiet=True)
        objs = [os.path.join(dir_a, "subject.o")]
        infos = [json.load(open(os.path.join(dir_a, "subject.json")))]
        if args.target == PAIR_TARGET:
            dir_b = subjects.build(args.subject_b, config, args.patch_b, quiet=True)
            objs.append(os.path.join(dir_b, "subject_b.o"))
            infos.append(json.load(open(os.path.join(dir_b, "subject.json"))))
    except subjects.BadInput as e:
        raise BadInput(str(e))
    out_dir = os.path.join(run_dir(args), config if args.engine != "afl" else "afl")
    os.makedirs(out_dir, exist_ok=True)
    binary = os.path.join(out_dir, args.target + ("-replay" if args.engine == "replay" else ""))
    srcs = [os.path.join(FUZZ, args.target + ".c")]
    srcs += [os.path.join(HARNESS, f) for f in TARGET_SOURCES.get(args.target, [])]
    srcs += sorted(glob.glob(os.path.join(TOP, "ref", "*.c")))
    headers = glob.glob(os.path.join(FUZZ, "*.h")) + glob.glob(os.path.join(TOP, "ref", "*.h")) \
        + [os.path.join(HARNESS, "subject.h")]
    if args.engine == "replay":
        srcs.append(os.path.join(FUZZ, "replay_main.c"))
    link = []
    for info in infos:
        link += [l for l in info.get("link", []) if l not in link]
    flags = list(flags)
    if args.engine == "libfuzzer":
        flags = [f for f in flags if f != "-fsanitize=fuzzer-no-link"] + ["-fsanitize=fuzzer"]
    extra = [AFL_DRIVER] if args.engine == "afl" else []
    inputs = srcs + headers + objs + [os.path.abspath(__file__)]
    if os.path.exists(binary) and os.path.getmtime(binary) >= max(os.path.getmtime(p)
                                                                   for p in inputs):
        return binary
    cmd = [cc] + flags + subjects.OUR_WARNINGS + [
        "-I" + FUZZ, "-I" + os.path.join(TOP, "ref"), "-I" + HARNESS, "-o", binary] + \
        srcs + objs + extra + link
    if args.engine == "afl":
        cmd.append("-lstdc++")   # the AFL++ driver is C++
    env = dict(os.environ, AFL_QUIET="1")
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", env=env)
    if proc.returncode != 0:
        lines = [l for l in proc.stdout.splitlines() if "error" in l] or \
            proc.stdout.splitlines() or ["(no output)"]
        raise BadInput("building %s for %s [%s] failed: %s" % (
            args.target, args.subject, config, lines[0].strip()))
    return binary


def generation_of(spec):
    kind = spec.partition(":")[0]
    return {"kernel": "kernel", "upstream": "upstream", "system": "upstream"}.get(kind, "ref")


def known_ignores(args):
    """Fuzz ids of the known findings of the subject's generation (for the
    pair target, of both subjects': a documented finding of the base, e.g.
    Linux 6.1's KLZ4-ACCEL-WRAP, must not stop every base-vs-candidate run)."""
    specs = [args.subject] + ([args.subject_b] if args.target == PAIR_TARGET and
                              getattr(args, "subject_b", None) else [])
    gens = {generation_of(s) for s in specs}
    try:
        with open(os.path.join(HARNESS, "known_findings.json")) as f:
            findings = json.load(f)["findings"]
    except (OSError, ValueError, KeyError):
        return []
    ids = []
    for f in findings:
        if f.get("generation") is None or f.get("generation") in gens:
            ids += [i for i in f.get("fuzz", []) if i not in ids]
    return ids


def target_env(args):
    env = dict(os.environ)
    ignore = list(args.ignore) + (known_ignores(args) if getattr(args, "known", False) else [])
    if ignore:
        env["LZ4GATE_FUZZ_IGNORE"] = ",".join(ignore)
    if args.skip:
        env["LZ4GATE_FUZZ_SKIP"] = ",".join(args.skip)
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    return env


def seed_dir(target):
    d = os.path.join(CORPUS, target)
    if not os.path.isdir(d) or not os.listdir(d):
        raise BadInput("no seed corpus in %s; run: harness/fuzz.py corpus --target %s" % (d, target))
    return d


# ---- running ---------------------------------------------------------------

FAIL_RE = re.compile(r"(lz4gate-fuzz \S+: FAIL.*|==\d+==ERROR: .*|SUMMARY: .*|"
                     r"ERROR: libFuzzer: .*)")
UBSAN_RE = re.compile(r"(\S+:\d+:\d+: runtime error: .*)")


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def libfuzzer_status(logs):
    """Executions, exec/s (summed over jobs), coverage and corpus size from
    the last status line ("#N ... cov: C ... corp: K/... exec/s: R") of each log."""
    execs = rate = cov = corp = 0
    for log in logs:
        last = None
        for line in read_text(log).splitlines():
            if line.startswith("#") and "exec/s" in line:
                last = line
        if last:
            def num(pattern):
                m = re.search(pattern, last)
                return int(m.group(1)) if m else 0
            execs += num(r"^#(\d+)")
            rate += num(r"exec/s: (\d+)")
            cov = max(cov, num(r"cov: (\d+)"))
            corp = max(corp, num(r"corp: (\d+)"))
    return execs, rate, cov, corp


def stop_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def prepare_workdir(args, engine):
    work = os.path.join(run_dir(args), "run-" + engine + ("-32" if str(args.bits) == "32" else ""))
    corpus = os.path.join(work, "corpus")
    crashes = os.path.join(work, "crashes")
    seeds = seed_dir(args.target)
    if args.fresh:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(crashes, exist_ok=True)
    for old in glob.glob(os.path.join(crashes, "*")):   # crashes are per run
        os.remove(old)
    if not os.path.isdir(corpus):
        shutil.copytree(seeds, corpus)
    return work, corpus, crashes


def run_libfuzzer(args, binary):
    work, corpus, crashes = prepare_workdir(args, "libfuzzer")
    for old in glob.glob(os.path.join(work, "fuzz-*.log")):
        os.remove(old)
    cmd = [binary, "corpus", "-artifact_prefix=crashes/", "-print_final_stats=1",
           "-timeout=60", "-rss_limit_mb=4096", "-max_total_time=%d" % args.time]
    if os.path.isfile(DICT):
        cmd.append("-dict=" + DICT)
    if args.runs:
        cmd.append("-runs=%d" % args.runs)
    if args.seed is not None:
        cmd.append("-seed=%d" % args.seed)
    if args.jobs > 1:
        cmd += ["-jobs=%d" % args.jobs, "-workers=%d" % args.jobs]
        logs = [os.path.join(work, "fuzz-%d.log" % i) for i in range(args.jobs)]
        log_out = open(os.path.join(work, "driver.log"), "w")
    else:
        logs = [os.path.join(work, "fuzz-0.log")]
        log_out = open(logs[0], "w")
    say(args, "libFuzzer: %s on %s, %d s x %d job(s), corpus %s" % (
        args.target, describe(args), args.time, args.jobs, os.path.relpath(corpus, TOP)))
    proc = subprocess.Popen(cmd, cwd=work, stdout=log_out, stderr=subprocess.STDOUT,
                            env=target_env(args), start_new_session=True)
    start = time.time()
    deadline = start + args.time + 60 + (600 if args.runs else 0)
    last = start
    try:
        while proc.poll() is None:
            time.sleep(0.5)
            now = time.time()
            if now >= deadline:
                say(args, "still running %d s past --time; stopping it" % (now - start - args.time))
                stop_group(proc)
                break
            if now - last >= PROGRESS_EVERY:
                last = now
                execs, rate, cov, corp = libfuzzer_status(logs)
                say(args, "%3d s: %d execs, %d exec/s, cov %d, corpus %d, crashes %d" % (
                    now - start, execs, rate, cov, corp, len(crash_files(crashes))))
    except KeyboardInterrupt:
        stop_group(proc)
        raise
    finally:
        log_out.close()
    execs, rate, cov, corp = libfuzzer_status(logs)
    text = "\n".join(read_text(l) for l in logs + [os.path.join(work, "driver.log")])
    m = re.findall(r"stat::average_exec_per_sec:\s+(\d+)", text)
    avg = sum(int(x) for x in m) if m else rate
    say(args, "done after %d s: %d execs, %s exec/s on average, cov %d, corpus %d" % (
        time.time() - start, execs, avg, cov, corp))
    return report(args, crashes, text)


def crash_files(crashes):
    # libFuzzer also saves slow inputs there (slow-unit-*): not crashes.
    return sorted(f for f in glob.glob(os.path.join(crashes, "*")) if os.path.isfile(f)
                  and not os.path.basename(f).startswith(("README", "slow-unit-")))


def report(args, crashes, log_text):
    found = crash_files(crashes)
    fails = []
    for line in log_text.splitlines():
        m = FAIL_RE.search(line)
        if m and m.group(1) not in fails:
            fails.append(m.group(1))
    ubsan = sorted({m.group(1) for m in UBSAN_RE.finditer(log_text)})
    for line in ubsan:
        print("UBSan in subject code (not a crash): %s" % line)
    if not found:
        print("fuzz: %s on %s: no crash" % (args.target, describe(args)))
        return EXIT_OK
    print("fuzz: %s on %s: %d crash(es):" % (args.target, describe(args), len(found)))
    for f in found:
        print("  %s" % os.path.relpath(f, TOP))
    for line in fails[:10]:
        print("  %s" % line)
    print("reproduce: harness/fuzz.py replay --target %s --subject %s%s %s" % (
        args.target, args.subject,
        " --subject-b %s" % args.subject_b if args.target == PAIR_TARGET else "",
        os.path.relpath(found[0], TOP)))
    return EXIT_FOUND


def describe(args):
    if args.target == PAIR_TARGET:
        return "%s -> %s" % (args.subject, args.subject_b)
    return args.subject


def afl_stats(path):
    stats = {}
    for line in read_text(path).splitlines():
        k, _, v = line.partition(":")
        stats[k.strip()] = v.strip()
    return stats


def run_afl(args, binary):
    work, corpus, crashes = prepare_workdir(args, "afl")
    out = os.path.join(work, "afl")
    env = target_env(args)
    env.update(AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
               AFL_NO_AFFINITY="1", AFL_AUTORESUME="1",
               ASAN_OPTIONS="abort_on_error=1:symbolize=0:detect_leaks=0:"
                            "allocator_may_return_null=1")
    # AFL++ reads a fresh input directory; the run corpus (seeds + earlier finds) seeds it.
    names = ["main0"] + ["sec%d" % i for i in range(1, args.jobs)]
    procs = []
    say(args, "AFL++: %s on %s, %d s x %d instance(s), output %s" % (
        args.target, describe(args), args.time, args.jobs, os.path.relpath(out, TOP)))
    for i, name in enumerate(names):
        cmd = ["afl-fuzz", "-i", corpus, "-o", out, "-M" if i == 0 else "-S", name,
               "-V", str(args.time), "-t", "5000", "-m", "none"]
        if os.path.isfile(DICT):
            cmd += ["-x", DICT]
        cmd += ["--", binary]
        log = open(os.path.join(work, "afl-%s.log" % name), "w")
        procs.append((subprocess.Popen(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT,
                                       env=env, start_new_session=True), log))
    start = time.time()
    last = 0
    try:
        while any(p.poll() is None for p, _ in procs):
            time.sleep(0.5)
            now = time.time()
            if now > start + args.time + 120:
                say(args, "AFL++ still running past --time; stopping it")
                for p, _ in procs:
                    stop_group(p)
                break
            if now - last >= PROGRESS_EVERY:
                last = now
                execs = rate = paths = crash = 0
                for name in names:
                    st = afl_stats(os.path.join(out, name, "fuzzer_stats"))
                    execs += int(st.get("execs_done", 0) or 0)
                    rate += float(st.get("execs_per_sec", 0) or 0)
                    paths = max(paths, int(st.get("corpus_count", st.get("paths_total", 0)) or 0))
                    crash += int(st.get("saved_crashes", st.get("unique_crashes", 0)) or 0)
                say(args, "%3d s: %d execs, %.0f exec/s, corpus %d, crashes %d" % (
                    now - start, execs, rate, paths, crash))
    except KeyboardInterrupt:
        for p, _ in procs:
            stop_group(p)
        raise
    finally:
        for _, log in procs:
            log.close()
    logs = ""
    for name in names:
        logs += read_text(os.path.join(work, "afl-%s.log" % name))
        for f in glob.glob(os.path.join(out, name, "crashes", "id:*")):
            dest = os.path.join(crashes, "%s-%s" % (name, os.path.basename(f).replace(":", "_")
                                                     .replace(",", "_")))
            shutil.copy2(f, dest)
    if any(p.returncode not in (0, None, -signal.SIGTERM) for p, _ in procs) and \
            not crash_files(crashes):
        tail = [l for l in logs.splitlines() if "PROGRAM ABORT" in l or "[-]" in l]
        raise BadInput("afl-fuzz failed: %s" % (tail[0].strip() if tail else "see %s" % work))
    # Failure lines: replay each crash once to name it.
    text = logs
    for f in crash_files(crashes)[:5]:
        p = subprocess.run([binary], stdin=open(f, "rb"), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, errors="replace",
                           env=target_env(args), timeout=120)
        text += "\n" + p.stdout
    return report(args, crashes, text)


def replay(args):
    args.engine = "replay"
    binary = build(args)
    paths = args.paths or [seed_dir(args.target)]
    for p in paths:
        if not os.path.exists(p):
            raise BadInput("no such file or directory: %s" % p)
    say(args, "replay: %s on %s [%s]: %s" % (args.target, describe(args), subject_config(args),
                                             " ".join(os.path.relpath(p, TOP) for p in paths)))
    env = target_env(args)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    proc = subprocess.run([binary] + paths, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", env=env)
    out = proc.stdout
    if proc.returncode == 0:
        print(out.strip().splitlines()[-1] if out.strip() else "replay: ok")
        return EXIT_OK
    if proc.returncode == 2 and "replay:" in out and "failing input" not in out:
        raise BadInput(out.strip().splitlines()[-1])
    lines = out.splitlines()
    keep = [l for l in lines if FAIL_RE.search(l) or "failing input" in l or
            UBSAN_RE.search(l)]
    print("replay: FAILED (%s on %s)" % (args.target, describe(args)))
    for l in keep[:12] or lines[-12:]:
        print("  " + l)
    return EXIT_FOUND


def corpus(args):
    targets = TARGETS if args.target == "all" else [args.target]
    if args.target != "all" and args.target not in TARGETS:
        raise BadInput("unknown target '%s'; use one of: all, %s" % (args.target, ", ".join(TARGETS)))
    tool = os.path.join(OUT, "make_seeds")
    os.makedirs(OUT, exist_ok=True)
    srcs = [os.path.join(FUZZ, "make_seeds.c")] + sorted(glob.glob(os.path.join(TOP, "ref", "*.c")))
    cmd = ["cc", "-O2"] + subjects.OUR_WARNINGS + ["-I" + FUZZ, "-I" + os.path.join(TOP, "ref"),
                                                   "-I" + HARNESS, "-o", tool] + srcs
    subjects.run_or_fail(cmd, "building fuzz/make_seeds.c")
    for t in targets:
        d = os.path.join(CORPUS, t)
        if os.path.isdir(d):
            for f in glob.glob(os.path.join(d, "seed-*")):
                os.remove(f)
        os.makedirs(d, exist_ok=True)
        out = subjects.run_or_fail([tool, t, d], "generating seeds for %s" % t)
        size = sum(os.path.getsize(f) for f in glob.glob(os.path.join(d, "*")))
        print("%s (%d bytes)" % (out.strip(), size))
    return EXIT_OK


# ---- corpus minimisation ------------------------------------------------------

INITED_RE = re.compile(r"INITED cov: (\d+) ft: (\d+)")
SHOWMAP_RE = re.compile(r"Captured (\d+) tuples")


def shown(path):
    """A path as printed: relative to the repository when inside it."""
    path = os.path.abspath(path)
    return os.path.relpath(path, TOP) if path.startswith(TOP + os.sep) else path


def dir_stats(d):
    files = [f for f in sorted(os.listdir(d)) if not f.startswith(".") and
             os.path.isfile(os.path.join(d, f))]
    return files, sum(os.path.getsize(os.path.join(d, f)) for f in files)


def content_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def minimize_env(args):
    env = target_env(args)
    env["ASAN_OPTIONS"] = "detect_leaks=0:allocator_may_return_null=1"
    return env


def libfuzzer_coverage(binary, d, env, work):
    """(cov, ft) libFuzzer reports after loading every input of d (-runs=0)."""
    proc = subprocess.run([binary, "-runs=0", "-rss_limit_mb=4096", "-timeout=60", d],
                          cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", env=env)
    m = INITED_RE.search(proc.stdout)
    if proc.returncode != 0 or not m:
        fail = [l for l in proc.stdout.splitlines() if FAIL_RE.search(l)]
        raise MinimizeError("loading %s failed%s" % (
            shown(d), ": " + fail[0].strip() if fail else
            " (exit status %d)" % proc.returncode))
    return int(m.group(1)), int(m.group(2))


def afl_coverage(binary, d, env, work):
    """Tuples afl-showmap collects over every input of d."""
    proc = subprocess.run(["afl-showmap", "-C", "-i", d, "-o", os.path.join(work, "map"),
                           "-m", "none", "-t", "5000", "--", binary], cwd=work,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", env=env)
    m = SHOWMAP_RE.search(proc.stdout)
    if not m:
        raise MinimizeError("afl-showmap on %s failed: %s" % (
            shown(d), (proc.stdout.strip().splitlines() or ["no output"])[-1]))
    return int(m.group(1))


class MinimizeError(Exception):
    pass


def swap_in(corpus_dir, keep_names, source_dir):
    """Replace corpus_dir by the files keep_names of source_dir, atomically
    as far as the file system allows: the new set is staged next to it, then
    two renames; any error puts the old directory back."""
    parent, base = os.path.split(corpus_dir.rstrip("/"))
    new = os.path.join(parent, "." + base + ".corpus-min-new")
    old = os.path.join(parent, "." + base + ".corpus-min-old")
    shutil.rmtree(new, ignore_errors=True)
    os.makedirs(new)
    for name in keep_names:
        shutil.copy2(os.path.join(source_dir, name), os.path.join(new, name))
    os.rename(corpus_dir, old)
    try:
        os.rename(new, corpus_dir)
    except BaseException:
        os.rename(old, corpus_dir)
        shutil.rmtree(new, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)


def recover_interrupted(corpus_dir):
    """A corpus-min killed between its two renames left the old corpus
    aside: put it back; drop a staged new set that was never swapped in."""
    parent, base = os.path.split(corpus_dir.rstrip("/"))
    new = os.path.join(parent, "." + base + ".corpus-min-new")
    old = os.path.join(parent, "." + base + ".corpus-min-old")
    if os.path.isdir(old) and not os.path.isdir(corpus_dir):
        os.rename(old, corpus_dir)
    shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(new, ignore_errors=True)


def corpus_min_one(args, target):
    a = copy.copy(args)
    a.target = target
    a.subject_b = args.subject_b
    if not a.subject:
        a.subject = "kernel" if target == PAIR_TARGET else "upstream"
    if target == PAIR_TARGET and not a.subject_b:
        a.subject_b = "upstream"
    if target != PAIR_TARGET:
        a.subject_b = None
    a.known = True
    d = os.path.abspath(args.dir) if args.dir else os.path.join(CORPUS, target)
    recover_interrupted(d)
    if not os.path.isdir(d):
        raise BadInput("no corpus directory %s" % d)
    files, size = dir_stats(d)
    if not files:
        raise BadInput("%s is empty; nothing to minimise" % d)
    binary = build(a)
    work = os.path.join(OUT, "corpus-min", target)
    shutil.rmtree(work, ignore_errors=True)
    merged = os.path.join(work, "merged")
    os.makedirs(merged)
    env = minimize_env(a)
    label = "%s on %s [%s]" % (target, describe(a), a.engine)
    say(args, "corpus-min: %s: %s, %d files, %d bytes" % (label, shown(d),
                                                           len(files), size))
    if a.engine == "afl":
        env.update(AFL_ALLOW_TMP="1", AFL_SKIP_CPUFREQ="1", AFL_NO_AFFINITY="1",
                   ASAN_OPTIONS="abort_on_error=1:symbolize=0:detect_leaks=0:"
                                "allocator_may_return_null=1")
        before = afl_coverage(binary, d, env, work)
        shutil.rmtree(merged)
        proc = subprocess.run(["afl-cmin", "-i", d, "-o", merged, "-m", "none", "-t", "5000",
                               "--", binary], cwd=work, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True,
                              errors="replace", env=env)
        if proc.returncode != 0 or not os.path.isdir(merged):
            tail = [l for l in proc.stdout.splitlines() if "[-]" in l or "Error" in l]
            raise MinimizeError("afl-cmin failed: %s" % (tail[0].strip() if tail else
                                                         "exit status %d" % proc.returncode))
        keep, _ = dir_stats(merged)
        after = afl_coverage(binary, merged, env, work)
        cov_text = "%d -> %d tuples (afl-showmap -C)" % (before, after)
        kept_cov = after >= before
        source = merged
    else:
        before = libfuzzer_coverage(binary, d, env, work)
        proc = subprocess.run([binary, "-merge=1", "-rss_limit_mb=4096", "-timeout=60",
                               "-merge_control_file=" + os.path.join(work, "merge.ctl"),
                               merged, d], cwd=work, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True,
                              errors="replace", env=env)
        if proc.returncode != 0:
            fail = [l for l in proc.stdout.splitlines() if FAIL_RE.search(l)]
            raise MinimizeError("libFuzzer -merge=1 failed: %s" % (
                fail[0].strip() if fail else "exit status %d" % proc.returncode))
        # The merge names its files by content (SHA-1): keep the original
        # names (the first of equal files).
        by_hash = {}
        for f in files:
            by_hash.setdefault(content_hash(os.path.join(d, f)), f)
        keep = sorted(by_hash[content_hash(os.path.join(merged, f))]
                      for f in dir_stats(merged)[0])
        check_dir = os.path.join(work, "check")
        os.makedirs(check_dir)
        for f in keep:
            shutil.copy2(os.path.join(d, f), os.path.join(check_dir, f))
        after = libfuzzer_coverage(binary, check_dir, env, work)
        cov_text = "cov %d -> %d, features %d -> %d (libFuzzer, loading each set)" % (
            before[0], after[0], before[1], after[1])
        kept_cov = after[0] >= before[0] and after[1] >= before[1]
        source = d
    new_size = sum(os.path.getsize(os.path.join(source, f)) for f in keep)
    print("corpus-min: %s: %d files, %d bytes -> %d files, %d bytes; coverage %s" % (
        label, len(files), size, len(keep), new_size, cov_text))
    if not kept_cov:
        print("corpus-min: %s: NOT replaced: the minimised set covers less" % target)
        return EXIT_FOUND
    if len(keep) == len(files) and new_size == size:
        print("corpus-min: %s: already minimal; %s unchanged" % (target, shown(d)))
        return EXIT_OK
    if args.dry_run:
        print("corpus-min: %s: --dry-run: %s unchanged" % (target, shown(d)))
        return EXIT_OK
    swap_in(d, keep, source)
    print("corpus-min: %s: replaced %s" % (target, shown(d)))
    return EXIT_OK


def corpus_min(args):
    if args.paths:
        raise BadInput("unexpected argument '%s'" % args.paths[0])
    if args.target != "all" and args.target not in TARGETS:
        raise BadInput("unknown target '%s'; use one of: all, %s" % (args.target,
                                                                     ", ".join(TARGETS)))
    if args.engine not in ("libfuzzer", "afl"):
        raise BadInput("corpus-min runs with --engine libfuzzer (-merge=1) or afl (afl-cmin)")
    targets = TARGETS if args.target == "all" else [args.target]
    if args.dir and len(targets) != 1:
        raise BadInput("--dir names one corpus: give one --target")
    if args.subject_b and targets != [PAIR_TARGET]:
        raise BadInput("--subject-b is for %s only" % PAIR_TARGET)
    if args.engine == "afl":
        for tool in ("afl-cmin", "afl-showmap"):
            if shutil.which(tool) is None:
                raise BadInput("%s not found; run: make deps (Debian package afl++)" % tool)
    status = EXIT_OK
    for t in targets:
        try:
            status = max(status, corpus_min_one(args, t))
        except MinimizeError as e:
            print("corpus-min: %s: %s; corpus unchanged" % (t, e))
            status = max(status, EXIT_FOUND)
    return status


# ---- triage: from a crash to a regression-case skeleton ----------------------

ORACLE_RE = re.compile(r"lz4gate-fuzz (\S+): FAIL(?: \[([^\]]+)\])?: (.*)")
SANITIZER_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer|MemorySanitizer|"
                          r"UndefinedBehaviorSanitizer|libFuzzer): ([\w-]+)(.*)")
ACCESS_RE = re.compile(r"^(READ|WRITE) of size (\d+)", re.M)
ADAPTER_FRAME_RE = re.compile(r"#\d+ 0x[0-9a-f]+ in a_(\w+) ")
UB_RE = re.compile(r"(\S+:\d+:\d+): runtime error: (.*)")
CASE_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

# Finding classes of the targets (fuzz/*.c, fuzz/fuzz_oracle.h) -> "class"
# of a regression case.
ORACLE_CLASSES = {
    "wrong_output": "wrong output (a valid block decoded to other bytes)",
    "malformed_wrong_output": "wrong output (partial decode of a malformed block)",
    "rejects_valid": "false reject (a valid block is rejected)",
    "accepts_invalid": "accepts invalid input",
    "offset0_output": "information leak (offset 0 accepted without writing zeros)",
    "stale_output": "information leak (output depends on the buffer's old content)",
    "wrote_before_dst": "OOB write (before the destination)",
    "return_above_capacity": "wrong return value (above the capacity)",
    "return_above_target": "wrong return value (above the target)",
    "valid_block": "wrong output (a valid block from ref is not decoded exactly)",
    "roundtrip": "invalid output (the block does not decode to the input)",
    "nonconformant_block": "invalid output (the block breaks a rule of the format)",
    "cross_decode": "invalid output (the other subject decodes the block differently)",
    "negative_return": "wrong return value (negative)",
    "fails_within_bound": "false failure (compression within compress_bound fails)",
    "compress_fails": "false failure (compression fails)",
    "bad_consumed": "wrong return value (consumed input size)",
    "dest_size_short": "wrong return value (destSize consumes too little)",
    "nondeterministic": "nondeterministic output",
}
ASAN_CLASSES = {
    "heap-buffer-overflow": "OOB", "stack-buffer-overflow": "OOB",
    "global-buffer-overflow": "OOB", "use-after-poison": "OOB",
    "stack-buffer-underflow": "OOB", "dynamic-stack-buffer-overflow": "OOB",
}


def failure_of(text):
    """What a failing run printed: {kind, message, entry, cls}. kind is what
    must stay the same while minimising: the oracle's CLASS@ENTRY, or the
    sanitizer's report type, access and API entry."""
    m = ORACLE_RE.search(text)
    if m:
        fid = m.group(2) or "oracle_error"
        cls, _, entry = fid.partition("@")
        return {"kind": fid, "message": m.group(0).strip(), "entry": entry or None,
                "cls": ORACLE_CLASSES.get(cls, cls.replace("_", " "))}
    m = SANITIZER_RE.search(text)
    if m:
        tool, what = m.group(1), m.group(2)
        rest = text[m.end():]
        acc = ACCESS_RE.search(rest)
        frame = ADAPTER_FRAME_RE.search(rest)
        entry = frame.group(1) if frame else None
        if tool == "LeakSanitizer":
            what = "memory-leak"
        kind = "%s%s%s" % (what, " " + acc.group(1) if acc else "",
                           " in " + entry if entry else "")
        if what in ASAN_CLASSES and acc:
            cls = "%s %s (%s)" % (ASAN_CLASSES[what], acc.group(1).lower(), what)
        elif what == "SEGV":
            cls = "invalid memory access (SEGV)"
        elif what == "memory-leak":
            cls = "memory leak"
        else:
            cls = "memory error (%s: %s)" % (tool, what)
        line = m.group(0).strip()
        return {"kind": kind, "message": re.sub(r"^==\d+==", "", line).strip(),
                "entry": entry, "cls": cls}
    m = UB_RE.search(text)
    if m:
        what = re.sub(r"[-\d]+", "N", m.group(2).split(" of type")[0])[:80]
        return {"kind": "ubsan: " + what, "message": m.group(0).strip(), "entry": None,
                "cls": "undefined behaviour (%s)" % m.group(2).split(":")[0]}
    sig = re.search(r"(SIG[A-Z]+|deadly signal|Segmentation fault|Aborted)", text)
    return {"kind": sig.group(1) if sig else "failed", "message":
            (text.strip().splitlines() or ["failed without a message"])[-1].strip(),
            "entry": None, "cls": "crash"}


def replay_one(args, binary, path):
    """Run the replay binary on one file: None if it passes, else failure_of."""
    env = target_env(args)
    env["ASAN_OPTIONS"] = "detect_leaks=1:allocator_may_return_null=1"
    try:
        proc = subprocess.run([binary, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, errors="replace", env=env, timeout=300)
    except subprocess.TimeoutExpired:
        return {"kind": "timeout", "message": "no result after 300 s", "entry": None,
                "cls": "hang"}
    if proc.returncode == 0:
        return None
    if proc.returncode == 2 and "replay:" in proc.stdout and "failing input" not in proc.stdout:
        raise BadInput(proc.stdout.strip().splitlines()[-1])
    return failure_of(proc.stdout)


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
    env = target_env(args)
    env["ASAN_OPTIONS"] = "detect_leaks=0:allocator_may_return_null=1"
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
            "result": "acceptable",
            "max_seconds": 60,
        }],
        "fails_on": [spec],
        "notes": "Skeleton written by harness/fuzz.py triage from %s on %s [%s] (%s). "
                 "TODO: the title, commits, CVE, fix, origin and generations; check the "
                 "class (derived from the failure message); rename the id to its history.md "
                 "id (regress/README.md); once the bug is understood, replace or complement "
                 "the fuzz:%s test by runner-key tests of the one call (harness/regress.c), "
                 "and list real trees that fail under known_findings. Then: harness/regress.py "
                 "--check, --mutants --case ID, and refresh REGRESSIONS.md."
                 % (os.path.basename(crash), subject_text, config, note, args.target),
    }


def triage(args):
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
    env_ignore = list(args.ignore) + (known_ignores(args) if args.known else [])
    got = replay_one(args, replay_binary, crash)
    if got is None:
        print("triage: %s does not reproduce: %s on %s [%s] passes it" % (
            crash, args.target, describe(args), config))
        return EXIT_FOUND
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
    os.makedirs(os.path.dirname(saved), exist_ok=True)
    with open(saved, "wb") as f:
        f.write(data)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(case, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)
    print("triage: wrote %s (a skeleton: fill in the TODO fields)" % shown(path))
    print("  input: %s (%d bytes)" % (os.path.relpath(saved, TOP), len(data)))
    print("next: python3 harness/regress.py --check; python3 harness/regress.py --mutants "
          "--case %s" % case_id)
    return EXIT_OK


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(message + "; see harness/fuzz.py --help")


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help", "help"):
        print(HELP)
        return EXIT_OK if len(argv) >= 2 else EXIT_BAD_INPUT
    ap = Parser(prog="fuzz.py", add_help=False)
    ap.add_argument("command", choices=("build", "run", "replay", "corpus", "corpus-min",
                                        "triage", "list"))
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--target")
    ap.add_argument("--subject")
    ap.add_argument("--subject-b", dest="subject_b")
    ap.add_argument("--patch", action="append", default=[])
    ap.add_argument("--patch-b", dest="patch_b", action="append", default=[])
    ap.add_argument("--engine", default="libfuzzer")
    ap.add_argument("--bits", default="64")
    ap.add_argument("--config")
    ap.add_argument("--time", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--runs", type=int)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--ignore", action="append", default=[])
    ap.add_argument("--skip", action="append", default=[])
    ap.add_argument("--known", action="store_true")
    ap.add_argument("--id", dest="case_id")
    ap.add_argument("--out-dir")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--minimize-time", type=int, default=30)
    ap.add_argument("--minimize-runs", type=int, default=200000)
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--dir")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    try:
        args = ap.parse_intermixed_args(argv[1:])
        if args.command == "list":
            print("targets: " + " ".join(TARGETS))
            print("engines: " + " ".join(ENGINES))
            print("replay configs: " + " ".join(c for c in subjects.CONFIGS
                                                 if not c.startswith("libfuzzer") and c != "afl"))
            return EXIT_OK
        if not args.target:
            raise BadInput("%s needs --target (one of: %s)" % (args.command, ", ".join(TARGETS)))
        if args.command == "corpus":
            return corpus(args)
        if args.command == "corpus-min":
            return corpus_min(args)
        if not args.subject:
            raise BadInput("%s needs --subject SPEC (e.g. ref, upstream, kernel)" % args.command)
        if args.paths and args.command not in ("replay", "triage"):
            raise BadInput("unexpected argument '%s'" % args.paths[0])
        if args.time <= 0 or args.jobs <= 0 or (args.runs is not None and args.runs <= 0):
            raise BadInput("--time, --jobs and --runs must be positive")
        if args.command == "build":
            print(build(args))
            return EXIT_OK
        if args.command == "replay":
            return replay(args)
        if args.command == "triage":
            return triage(args)
        if args.engine == "replay":
            raise BadInput("run needs a fuzzing engine: --engine libfuzzer or afl")
        binary = build(args)
        if args.engine == "afl":
            return run_afl(args, binary)
        return run_libfuzzer(args, binary)
    except (BadInput, subjects.BadInput) as e:
        print("fuzz.py: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main(sys.argv))
