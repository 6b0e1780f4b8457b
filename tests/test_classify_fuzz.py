"""Fuzz findings through the one classifier (harness/findings/fuzz_units.py):
the replays harness/gate/confirm.py records, one evidence standard for
both sides, root causes across inputs and stages, the pair target's side
at fault."""
import argparse

import pytest

from harness.findings import classify as classifier, policy
from harness.findings.catalogue import Catalogue
from harness.gate import confirm
from test_classify import Docs, crash, ids, rec

pytestmark = pytest.mark.check


def finding(sig, target="decode_differential", report="", fault=None, verdict="FAIL",
            fail_class=None):
    cls = fail_class or sig.split("@")[0]
    entry = sig.split("@")[1].split(" ")[0]
    return {"stage": "fuzz", "source": "finding", "check": sig, "target": target,
            "role": "candidate", "config": "libfuzzer", "identity": "candidate",
            "base_identity": "base", "verdict": verdict, "fail_class": cls, "entry": entry,
            "evidence": "lz4gate-fuzz: FAIL [%s]" % sig, "report": report, "input": "/x/in",
            "fault": fault, "fuzz": {"signature": sig, "message": sig}}


def replay(f, role, outcome, n=0, report=""):
    """One replay record: outcome a class name (failed that way) or None (passed)."""
    r = {"stage": "fuzz", "source": "replay", "check": f["check"], "target": f["target"],
         "role": role, "replay": n, "config": "asan64", "identity": role,
         "verdict": "pass", "entry": f["entry"], "evidence": ""}
    if outcome:
        r.update(verdict="CRASH" if report else "FAIL", fail_class=outcome, report=report)
    return r


def replays(f, role, outcomes, report=""):
    return [replay(f, role, o, n, report) for n, o in enumerate(outcomes)]


def run(records, docs=None):
    return classifier.classify(records, Catalogue(), docs or Docs())


STALE = "stale_output@decompress_safe_partial"


def confirmed(f, base, ref=(None,)):
    return [f] + replays(f, "candidate", [f["fail_class"]] * 3) + \
        replays(f, "ref", list(ref)) + replays(f, "base", base)


def test_a_finding_that_does_not_fail_every_replay_is_not_reproducible():
    f = finding(STALE)
    got = run([f] + replays(f, "candidate", ["stale_output", None, "stale_output"]))
    assert ids(got, "unconfirmed") == [STALE] and "2 of 3" in \
        got["categories"]["unconfirmed"][0]["why"]


def test_refs_failure_is_lz4gates_defect_not_the_candidates():
    f = finding(STALE)
    got = run(confirmed(f, [], ref=["stale_output"]))
    assert ids(got, "unconfirmed") == [STALE] and "ref fails" in \
        got["categories"]["unconfirmed"][0]["why"]


def test_one_evidence_standard_a_base_whose_replays_disagree_decides_nothing():
    f = finding(STALE)
    got = run(confirmed(f, ["stale_output", None, None]) +
              [rec("base", "decompress_safe_partial.x", "asan64", "pass")])
    assert ids(got, "unconfirmed") == [STALE]
    assert "whose bug it is cannot be told" in got["categories"]["unconfirmed"][0]["why"]


def test_a_base_that_fails_the_input_makes_it_known_and_one_that_passes_new():
    f = finding(STALE)
    base_has = [rec("base", "decompress_safe_partial.x", "asan64", "pass")]
    got = run(confirmed(f, ["stale_output"] * 3) + base_has)
    assert ids(got, "known") == [STALE] and "fails on both" in \
        got["categories"]["known"][0]["why"]
    got = run(confirmed(f, [None] * 3) + base_has)
    assert ids(got, "regression") == [STALE] and "base passes" in \
        got["categories"]["regression"][0]["why"]


def test_a_fuzz_finding_the_base_shows_through_a_case_is_the_bases_root_cause():
    # A Kafka client's lz4 1.9.2 -> 1.9.3 (issue 40): the fuzz input happens
    # to pass on 1.9.2, whose ULZ4-PARTIAL-OFFSET0 case fails the same way,
    # and whose CVE-2021-3520 case crashes where the candidate's input does.
    # (the pair target calls the leak offset0_output, the case stale_output:
    # one family, one entry point, one root cause)
    leak = finding("offset0_output@decompress_safe_partial")
    neg = crash("LZ4_decompress_generic", "LZ4_decompress_safe_partial",
                kind="negative-size-param", entry="decompress_safe_partial")
    sig = "negative-size-param@decompress_safe_partial in LZ4_decompress_generic"
    mem = finding(sig, report=neg, verdict="CRASH", fail_class="negative-size-param")
    records = confirmed(leak, [None] * 3) + [mem] + \
        replays(mem, "candidate", ["negative-size-param"] * 3, report=neg) + \
        replays(mem, "ref", [None]) + replays(mem, "base", [None] * 3) + [
        rec("base", "ULZ4-PARTIAL-OFFSET0", "asan64", fail_class="stale_output",
            stage="regress", entry="decompress_safe_partial"),
        rec("base", "ULZ4-2021-3520", "asan64", "CRASH", stage="regress",
            report=crash("LZ4_decompress_generic", "LZ4_decompress_safe_partial",
                         kind="SEGV", access="WRITE", entry="decompress_safe_partial"))]
    got = run(records)
    leak_id = "offset0_output@decompress_safe_partial"
    assert ids(got, "known") == sorted([leak_id, sig]) and not got.failed(strict=False)
    why = {i["id"]: i["why"] for i in got["categories"]["known"]}
    assert "ULZ4-PARTIAL-OFFSET0" in why[leak_id] and "ULZ4-2021-3520" in why[sig]
    # A new bug beside them still fails: wrong bytes in decompress_safe.
    new = finding("wrong_output@decompress_safe")
    got = run(records + confirmed(new, [None] * 3))
    assert ids(got, "regression") == ["wrong_output@decompress_safe"]


def test_a_base_without_the_entry_point():
    f = finding("rejects_valid@frame_decompress", target="frame_decode")
    got = run([f] + replays(f, "candidate", ["rejects_valid"] * 3) + replays(f, "ref", [None])
              + [rec("base", "frame_decompress.x", "asan64", "n/a")])
    assert ids(got, "regression") == ["rejects_valid@frame_decompress"]
    assert "no such entry point" in got["categories"]["regression"][0]["why"]


def test_a_memory_error_where_the_base_fails_otherwise_is_a_regression():
    report = crash("LZ4_decompress_generic")
    sig = "OOB-READ@decompress_safe in LZ4_decompress_generic"
    f = finding(sig, report=report, verdict="CRASH", fail_class="OOB-READ")
    got = run([f] + replays(f, "candidate", ["OOB-READ"] * 3, report=report) +
              replays(f, "ref", [None]) + replays(f, "base", ["accepts_invalid"] * 3))
    assert ids(got, "regression") == [sig] and "memory-safety" in \
        got["categories"]["regression"][0]["why"]
    assert got["categories"]["regression"][0]["failure_kind"] == policy.MEMORY


def test_the_pair_targets_base_fault_is_the_bases_own_bug():
    sig = "cross_decode@compress_fast"
    base_fault = finding(sig, target="base_vs_candidate", fault="base")
    records = [base_fault] + replays(base_fault, "candidate", ["cross_decode"] * 3)
    got = run(records, Docs({("base", sig): "KLZ4-ACCEL-WRAP"}))
    item = got["categories"]["known"][0]
    assert item["finding"] == "KLZ4-ACCEL-WRAP" and "base's own bug" in item["why"]
    cand = dict(base_fault, fault="candidate")
    got = run([cand] + replays(cand, "candidate", ["cross_decode"] * 3))
    assert ids(got, "regression") == [sig] and "the candidate's fault" in \
        got["categories"]["regression"][0]["why"]


def test_confirm_records_every_replay_and_skips_a_base_without_the_entry(monkeypatch):
    # harness/gate/confirm.py only produces records: three candidate
    # replays, one of ref, three of the base (none where the base's records
    # say it lacks the entry point).
    seen = []

    def fake_replay(args, binary, path, keep_going=False):
        seen.append(args.subject)
        fails = args.subject in ("upstream", "kernel")
        return {"signature": "rejects_valid@frame_decompress", "entry": "frame_decompress",
                "message": "m", "report": "", "oracle": True} if fails else None

    class Gate:
        opts = argparse.Namespace(base="kernel", candidate="upstream", patch=[])
        records = [{"role": "base", "stage": "contracts", "entry": "frame_decompress",
                    "check": "frame_decompress.x", "config": "asan64", "verdict": "pass"}]

        def identity(self, role):
            return role

    monkeypatch.setattr(confirm, "replay_one", fake_replay)
    monkeypatch.setattr(confirm, "build_target", lambda a: "/bin/x")
    a = argparse.Namespace(target="frame_decode", subject="upstream", subject_b=None, patch=[],
                           patch_b=[], engine="libfuzzer", config=None, bits="64", ignore=[],
                           skip=[], include=[], define=[])
    f = {"signature": "rejects_valid@frame_decompress", "entry": "frame_decompress",
         "message": "m", "input": "/x/in", "source": "oracle"}
    recs = confirm.evidence(Gate(), a, f, "libfuzzer")
    assert [r["role"] for r in recs] == ["candidate"] * 4 + ["ref"] + ["base"] * 3
    assert seen == ["upstream"] * 3 + ["ref"] + ["kernel"] * 3
    assert all(r["fail_class"] == "rejects_valid" for r in recs if r["verdict"] != "pass")
    got = classifier.classify(recs + Gate.records, Catalogue(), Docs())
    assert ids(got, "known") == ["rejects_valid@frame_decompress"]
    Gate.records = [dict(Gate.records[0], verdict="n/a")]
    seen.clear()
    recs = confirm.evidence(Gate(), a, f, "libfuzzer")
    assert "kernel" not in seen and [r["role"] for r in recs][-1] == "ref"


def test_a_replay_that_goes_on_past_an_earlier_failure_still_confirms_the_finding(monkeypatch):
    # decode_large on lz4 1.9.3 (issue 40's stability runs): the campaign
    # recorded malformed_wrong_output@decompress_safe_partial; a replay
    # that stops at its first failure stops at decompress_safe's
    # accepts_invalid. The replay keeps going, as the campaign did.
    def fake_replay(args, binary, path, keep_going=False):
        assert keep_going
        return {"signature": "accepts_invalid@decompress_safe", "entry": "decompress_safe",
                "message": "m", "report": "", "oracle": True,
                "recorded": ["accepts_invalid@decompress_safe",
                             "malformed_wrong_output@decompress_safe_partial"]}
    monkeypatch.setattr(confirm, "replay_one", fake_replay)
    monkeypatch.setattr(confirm, "build_target", lambda a: "/bin/x")
    a = argparse.Namespace(target="decode_large", bits="64")
    f = {"signature": "malformed_wrong_output@decompress_safe_partial", "target": "decode_large",
         "entry": "decompress_safe_partial", "input": "/x/in"}
    (r,) = confirm.replays(a, f, "candidate", "c", 1)
    assert (r["verdict"], r["fail_class"], r["entry"]) == (
        "FAIL", "malformed_wrong_output", "decompress_safe_partial")


def test_an_unconfirmed_input_of_a_known_bug_leaves_it_known():
    # lz4 1.9.2 -> 1.9.3: one input of the offset-0 leak replays as another
    # bug (CVE-2021-3520's crash comes first); the leak itself fails on
    # both sides. The root cause stays known, not "not reproducible".
    shaky = finding("offset0_output@decompress_safe_partial")
    good = finding(STALE, target="frame_decode")
    records = [shaky] + replays(shaky, "candidate", ["negative-size-param"] * 3) + \
        confirmed(good, ["stale_output"] * 3) + \
        [rec("base", "decompress_safe_partial.x", "asan64", "pass")]
    got = run(records)
    assert ids(got, "known") == [STALE]
    assert ids(got, "unconfirmed") == ["offset0_output@decompress_safe_partial"]


def test_a_crash_site_confirmed_on_both_sides_stays_known_whatever_one_input_did():
    # One root cause by its stack: an input of it that did not replay 3 of
    # 3 does not move the group to "Not reproducible" (SECTION_ORDER).
    report = crash("LZ4_decompress_generic", "LZ4_decompress_safe_partial")
    sig = "OOB-READ@decompress_safe in LZ4_decompress_generic"
    shaky = finding(sig, report=report, verdict="CRASH", fail_class="OOB-READ")
    got = run([shaky] + replays(shaky, "candidate", ["OOB-READ", None, None], report=report) +
              [rec("base", "c", "asan64", "CRASH", report=report),
               rec("candidate", "c", "asan64", "CRASH", report=report)])
    assert [g["category"] for g in got["groups"]] == ["known"]
    rel = {i["id"]: i["relation"] for i in got["groups"][0]["items"]}
    assert rel == {sig: "unconfirmed", "c": "known"}
