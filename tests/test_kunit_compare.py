"""The in-kernel run beside the kshim run (harness/kunit/compare.py), the
bug proofs' substitutions (harness/kunit/bugs.py), the "kunit" field of a
case (harness/runners/regress/cases.py), and the committed in-kernel
records (regress/results/kunit/) against the suite generated today."""
import copy

import pytest

from harness.errors import CaseError
from harness.kunit import bugs, compare, emit_erofs, model
from harness.kunit.kernel import KernelError
from harness.report.regressions import kunit_results
from harness.runners.regress.cases import load_cases, validate

pytestmark = pytest.mark.check


def case(cid, exercised=True, **kunit):
    return {"id": cid, "exercised": exercised, "kunit": kunit}


def row(cid, tc, status, message=""):
    return {"case": cid, "tcId": tc, "status": status, "message": message}


def kshim(cid, verdict, test=None, evidence=""):
    return {"case": cid, "verdict": verdict, "test": test, "evidence": evidence}


def outcomes(cases, kernel, shim):
    return {cid: outcome for cid, outcome, _ in compare.compare(cases, kernel, shim)}


def test_same_verdicts_and_differences_are_told_apart():
    cases = [case("A"), case("B"), case("C"), case("D", differs="no guard pages in UML"),
             case("E")]
    kernel = [row("A", 1, "PASS"), row("B", 1, "FAIL", "tc 1: returned 3"),
              row("C", 1, "PASS"), row("C", 2, "PASS"), row("D", 4, "PASS"),
              row("E", 1, "SKIP", "needs a 32-bit kernel")]
    shim = [kshim("A", "pass"), kshim("B", "FAIL", 1), kshim("C", "CRASH", 2),
            kshim("D", "CRASH", 4), kshim("E", "FAIL", 1)]
    got = outcomes(cases, kernel, shim)
    assert got == {"A": "same", "B": "same", "C": "DIFFERS", "D": "differs (explained)",
                   "E": "not compared"}
    assert compare.report(compare.compare(cases, kernel, shim), say=lambda line: None) == 1


def test_a_kernel_failure_the_kshim_does_not_have_is_a_difference():
    got = outcomes([case("A")], [row("A", 1, "PASS"), row("A", 2, "FAIL")],
                   [kshim("A", "pass")])
    assert got == {"A": "DIFFERS"}


def test_a_kernel_crash_is_a_failure_of_the_case():
    got = outcomes([case("A")], [row("A", None, "FAIL", "Kernel panic")],
                   [kshim("A", "CRASH", 3)])
    assert got == {"A": "same"}


def test_glue_cases_are_kernel_only():
    got = compare.compare([case("G", exercised=False)], [row("G", 1, "PASS")],
                          [kshim("G", "n/a", evidence="the subject has none of the entry points")])
    assert got[0][1:] == ("not compared", "no userspace run [asan64]: kernel glue")


FIXED = "int f(int r)\n{\n\tif (r < 0)\n\t\treturn -EINVAL;\n\treturn r;\n}\n"


def tree_with(tmp_path, text):
    (tmp_path / "crypto").mkdir()
    (tmp_path / "crypto" / "x.c").write_text(text)
    return str(tmp_path)


def bug_case(old="return -EINVAL;", new="return r;"):
    return {"id": "C", "kunit": {"tests": [{}], "bug": [{"file": "crypto/x.c", "old": old,
                                                      "new": new}]}}


def test_a_bug_is_made_from_the_users_tree(tmp_path):
    src = tree_with(tmp_path, FIXED)
    texts = bugs.buggy_texts(src, bug_case())
    assert texts == {"crypto/x.c": FIXED.replace("return -EINVAL;", "return r;")}
    assert (tmp_path / "crypto" / "x.c").read_text() == FIXED     # never written


@pytest.mark.parametrize("text", [FIXED.replace("-EINVAL", "-EIO"), FIXED + FIXED])
def test_a_tree_without_the_fixed_code_exactly_once_cannot_be_given_the_bug(tmp_path, text):
    with pytest.raises(KernelError, match="fragment"):
        bugs.buggy_texts(tree_with(tmp_path, text), bug_case())


def test_every_glue_case_with_kernel_tests_has_a_bug_to_prove_it():
    cases = load_cases()
    glue = [c for c in cases if not c["exercised"] and model.kunit_tests(c)]
    assert {c["id"] for c in glue} >= {"KLZ4-2013-CRYPTO-DEC", "KLZ4-2017-CRYPTO-ERR",
                                       "KLZ4-EROFS-45999", "KLZ4-EROFS-49464",
                                       "KLZ4-EROFS-52497"}
    assert {c["id"] for c in bugs.cases_with_bugs(cases)} == {c["id"] for c in glue}


def test_a_kernel_only_test_without_a_bug_is_refused():
    c = copy.deepcopy(next(x for x in load_cases() if x["id"] == "KLZ4-2017-CRYPTO-ERR"))
    validate(c, c["id"] + ".json")
    del c["kunit"]["bug"]
    with pytest.raises(CaseError, match="nothing can fail"):
        validate(c, c["id"] + ".json")
    c["kunit"]["bug"] = [{"file": "crypto/lz4.c", "old": ""}]
    with pytest.raises(CaseError, match="file, old, new"):
        validate(c, c["id"] + ".json")


def test_committed_in_kernel_records_are_rows_of_todays_suite():
    # regress/results/kunit/*.jsonl are real UML runs made at development
    # time (docs/kunit.md); every record must still be a row of the suite
    # generated now, a row the generator skips must be a SKIP there, and the
    # glue cases must have run.
    runs = kunit_results.load()
    assert "linux-6.12" in runs
    included, _ = model.suite()
    rows = {(c["id"], r["tcId"]): r for c, rs in included for r in rs}
    rows.update({(c["id"], t["tcId"]): {} for c, ts in emit_erofs.erofs_cases(load_cases())
                 for t in ts})
    for tree, recs in runs.items():
        for r in recs:
            if r["tcId"] is None:
                assert r["status"] == "FAIL", r          # a crash ends its case
                continue
            key = (r["case"], r["tcId"])
            assert key in rows, "%s: %s tc %s is no row of the suite" % ((tree,) + key)
            if "skip" in rows[key]:
                assert r["status"] == "SKIP", r
        for cid in ("KLZ4-2013-CRYPTO-DEC", "KLZ4-2017-CRYPTO-ERR", "KLZ4-EROFS-45999",
                    "KLZ4-EROFS-49464", "KLZ4-EROFS-52497"):
            assert kunit_results.cell(recs, cid) == "pass", (tree, cid)


def test_the_in_kernel_cell_names_failing_rows():
    recs = [row("A", 1, "PASS"), row("A", 2, "FAIL"), row("B", 1, "SKIP"),
            row("C", 1, "PASS"), row("C", 2, "SKIP"), row("D", None, "FAIL"),
            dict(row("D", 1, "FAIL"), config="uml32")]
    assert [kunit_results.cell(recs, c) for c in "ABCDE"] == \
        ["FAIL (tc 2)", "skipped", "pass (1 of 2 rows)", "FAIL (tc crash, 1 [uml32])", "-"]
