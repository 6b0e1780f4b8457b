"""The gate's verdict rules (harness/gate/verdict.py) on synthetic records:
a failure is compared with the base in the same configuration only."""
import pytest

from harness.gate import verdict


def rec(role, check, config, status, verdict_="FAIL", stage="contracts", finding=None):
    r = {"role": role, "check": check, "config": config, "status": status,
         "verdict": verdict_ if status in ("FAIL", "known finding") else status,
         "stage": stage, "evidence": "", "spec": role}
    if finding:
        r["finding"] = finding
    return r


@pytest.mark.check
def test_a_base_failure_in_one_configuration_does_not_hide_a_candidate_failure_in_another():
    records = [rec("base", "decompress_safe.exact_capacity", "asan32", "FAIL"),
               rec("base", "decompress_safe.exact_capacity", "asan64", "pass"),
               rec("candidate", "decompress_safe.exact_capacity", "asan32", "FAIL"),
               rec("candidate", "decompress_safe.exact_capacity", "asan64", "FAIL")]
    cats = verdict.compare(records)
    new = {(i["id"], tuple(i["configs"])) for i in cats["new"]}
    known = {(i["id"], tuple(i["configs"])) for i in cats["known"]}
    assert new == {("decompress_safe.exact_capacity", ("asan64",))}
    assert known == {("decompress_safe.exact_capacity", ("asan32",))}
    assert verdict.failed(cats, strict=False)


@pytest.mark.check
def test_lost_fixed_and_known_cases_per_configuration():
    records = [rec("base", "KLZ4-X", "asan64", "pass", stage="regress"),
               rec("candidate", "KLZ4-X", "asan64", "FAIL", stage="regress"),
               rec("base", "KLZ4-Y", "asan64", "known finding", stage="regress"),
               rec("candidate", "KLZ4-Y", "asan64", "pass", stage="regress"),
               rec("base", "KLZ4-Z", "O2", "FAIL", "CRASH", stage="regress"),
               rec("candidate", "KLZ4-Z", "O2", "FAIL", "CRASH", stage="regress")]
    cats = verdict.compare(records)
    assert [i["id"] for i in cats["lost"]] == ["KLZ4-X"]
    assert [i["id"] for i in cats["fixed"]] == ["KLZ4-Y"]
    assert [i["id"] for i in cats["known"]] == ["KLZ4-Z"]
    assert verdict.failed(cats, strict=False)
    assert not verdict.failed(dict(cats, lost=[]), strict=False)
    assert verdict.failed(dict(cats, lost=[]), strict=True)      # --strict: known is fatal


@pytest.mark.check
def test_a_failure_of_another_kind_on_the_base_is_new():
    records = [rec("base", "c", "asan64", "FAIL", "FAIL"),
               rec("candidate", "c", "asan64", "FAIL", "CRASH")]
    cats = verdict.compare(records)
    assert [i["id"] for i in cats["new"]] == ["c"] and not cats["known"]


@pytest.mark.check
def test_candidate_only_entry_points_need_documentation_of_the_candidates_own_tree():
    records = [rec("base", "frame_decompress.x", "asan64", "n/a", "n/a"),
               rec("candidate", "frame_decompress.x", "asan64", "known finding",
                   finding="ULZ4-2023-1227"),
               rec("base", "frame_compress.y", "asan64", "n/a", "n/a"),
               rec("candidate", "frame_compress.y", "asan64", "FAIL")]
    cats = verdict.compare(records)
    assert [i["id"] for i in cats["known"]] == ["frame_decompress.x"]
    assert [i["id"] for i in cats["new"]] == ["frame_compress.y"]
