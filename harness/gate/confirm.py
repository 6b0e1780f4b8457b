"""Confirming a fuzz finding before it can fail the gate, and placing it.

Every finding a campaign (or the seed replay) reports on the candidate is
replayed REPLAYS times on the candidate, on the base and on ref, each with
the target's replay build (ASan + UBSan):

  - the candidate must fail every replay with the same CLASS@ENTRY, else the
    finding is listed as not reproducible;
  - ref must pass (ref failing the input is a defect of lz4gate's oracle,
    never the candidate's);
  - the base: no such entry point (from the base's own contract records),
    fails too (known), or passes (the candidate's alone).

A finding of the pair target (base_vs_candidate) carries the side at fault
(the target records it: fuzz/oracle.h fz_finding_by; a sanitizer crash is
placed by the tree of its top subject frame): the base's fault is the base's
own bug (INFO), never the candidate's.
"""
from harness.fuzzing import campaign
from harness.fuzzing.build import build as build_target
from harness.fuzzing.replay import replay_one
from harness.fuzzing.targets import PAIR_TARGET
from harness.gate import policy
from harness.report.failure import fault_of_frames
from harness.report.groups import entry_of_check

REPLAYS = 3


def kind_key(sig):
    """CLASS@ENTRY of a signature (without the top frame)."""
    return (sig or "").split(" in ")[0]


def entry_present(records, role, entry):
    """Has the side this API entry? True/False from its contract records (a
    check of that entry that is not n/a), None when no contract covers it."""
    seen = [r for r in records if r["role"] == role and r["stage"] == "contracts"
            and entry_of_check(r["check"]) == entry]
    if not seen:
        return None
    return any(r["status"] != "n/a" for r in seen)


def replays(args, path, times=REPLAYS):
    """[failure dict or None] of `times` replays of one input."""
    binary = build_target(args)
    return [replay_one(args, binary, path) for _ in range(times)]


def _sig(fail):
    return fail.get("signature") or fail.get("kind") if fail else None


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


def confirm(gate, a, f):
    """Set f["category"], f["why"], f["replays"] (and f["base"]) for one
    finding of target args `a` on the candidate."""
    o = gate.opts
    kind = policy.kind_of_fuzz(f)
    f["failure_kind"] = kind
    if f["status"] == "known" and a.target != PAIR_TARGET and f.get("finding"):
        f.update(category="known", why="documented for the candidate's tree (%s)" % f["finding"])
        return f
    if kind_key(f["signature"]).startswith("not_triaged"):
        # Crash files the triage could not read (crash_triage.py): never
        # silent, never a verdict on the candidate.
        f.update(category="unconfirmed", why="crash files that could not be looked at: %s"
                 % f.get("message", ""))
        return f
    path = f["input"]
    if a.target == PAIR_TARGET:
        cand = replays(_on(a, o.base, [], o.candidate, o.patch, _kw(gate, "base"),
                           _kw(gate, "candidate")), path)
    else:
        cand = replays(_on(a, o.candidate, o.patch, kw=_kw(gate, "candidate")), path)
    same = sum(1 for r in cand if r and kind_key(_sig(r)) == kind_key(f["signature"]))
    f["replays"] = {"candidate": "%d of %d" % (same, len(cand))}
    if same < len(cand):
        f.update(category="unconfirmed",
                 why="failed %d of %d replays with %s (replays: %s)" % (
                     same, len(cand), kind_key(f["signature"]),
                     ", ".join(kind_key(_sig(r)) if r else "pass" for r in cand)))
        return f
    if a.target == PAIR_TARGET:
        return _place_pair(gate, f, kind)
    ref = replays(_on(a, "ref", []), path, 1)[0]
    f["replays"]["ref"] = "pass" if ref is None else kind_key(_sig(ref))
    if ref is not None:
        f.update(category="unconfirmed", why="ref fails this input too (%s): a defect of "
                 "lz4gate's oracle, not of the candidate" % kind_key(_sig(ref)))
        return f
    has = entry_present(gate.records, "base", f.get("entry"))
    if has is False:
        f.update(category=policy.category_of_new(kind), base="n/a",
                 why="the base has no such entry point (%s); %s, confirmed by %d replays"
                 % (f.get("entry"), kind, len(cand)))
        return f
    base = replays(_on(a, o.base, [], kw=_kw(gate, "base")), path)
    failing = [r for r in base if r is not None]
    f["replays"]["base"] = "%d of %d fail" % (len(failing), len(base))
    if failing:
        b_sig = _sig(failing[0])
        f["base"] = b_sig
        if kind == policy.MEMORY and policy.kind_of_class(kind_key(b_sig)) != policy.MEMORY:
            f.update(category="regression", why="a memory-safety error in the candidate; the "
                     "base fails this input without one (%s)" % kind_key(b_sig))
        else:
            f.update(category="known", why="fails on both: base %s, candidate %s" % (
                kind_key(b_sig), kind_key(f["signature"])))
        return f
    f["base"] = "pass" if has else "pass (entry point not covered by contracts)"
    f.update(category=policy.category_of_new(kind),
             why="the base passes this input (%d replays); %s, confirmed by %d replays"
             % (len(base), kind, len(cand)))
    return f


def _place_pair(gate, f, kind):
    """A confirmed base_vs_candidate finding: the side at fault decides."""
    roots = gate.stage_roots()
    fault = f.get("fault") or fault_of_frames(f.get("frames") or [], roots.get("base"),
                                              roots.get("candidate"))
    if fault == "base":
        fid = gate.docs.fuzz(gate.identity("base"), f["signature"])
        f.update(category="known", finding=fid, base=f["signature"],
                 why="the base's own bug (ref finds the fault on the base's side)%s"
                 % (": documented for the base's tree (%s)" % fid if fid else ""))
        return f
    if f["status"] == "known" and f.get("finding") and fault != "base":
        f.update(category="known", why="documented for the candidate's tree (%s)" % f["finding"])
        return f
    f.update(category=policy.category_of_new(kind),
             why="the candidate's fault%s: %s, confirmed by %d replays" % (
                 "" if fault == "candidate" else " (no side recorded: the candidate's by "
                 "default)", kind, REPLAYS))
    return f
