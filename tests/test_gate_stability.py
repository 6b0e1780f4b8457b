"""`python3 -m harness gate-stability` (harness/gate/stability.py): the
verdict over N runs and its table. The measured tables are in
docs/gate-stability.md; these tests check the judging and the table on
synthetic runs, and that bad input is exit 2."""
import subprocess
import sys

import pytest

from harness.findings import policy
from harness.gate import stability
from harness.paths import TOP


def run(k, verdict, failing=(), findings=()):
    counts = {c: 0 for c in policy.CATEGORIES}
    counts["lost"] = len(failing)
    return {"run": k, "seed": k, "verdict": verdict, "counts": counts,
            "failing": list(failing), "findings": list(findings)}


@pytest.mark.check
def test_every_run_must_give_the_expected_verdict():
    passes = [run(1, "PASS"), run(2, "PASS")]
    assert stability.judged(passes, "PASS", []) == (True, [])
    one_fails = passes + [run(3, "FAIL", ["KLZ4-2022-49078"])]
    assert stability.judged(one_fails, "PASS", [])[0] is False
    assert stability.judged([], "PASS", [])[0] is False       # no run is no verdict


@pytest.mark.check
def test_an_expected_group_must_be_named_in_every_run():
    runs = [run(1, "FAIL", ["KLZ4-2022-49078", "decompress_safe_partial.targets"]),
            run(2, "FAIL", ["decompress_safe_partial.targets"])]
    ok, missing = stability.judged(runs, "FAIL", ["49078", "partial"])
    assert not ok and missing == ["49078"]
    assert stability.judged(runs[:1], "FAIL", ["49078", "partial"]) == (True, [])


@pytest.mark.check
def test_the_table_counts_runs_and_findings_and_clips_long_lists():
    failing = ["vector.gen-%03d.decompress_safe_partial" % i for i in range(20)]
    runs = [run(1, "FAIL", failing, ["regression: OOB-READ@x"]),
            run(2, "FAIL", failing[:2], ["regression: OOB-READ@x", "known: y"])]
    text = "\n".join(stability.table(runs, "planted", "FAIL"))
    assert "FAIL in 2 of 2 runs." in text
    assert "and %d more" % (20 - stability.FAILING_SHOWN) in text
    assert "| `regression: OOB-READ@x` | 2 |" in text and "| `known: y` | 1 |" in text


def test_bad_input_is_exit_2_with_one_line():
    proc = subprocess.run([sys.executable, "-m", "harness", "gate-stability", "--runs", "2",
                           "--fuzz-time", "-1"], cwd=TOP, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.strip().startswith("gate-stability: cannot run:"), proc.stderr
