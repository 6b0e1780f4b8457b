"""The regression list (regress/cases, harness/regress.py)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import TOP

sys.path.insert(0, os.path.join(TOP, "harness"))
import regress  # noqa: E402

REGRESS = os.path.join(TOP, "harness", "regress.py")


def cli(*args, **kw):
    return subprocess.run([sys.executable, REGRESS] + list(args), cwd=TOP,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def test_every_case_file_is_valid():
    proc = cli("--check")
    assert proc.returncode == 0, proc.stderr
    assert len(regress.load_cases()) >= 5


@pytest.mark.parametrize("config", ["asan64", "asan32"])
def test_reference_passes_every_case(config):
    recs = regress.run_subject("ref", regress.load_cases(), [config], quiet=True)
    bad = [r for r in recs if r["status"] not in ("pass", "n/a")]
    assert not bad, "\n".join("%s: %s" % (r["case"], r["evidence"]) for r in bad)


@pytest.mark.parametrize("spec", ["upstream", "kernel"])
@pytest.mark.parametrize("config", ["asan64", "asan32"])
def test_default_subjects_have_no_unexplained_failure(spec, config):
    recs = regress.run_subject(spec, regress.load_cases(), [config], quiet=True)
    bad = [r for r in recs if r["status"] == "FAIL"]
    assert not bad, "\n".join("%s: %s" % (r["case"], r["evidence"]) for r in bad)


def test_kernel_61_findings_are_shown():
    # history.md §9: Linux 6.1 lacks upstream's CVE-2019-17543, HC limit and
    # CVE-2021-3520 fixes. The matrix must show them as known findings.
    cases = [c for c in regress.load_cases()
             if c["id"] in ("KLZ4-GAP-17543", "KLZ4-GAP-HCLIM", "KLZ4-GAP-3520")]
    recs = regress.run_subject("kernel", cases, ["asan64"], quiet=True)
    assert {r["case"] for r in recs if r["status"] == "known finding"} == \
        {"KLZ4-GAP-17543", "KLZ4-GAP-HCLIM", "KLZ4-GAP-3520"}


def test_every_case_can_fail():
    proc = cli("--mutants", timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "DOES NOT FAIL" not in proc.stdout


def test_case_without_a_way_to_fail_is_rejected(tmp_path, monkeypatch):
    case = json.load(open(os.path.join(regress.CASES_DIR, "KLZ4-GAP-3520.json")))
    case["fails_on"] = []
    d = tmp_path / "cases"
    d.mkdir()
    (d / "KLZ4-GAP-3520.json").write_text(json.dumps(case))
    monkeypatch.setattr(regress, "CASES_DIR", str(d))
    with pytest.raises(regress.CaseError, match="no way to see it fail"):
        regress.load_cases()


def test_bad_input():
    proc = cli("--config", "m68k", "ref")
    assert proc.returncode == 2 and "unknown configuration" in proc.stderr
    proc = cli("--case", "KLZ4-NOPE", "ref")
    assert proc.returncode == 2 and "no such case" in proc.stderr
    proc = cli("zstd:/x")
    assert proc.returncode == 2 and "unknown subject" in proc.stderr
