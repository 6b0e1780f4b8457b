"""The acceptance set's committed data (regress/results/acceptance.json,
docs/acceptance.md): what CI can check without the trees, which are gated
at development time (docs/acceptance.md, "Results"): every row has a
recorded result, the verdict and groups its row argues."""
import copy
import os

import pytest

from harness.gate import acceptance


@pytest.mark.check
def test_recorded_results_agree_with_their_rows_and_the_doc_table():
    # `python3 -m harness acceptance --check`: every row has a result, each
    # its row's verdict with every expected group, and the doc's table is
    # the data file's.
    rows = acceptance.load()
    assert acceptance.check(rows) == []
    assert len(rows) >= 8 and len({r["repo"] for r in rows}) >= 5
    assert acceptance.main(["--check"]) == 0


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


@pytest.mark.check
def test_a_row_outside_upstreams_layout_names_lz4gates_adapter_and_stubs():
    # Issue 24: the set holds a decoder-only and a project-API copy, gated
    # through docs/subjects.md's example adapters; the files their options name
    # are checked to exist ({lz4gate} is this repository's top).
    rows = {r["id"]: r for r in acceptance.load()}
    kinds = {r["id"]: " ".join(r.get("gate_args", [])) for r in rows.values()}
    assert "docs/examples/adapter_fs.c" in kinds["openzfs-illumos-1.9.3dec"]
    assert "docs/examples/adapter_bootloader.c" in kinds["u-boot-1.8.3dec"]
    stubs = acceptance.row_gate_args(rows["u-boot-1.8.3dec"])
    assert os.path.join(acceptance.TOP, "docs/examples/stubs/bootloader") in stubs
    broken = copy.deepcopy(rows["u-boot-1.8.3dec"])
    broken["gate_args"] = ["--adapter", "docs/examples/gone.c",
                           "--include", "{lz4gate}/docs/examples/stubs/none"]
    assert acceptance.missing_files(broken) == ["docs/examples/gone.c",
                                                "docs/examples/stubs/none"]
    assert any("not in lz4gate" in p for p in acceptance.check([broken]))
