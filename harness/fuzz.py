#!/usr/bin/env python3
"""lz4gate fuzz driver: build, run and replay the fuzz targets of fuzz/.

Run `harness/fuzz.py --help` for the manual.
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HARNESS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HARNESS)

import subjects  # noqa: E402

TOP = subjects.TOP
FUZZ = os.path.join(TOP, "fuzz")
CORPUS = os.path.join(TOP, "corpus")
OUT = os.path.join(TOP, "build", "fuzz")
TARGETS = ("decode_differential", "compress_roundtrip", "ref_to_subject", "base_vs_candidate")
PAIR_TARGET = "base_vs_candidate"
ENGINES = ("libfuzzer", "afl", "replay")
AFL_DRIVER = "/usr/lib/afl/libAFLDriver.a"
DICT = os.path.join(CORPUS, "lz4_block.dict")
PROGRESS_EVERY = 5          # seconds between progress lines (the brief: <= 10)
EXIT_OK, EXIT_FOUND, EXIT_BAD_INPUT = 0, 1, 2

HELP = """\
NAME
    fuzz.py - build, run and replay lz4gate's fuzz targets

SYNOPSIS
    harness/fuzz.py build  --target T --subject SPEC [--subject-b SPEC]
                           --engine libfuzzer|afl|replay [--bits 32|64] [--config CONFIG]
    harness/fuzz.py run    --target T --subject SPEC [--subject-b SPEC]
                           --engine libfuzzer|afl [--time SECONDS] [--jobs N] [--runs N]
                           [--seed N] [--fresh] [--ignore ID]... [--skip ENTRY]... [--known]
    harness/fuzz.py replay --target T --subject SPEC [--subject-b SPEC] [--bits 32|64]
                           [--config CONFIG] [--ignore ID]... [--skip ENTRY]... [PATH...]
    harness/fuzz.py corpus --target T|all
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
    -q, --quiet      no progress lines

FILES
    fuzz/<T>.c, fuzz/fuzz_params.h (parameters from the input header),
    fuzz/fuzz_oracle.h (verdicts), fuzz/replay_main.c, fuzz/make_seeds.c,
    corpus/<T>/ (seeds), corpus/lz4_block.dict (libFuzzer/AFL++ dictionary),
    build/fuzz/ (binaries, run corpora, crashes).

EXIT STATUS
    0  success (build, corpus, replay: all inputs pass; run: no crash)
    1  run: a crash was found; replay: an input failed
    2  bad input (unknown target, subject, engine; a missing tool; a subject
       that does not build), with one line on stderr saying what to do

EXAMPLES
    harness/fuzz.py run --target decode_differential --subject upstream --time 300 --jobs 2
    harness/fuzz.py run --target base_vs_candidate --subject kernel --subject-b kernel:/src/linux
    harness/fuzz.py replay --target ref_to_subject --subject kernel --bits 32
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
    """Fuzz ids of the known findings of the subject's generation."""
    spec = args.subject_b if args.target == PAIR_TARGET and args.subject_b else args.subject
    gen = generation_of(spec)
    try:
        with open(os.path.join(HARNESS, "known_findings.json")) as f:
            findings = json.load(f)["findings"]
    except (OSError, ValueError, KeyError):
        return []
    ids = []
    for f in findings:
        if f.get("generation") in (None, gen):
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


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(message + "; see harness/fuzz.py --help")


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help", "help"):
        print(HELP)
        return EXIT_OK if len(argv) >= 2 else EXIT_BAD_INPUT
    ap = Parser(prog="fuzz.py", add_help=False)
    ap.add_argument("command", choices=("build", "run", "replay", "corpus", "list"))
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
        if not args.subject:
            raise BadInput("%s needs --subject SPEC (e.g. ref, upstream, kernel)" % args.command)
        if args.paths and args.command != "replay":
            raise BadInput("unexpected argument '%s'" % args.paths[0])
        if args.time <= 0 or args.jobs <= 0 or (args.runs is not None and args.runs <= 0):
            raise BadInput("--time, --jobs and --runs must be positive")
        if args.command == "build":
            print(build(args))
            return EXIT_OK
        if args.command == "replay":
            return replay(args)
        if args.engine == "replay":
            raise BadInput("run needs a fuzzing engine: --engine libfuzzer or afl")
        binary = build(args)
        if args.engine == "afl":
            return run_afl(args, binary)
        return run_libfuzzer(args, binary)
    except BadInput as e:
        print("fuzz.py: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main(sys.argv))
