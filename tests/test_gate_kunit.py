"""The gate's opt-in in-kernel stage (harness/gate/kunit_stage.py) without
booting a kernel: in-kernel rows become one record per case and side, the
verdict compares them like regression cases (a case the base's kernel
passes and the candidate's fails is a lost fix), and a side that is no
whole kernel tree has no in-kernel run."""
import pytest

from harness.findings import classify
from harness.findings.catalogue import Catalogue
from harness.gate import kunit_stage
from harness.findings.documented import Documented

pytestmark = pytest.mark.check

CASES = [{"id": "KLZ4-2017-CRYPTO-ERR", "class": "wrong return value",
          "fail_class": "wrong_return"},
         {"id": "KLZ4-FAST", "class": "OOB read", "fail_class": "OOB-READ"},
         {"id": "ULZ4-2014-4611", "class": "integer overflow", "fail_class": "OOB-WRITE"}]


def rows(*spec):
    return [{"case": c, "tcId": t, "status": s, "message": m} for c, t, s, m in spec]


def side(role, got):
    return kunit_stage.case_records(got, CASES, role, "kernel@x", Documented())


def test_rows_become_one_record_per_case():
    recs = side("candidate", rows(("KLZ4-2017-CRYPTO-ERR", 1, "FAIL", "tc 1: returned -5024"),
                                  ("KLZ4-2017-CRYPTO-ERR", 2, "PASS", ""),
                                  ("KLZ4-FAST", None, "FAIL", "Kernel panic"),
                                  ("ULZ4-2014-4611", 1, "SKIP", "needs a 32-bit kernel")))
    got = {r["case"]: (r["verdict"], r["status"], r["stage"], r["config"]) for r in recs}
    assert got == {"KLZ4-2017-CRYPTO-ERR": ("FAIL", "FAIL", "kunit", "uml64"),
                   "KLZ4-FAST": ("CRASH", "FAIL", "kunit", "uml64"),
                   "ULZ4-2014-4611": ("n/a", "n/a", "kunit", "uml64")}
    assert recs[0]["evidence"] == "in-kernel (UML): tc 1: returned -5024"


def test_a_case_the_candidates_kernel_loses_is_a_lost_fix():
    base = side("base", rows(("KLZ4-2017-CRYPTO-ERR", 1, "PASS", ""),
                             ("KLZ4-FAST", None, "FAIL", "Kernel panic")))
    cand = side("candidate", rows(("KLZ4-2017-CRYPTO-ERR", 1, "FAIL", "returned -5024"),
                                  ("KLZ4-FAST", None, "FAIL", "Kernel panic")))
    got = classify.classify(base + cand, Catalogue(CASES), Documented())
    cats = got["categories"]
    assert [(i["id"], i["stage"], i["kind"]) for i in cats["lost"]] == \
        [("KLZ4-2017-CRYPTO-ERR", "kunit", "case")]
    assert [i["id"] for i in cats["known"]] == ["KLZ4-FAST"]
    # a KTAP row has no class of its own: a failing row is the case's bug
    assert cats["lost"][0]["fail_class"] == "wrong_return"
    assert got.failed(strict=False)


def test_a_side_that_is_no_whole_kernel_tree_has_no_in_kernel_run(tmp_path):
    assert kunit_stage.whole_tree("ref") is None
    assert kunit_stage.whole_tree("upstream:%s" % tmp_path) is None
