"""The fuzz targets (fuzz/) and their driver (harness/fuzz.py).

- every target bites: a planted bug (ref-mutant:CHECK, broken:MODE) is found
  from the seed corpus by a short, bounded libFuzzer run;
- every seed corpus replays cleanly against the default subjects, 64- and
  32-bit (system: 64-bit only);
- the corpora are what fuzz/make_seeds.c generates;
- the driver: progress lines, AFL++ engine, bad input.
"""
import concurrent.futures
import filecmp
import os
import shutil
import subprocess
import sys

import pytest

from conftest import TOP

HARNESS = os.path.join(TOP, "harness")
FUZZ_PY = os.path.join(HARNESS, "fuzz.py")
sys.path.insert(0, HARNESS)

import fuzz  # noqa: E402
import subjects  # noqa: E402

TARGETS = fuzz.TARGETS


def fuzz_cli(*args, timeout=300):
    return subprocess.run([sys.executable, FUZZ_PY] + list(args), cwd=TOP,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, errors="replace", timeout=timeout)


def have_tree(spec):
    return spec not in subjects.DEFAULT_TREES or os.path.isdir(subjects.DEFAULT_TREES[spec])


def need(*specs):
    for s in specs:
        if not have_tree(s):
            pytest.skip("default %s tree not fetched (make subjects)" % s)


# ---- bad input and help ------------------------------------------------------

def one_line_exit_2(proc, *words):
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_help():
    proc = fuzz_cli("--help")
    assert proc.returncode == 0
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES"):
        assert section in proc.stdout
    for t in TARGETS:
        assert t in proc.stdout


@pytest.mark.parametrize("argv,words", [
    (["run", "--target", "nope", "--subject", "ref"], ["unknown target", "decode_differential"]),
    (["run", "--target", "decode_differential"], ["--subject"]),
    (["build", "--target", "decode_differential", "--subject", "ref", "--engine", "honggfuzz"],
     ["unknown engine"]),
    (["build", "--target", "decode_differential", "--subject", "zstd:/x"], ["unknown subject"]),
    (["build", "--target", "decode_differential", "--subject", "ref", "--subject-b", "ref"],
     ["base_vs_candidate"]),
    (["replay", "--target", "decode_differential", "--subject", "system", "--bits", "32"],
     ["64-bit"]),
    (["run", "--target", "decode_differential", "--subject", "ref", "--time", "0"],
     ["positive"]),
    (["frobnicate"], ["invalid choice"]),
])
def test_bad_input(argv, words):
    one_line_exit_2(fuzz_cli(*argv), *words)


# ---- planted bugs are found ---------------------------------------------------

# (target, subject, subject_b, what the failure report must contain)
PLANTED = [
    ("decode_differential", "ref-mutant:OFFSET_IN_HISTORY", None, None),
    ("decode_differential", "ref-mutant:LITERALS_IN_OUTPUT", None, "heap-buffer-overflow"),
    ("decode_differential", "broken:short_return", None, "wrong_output@decompress_safe"),
    ("ref_to_subject", "ref-mutant:OFFSET_IN_HISTORY", None, None),
    ("ref_to_subject", "ref-mutant:LITERALS_IN_OUTPUT", None, "heap-buffer-overflow"),
    ("ref_to_subject", "broken:short_return", None, "decompress_safe"),
    ("compress_roundtrip", "broken:write_past_capacity", None, "heap-buffer-overflow"),
    ("base_vs_candidate", "ref", "broken:short_return", "broken"),
    ("frame_decode", "ref-mutant:BLOCK_CHECKSUM", None, "accepts_invalid@frame_decompress"),
    ("frame_decode", "broken:frame_write_past", None, "SEGV"),
    ("frame_roundtrip", "broken:frame_write_past", None, "SEGV"),
    ("legacy_decode", "broken:unlz4_short_flush", None, "wrong_output@unlz4"),
]


def fuzz_planted(case):
    target, subject, subject_b, _ = case
    argv = ["run", "-q", "--fresh", "--jobs", "1", "--target", target, "--subject", subject,
            "--time", "30", "--runs", "200000", "--seed", "1"]
    if subject_b:
        argv += ["--subject-b", subject_b]
    return fuzz_cli(*argv)


@pytest.fixture(scope="module")
def planted_runs():
    # Two planted-bug runs at a time (one per core): each is a build and a
    # short single-process fuzzing run.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(PLANTED, pool.map(fuzz_planted, PLANTED)))


@pytest.mark.parametrize("target,subject,subject_b,evidence", PLANTED,
                         ids=["%s-%s" % (p[0], p[2] or p[1]) for p in PLANTED])
def test_planted_bug_is_found(target, subject, subject_b, evidence, planted_runs):
    proc = planted_runs[(target, subject, subject_b, evidence)]
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "crash(es)" in proc.stdout, proc.stdout
    crashes = [l.strip() for l in proc.stdout.splitlines() if "/crashes/" in l and
               not l.startswith("reproduce")]
    assert crashes and os.path.isfile(os.path.join(TOP, crashes[0])), proc.stdout
    if evidence:
        assert evidence in proc.stdout, proc.stdout
    # The crash reproduces with the replay binary.
    rep = ["replay", "-q", "--target", target, "--subject", subject]
    if subject_b:
        rep += ["--subject-b", subject_b]
    proc = fuzz_cli(*(rep + [crashes[0]]))
    assert proc.returncode == 1, proc.stdout + proc.stderr


# ---- corpus replay against the default subjects ---------------------------------

REPLAYS = []
for _t in ("decode_differential", "compress_roundtrip", "ref_to_subject"):
    for _s in ("ref", "upstream", "kernel", "system"):
        for _b in ("64", "32"):
            if _s == "system" and _b == "32":
                continue       # Debian ships liblz4 for the native ABI only
            REPLAYS.append((_t, _s, None, _b))
for _t in ("frame_decode", "frame_roundtrip"):
    for _s in ("ref", "upstream", "system"):
        for _b in ("64", "32"):
            if _s == "system" and _b == "32":
                continue
            REPLAYS.append((_t, _s, None, _b))
for _s in ("ref", "kernel"):
    for _b in ("64", "32"):
        REPLAYS.append(("legacy_decode", _s, None, _b))
for _a, _c in (("ref", "upstream"), ("upstream", "kernel"), ("kernel", "upstream"),
               ("upstream", "system")):
    for _b in ("64", "32"):
        if "system" in (_a, _c) and _b == "32":
            continue
        REPLAYS.append(("base_vs_candidate", _a, _c, _b))


def replay_one(case):
    target, subject, subject_b, bits = case
    argv = ["replay", "-q", "--target", target, "--subject", subject, "--bits", bits]
    if subject_b:
        argv += ["--subject-b", subject_b]
    return case, fuzz_cli(*argv)


def test_corpus_replays_on_default_subjects():
    cases = [c for c in REPLAYS if have_tree(c[1]) and (not c[2] or have_tree(c[2]))]
    if len(cases) < len(REPLAYS):
        pytest.skip("default upstream/kernel trees not fetched (make subjects)")
    # Build every subject once, in order (subjects.py does not lock its cache).
    for spec in ("ref", "upstream", "kernel", "system"):
        for config in ("asan64", "asan32"):
            if spec == "system" and config == "asan32":
                continue
            subjects.build(spec, config, quiet=True)
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for case, proc in pool.map(replay_one, cases):
            if proc.returncode != 0:
                failures.append("%s: %s%s" % (case, proc.stdout, proc.stderr))
    assert not failures, "\n".join(failures)


# ---- corpora and driver ---------------------------------------------------------

def test_corpus_is_what_make_seeds_generates(tmp_path, monkeypatch):
    for t in TARGETS:
        shutil.copytree(os.path.join(TOP, "corpus", t), str(tmp_path / t))
    monkeypatch.setattr(fuzz, "CORPUS", str(tmp_path))
    args = type("A", (), {"target": "all"})()
    assert fuzz.corpus(args) == 0
    for t in TARGETS:
        cmp = filecmp.dircmp(os.path.join(TOP, "corpus", t), str(tmp_path / t))
        assert not cmp.left_only and not cmp.right_only and not cmp.diff_files, t
        total = sum(os.path.getsize(os.path.join(TOP, "corpus", t, f))
                    for f in os.listdir(os.path.join(TOP, "corpus", t)))
        assert total < 200 * 1024, (t, total)      # committed corpora stay small


def test_run_prints_progress_and_finds_nothing_on_ref():
    proc = fuzz_cli("run", "--fresh", "--target", "decode_differential", "--subject", "ref",
                    "--time", "12")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    progress = [l for l in proc.stderr.splitlines() if " execs, " in l and " s: " in l]
    assert len(progress) >= 2, proc.stderr
    assert "no crash" in proc.stdout


@pytest.mark.skipif(shutil.which("afl-fuzz") is None, reason="AFL++ not installed")
def test_afl_engine_runs():
    proc = fuzz_cli("run", "--fresh", "--engine", "afl", "--target", "compress_roundtrip",
                    "--subject", "ref", "--time", "10")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no crash" in proc.stdout
    assert any(" execs, " in l for l in proc.stderr.splitlines()), proc.stderr
