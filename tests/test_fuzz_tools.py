"""The fuzzing tools around the targets: triage (crash -> regression-case
skeleton), corpus-min, the fuzz benchmark, and AFL++ on every default subject.

- triage bites: a planted bug's crash becomes a case that FAILS on the
  broken subject and passes on ref; an input that passes is "does not
  reproduce" (exit 1); bad input exits 2 with one line;
- corpus-min shrinks a corpus with duplicates, the result still replays,
  and a failed swap leaves the old corpus in place;
- the bench runs in a tiny mode and prints every row with numeric ratios;
- AFL++ runs decode_differential on ref, upstream and kernel.
Skeleton cases are written to a temporary directory, never to regress/cases.
"""
import json
import os
import re
import shutil

import pytest

from conftest import TOP, expect_bad_input, harness
from harness.errors import CaseError
from harness.fuzzing import corpus
from harness.paths import CASES_DIR
from harness.runners.regress.cases import validate
from harness.runners.regress.run import run_subject
from harness.subjects.spec import DEFAULT_TREES

FUZZ_PY = "fuzz"          # `python3 -m harness fuzz`
BENCH_PY = "fuzz-bench"   # `python3 -m harness fuzz-bench`

# A valid block with its header: broken:short_return returns one byte less
# than it decodes, so decode_differential fails on it (wrong_output).
VALID_SEED = os.path.join(TOP, "corpus", "decode_differential", "seed-009-mixed")


def run(command, *args, timeout=300):
    return harness(command, *args, timeout=timeout)


def need(*specs):
    for s in specs:
        if s in DEFAULT_TREES and not os.path.isdir(DEFAULT_TREES[s]):
            pytest.skip("default %s tree not fetched (make subjects)" % s)


# ---- triage ------------------------------------------------------------------

def test_triage_turns_a_planted_bug_into_a_case_that_fails_on_it_and_passes_on_ref(tmp_path):
    crash = tmp_path / "crash-planted"
    shutil.copy(VALID_SEED, str(crash))
    out = tmp_path / "cases"
    proc = run(FUZZ_PY, "triage", str(crash), "--target", "decode_differential",
               "--subject", "broken:short_return", "--id", "ULZ4-FUZZ-TESTCASE",
               "--out-dir", str(out), "--minimize-time", "10")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "reproduces" in proc.stdout and "wrong_output@decompress_safe" in proc.stdout
    path = out / "ULZ4-FUZZ-TESTCASE.json"
    assert path.is_file(), proc.stdout
    assert not os.path.exists(os.path.join(CASES_DIR, "ULZ4-FUZZ-TESTCASE.json"))
    case = json.loads(path.read_text())
    validate(case, path.name)            # the runner accepts it as it is
    assert case["title"] == "TODO" and "TODO" in case["fix"] and "TODO" in case["notes"]
    assert case["exercised"] is True and case["fails_on"] == ["broken:short_return"]
    assert case["entry"] == "decompress_safe"
    # its class, from the one table: the name, and its meaning for people
    assert case["fail_class"] == "wrong_output"
    assert case["class"] == "a valid input decoded to other bytes"
    assert "wrong_output@decompress_safe" in case["trigger"]
    for key in ("origin", "generations", "commits", "cve", "bits"):
        assert key in case
    (test,) = case["tests"]
    call = test["call"]
    assert call["entry"] == "fuzz:decode_differential" and call["expect"] == "pass"
    data = bytes.fromhex(call["input"][4:])
    assert 0 < len(data) <= os.path.getsize(VALID_SEED)
    # The skeleton bites: FAIL on the subject with the bug, pass on ref.
    broken = run_subject("broken:short_return", [case], ["asan64"], quiet=True)
    assert [r["status"] for r in broken] == ["FAIL"], broken
    assert "wrong_output@decompress_safe" in broken[0]["evidence"]
    ref = run_subject("ref", [case], ["asan64"], quiet=True)
    assert [r["status"] for r in ref] == ["pass"], ref


def test_triage_of_an_input_that_passes_does_not_reproduce(tmp_path):
    out = tmp_path / "cases"
    proc = run(FUZZ_PY, "triage", VALID_SEED, "--target", "decode_differential",
               "--subject", "ref", "--out-dir", str(out))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "does not reproduce" in proc.stdout
    assert not out.exists() or not list(out.iterdir())


@pytest.mark.parametrize("argv,words", [
    (["triage", "/nonexistent/crash", "--target", "decode_differential", "--subject", "ref"],
     ["no such crash file"]),
    (["triage", VALID_SEED, "--target", "nope", "--subject", "ref"], ["unknown target"]),
    (["triage", "--target", "decode_differential", "--subject", "ref"], ["CRASH_FILE"]),
    (["triage", VALID_SEED, "--target", "decode_differential", "--subject", "ref",
      "--id", "../escape"], ["not a valid case id"]),
    (["corpus-min", "--target", "nope"], ["unknown target"]),
    (["corpus-min", "--target", "all", "--dir", "/tmp"], ["one --target"]),
    (["corpus-min", "--target", "decode_differential", "--engine", "replay"], ["corpus-min"]),
])
def test_bad_input(argv, words):
    expect_bad_input(run(FUZZ_PY, *argv), *words)


def test_regress_rejects_a_malformed_fuzz_test():
    case = {"id": "X", "title": "t", "origin": "upstream", "commits": [], "cve": None,
            "class": "c", "fail_class": "wrong_output", "bits": "64", "trigger": "t", "fix": "f",
            "exercised": True,
            "fails_on": ["ref"], "tests": [{"tcId": 1, "comment": "c",
                                            "call": {"entry": "fuzz:nope", "input": "hex:00",
                                                     "expect": "pass"}}]}
    with pytest.raises(CaseError, match="unknown fuzz target"):
        validate(case, "X.json")
    case["tests"][0]["call"].update(entry="fuzz:decode_differential", expect="reject")
    with pytest.raises(CaseError, match="expects 'pass'"):
        validate(case, "X.json")
    case["tests"][0]["call"].update(expect="pass", input="hex:0g")
    with pytest.raises(CaseError, match="not valid hex"):
        validate(case, "X.json")


# ---- corpus-min ----------------------------------------------------------------

def test_corpus_min_shrinks_a_corpus_with_duplicates_and_it_still_replays(tmp_path):
    d = tmp_path / "corpus"
    shutil.copytree(os.path.join(TOP, "corpus", "decode_differential"), str(d))
    originals = sorted(os.listdir(str(d)))
    for name in originals[:10]:
        shutil.copy(str(d / name), str(d / (name + ".dup")))
    before = len(os.listdir(str(d)))
    proc = run(FUZZ_PY, "corpus-min", "--target", "decode_differential", "--subject", "ref",
               "--dir", str(d))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    m = re.search(r"(\d+) files, (\d+) bytes -> (\d+) files, (\d+) bytes", proc.stdout)
    assert m, proc.stdout
    n0, b0, n1, b1 = map(int, m.groups())
    assert n0 == before and n1 < len(originals) < n0 and b1 < b0, proc.stdout
    m = re.search(r"cov (\d+) -> (\d+), features (\d+) -> (\d+)", proc.stdout)
    assert m and int(m.group(2)) >= int(m.group(1)) and int(m.group(4)) >= int(m.group(3))
    kept = sorted(os.listdir(str(d)))
    assert len(kept) == n1 and set(kept) <= set(originals + [o + ".dup" for o in originals])
    assert not [f for f in os.listdir(str(tmp_path)) if "corpus-min" in f]
    rep = run(FUZZ_PY, "replay", "-q", "--target", "decode_differential", "--subject", "ref",
              str(d))
    assert rep.returncode == 0, rep.stdout + rep.stderr
    assert "%d inputs ok" % n1 in rep.stdout


def test_corpus_min_keeps_the_corpus_when_the_new_set_covers_less(tmp_path, monkeypatch,
                                                                   capsys):
    d = tmp_path / "corpus"
    shutil.copytree(os.path.join(TOP, "corpus", "decode_differential"), str(d))
    for name in sorted(os.listdir(str(d)))[:5]:
        shutil.copy(str(d / name), str(d / (name + ".dup")))
    before = sorted(os.listdir(str(d)))
    seen = []

    def coverage(binary, directory, env, work):     # the merged set "loses" a feature
        seen.append(directory)
        return (100, 200) if len(seen) == 1 else (100, 199)

    monkeypatch.setattr(corpus, "libfuzzer_coverage", coverage)
    args = type("A", (), dict(target="decode_differential", subject="ref", subject_b=None,
                              patch=[], patch_b=[], engine="libfuzzer", bits="64",
                              config=None, ignore=[], skip=[], known=False, quiet=True,
                              dir=str(d), dry_run=False, paths=[]))()
    assert corpus.corpus_min(args) == 1
    assert "NOT replaced" in capsys.readouterr().out
    assert sorted(os.listdir(str(d))) == before and len(seen) == 2


def test_corpus_min_never_leaves_a_half_replaced_corpus(tmp_path, monkeypatch):
    d = tmp_path / "corpus"
    d.mkdir()
    for i in range(3):
        (d / ("f%d" % i)).write_bytes(b"x" * (i + 1))
    src = tmp_path / "new"
    src.mkdir()
    (src / "f0").write_bytes(b"x")
    real_rename = os.rename
    calls = []

    def failing_rename(a, b):
        calls.append((a, b))
        if len(calls) == 2:                    # the swap's second rename
            raise OSError("simulated failure")
        return real_rename(a, b)

    monkeypatch.setattr(os, "rename", failing_rename)
    with pytest.raises(OSError):
        corpus.swap_in(str(d), ["f0"], str(src))
    monkeypatch.setattr(os, "rename", real_rename)
    assert sorted(os.listdir(str(d))) == ["f0", "f1", "f2"]
    assert sorted(os.listdir(str(tmp_path))) == ["corpus", "new"]
    # An interrupted swap (old corpus aside, nothing in place) is undone.
    real_rename(str(d), str(tmp_path / ".corpus.corpus-min-old"))
    corpus.recover_interrupted(str(d))
    assert sorted(os.listdir(str(d))) == ["f0", "f1", "f2"]


# ---- the fuzz benchmark -------------------------------------------------------------

def test_fuzz_bench_tiny_mode_prints_each_target_beside_its_peer_with_the_ratio():
    need("upstream")
    ours = ("decode_differential", "compress_roundtrip", "ref_to_subject")
    peers = {"decode_differential": "decompress_fuzzer", "ref_to_subject": "decompress_fuzzer",
             "compress_roundtrip": "round_trip_fuzzer"}
    proc = run(BENCH_PY, "--time", "1", "--only",
               ",".join(ours + ("decompress_fuzzer", "round_trip_fuzzer")), timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = {}
    for line in proc.stdout.splitlines():
        f = line.split()
        if f and f[0] in ours + ("decompress_fuzzer", "round_trip_fuzzer"):
            rows[f[0]] = line
    assert set(rows) == set(ours) | {"decompress_fuzzer", "round_trip_fuzzer"}, proc.stdout
    for t in ours:
        # exec/s, execs, cov, the peer, the ratio to it
        assert re.search(r"\s\d+\s+\d+\s+\d+\s+%s\s+\d+\.\d+x$" % peers[t], rows[t]), rows[t]
    assert re.search(r"goal: every target >= 0.25x its peer's exec/s: (met|NOT met \(.*\))$",
                     proc.stdout, re.M), proc.stdout
    assert re.search(r"goal: decode_differential >= 0.50x decompress_fuzzer exec/s: "
                     r"(met|NOT met) \(\d+\.\d\dx\)", proc.stdout), proc.stdout
    assert "empty corpus" in proc.stdout and "-max_len=4096" in proc.stdout
    assert any("[1/5]" in l for l in proc.stderr.splitlines()), proc.stderr   # progress
    # each upstream fuzzer runs right after the first of its targets
    order = [l.split("] ")[1].split()[0] for l in proc.stderr.splitlines()
             if re.match(r"fuzz-bench: \[\d/5\] \S+ \(", l)]
    assert order.index("decompress_fuzzer") == order.index("decode_differential") + 1, order
    assert order.index("round_trip_fuzzer") == order.index("compress_roundtrip") + 1, order


def test_bench_and_tests_plant_the_same_bugs():
    from harness.bench.find import PLANTED as BENCH_PLANTED
    from test_fuzz import PLANTED
    assert [p[:3] for p in PLANTED] == [tuple(p) for p in BENCH_PLANTED]


def test_fuzz_bench_bad_input():
    expect_bad_input(run(BENCH_PY, "--time", "0"), "--time")
    expect_bad_input(run(BENCH_PY, "--only", "nope"), "unknown fuzzer")
    expect_bad_input(run(BENCH_PY, "--frobnicate"), "unrecognized")
    proc = run(BENCH_PY, "--help")
    assert proc.returncode == 0
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES"):
        assert section in proc.stdout


# ---- AFL++ on every default subject -----------------------------------------------

@pytest.mark.skipif(shutil.which("afl-fuzz") is None, reason="AFL++ not installed")
# ref and the kernel tree here; the upstream tree's AFL++ build (lz4.c, lz4hc.c,
# lz4frame.c under afl-clang-fast -O2 + ASan) costs ~1.5 min cold, so it is
# checked by `make fuzz ENGINE=afl` (closing note of the fuzzing issue).
@pytest.mark.parametrize("subject", ["ref", "kernel"])
def test_afl_runs_decode_differential_on_each_default_subject(subject):
    need(subject)
    proc = run(FUZZ_PY, "run", "--fresh", "--engine", "afl", "--target", "decode_differential",
               "--subject", subject, "--time", "4", timeout=900)
    # Documented findings of the subject's tree are reported as known, not new.
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "NEW" not in proc.stdout
    progress = [l for l in proc.stderr.splitlines() if " execs, " in l]
    assert progress and int(progress[-1].split(" execs,")[0].split()[-1]) > 0, proc.stderr
