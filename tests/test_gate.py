"""The gate (ci/gate.py): verdicts on known scenarios."""
import difflib
import json
import os
import re
import subprocess
import sys

from conftest import TOP
from harness import result_memo, toolchain
from harness.fuzzing.targets import TARGETS

GATE = os.path.join(TOP, "ci", "gate.py")


# Runner stages a fuzz-only scenario skips on purpose.
SKIP_RUNNERS = ("--skip", "contracts", "--skip", "regress", "--skip", "compare",
                "--skip", "replay")
# Stages a scenario about runner verdicts does not need.
QUICK = ("--skip", "compare", "--skip", "replay")


def gate(tmp_path, *args, out="out", env=None):
    return subprocess.run([sys.executable, GATE, "--fuzz-time", "0", "--configs", "asan64",
                           "--no-coverage", "--out", str(tmp_path / out)] + list(args),
                          cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, env=env)


def kernel_patch(tmp_path, name, rel, old, new, count=1):
    """A patch made here from the fetched tree (no kernel code is committed):
    rel with `old` replaced by `new` (the first `count` times)."""
    src = os.path.join(TOP, "build", "subjects", "linux-6.1", rel)
    with open(src) as f:
        lines = f.read().splitlines(True)
    text = "".join(lines)
    assert old in text, "%s not found in %s" % (old, rel)
    changed = text.replace(old, new, count).splitlines(True)
    patch = tmp_path / name
    patch.write_text("".join(difflib.unified_diff(lines, changed, "a/" + rel, "b/" + rel)))
    return str(patch)


def findings(tmp_path, out="out"):
    return json.loads((tmp_path / out / "findings.json").read_text())


def ids(found, category):
    return {i["id"] for g in found["groups"][category] for i in g["items"]}


def test_default_scenario_with_fuzzing_passes_and_reports_fixes(tmp_path):
    # The README's `make gate` (kernel 6.1 -> upstream 1.9.4) with fuzzing
    # on: every target, a 1-second campaign each (--fuzz-target-min 1; the
    # README's run gives each 10 s), one job (pytest runs two workers), and
    # the confirmation replays. No FAIL (issue 23: every FAIL must be a
    # defect of the candidate; 6.1 -> 1.9.4 has none).
    proc = gate(tmp_path, "--fuzz-time", "1", "--fuzz-target-min", "1", "--jobs", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = (tmp_path / "out" / "report.md").read_text()
    assert report.startswith("# lz4gate: PASS")
    assert "skipped on purpose** | coverage (--no-coverage)" in report
    assert re.search(r"\| fuzzing \| 1 s, \d+ job\(s\); seeds decode_differential \d+", report)
    assert "| FAIL | Lost fixes |" in report           # the policy, in the header
    assert re.search(r"fuzz decode_differential \(1 s, 1 job", proc.stderr), proc.stderr
    # Upstream 1.9.4 has the three fixes Linux 6.1 lacks (docs/fix-history.md).
    first = findings(tmp_path)
    for case in ("KLZ4-GAP-17543", "KLZ4-GAP-HCLIM", "KLZ4-GAP-3520"):
        assert case in ids(first, "fixed")
    assert (tmp_path / "out" / "junit.xml").read_text().startswith("<?xml")
    # (That a rerun's findings equal the first run's is tested once, by
    # the drop-a-fix test below.)


def test_subject_against_itself_passes(tmp_path):
    proc = gate(tmp_path, "--base", "ref", "--candidate", "ref", *QUICK)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_candidate_that_drops_a_fix_fails_names_it_and_is_deterministic(tmp_path):
    patch = kernel_patch(tmp_path, "drop-49078.patch", "lib/lz4/lz4_decompress.c",
                         " || (ip >= (iend - 2))", "", count=-1)
    # The lost fix is a regression case: the stages that cannot see it
    # (contracts, size/speed, fuzz corpora) are skipped, which the report says.
    proc = gate(tmp_path, "--base", "kernel", "--candidate", "kernel", "--patch", patch,
                "--skip", "contracts", *QUICK)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    first = findings(tmp_path)
    assert "KLZ4-2022-49078" in ids(first, "lost")
    assert first["verdict"] == "FAIL"
    # Run again with nothing reused (the suite's result memo off): every
    # check runs a second time and must give the same findings.
    fresh = {k: v for k, v in os.environ.items() if k != result_memo.ENV}
    again = gate(tmp_path, "--base", "kernel", "--candidate", "kernel", "--patch", patch,
                 "--skip", "contracts", *QUICK, out="again", env=fresh)
    assert again.returncode == 1 and findings(tmp_path, "again") == first


def test_bad_input_exits_2_with_one_line(tmp_path):
    for args, words in ((["--candidate", "upstream:/nonexistent"], "does not exist"),
                        (["--fuzz-time", "-5"], "--fuzz-time"),
                        (["--fuzz-target-min", "0"], "--fuzz-target-min"),
                        (["--jobs", "0"], "--jobs"),
                        (["--configs", "asan64,m68k"], "unknown configuration"),
                        (["--fuzz-targets", "nope"], "unknown fuzz target"),
                        (["--frobnicate"], "unrecognized")):
        proc = gate(tmp_path, *args)
        assert proc.returncode == 2, (args, proc.stdout + proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], (args, proc.stderr)


def test_a_candidate_whose_fuzz_build_fails_cannot_pass(tmp_path):
    # The candidate builds for the runners but not with libFuzzer's
    # instrumentation: the fuzz stage cannot run, so the gate exits 2.
    patch = kernel_patch(tmp_path, "no-fuzz-build.patch", "lib/lz4/lz4_compress.c",
                         "#include <linux/lz4.h>",
                         "#include <linux/lz4.h>\n#if __has_feature(coverage_sanitizer)\n"
                         "#error lz4gate test: no fuzz build\n#endif")
    proc = gate(tmp_path, "--base", "kernel", "--candidate", "kernel", "--patch", patch,
                "--fuzz-time", "10", "--fuzz-targets", "compress_roundtrip", *SKIP_RUNNERS)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[-1].startswith("gate: cannot run: [fuzz]"), proc.stderr
    assert "lz4gate test: no fuzz build" in lines[-1]


def test_a_planted_compressor_corruption_fails_the_gate_despite_documented_findings(tmp_path):
    # Linux 6.1 has documented compressor findings (KLZ4-ACCEL-WRAP:
    # roundtrip@compress_fast); they are the base tree's, and never hide a
    # candidate's new corruption: wrong offsets for acceleration > 3.
    patch = kernel_patch(tmp_path, "corrupt.patch", "lib/lz4/lz4_compress.c",
                         "LZ4_writeLE16(op, (U16)(ip - match));",
                         "LZ4_writeLE16(op, (U16)(ip - match + (acceleration > 3)));")
    proc = gate(tmp_path, "--base", "kernel", "--candidate", "kernel", "--patch", patch,
                "--fuzz-time", "20", "--fuzz-targets", "compress_roundtrip", *SKIP_RUNNERS)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    new = [g for g in findings(tmp_path)["groups"]["regression"]
           if any(i["kind"] == "fuzz" for i in g["items"])]
    assert any(g["signature"].startswith("roundtrip@compress_") for g in new), new


def test_ci_entry_script_with_github_and_gitlab_variables(tmp_path):
    # What the CI templates run, with the variables they set (no CI here).
    summary = tmp_path / "summary.md"
    project = tmp_path / "project"
    project.mkdir()
    env = dict(os.environ, LZ4GATE_BASE="ref", LZ4GATE_CANDIDATE="ref",
               LZ4GATE_FUZZ_TIME="0", LZ4GATE_CONFIGS="asan64",
               LZ4GATE_OUT=str(tmp_path / "out"), GITHUB_STEP_SUMMARY=str(summary),
               CI_PROJECT_DIR=str(project),
               LZ4GATE_EXTRA_ARGS="--no-coverage --skip compare --skip regress --skip replay")
    proc = subprocess.run(["bash", os.path.join(TOP, "ci", "ci_gate.sh")], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert summary.read_text().startswith("# lz4gate: PASS")
    assert "compare (--skip compare); replay (--skip replay)" in summary.read_text()
    for name in ("junit.xml", "results.sarif"):
        assert (project / "lz4gate-report" / name).exists()
    # The action uploads what the script leaves in its report folder
    # (tests/test_ci_action.py runs its steps).
    action = open(os.path.join(TOP, "action.yml")).read()
    assert "upload-sarif" in action and "sarif_file: ${{ steps.gate.outputs.sarif }}" in action
    env.pop("LZ4GATE_BASE")
    proc = subprocess.run(["bash", os.path.join(TOP, "ci", "ci_gate.sh")], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 2 and "LZ4GATE_BASE" in proc.stderr


def test_oss_fuzz_build_script_with_the_variables_it_gets(tmp_path):
    # ClusterFuzzLite / OSS-Fuzz set CC, CFLAGS, LIB_FUZZING_ENGINE and OUT;
    # no Docker here, so set them by hand and check what lands in $OUT.
    import zipfile
    out = tmp_path / "out"
    out.mkdir()
    # (the flags of lz4gate's own libFuzzer builds, in their order: the
    # objects come from the cache those builds filled, as in a project that
    # runs both; what is tested is the script, not the compiler)
    env = dict(os.environ, CC="clang",
               CFLAGS=" ".join(toolchain.CONFIGS["libfuzzer"][1]),
               LIB_FUZZING_ENGINE="-fsanitize=fuzzer", OUT=str(out), LZ4GATE_SUBJECT="ref")
    proc = subprocess.run(["bash", os.path.join(TOP, "ci", "oss-fuzz", "build.sh")], env=env,
                          cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    for t in TARGETS:
        for suffix in ("", ".dict", ".options", "_seed_corpus.zip"):
            assert (out / (t + suffix)).exists(), t + suffix
        seeds = tmp_path / ("seeds-" + t)
        zipfile.ZipFile(str(out / (t + "_seed_corpus.zip"))).extractall(str(seeds))
        run = subprocess.run([str(out / t), "-runs=0", str(seeds)], cwd=str(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True)
        assert run.returncode == 0, run.stdout[-2000:]


def test_the_bases_accel_wrap_through_base_vs_candidate_is_a_known_finding_of_the_base(
        tmp_path):
    # Linux 6.1's LZ4_compress_fast at acceleration 2^28 emits offset-0
    # matches (KLZ4-ACCEL-WRAP, documented for the 6.1 tree); upstream 1.9.4
    # decodes that block to other bytes. ref puts the fault on the encoder,
    # the base: INFO, never a failure of the candidate (issue 23 item 3).
    from test_fuzz_fault import ACCEL_WRAP
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "base_vs_candidate-accel-wrap.bin").write_bytes(ACCEL_WRAP)
    proc = gate(tmp_path, "--fuzz-targets", "base_vs_candidate", "--replay-inputs",
                str(inputs), "--skip", "contracts", "--skip", "regress", "--skip", "compare")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = findings(tmp_path)
    known = [i for g in found["groups"]["known"] for i in g["items"]
             if i["id"].startswith("cross_decode@compress_fast")]
    assert known and known[0]["finding"] == "KLZ4-ACCEL-WRAP", found
    assert "base's own bug" in known[0]["why"]
    for cat in ("lost", "regression", "changed"):
        assert not found["groups"][cat], found["groups"][cat]
