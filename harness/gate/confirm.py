"""The evidence behind a fuzz finding: its input replayed on every side,
each replay one record (harness/evidence/records.py, stage "fuzz"). The
classifier (harness/findings/classify.py, fuzz_units.py) judges them;
nothing is decided here.

For each finding a campaign (or the seed replay) reports on the
candidate: one "finding" record (what the campaign saw), then REPLAYS
replays on the candidate, one on ref, and REPLAYS on the base, each with the
target's replay build (ASan + UBSan). The base is not replayed where its
own runner records say it has no such entry point. A finding of the pair
target (base_vs_candidate) runs both sides in each replay; the record
carries the side ref puts the fault on (the target records it:
fuzz/oracle.h fz_finding_by; a sanitizer crash is placed by the tree of
its top subject frame).
"""
from harness.evidence import records as evidence_records
from harness.evidence.failure import fail_class_of, fault_of_frames
from harness.fuzzing import campaign
from harness.fuzzing.build import build as build_target
from harness.fuzzing.replay import replay_one
from harness.fuzzing.targets import PAIR_TARGET

REPLAYS = 3


def _kw(gate, role):
    """A side's --include/--define (the gate's; {} for a gate without them)."""
    return gate.kw(role) if hasattr(gate, "kw") else {}


def _on(a, subject, patch, subject_b=None, patch_b=None, kw=None, kw_b=None):
    """a's target on other subjects (kw, kw_b: their --include/--define)."""
    b = campaign.replay_args(a)
    b.subject, b.patch = subject, list(patch)
    b.include, b.define = list((kw or {}).get("includes", [])), list((kw or {}).get("defines", []))
    if a.target == PAIR_TARGET:
        b.subject_b, b.patch_b = subject_b, list(patch_b or [])
        b.include_b = list((kw_b or {}).get("includes", []))
        b.define_b = list((kw_b or {}).get("defines", []))
    return b


def _replay_record(f, role, args, identity, n, fail):
    """One replay as a record: pass, or the failure replay_one() saw. The
    replay keeps going past the oracle's findings, as the campaign did: when
    the finding's own CLASS@ENTRY is among them, that is the replay's
    failure (the same input may fail an earlier call another way)."""
    rec = {"stage": "fuzz", "source": "replay", "check": f["signature"], "target": f["target"],
           "role": role, "replay": n, "config": "asan32" if str(args.bits) == "32" else "asan64",
           "identity": identity, "verdict": "pass", "evidence": "", "entry": f.get("entry")}
    if fail:
        own = f["signature"].split(" in ")[0]
        sig = own if own in fail.get("recorded", ()) else fail["signature"]
        rec.update(verdict="FAIL" if fail.get("oracle") else "CRASH",
                   fail_class=fail_class_of(sig), entry=entry_of(sig) or fail.get("entry"),
                   evidence=fail.get("message", ""),
                   report=fail.get("report", ""), replay_signature=sig)
    return evidence_records.normalize(rec)


def entry_of(sig):
    """The API entry of a signature CLASS@ENTRY[ in FUNC], None for "-"."""
    entry = sig.partition("@")[2].split(" in ")[0]
    return None if entry in ("", "-") else entry


def replays(args, f, role, identity, times=REPLAYS):
    binary = build_target(args)
    return [_replay_record(f, role, args, identity, n,
                           replay_one(args, binary, f["input"], keep_going=True))
            for n in range(times)]


def finding_record(gate, a, f, config):
    """What the campaign saw, as the candidate's record of the finding."""
    rec = {"stage": "fuzz", "source": "finding", "check": f["signature"], "target": a.target,
           "role": "candidate", "config": config, "identity": gate.identity("candidate"),
           "base_identity": gate.identity("base"),
           "verdict": "FAIL" if f.get("source") == "oracle" else "CRASH",
           "fail_class": fail_class_of(f["signature"]), "entry": f.get("entry"),
           "evidence": f.get("message", ""), "report": f.get("report") or "",
           "input": f.get("input"), "fuzz": f, "bits": 32 if str(a.bits) == "32" else 64}
    if a.target == PAIR_TARGET:
        roots = gate.stage_roots()
        rec["fault"] = f.get("fault") or fault_of_frames(
            f.get("frames") or [], roots.get("base"), roots.get("candidate"))
    rec = evidence_records.normalize(rec)
    rec["fail_class"] = fail_class_of(f["signature"])      # the campaign's own class
    return rec


def evidence(gate, a, f, config):
    """The records of one finding of target args `a` on the candidate."""
    o = gate.opts
    f.update(target=a.target, config=config)
    out = [finding_record(gate, a, f, config)]
    if out[0]["fail_class"] == "not_triaged" or not f.get("input"):
        return out
    cand_id = gate.identity("candidate")
    if a.target == PAIR_TARGET:
        return out + replays(_on(a, o.base, [], o.candidate, o.patch, _kw(gate, "base"),
                                 _kw(gate, "candidate")), f, "candidate", cand_id)
    out += replays(_on(a, o.candidate, o.patch, kw=_kw(gate, "candidate")), f, "candidate",
                   cand_id)
    if any(r["verdict"] == "pass" for r in out[1:]):
        return out          # not reproducible: nothing else to learn
    out += replays(_on(a, "ref", []), f, "ref", "ref", 1)
    if any(r["verdict"] != "pass" for r in out[-1:]):
        return out
    if _base_lacks(gate.records, f.get("entry")):
        return out
    return out + replays(_on(a, o.base, [], kw=_kw(gate, "base")), f, "base",
                         gate.identity("base"))


def _base_lacks(records, entry):
    """Do the base's own runner records say it has no such entry point?"""
    seen = [r for r in records if r.get("role") == "base" and r.get("stage") != "fuzz"
            and r.get("entry") == entry]
    return bool(seen) and all(r["verdict"] == "n/a" for r in seen)
