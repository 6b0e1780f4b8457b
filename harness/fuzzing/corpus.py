"""Seed corpora: generating them (fuzz/make_seeds.c) and minimising them
(libFuzzer -merge=1 or afl-cmin, replaced only when coverage is kept)."""
import copy
import glob
import hashlib
import os
import re
import shutil
import subprocess

from harness import atomic, objcache, toolchain
from harness.errors import EXIT_FAIL, EXIT_OK, BadInput
from harness.fuzzing.build import INCLUDES, OUT, build, describe
from harness.fuzzing.campaign import say
from harness.fuzzing.environment import target_env
from harness.fuzzing.targets import PAIR_TARGET, TABLE, TARGETS
from harness.paths import CORPUS, FUZZ, shown
from harness.evidence.failure import FAIL_RE
from harness.subjects import refcodec


def corpus(args, corpus_dir=CORPUS):
    """Regenerate the seed corpora of args.target (or all) under corpus_dir."""
    targets = TARGETS if args.target == "all" else [args.target]
    if args.target != "all" and args.target not in TARGETS:
        raise BadInput("unknown target '%s'; use one of: all, %s" % (args.target, ", ".join(TARGETS)))
    flags = ["-O2"] + toolchain.OUR_WARNINGS + INCLUDES
    sources = [os.path.join(FUZZ, f) for f in ("make_seeds.c", "make_seeds_stream.c",
                                                "make_seeds_large.c", "seed_file.c", "oracle.c",
                                                "oracle_record.c")]
    objs = [objcache.compile_object("cc", flags, src) for src in sources] + \
        refcodec.objects("cc", ["-O2"])
    tool = objcache.link_program("cc", ["-O2"], objs, os.path.join(OUT, "make_seeds"),
                                 "linking fuzz/make_seeds.c")
    for t in targets:
        d = os.path.join(corpus_dir, t)
        # Generated beside d, then moved in file by file (atomically): a
        # campaign copying d meanwhile never reads a half-written seed.
        scratch = atomic.scratch_dir(d)
        try:
            out = toolchain.run_or_fail([tool, t, scratch], "generating seeds for %s" % t)
            stale = [os.path.basename(f) for f in glob.glob(os.path.join(d, "seed-*"))]
            atomic.replace_files(scratch, d, stale)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        out = out.replace(scratch, d)
        size = sum(os.path.getsize(f) for f in glob.glob(os.path.join(d, "*")))
        print("%s (%d bytes)" % (out.strip(), size))
    return EXIT_OK


INITED_RE = re.compile(r"INITED cov: (\d+) ft: (\d+)")

SHOWMAP_RE = re.compile(r"Captured (\d+) tuples")

def dir_stats(d):
    files = [f for f in sorted(os.listdir(d)) if not f.startswith(".") and
             os.path.isfile(os.path.join(d, f))]
    return files, sum(os.path.getsize(os.path.join(d, f)) for f in files)

def content_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()

def minimize_env(args):
    return target_env(args, "minimize")

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
    defaults = TABLE[target].defaults          # fuzz/targets.tsv
    a.subject = args.subject or defaults[0]
    a.subject_b = (args.subject_b or defaults[-1]) if target == PAIR_TARGET else None
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
        env = target_env(a, "afl")
        env.update(AFL_ALLOW_TMP="1", AFL_SKIP_CPUFREQ="1", AFL_NO_AFFINITY="1")
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
        return EXIT_FAIL
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
            # One corpus-min per target at a time: its work directory
            # (build/fuzz/corpus-min/T) and the corpus swap are not shared.
            with atomic.lock("corpus-min-" + t, waiting=lambda: say(
                    args, "corpus-min: %s: waiting for another corpus-min" % t)):
                status = max(status, corpus_min_one(args, t))
        except MinimizeError as e:
            print("corpus-min: %s: %s; corpus unchanged" % (t, e))
            status = max(status, EXIT_FAIL)
    return status
