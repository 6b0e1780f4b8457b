"""Shared build outputs stay whole when several processes make them at once
(issue 23: a pytest worker executed build/lz4ref while another worker's
make was linking it in place, and got PermissionError).

Each test starts concurrent builders of one artifact while a reader checks
what any other process would see: once the artifact is there, it is always
complete. Races need luck; these tests need none: the builders run on a
"slow file system" (hooks that pause inside the steps of a build: a linker
that takes its time, a slow copy, a slow delete), which holds every window
open long enough for the reader to look into it on every run.
"""
import builtins
import filecmp
import multiprocessing
import os
import shutil
import subprocess
import time
import traceback

import pytest

from conftest import TOP

try:
    from harness import atomic
except ImportError:          # (the code before issue 23 had no locks)
    atomic = None

FORK = multiprocessing.get_context("fork")
# A few seconds in all (the make race is the longest, 3 s): the inner loop.
pytestmark = pytest.mark.check


# ---- machinery ----------------------------------------------------------------

def delayed(fn, before=0.0, after=0.0):
    def slow(*args, **kw):
        time.sleep(before)
        try:
            return fn(*args, **kw)
        finally:
            time.sleep(after)
    return slow


def _child(errfile, job):
    try:
        job()
    except BaseException:
        with open(errfile, "w") as f:
            f.write(traceback.format_exc())
        os._exit(1)
    os._exit(0)


def race(tmp_path, jobs, look, settle=0.3):
    """Run every job in its own process at once; meanwhile call look()
    (the reader) over and over. Returns (the builders' errors, the reader's
    complaints). look() returns a complaint string or None."""
    procs = []
    for i, job in enumerate(jobs):
        err = str(tmp_path / ("builder-%d.err" % i))
        p = FORK.Process(target=_child, args=(err, job))
        p.start()
        procs.append((p, err))
    complaints = []
    end = None
    while end is None or time.time() < end:
        c = look()
        if c and c not in complaints:
            complaints.append(c)
        if end is None and not any(p.is_alive() for p, _ in procs):
            end = time.time() + settle    # a last look at the finished artifact
    errors = []
    for p, err in procs:
        p.join()
        if os.path.exists(err):
            errors.append(open(err).read())
    return errors, complaints


def use_scratch_locks(tmp_path):
    """(in a builder) Lock files of harness.atomic under tmp_path."""
    if atomic:
        atomic.LOCKS = str(tmp_path / "locks")


def whole(path, expected):
    """None when path is absent or holds exactly the bytes expected."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    if data != expected:
        return "%s: %d bytes, not the %d written" % (os.path.basename(path), len(data),
                                                     len(expected))
    return None


# ---- the Makefile: build/lz4ref --------------------------------------------------

# A linker as GNU ld behaves: it removes the output, creates it (not yet
# executable), writes it, and marks it executable when done; slowly.
FAKE_GCC = """#!/bin/sh
out=
while [ $# -gt 0 ]; do
    [ "$1" = -o ] && { out=$2; shift; }
    shift
done
rm -f "$out"
printf '#!/bin/sh\\n' >"$out"
sleep 0.05
printf 'exit 0\\n' >>"$out"
chmod +x "$out"
"""


def test_lz4ref_runs_while_two_makes_rebuild_it(tmp_path):
    # Two makes rebuild build/lz4ref over and over (make -B: as two pytest
    # workers' `make lz4ref` of a fresh clone) while it is executed in a
    # loop. The Makefile's own rule, in a scratch directory, with a linker
    # that takes its time.
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "gcc").write_text(FAKE_GCC)
    (bindir / "gcc").chmod(0o755)
    work = tmp_path / "top"
    work.mkdir()
    env = dict(os.environ, PATH="%s:%s" % (bindir, os.environ["PATH"]))
    make = ["make", "-s", "-B", "-f", os.path.join(TOP, "Makefile"), "build/lz4ref"]
    subprocess.run(make, cwd=str(work), env=env, check=True, stdout=subprocess.DEVNULL)
    program = str(work / "build" / "lz4ref")

    def rebuild():
        deadline = time.time() + 2.5
        while time.time() < deadline:
            subprocess.run(make, cwd=str(work), env=env, check=True, stdout=subprocess.DEVNULL)

    def run_it():
        try:
            status = subprocess.run([program]).returncode
        except OSError as e:      # EACCES (being linked), ETXTBSY, ENOEXEC
            return "executing build/lz4ref: %s" % e
        return None if status == 0 else "build/lz4ref exited %d (half written)" % status

    errors, complaints = race(tmp_path, [rebuild, rebuild], run_it)
    assert not complaints, complaints
    assert not errors, errors[0]
    assert not [n for n in os.listdir(str(work / "build")) if n != "lz4ref"]   # no leftovers


# ---- staged trees (build/stage/<id>) and release exports -------------------------

def staged_tree(tmp_path):
    """An upstream-layout tree (staging only copies it: any text will do)."""
    tree = tmp_path / "tree"
    (tree / "lib").mkdir(parents=True)
    for name in ("lz4.c", "lz4.h", "lz4hc.c", "lz4hc.h"):
        (tree / "lib" / name).write_text("/* %s */\n" % name * 200)
    return tree


def complete_dir(out, mark, files):
    """A reader's check: once mark is in out, out keeps mark and every file."""
    seen = []

    def look():
        if os.path.exists(os.path.join(out, mark)):
            seen.append(True)
        if not seen:
            return None
        gone = [f for f in [mark] + files if not os.path.isfile(os.path.join(out, f))]
        return "%s lost %s after it was complete" % (os.path.basename(out), gone) \
            if gone else None
    return look


def test_staging_one_subject_in_three_processes(tmp_path):
    from harness.subjects import stage as stage_mod
    from harness.subjects.spec import Subject
    tree = staged_tree(tmp_path)
    build = tmp_path / "build"

    def builder(i):
        def job():
            use_scratch_locks(tmp_path)
            stage_mod.BUILD = str(build)
            # slow disks of three speeds: the three copies end in turn
            shutil.copy2 = delayed(shutil.copy2, before=0.02 + 0.05 * i)
            shutil.rmtree = delayed(shutil.rmtree, after=0.1)
            s = Subject("upstream:%s" % tree)
            out = stage_mod.stage(s)
            for f in s.files:
                assert filecmp.cmp(os.path.join(out, f), os.path.join(str(tree), f), False), f
        return job

    s = Subject("upstream:%s" % tree)
    out = os.path.join(str(build), "stage", s.id)
    errors, complaints = race(tmp_path, [builder(i) for i in range(3)],
                              complete_dir(out, ".staged", s.files))
    assert not complaints, complaints
    assert not errors, errors[0]
    assert sorted(os.listdir(os.path.join(str(build), "stage"))) == [s.id]   # no leftovers


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo)] + list(args), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
                            GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t"))


def test_exporting_one_release_in_three_processes(tmp_path):
    from harness.subjects import releases as relgit
    clone = tmp_path / "clone"
    clone.mkdir()
    _git(clone, "init", "-q")
    (clone / "f.txt").write_text("version 1\n" * 1000)
    _git(clone, "add", "f.txt")
    _git(clone, "commit", "-q", "-m", "r117")
    _git(clone, "tag", "r117")
    releases = tmp_path / "releases"
    real_run = subprocess.run

    def builder(i):
        def job():
            use_scratch_locks(tmp_path)
            relgit.RELEASES_DIR = str(releases)

            def run(cmd, *a, **kw):      # a slow tar: the three exports end in turn
                if cmd[0] == "tar":
                    time.sleep(0.05 + 0.15 * i)
                return real_run(cmd, *a, **kw)
            subprocess.run = run
            shutil.rmtree = delayed(shutil.rmtree, after=0.1)
            out, _ = relgit.export(str(clone), "r117", "r117")
            assert open(os.path.join(out, "f.txt")).read() == "version 1\n" * 1000
        return job

    out = str(releases / "r117")
    errors, complaints = race(tmp_path, [builder(i) for i in range(3)],
                              complete_dir(out, relgit.MARK, ["f.txt"]))
    assert not complaints, complaints
    assert not errors, errors[0]
    assert os.listdir(str(releases)) == ["r117"]


# ---- files written in place: fixture trees, seed corpora -------------------------

class SlowWrites:
    """A file whose every write lands in two halves, a pause between."""

    def __init__(self, f):
        self._f = f

    def write(self, data):
        half = len(data) // 2
        self._f.write(data[:half])
        self._f.flush()
        time.sleep(0.02)
        return half + self._f.write(data[half:])

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self._f.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self._f, name)


def slow_writes_under(root):
    """(in a builder) Every file opened for writing under root writes slowly."""
    real_open = builtins.open

    def open_(file, mode="r", *args, **kw):
        f = real_open(file, mode, *args, **kw)
        slow = isinstance(file, str) and file.startswith(root) and ("w" in mode or "a" in mode)
        return SlowWrites(f) if slow else f
    builtins.open = open_


def test_a_fixture_tree_is_written_whole_while_read(tmp_path):
    from harness.subjects import fixtures
    expected_top = tmp_path / "expected"
    real_out = fixtures.FIXTURE_OUT
    try:
        fixtures.FIXTURE_OUT = str(expected_top)
        _, expected_dir = fixtures.materialize("kernel-g1")
    finally:
        fixtures.FIXTURE_OUT = real_out
    expected = {}
    for root, _, files in os.walk(expected_dir):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), expected_dir)
            with open(os.path.join(root, f), "rb") as fh:
                expected[rel] = fh.read()
    out_top = tmp_path / "out"

    def builder():
        use_scratch_locks(tmp_path)
        slow_writes_under(str(out_top))
        fixtures.FIXTURE_OUT = str(out_top)
        fixtures.materialize("kernel-g1")

    out = os.path.join(str(out_top), "kernel-g1")

    def look():
        for rel, data in expected.items():
            c = whole(os.path.join(out, rel), data)
            if c:
                return c
        return None

    errors, complaints = race(tmp_path, [builder, builder], look)
    assert not complaints, complaints
    assert not errors, errors[0]
    assert all(whole(os.path.join(out, rel), d) is None and os.path.exists(os.path.join(out, rel))
               for rel, d in expected.items())


def test_a_seed_corpus_is_regenerated_while_a_campaign_copies_it(tmp_path):
    # `fuzz corpus` rewrites corpus/<target>/ while a campaign copies it to
    # its work directory: the campaign must find every seed, whole.
    from harness import toolchain
    from harness.fuzzing import corpus
    target = "legacy_decode"
    committed = os.path.join(TOP, "corpus", target)
    seeds = {f: open(os.path.join(committed, f), "rb").read() for f in os.listdir(committed)}
    shutil.copytree(committed, str(tmp_path / target))

    def builder():
        use_scratch_locks(tmp_path)
        # a slow generator (the seeds of the large targets take a while)
        toolchain.run_or_fail = delayed(toolchain.run_or_fail, before=0.2)
        args = type("A", (), {"target": target})()
        corpus.corpus(args, str(tmp_path))

    def look():
        d = str(tmp_path / target)
        missing = sorted(set(seeds) - set(os.listdir(d) if os.path.isdir(d) else []))
        if missing:
            return "%d of %d seeds missing" % (len(missing), len(seeds))
        for f, data in seeds.items():
            c = whole(os.path.join(d, f), data)
            if c:
                return c
        return None

    errors, complaints = race(tmp_path, [builder], look)
    assert not complaints, complaints
    assert not errors, errors[0]
    assert sorted(os.listdir(str(tmp_path / target))) == sorted(seeds)


# ---- fuzz binaries and campaign directories of patched subjects ------------------

def test_a_patched_subject_has_its_own_fuzz_binaries_and_campaigns(tmp_path):
    # kernel and kernel --patch X are two programs: were they built at one
    # path, a campaign on one could run the other's binary (and --fresh
    # would empty the other's corpus).
    from harness.fuzzing.build import run_dir
    from harness.fuzzing.campaign import namespace
    p1, p2, p1_again = tmp_path / "a.patch", tmp_path / "b.patch", tmp_path / "c.patch"
    p1.write_text("one\n")
    p2.write_text("two\n")
    p1_again.write_text("one\n")
    dirs = [run_dir(namespace(target="decode_differential", subject="kernel", patch=p))
            for p in ([], [str(p1)], [str(p2)], [str(p1_again)])]
    assert len(set(dirs[:3])) == 3, dirs
    assert dirs[1] == dirs[3]            # the same patch, wherever it lies: one program
    pair = [run_dir(namespace(target="base_vs_candidate", subject="kernel", subject_b="kernel",
                              patch=[], patch_b=p)) for p in ([], [str(p1)])]
    assert pair[0] != pair[1], pair
