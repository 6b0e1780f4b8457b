"""The one classifier: every piece of evidence of a gate run (runner
records of both sides, every fuzz finding with its replays on the
candidate, the base and ref: harness/evidence/records.py) placed in one
section of the policy (harness/findings/policy.py), with why.

    classify(records, catalogue, docs) -> Decision

A UNIT is what one comparison is about: a contract check, a vector or a
regression case in one word size (its records over every configuration
of that size, on both sides), or one fuzz finding (the input, replayed).
For each unit the candidate fails (a fuzz finding confirmed first: it
fails every candidate replay the same way, ref passes it, and the base's
replays agree with each other):

  the base fails the same unit       known: fails on both; a regression when
                                     only the candidate's failure is a
                                     memory error and the base has none at
                                     that place
  the base fails at the same site    known: one root cause (sites.py), shown
  (any stage, any input)             through the base's own failure
  the base lacks the entry point     known when documented for the
                                     candidate's tree; a case: regression;
                                     else by the failure's kind
  the base passes                    a case: lost fix or regression (the
                                     catalogue: catalogue.py); else by kind
                                     (a documented finding of the candidate
                                     never hides a bug the base lacks)

and a unit the base fails and the candidate passes is newly fixed. The
kind of a failure is its class's (harness/evidence/classes.py); the
regression/behaviour-change split is policy.category_of_new. Items are then
grouped into root causes (rootcause.py), and each root cause is in one
section: the first of its items' (a lost fix before a regression).
"""
from harness.evidence import classes
from harness.findings import fuzz_units, policy, rootcause, sites
from harness.findings.placement import (CASE_STAGES, Evidence, evidence_first, fails, place,
                                        summary)
from harness.findings.policy import CATEGORIES

class Decision(dict):
    """{"categories": {category: [item]}, "groups": [root cause]}; failed()."""

    def failed(self, strict):
        return policy.failed(self["categories"], strict)


def _runner_units(ev):
    """{(stage, check, bits): {"base": [...], "candidate": [...]}} of the
    runner records (contracts, vectors, cases, KUnit rows)."""
    cells = {}
    for r in ev.records:
        if r.get("stage") == "fuzz" or r.get("role") not in ("base", "candidate"):
            continue
        key = (r["stage"], r["check"], r["bits"])
        cells.setdefault(key, {"base": [], "candidate": []})[r["role"]].append(r)
    for (stage, check, bits), sides in cells.items():
        # a UBSan unit's base: the base's own UBSan reports of the check,
        # and whether it ran the check at all (its records where it ran)
        if stage == "ubsan":
            ran_in = sides["candidate"][0]["ran_in"] if sides["candidate"] else \
                sides["base"][0]["ran_in"]
            sides["base_ran"] = cells.get((ran_in, check, bits), {}).get("base", [])
    return cells


def _runner_item(key, sides, ev, catalogue, docs):
    stage, check, bits = key
    cand, base = sides["candidate"], sides["base"]
    c_fail = evidence_first([r for r in cand if fails(r)])
    b_fail = evidence_first([r for r in base if fails(r)])
    if not c_fail:
        if b_fail and any(r["verdict"] == "pass" for r in cand):
            return _item(stage, check, "fixed", "base fails (%s), candidate passes"
                         % summary(b_fail), b_fail, cand, base, catalogue)
        return None
    # A UBSan unit's base is the base's run of the same check (its UBSan
    # unit has records only where the base reported UBSan too).
    base_ran = sides.get("base_ran", base)
    base_has = any(r["verdict"] != "n/a" for r in base_ran)
    cat, why = place({"stage": stage, "id": check}, c_fail, b_fail, base_has, ev, catalogue,
                     docs)
    return _item(stage, check, cat, why, c_fail, b_fail or base_ran, base_ran, catalogue)


def _item(stage, check, cat, why, shown, other, base, catalogue):
    rep = shown[0]
    is_case = stage in CASE_STAGES
    return {"category": cat, "relation": cat, "stage": stage, "id": check,
            "kind": "case" if is_case else "contract", "why": why,
            "configs": [r["config"] for r in shown], "record": rep,
            "other": other[0] if other else None,
            "base": "n/a" if not base or all(r["verdict"] == "n/a" for r in base)
            else "fails" if any(fails(r) for r in base) else "passes",
            "fail_class": None if cat == "fixed" else rep["fail_class"],
            "failure_kind": None if cat == "fixed" else classes.kind_of(rep["fail_class"]),
            "finding": rep.get("finding"), "fix": catalogue.group(check) if is_case else None,
            "site": sites.site_of(rep), "bits": rep["bits"]}


def classify(records, catalogue, docs):
    """The Decision of a gate run: every unit placed, the items grouped into
    root causes, each root cause in one section."""
    ev = Evidence(records)
    items = []
    for key, sides in sorted(_runner_units(ev).items()):
        got = _runner_item(key, sides, ev, catalogue, docs)
        if got:
            items.append(got)
    items += fuzz_units.items(ev, catalogue, docs)
    return decide(_merge_word_sizes(items))


def _merge_word_sizes(items):
    """A check placed alike in 64 and 32 bits is one item, its reason said
    once (a reason may hold "; " itself: the whole reason is looked for);
    the example shown is one with a sanitizer's report where there is one
    (a 32-bit plain build only says "killed by signal 11")."""
    out = {}
    for i in items:
        key = (i["relation"], i["stage"], i["id"])
        have = out.get(key)
        if have is None:
            out[key] = i
            continue
        if ("; %s; " % i["why"]) not in ("; %s; " % have["why"]):
            have["why"] += "; " + i["why"]
        have["configs"] += [c for c in i["configs"] if c not in have["configs"]]
        if not _has_report(have["record"]) and _has_report(i["record"]):
            have.update(record=i["record"], other=i["other"], site=i["site"],
                        bits=i["bits"], fail_class=i["fail_class"],
                        failure_kind=i["failure_kind"])
    return list(out.values())


def _has_report(record):
    return bool(record) and "ERROR: " in (record.get("report") or "")


def decide(items):
    """The Decision of placed items: grouped into root causes, each item's
    section its root cause's (waivers move items, then this runs again)."""
    groups = rootcause.group(items)
    cats = {c: [] for c in CATEGORIES}
    for g in groups:
        for i in g["items"]:
            i["category"] = g["category"]
            cats[g["category"]].append(i)
    for c in cats:
        cats[c].sort(key=lambda i: (i["stage"], i["id"]))
    return Decision(categories=cats, groups=groups)
