"""The committed mutation scores (harness/mutate/score.py): the document
is what the data make; a hand classification may only sort survivors the
probe could not, with a reason; the classified score leaves out exactly
latitude, equivalent and not-reached survivors, counts asan32 kills (from
the survivors' asan32 run) as kills and an unclassified survivor as a miss."""
import json

import pytest

from conftest import harness
from harness.mutate import score


def mutant(mid, result, probe=None):
    m = {"id": mid, "file": "lib/lz4.c", "line": 1, "function": "f", "category": "constant",
         "op": "inc", "original": "1", "mutated": "2", "result": result, "seconds": 1.0}
    if probe:
        m["probe"], m["probe_evidence"] = probe, "evidence of " + mid
    return m


DATA = {"tree": "t", "tree_id": "upstream-x", "files": ["lib/lz4.c"], "seed": 1, "n": 9,
        "checks": ["vectors"], "config": "asan64", "facts": {"candidates": 99, "by_category": {}},
        "seconds_total": 9.0,
        "mutants": [mutant("k1", "killed"), mutant("k2", "killed"), mutant("e", "equivalent"),
                    mutant("lat", "survived", "latitude"), mutant("obs", "survived", "observable"),
                    mutant("eq", "survived", "no difference"),
                    mutant("nr", "survived", "no difference"),
                    dict(mutant("a32", "survived", "no difference"),
                         asan32_killed_by="contracts x (FAIL)"),
                    mutant("un", "survived", "no difference")]}
HAND = {"eq": {"class": "equivalent", "reason": "r"}, "nr": {"class": "not reached here",
                                                             "reason": "r"},
        }


def test_the_classified_score_leaves_out_exactly_what_no_check_may_kill():
    t, killed, judged = score.tally(DATA, HAND)
    # killed: k1, k2 and the asan32 kill; judged: those + obs + un (a miss)
    assert (killed, judged) == (3, 5), t
    assert t["survived: unclassified"] == 1 and t["survived: latitude"] == 1


@pytest.mark.parametrize("hand,what", [
    ({"k1": {"class": "equivalent", "reason": "r"}}, "not a survivor"),
    ({"obs": {"class": "equivalent", "reason": "r"}}, "the probe already says observable"),
    ({"un": {"class": "boring", "reason": "r"}}, "class must be one of"),
    ({"a32": {"class": "equivalent", "reason": "r"}}, "asan32 already kills it"),
    ({"un": {"class": "equivalent", "reason": ""}}, "with a reason"),
])
def test_a_hand_class_the_data_contradict_is_a_problem(hand, what):
    assert any(what in p for p in score.problems(DATA, hand)), score.problems(DATA, hand)


def test_the_document_lists_every_survivor_with_its_class():
    text = score.render([DATA], {"t": HAND})
    assert "classified score: **60.0%** (3 / 5)" in text
    for mid, cls in (("lat", "latitude"), ("obs", "observable"), ("eq", "equivalent"),
                     ("un", "unclassified")):
        assert "| `%s` | f | `1` → `2` | %s |" % (mid, cls) in text


def test_the_committed_document_is_what_the_committed_data_make():
    proc = harness("mutate-score", "--check")
    assert proc.returncode == 0, proc.stderr


def test_check_fails_on_a_stale_document(tmp_path, monkeypatch):
    data = tmp_path / "mutation"
    data.mkdir()
    (data / "t.json").write_text(json.dumps(DATA))
    (data / "survivors.json").write_text(json.dumps({"t": HAND}))
    monkeypatch.setattr(score, "DATA", str(data))
    monkeypatch.setattr(score, "SURVIVORS", str(data / "survivors.json"))
    monkeypatch.setattr(score, "DOC", str(tmp_path / "doc.md"))
    assert score.main([]) == 0
    assert score.main(["--check"]) == 0
    (tmp_path / "doc.md").write_text("edited by hand\n")
    assert score.main(["--check"]) == 1
    # a document without committed data is stale too
    (data / "t.json").unlink()
    (data / "survivors.json").unlink()
    assert score.main(["--check"]) == 1


def test_compact_keeps_the_asan32_killer_of_a_survivor_and_no_source_line():
    def rec(mid, result, **kw):
        return dict(mutant(mid, result), before="if (a < b)", after="if (a <= b)",
                    copy="/x/build/mutate/t/" + mid, **kw)
    res = {"tree_id": "upstream-x", "files": ["lib/lz4.c"], "seed": 1, "n": 2,
           "checks": ["vectors"], "config": "asan64",
           "facts": {"candidates": 9, "by_category": {}, "functions_mutated": {}},
           "seconds": {"total": 3.0},
           "mutants": [rec("s", "survived", probe={"class": "no difference", "differs": [],
                                                     "evidence": "e"}),
                       rec("k", "killed", killed_by={"stage": "vectors", "check": "v",
                                                     "verdict": "FAIL", "evidence": "x"})]}
    res32 = {"mutants": [rec("s", "killed", killed_by={"stage": "contracts", "check": "c",
                                                       "verdict": "CRASH", "evidence": "y"})]}
    data = score.compact(res, "t", res32)
    s, k = data["mutants"]
    assert s["asan32_killed_by"] == "contracts c (CRASH)" and k["killed_by"] == "vectors v (FAIL)"
    assert score.class_of(s, {})[0] == "killed in asan32"
    text = json.dumps(data)
    assert "if (a" not in text and "/x/build" not in text
