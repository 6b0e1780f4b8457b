"""Placing a fuzz finding (harness/gate/confirm.py), with the replays
scripted: confirmed 3 of 3 on the candidate or listed as not reproducible,
ref's failure never the candidate's, a base without the entry point said
so, the base's own bugs in a pair finding the base's."""
import argparse

import pytest

from harness.gate import confirm, policy

pytestmark = pytest.mark.check

FAIL_SIG = {"signature": "rejects_valid@frame_decompress"}
OTHER_SIG = {"signature": "accepts_invalid@frame_decompress"}


class Docs:
    def __init__(self, documented=None):
        self.documented = documented or {}

    def fuzz(self, identity, sig):
        return self.documented.get((identity, sig))


class FakeGate:
    def __init__(self, records=(), documented=None):
        self.opts = argparse.Namespace(base="kernel", candidate="upstream", patch=[])
        self.records = list(records)
        self.docs = Docs(documented)

    def identity(self, role):
        return {"base": "kernel@x", "candidate": "upstream@y"}[role]

    def stage_roots(self):
        return {"base": "/stage/kernel-1", "candidate": "/stage/upstream-2"}


def script(monkeypatch, by_subject):
    """confirm.replays answers from by_subject[(subject, subject_b)] (a list
    of results, one per replay); records which subjects were replayed."""
    calls = []

    def fake(args, path, times=confirm.REPLAYS):
        key = (args.subject, getattr(args, "subject_b", None))
        calls.append(key)
        return list(by_subject[key])[:times]
    monkeypatch.setattr(confirm, "replays", fake)
    return calls


def finding(sig="rejects_valid@frame_decompress", status="new", **kw):
    f = {"signature": sig, "entry": sig.split("@")[1].split(" ")[0], "status": status,
         "finding": None, "input": "/x/input", "config": "libfuzzer"}
    f.update(kw)
    return f


def args(target="frame_decode"):
    return argparse.Namespace(target=target, subject="upstream", subject_b=None, patch=[],
                              patch_b=[], engine="libfuzzer", config=None, bits="64",
                              ignore=[], skip=[])


def test_a_finding_that_does_not_fail_every_replay_is_not_reproducible(monkeypatch):
    script(monkeypatch, {("upstream", None): [FAIL_SIG, None, FAIL_SIG]})
    f = confirm.confirm(FakeGate(), args(), finding())
    assert f["category"] == "unconfirmed" and "2 of 3" in f["why"]


def test_refs_failure_is_lz4gates_defect_not_the_candidates(monkeypatch):
    script(monkeypatch, {("upstream", None): [FAIL_SIG] * 3, ("ref", None): [FAIL_SIG]})
    f = confirm.confirm(FakeGate(), args(), finding())
    assert f["category"] == "unconfirmed" and "ref fails" in f["why"]


def test_a_base_without_the_entry_point_is_said_so_not_passed(monkeypatch):
    calls = script(monkeypatch, {("upstream", None): [FAIL_SIG] * 3, ("ref", None): [None],
                                 ("kernel", None): [None] * 3})
    recs = [{"role": "base", "stage": "contracts", "check": "frame_decompress.x",
             "status": "n/a"}]
    f = confirm.confirm(FakeGate(recs), args(), finding())
    assert "no such entry point" in f["why"] and f["base"] == "n/a"
    assert ("kernel", None) not in calls            # never "the base passes"
    assert f["category"] == "regression"            # a false reject (policy: FAIL)


def test_a_base_that_fails_too_makes_it_known_and_a_passing_one_new(monkeypatch):
    recs = [{"role": "base", "stage": "contracts", "check": "frame_decompress.x",
             "status": "pass"}]
    script(monkeypatch, {("upstream", None): [FAIL_SIG] * 3, ("ref", None): [None],
                         ("kernel", None): [OTHER_SIG] * 3})
    f = confirm.confirm(FakeGate(recs), args(), finding())
    assert f["category"] == "known" and "fails on both" in f["why"]
    script(monkeypatch, {("upstream", None): [FAIL_SIG] * 3, ("ref", None): [None],
                         ("kernel", None): [None] * 3})
    f = confirm.confirm(FakeGate(recs), args(), finding())
    assert f["category"] == "regression" and "base passes" in f["why"]
    # A latitude finding the base does not share: a behaviour change (WARN).
    lat = {"signature": "accepts_invalid@frame_decompress"}
    script(monkeypatch, {("upstream", None): [lat] * 3, ("ref", None): [None],
                         ("kernel", None): [None] * 3})
    f = confirm.confirm(FakeGate(recs), args(), finding("accepts_invalid@frame_decompress"))
    assert f["category"] == "changed" and f["failure_kind"] == policy.LATITUDE


def test_a_memory_error_where_the_base_fails_otherwise_is_a_regression(monkeypatch):
    oob = {"signature": "OOB-READ@decompress_safe in LZ4_decompress_generic"}
    recs = [{"role": "base", "stage": "contracts", "check": "decompress_safe.x",
             "status": "pass"}]
    script(monkeypatch, {("upstream", None): [oob] * 3, ("ref", None): [None],
                         ("kernel", None): [{"signature": "accepts_invalid@decompress_safe"}] * 3})
    f = confirm.confirm(FakeGate(recs), args("decode_differential"),
                        finding(oob["signature"]))
    assert f["category"] == "regression" and "memory-safety" in f["why"]


def test_the_bases_fault_in_a_pair_finding_is_the_bases(monkeypatch):
    sig = "cross_decode@compress_fast"
    script(monkeypatch, {("kernel", "upstream"): [{"signature": sig}] * 3})
    a = args("base_vs_candidate")
    a.subject, a.subject_b = "kernel", "upstream"
    gate = FakeGate(documented={("kernel@x", sig): "KLZ4-ACCEL-WRAP"})
    f = confirm.confirm(gate, a, finding(sig, fault="base"))
    assert f["category"] == "known" and f["finding"] == "KLZ4-ACCEL-WRAP"
    assert "base's own bug" in f["why"]
    # The same finding at the candidate's fault fails the gate.
    f = confirm.confirm(gate, a, finding(sig, fault="candidate"))
    assert f["category"] == "regression"
    # A crash placed by its top frame's tree.
    crash = "OOB-READ@compress_fast in LZ4_hash4"
    script(monkeypatch, {("kernel", "upstream"): [{"signature": crash}] * 3})
    f = confirm.confirm(gate, a, finding(crash, frames=[
        {"func": "LZ4_hash4", "file": "/stage/kernel-1/lib/lz4/lz4_compress.c", "line": 9}]))
    assert f["category"] == "known" and "base's own bug" in f["why"]
