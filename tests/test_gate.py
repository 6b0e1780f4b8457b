"""The gate (ci/gate.py): verdicts on known scenarios."""
import difflib
import os
import subprocess
import sys

from conftest import TOP

GATE = os.path.join(TOP, "ci", "gate.py")


def gate(tmp_path, *args):
    return subprocess.run([sys.executable, GATE, "--fuzz-time", "0", "--configs", "asan64",
                           "--no-coverage", "--out", str(tmp_path / "out")] + list(args),
                          cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def test_default_scenario_passes_and_reports_fixes(tmp_path):
    proc = gate(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = (tmp_path / "out" / "report.md").read_text()
    assert report.startswith("# lz4gate: PASS")
    # Upstream 1.9.4 has the three fixes Linux 6.1 lacks (history.md §9).
    fixed = report.split("## Newly fixed")[1].split("##")[0]
    for case in ("KLZ4-GAP-17543", "KLZ4-GAP-HCLIM", "KLZ4-GAP-3520"):
        assert case in fixed
    assert (tmp_path / "out" / "junit.xml").read_text().startswith("<?xml")


def test_subject_against_itself_passes(tmp_path):
    proc = gate(tmp_path, "--base", "ref", "--candidate", "ref")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_candidate_that_drops_a_fix_fails_and_names_it(tmp_path):
    # Revert KLZ4-2022-49078 in a copy of the kernel tree: the patch is made
    # here from the fetched tree, so no kernel code is committed.
    src = os.path.join(TOP, "build", "subjects", "linux-6.1", "lib", "lz4", "lz4_decompress.c")
    with open(src) as f:
        lines = f.read().splitlines(True)
    reverted = [l.replace(" || (ip >= (iend - 2))", "") for l in lines]
    assert reverted != lines, "the fix line was not found in the kernel tree"
    patch = tmp_path / "drop-49078.patch"
    patch.write_text("".join(difflib.unified_diff(lines, reverted, "a/lib/lz4/lz4_decompress.c",
                                                  "b/lib/lz4/lz4_decompress.c")))
    proc = gate(tmp_path, "--base", "kernel", "--candidate", "kernel", "--patch", str(patch))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lost = proc.stdout.split("## Lost fixes")[1].split("## New failures")[0]
    assert "KLZ4-2022-49078" in lost


def test_bad_input_exits_2(tmp_path):
    proc = gate(tmp_path, "--candidate", "upstream:/nonexistent")
    assert proc.returncode == 2
    assert "does not exist" in proc.stderr


def test_ci_entry_script_with_github_and_gitlab_variables(tmp_path):
    # What the CI templates run, with the variables they set (no CI here).
    summary = tmp_path / "summary.md"
    project = tmp_path / "project"
    project.mkdir()
    env = dict(os.environ, LZ4GATE_BASE="ref", LZ4GATE_CANDIDATE="ref",
               LZ4GATE_FUZZ_TIME="0", LZ4GATE_CONFIGS="asan64",
               LZ4GATE_OUT=str(tmp_path / "out"), GITHUB_STEP_SUMMARY=str(summary),
               CI_PROJECT_DIR=str(project))
    proc = subprocess.run(["bash", os.path.join(TOP, "ci", "ci_gate.sh")], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert summary.read_text().startswith("# lz4gate: PASS")
    assert (project / "lz4gate-report" / "junit.xml").exists()
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
    env = dict(os.environ, CC="clang",
               CFLAGS="-O1 -g -fsanitize=address,undefined -fsanitize=fuzzer-no-link",
               LIB_FUZZING_ENGINE="-fsanitize=fuzzer", OUT=str(out), LZ4GATE_SUBJECT="ref")
    proc = subprocess.run(["bash", os.path.join(TOP, "ci", "oss-fuzz", "build.sh")], env=env,
                          cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    for t in ("decode_differential", "compress_roundtrip", "ref_to_subject",
              "base_vs_candidate", "frame_decode", "frame_roundtrip", "legacy_decode"):
        for suffix in ("", ".dict", ".options", "_seed_corpus.zip"):
            assert (out / (t + suffix)).exists(), t + suffix
        seeds = tmp_path / ("seeds-" + t)
        zipfile.ZipFile(str(out / (t + "_seed_corpus.zip"))).extractall(str(seeds))
        run = subprocess.run([str(out / t), "-runs=0", str(seeds)], cwd=str(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True)
        assert run.returncode == 0, run.stdout[-2000:]
