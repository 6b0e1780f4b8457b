"""The fuzz targets (fuzz/) and their driver (harness/fuzzing).

- every target bites: a planted bug (ref-mutant:CHECK, broken:MODE) is found
  from the seed corpus by a short, bounded libFuzzer run;
- every seed corpus replays cleanly against the default subjects, 64- and
  32-bit (system: 64-bit only);
- the corpora are what fuzz/make_seeds.c generates;
- the driver: progress lines, AFL++ engine, bad input.
"""
import concurrent.futures
import difflib
import filecmp
import json
import os
import re
import shutil

import pytest

from conftest import CONFIG32, TOP, expect_bad_input, harness
from harness.fuzzing import corpus
from harness.fuzzing.targets import TARGETS
from harness.findings.documented import KNOWN_FINDINGS
from harness.subjects.build import subject_identity
from harness.subjects.spec import DEFAULT_TREES


def fuzz_cli(*args, timeout=300):
    return harness("fuzz", *args, timeout=timeout)


def have_tree(spec):
    return spec not in DEFAULT_TREES or os.path.isdir(DEFAULT_TREES[spec])


def need(*specs):
    for s in specs:
        if not have_tree(s):
            pytest.skip("default %s tree not fetched (make subjects)" % s)


# ---- bad input and help ------------------------------------------------------

def test_help():
    proc = fuzz_cli("--help")
    assert proc.returncode == 0
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES"):
        assert section in proc.stdout
    for t in TARGETS:
        assert t in proc.stdout


@pytest.mark.parametrize("argv,words", [
    (["run", "--target", "nope", "--subject", "ref"], ["unknown target", "decode_differential"]),
    (["run", "--target", "all", "--subject-b", "ref"], ["--base and --candidate"]),
    (["replay", "--target", "decode_differential"], ["--subject"]),
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
    expect_bad_input(fuzz_cli(*argv), *words)


def test_the_system_library_in_32_bits_is_refused_before_anything_is_built(tmp_path):
    # (It used to build the 64-bit replay program first: 40 s for a refusal.)
    log = tmp_path / "build.log"
    proc = harness("fuzz", "replay", "--target", "base_vs_candidate", "--subject", "ref",
                   "--subject-b", "system", "--bits", "32",
                   env=dict(os.environ, LZ4GATE_BUILD_LOG=str(log)))
    expect_bad_input(proc, "64-bit")
    assert not log.exists() or not log.read_text(), log.read_text()


# ---- planted bugs are found ---------------------------------------------------

# (target, subject, subject_b, what the failure report must contain)
PLANTED = [
    ("decode_differential", "ref-mutant:OFFSET_IN_HISTORY", None, None),
    ("decode_differential", "ref-mutant:LITERALS_IN_OUTPUT", None, "heap-buffer-overflow"),
    ("decode_differential", "broken:short_return", None, "wrong_output@decompress_safe"),
    ("ref_to_subject", "ref-mutant:OFFSET_IN_HISTORY", None, None),
    ("ref_to_subject", "ref-mutant:LITERALS_IN_OUTPUT", None, "heap-buffer-overflow"),
    ("ref_to_subject", "broken:short_return", None, "decompress_safe"),
    ("decode_large", "broken:short_return", None, "wrong_output@decompress_safe"),
    ("compress_roundtrip", "broken:write_past_capacity", None, "heap-buffer-overflow"),
    ("compress_large", "broken:write_past_capacity", None, "heap-buffer-overflow"),
    ("base_vs_candidate", "ref", "broken:short_return", "broken"),
    ("frame_decode", "ref-mutant:BLOCK_CHECKSUM", None, "accepts_invalid@frame_decompress"),
    ("frame_decode", "broken:frame_write_past", None, "SEGV"),
    ("frame_roundtrip", "broken:frame_write_past", None, "SEGV"),
    ("legacy_decode", "broken:unlz4_short_flush", None, "wrong_output@unlz4"),
]


def fuzz_planted(case):
    target, subject, subject_b, _ = case
    argv = ["run", "-q", "--fresh", "--stop-at-first", "--jobs", "1", "--target", target,
            "--subject", subject, "--time", "30", "--runs", "200000", "--seed", "1"]
    if subject_b:
        argv += ["--subject-b", subject_b]
    return fuzz_cli(*argv)


@pytest.fixture(scope="module")
def planted_runs():
    # Two planted-bug runs at a time (one per core): each is a build and a
    # short single-process fuzzing run that stops at its first finding.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(PLANTED, pool.map(fuzz_planted, PLANTED)))


# One worker runs them all (Makefile: --dist loadgroup): the fixture is per
# worker, and two workers would run the same campaigns in the same
# directories (--fresh empties them) at once.
@pytest.mark.xdist_group("planted")
@pytest.mark.parametrize("target,subject,subject_b,evidence", PLANTED,
                         ids=["%s-%s" % (p[0], p[2] or p[1]) for p in PLANTED])
def test_planted_bug_is_found(target, subject, subject_b, evidence, planted_runs):
    proc = planted_runs[(target, subject, subject_b, evidence)]
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"^  NEW ", proc.stdout, re.M), proc.stdout
    inputs = re.findall(r"^    input: (\S+)", proc.stdout, re.M)
    assert inputs and os.path.isfile(os.path.join(TOP, inputs[0])), proc.stdout
    if evidence:
        assert evidence in proc.stdout, proc.stdout
    # The finding reproduces with the replay binary, with the command printed.
    command = re.findall(r"^    reproduce: python3 -m harness (.*)$", proc.stdout, re.M)[0]
    proc = harness(*command.split())
    assert proc.returncode == 1, proc.stdout + proc.stderr


# ---- corpus replay against the default subjects ---------------------------------

REPLAYS = []
for _t in ("decode_differential", "compress_roundtrip", "ref_to_subject", "decode_large"):
    for _s in ("ref", "upstream", "kernel", "system"):
        for _b in ("64", "32"):
            if _s == "system" and _b == "32":
                continue       # Debian ships liblz4 for the native ABI only
            REPLAYS.append((_t, _s, None, _b))
# compress_large's seeds show linux-6.1's documented compressor overflows
# (KLZ4-GAP-17543, KLZ4-GAP-HCLIM): test_large_seeds_show_the_kernel_findings
for _t in ("frame_decode", "frame_roundtrip", "compress_large"):
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
    argv = ["replay", "-q", "--target", target, "--subject", subject]
    argv += ["--config", CONFIG32] if bits == "32" else []
    if subject_b:
        argv += ["--subject-b", subject_b]
    return case, fuzz_cli(*argv)


@pytest.mark.parametrize("bits", [pytest.param("64", marks=pytest.mark.check), "32"])
def test_corpus_replays_on_default_subjects(bits):
    cases = [c for c in REPLAYS if c[3] == bits]
    if not all(have_tree(c[1]) and (not c[2] or have_tree(c[2])) for c in cases):
        pytest.skip("default upstream/kernel trees not fetched (make subjects)")
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for case, proc in pool.map(replay_one, cases):
            if proc.returncode != 0:
                failures.append("%s: %s%s" % (case, proc.stdout, proc.stderr))
    assert not failures, "\n".join(failures)


def test_a_replay_reports_a_leak_of_the_subject():
    # The replay builds check leaks at exit (toolchain.SANITIZER_ENV
    # "replay"); the oracle frees its own persistent buffers just before
    # (fuzz/oracle.c fz_free_at_exit), which must not hide the subject's.
    proc = fuzz_cli("replay", "-q", "--target", "decode_differential",
                    "--subject", "broken:leak_on_error")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "LeakSanitizer: detected memory leaks" in proc.stdout, proc.stdout


# ---- corpora and driver ---------------------------------------------------------

def test_corpus_is_what_make_seeds_generates(tmp_path):
    for t in TARGETS:
        shutil.copytree(os.path.join(TOP, "corpus", t), str(tmp_path / t))
    args = type("A", (), {"target": "all"})()
    assert corpus.corpus(args, str(tmp_path)) == 0
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
    assert int(progress[-1].split(" execs,")[0].split()[-1]) > 0, progress   # it counts
    assert "no finding" in proc.stdout


@pytest.mark.skipif(shutil.which("afl-fuzz") is None, reason="AFL++ not installed")
def test_afl_engine_runs():
    proc = fuzz_cli("run", "--fresh", "--engine", "afl", "--target", "compress_roundtrip",
                    "--subject", "ref", "--time", "10")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no finding" in proc.stdout
    assert any(" execs, " in l for l in proc.stderr.splitlines()), proc.stderr


# ---- campaigns keep going --------------------------------------------------------

def test_a_campaign_reports_a_second_planted_bug_and_counts_the_documented_one(tmp_path):
    # Linux 6.1 has a documented finding in partial decoding
    # (KLZ4-PARTIAL-OFFSET0); plant a second bug, LZ4_decompress_safe
    # returning one byte less on outputs over 100 bytes, and document the
    # first for the patched tree. The campaign must not stop at either: it
    # reports the planted bug as new and the documented one as known, with
    # its count.
    need("kernel")
    rel = "lib/lz4/lz4_decompress.c"
    with open(os.path.join(DEFAULT_TREES["kernel"], rel)) as f:
        lines = f.read().splitlines(True)
    old = ("\treturn LZ4_decompress_generic(source, dest,\n"
           "\t\t\t\t      compressedSize, maxDecompressedSize,\n"
           "\t\t\t\t      endOnInputSize, decode_full_block,\n"
           "\t\t\t\t      noDict, (BYTE *)dest, NULL, 0);\n")
    text = "".join(lines)
    assert text.count(old) >= 1
    new = ("\tint r = LZ4_decompress_generic(source, dest,\n"
           "\t\t\t\t      compressedSize, maxDecompressedSize,\n"
           "\t\t\t\t      endOnInputSize, decode_full_block,\n"
           "\t\t\t\t      noDict, (BYTE *)dest, NULL, 0);\n"
           "\treturn r > 100 ? r - 1 : r;\n")
    patch = tmp_path / "plant.patch"
    patch.write_text("".join(difflib.unified_diff(
        lines, text.replace(old, new, 1).splitlines(True), "a/" + rel, "b/" + rel)))
    docs = json.load(open(KNOWN_FINDINGS))
    offset0 = next(f for f in docs["findings"] if f["id"] == "KLZ4-PARTIAL-OFFSET0")
    known_file = tmp_path / "known.json"
    known_file.write_text(json.dumps({
        "trees": {"patched": {"identity": subject_identity("kernel", [str(patch)])}},
        "findings": [dict(offset0, trees=["patched"])]}))
    proc = fuzz_cli("run", "--fresh", "--target", "decode_differential", "--subject", "kernel",
                    "--patch", str(patch), "--known-findings", str(known_file), "--time", "25",
                    "--seed", "1", timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"NEW\s+wrong_output@decompress_safe\s+x\d+", proc.stdout), proc.stdout
    counted = re.findall(r"known KLZ4-PARTIAL-OFFSET0\s+\S+@decompress_safe_partial\s+x(\d+)",
                         proc.stdout)
    assert counted and int(counted[0]) > 0, proc.stdout
