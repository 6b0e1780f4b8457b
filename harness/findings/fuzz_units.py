"""Fuzz findings as units of the classifier (classify.py): each finding of
the candidate's campaigns is one unit, with its replay records
(harness/gate/confirm.py makes them: role candidate, base or ref; stage
"fuzz"; "source" "finding" or "replay").

One evidence standard for every side: a side fails an input when every one
of its replays fails it; a side whose replays disagree (some fail, some
pass) cannot say whose bug it is, and the finding is listed as not
reproducible, never placed on a guess. The candidate's replays must fail
with the finding's own family at its entry point; ref must pass the input
(ref failing it is a defect of lz4gate's oracle). The pair target
(base_vs_candidate) runs both sides in one replay and carries the side at
fault (ref decides: fuzz/base_vs_candidate.c): the base's fault is the
base's own bug.
"""
from harness.evidence import classes
from harness.findings import documented, sites
from harness.findings.placement import fails, place, summary

PAIR_TARGET = "base_vs_candidate"


def units(ev):
    """[(finding record, [replay records])] of the candidate's findings."""
    found, replays = [], {}
    for r in ev.records:
        if r.get("stage") != "fuzz":
            continue
        key = (r["target"], r["check"])
        if r.get("source") == "finding":
            found.append((key, r))
        else:
            replays.setdefault(key, []).append(r)
    return [(f, replays.get(key, [])) for key, f in sorted(found, key=lambda x: x[0])]


def _same_way(r, f):
    """Does a replay fail as the finding did (its class's family, at its
    entry point)?"""
    return fails(r) and classes.family_of(r["fail_class"]) == \
        classes.family_of(f["fail_class"]) and (r.get("entry") or None) == (f.get("entry") or None)


def _count(recs, failed):
    return "%d of %d" % (sum(1 for r in recs if failed(r)), len(recs))


def place_finding(f, reps, ev, catalogue, docs):
    """(category, why, the base's summary) of one finding."""
    if f["fail_class"] == "not_triaged":
        return "unconfirmed", "crash files that could not be looked at: %s" % f["evidence"], \
            "n/a"
    by = {role: [r for r in reps if r["role"] == role] for role in ("candidate", "base", "ref")}
    cand = by["candidate"]
    same = [r for r in cand if _same_way(r, f)]
    replays = {"candidate": _count(cand, lambda r: _same_way(r, f))}
    f["fuzz"]["replays"] = replays
    if not cand or len(same) < len(cand):
        return "unconfirmed", "failed %d of %d replays with %s (replays: %s)" % (
            len(same), len(cand), sites.shown(sites.site_of(f)), ", ".join(
                r["fail_class"] if fails(r) else "pass" for r in cand)), "n/a"
    if f["target"] == PAIR_TARGET:
        unit = {"stage": "fuzz", "id": f["check"], "fault": f.get("fault"),
                "base_identity": f.get("base_identity")}
        cat, why = place(unit, same, [], True, ev, catalogue, docs)
        if f.get("fault") == "base":
            return cat, why, f["check"]
        side = "the candidate's fault" if f.get("fault") == "candidate" else \
            "no side recorded: the candidate's by default"
        return cat, "%s: %s" % (side, why), "pass"
    if by["ref"]:
        replays["ref"] = "pass" if not any(map(fails, by["ref"])) else by["ref"][0]["fail_class"]
        if any(map(fails, by["ref"])):
            return "unconfirmed", "ref fails this input too (%s): a defect of lz4gate's " \
                "oracle, not of the candidate" % replays["ref"], "n/a"
    base = by["base"]
    if base:
        failing = [r for r in base if fails(r)]
        replays["base"] = "%d of %d fail" % (len(failing), len(base))
        if failing and len(failing) < len(base):
            return "unconfirmed", "the base fails this input in %d of %d replays (%s): whose " \
                "bug it is cannot be told" % (len(failing), len(base), summary(failing)), \
                failing[0]["fail_class"]
        cat, why = place({"stage": "fuzz", "id": f["check"]}, same, failing, True, ev,
                         catalogue, docs)
        return cat, why, failing[0]["check"] if failing else "pass"
    has = ev.has_entry("base", f.get("entry"))
    cat, why = place({"stage": "fuzz", "id": f["check"]}, same, [],
                     False if has is False else None, ev, catalogue, docs)
    return cat, why, "n/a" if has is False else "pass (entry point not covered by contracts)"


def items(ev, catalogue, docs):
    """The gate items of the fuzz findings."""
    out = []
    for f, reps in units(ev):
        cat, why, base = place_finding(f, reps, ev, catalogue, docs)
        fz = f["fuzz"]
        fz["base"] = base
        fid = documented.finding_of(dict(f, identity=f["base_identity"]) if f.get("fault") ==
                                    "base" else f, docs)
        out.append({"category": cat, "relation": cat, "stage": "fuzz", "id": f["check"],
                    "kind": "fuzz", "configs": [f["config"]], "why": why,
                    "target": f["target"], "finding": fid, "fuzz": fz, "record": f,
                    "other": None, "base": base, "fail_class": f["fail_class"],
                    "failure_kind": classes.kind_of(f["fail_class"]), "fix": None,
                    "site": sites.site_of(f), "bits": f["bits"]})
    return out
