"""The regression list (regress/cases, harness/runners/regress)."""
import json
import os

import pytest

from conftest import CONFIG32, harness, session_memo
from harness.report.regressions.results import differences, load_results
from harness.errors import CaseError
from harness.paths import CASES_DIR
from harness.runners.regress.cases import load_cases
from harness.findings import documented
from harness.runners.regress.run import run_subject


def cli(*args, **kw):
    return harness("regress", *args, **kw)


def records(spec, config):
    """Every case on one default subject in one configuration, run once per
    test run (several tests, in several workers, read it)."""
    return session_memo("regress:%s:%s" % (spec, config), lambda: documented.mark_all(
        run_subject(spec, load_cases(), [config], quiet=True), documented.Documented(),
        load_cases()))


@pytest.mark.check
def test_every_case_file_is_valid():
    proc = cli("--check")
    assert proc.returncode == 0, proc.stderr
    assert len(load_cases()) >= 5


@pytest.mark.parametrize("config", ["asan64", CONFIG32])
def test_reference_passes_every_case(config):
    recs = records("ref", config)
    bad = [r for r in recs if r["status"] not in ("pass", "n/a")]
    assert not bad, "\n".join("%s: %s" % (r["case"], r["evidence"]) for r in bad)


@pytest.mark.parametrize("spec", ["upstream", "kernel"])
@pytest.mark.parametrize("config", ["asan64", CONFIG32])
def test_default_subjects_have_no_unexplained_failure(spec, config):
    recs = records(spec, config)
    bad = [r for r in recs if r["status"] == "FAIL"]
    assert not bad, "\n".join("%s: %s" % (r["case"], r["evidence"]) for r in bad)


def test_kernel_61_findings_are_shown():
    # Linux 6.1 lacks upstream's CVE-2019-17543, HC limit and CVE-2021-3520
    # fixes (docs/fix-history.md). The matrix must show them as known findings.
    cases = [c for c in load_cases()
             if c["id"] in ("KLZ4-GAP-17543", "KLZ4-GAP-HCLIM", "KLZ4-GAP-3520")]
    recs = documented.mark_all(run_subject("kernel", cases, ["asan64"], quiet=True),
                               documented.Documented(), cases)
    assert {r["case"] for r in recs if r["status"] == "known finding"} == \
        {"KLZ4-GAP-17543", "KLZ4-GAP-HCLIM", "KLZ4-GAP-3520"}


def test_every_case_can_fail():
    proc = cli("--mutants", timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "DOES NOT FAIL" not in proc.stdout


def test_case_without_a_way_to_fail_is_rejected(tmp_path):
    case = json.load(open(os.path.join(CASES_DIR, "KLZ4-GAP-3520.json")))
    case["fails_on"] = []
    d = tmp_path / "cases"
    d.mkdir()
    (d / "KLZ4-GAP-3520.json").write_text(json.dumps(case))
    with pytest.raises(CaseError, match="no way to see it fail"):
        load_cases(cases_dir=str(d))


def test_a_result_field_that_decides_nothing_is_rejected(tmp_path):
    # "expect" in the call decides a test; a second expectation is an error.
    case = json.load(open(os.path.join(CASES_DIR, "KLZ4-GAP-3520.json")))
    case["tests"][0]["result"] = "invalid"
    d = tmp_path / "cases"
    d.mkdir()
    (d / "KLZ4-GAP-3520.json").write_text(json.dumps(case))
    with pytest.raises(CaseError, match="'result' is not a field"):
        load_cases(cases_dir=str(d))


def test_bad_input():
    proc = cli("--config", "m68k", "ref")
    assert proc.returncode == 2 and "unknown configuration" in proc.stderr
    proc = cli("--case", "KLZ4-NOPE", "ref")
    assert proc.returncode == 2 and "no such case" in proc.stderr
    proc = cli("zstd:/x")
    assert proc.returncode == 2 and "unknown subject" in proc.stderr


SNAPSHOT = os.path.join(os.path.dirname(CASES_DIR), "results", "default.jsonl")


@pytest.mark.parametrize("spec", ["ref", "upstream", "kernel"])
@pytest.mark.parametrize("config", ["asan64", CONFIG32])
def test_the_committed_snapshot_is_what_the_code_does(spec, config):
    # REGRESSIONS.md shows regress/results/default.jsonl: re-running the
    # matrix here must give the statuses it records.
    diff = differences(load_results(SNAPSHOT), records(spec, config))
    assert not diff, "stale snapshot (refresh it: REGRESSIONS.md, 'To refresh'):\n" + \
        "\n".join("%s %s [%s]: snapshot %s, now %s" % d for d in diff)


@pytest.mark.check
def test_a_stale_snapshot_is_noticed():
    snap = load_results(SNAPSHOT)
    fresh = [dict(r) for r in snap if r["spec"] == "kernel" and r["config"] == "asan64"]
    assert fresh and not differences(snap, fresh)
    fresh[0]["status"] = "pass" if fresh[0]["status"] != "pass" else "FAIL"
    assert len(differences(snap, fresh)) == 1
