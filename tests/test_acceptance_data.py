"""The acceptance set's committed data (regress/results/acceptance.json,
docs/acceptance.md): what CI can check without the exported trees. Rows
not yet re-run with the current verdict code have no recorded result; they
are counted here and listed in docs/acceptance.md ("Where the set stands"),
and every recorded result must be the verdict and groups its row argues."""
import copy

import pytest

from harness.gate import acceptance


@pytest.mark.check
def test_recorded_results_agree_with_their_rows_and_the_doc_table():
    rows = acceptance.load()
    problems = acceptance.check(rows)
    not_run = [p for p in problems if p.endswith(": no recorded result")]
    assert [p for p in problems if p not in not_run] == []
    recorded = [r for r in rows if r.get("now")]
    assert len(recorded) >= 3, "the kernel rows were re-run (docs/acceptance.md)"
    print("acceptance rows waiting for a re-run: %d of %d" % (len(not_run), len(rows)))


@pytest.mark.check
def test_a_recorded_verdict_other_than_the_rows_is_a_problem():
    rows = copy.deepcopy(acceptance.load())
    row = next(r for r in rows if r.get("now") and r["expected"] == "FAIL")
    row["now"]["verdict"] = "PASS"
    assert any(p.startswith(row["id"] + ": expected FAIL, recorded PASS")
               for p in acceptance.check(rows))
    row["now"]["verdict"] = "FAIL"
    row["now"]["missing_groups"] = ["lost:KLZ4-2013-ERRRET"]
    assert any("expected groups missing" in p for p in acceptance.check(rows))


@pytest.mark.check
def test_rows_are_gated_from_the_clones_under_repos(tmp_path):
    # --repos (issue 24): a row's project clone, in any of the layouts
    # `fetch` and users leave; a submodule copy in lz4's own clone at the
    # commits the project records; no clone: None (exported trees then).
    rows = {r["id"]: r for r in acceptance.load()}
    blosc, java = rows["c-blosc-1.9.1-1.9.2"], rows["lz4-java-1.9.0-1.9.1"]
    assert acceptance.repository(blosc, str(tmp_path)) is None
    (tmp_path / "Blosc+c-blosc" / "repo").mkdir(parents=True)
    (tmp_path / "lz4").mkdir()
    assert acceptance.repository(blosc, str(tmp_path)) == (
        str(tmp_path / "Blosc+c-blosc" / "repo"), blosc["base_commit"], blosc["candidate_commit"])
    assert acceptance.repository(java, str(tmp_path)) == (
        str(tmp_path / "lz4"), java["lz4_commits"]["base"], java["lz4_commits"]["candidate"])
    assert acceptance.repository(blosc, None) is None
