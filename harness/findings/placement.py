"""Placing one unit the candidate fails (classify.py says what a unit is):
shared with the base, one root cause with a base failure elsewhere, in an
entry point the base lacks, or the candidate's alone; and the evidence of
a gate run indexed for it (the base's failure sites, each side's entry
points). The rules are classify.py's table."""
from harness.evidence import classes, records as evidence_records
from harness.findings import documented, policy, sites
from harness.findings.policy import MEMORY

FAILING = ("FAIL", "CRASH", "TIMEOUT")
CASE_STAGES = ("regress", "kunit")


def fails(r):
    return r.get("verdict") in FAILING


def summary(recs):
    """'CRASH in asan64, O0; FAIL in O2' for the failing records."""
    by = {}
    for r in recs:
        by.setdefault(r["verdict"], []).append(r["config"])
    return "; ".join("%s in %s" % (v, ", ".join(cs)) for v, cs in sorted(by.items()))


def worst_kind(recs):
    kinds = {classes.kind_of(r["fail_class"]) for r in recs}
    return next((k for k in (MEMORY,) + policy.FAILING_KINDS if k in kinds), sorted(kinds)[0])


def evidence_first(recs):
    """A sanitizer report (asan builds) before a bare signal, then
    configuration order (asan64 first)."""
    from harness.toolchain import CONFIGS
    order = {c: i for i, c in enumerate(CONFIGS)}
    return sorted(recs, key=lambda r: ("ERROR: " not in (r.get("report") or ""),
                                       order.get(r.get("config"), len(order)),
                                       r.get("config") or ""))


def undefined_behaviour(record):
    """A check that passed with a UBSan report in the subject's code (which
    reports and goes on: harness/toolchain.py SUBJECT_UBSAN) is evidence of
    undefined behaviour without a memory error: a failure of class "ubsan"
    in a unit of its own (stage "ubsan"), placed like any other."""
    return dict(record, stage="ubsan", ran_in=record["stage"], verdict="FAIL",
                fail_class="ubsan", evidence=record["ubsan"], ubsan="")


class Evidence:
    """The records of a gate run, indexed once: the base's failure sites,
    the entry points each side has."""

    def __init__(self, records):
        self.records = [evidence_records.normalize(r) for r in records]
        self.records += [undefined_behaviour(r) for r in self.records
                         if r.get("verdict") == "pass" and r.get("ubsan")]
        self.base_sites = {}
        self.entries = {"base": {}, "candidate": {}}
        for r in self.records:
            role = r.get("role")
            if r.get("entry") and role in self.entries and r.get("stage") != "fuzz":
                has = self.entries[role]
                has[r["entry"]] = has.get(r["entry"], False) or r["verdict"] != "n/a"
            if role == "base" and fails(r):
                self.base_sites.setdefault(sites.site_of(r), r)

    def has_entry(self, role, entry):
        """True/False from the side's own runner records of that entry,
        None when no record covers it."""
        return self.entries.get(role, {}).get(entry)

    def base_at(self, site, stackless=False):
        """The base's failing record at a site, or None. A memory error at a
        site is one root cause whatever its class (the family is the site's).
        A site without a stack (a family at an entry point) is only looked up
        where stackless says so: for a fuzz finding, whose input is one of
        many that show a bug, never for a check or case, whose own id is the
        precise unit (the openzfs and Android acceptance rows: a case linked
        to another check's crash "at decompress_safe_partial" hid a lost
        fix); and never for a memory error without a stack ("killed by
        signal 11" says nothing of where)."""
        if site.kind != "stack" and (not stackless or site.where == "memory"):
            return None
        return self.base_sites.get(site)


def _shared(c_fail, b_fail, ev):
    """(category, why) when the base fails the same unit, None otherwise."""
    if not b_fail:
        return None
    c_mem = [r for r in c_fail if classes.kind_of(r["fail_class"]) == MEMORY]
    b_mem = [r for r in b_fail if classes.kind_of(r["fail_class"]) == MEMORY]
    if c_mem and not b_mem and not any(ev.base_at(sites.site_of(r)) for r in c_mem):
        return ("regression", "a memory-safety error in the candidate (%s); the base fails "
                "without one (%s)" % (summary(c_mem), summary(b_fail)))
    return "known", "fails on both: base %s; candidate %s" % (summary(b_fail), summary(c_fail))


def whose(unit, c_fail, b_fail, ev, docs):
    """The one answer to "whose bug is it?" for a failure of the candidate:
    (category, why) when it is the base's too, else None. The base's when
    ref puts the pair target's fault on the base's side, when the base
    fails the same unit, or when the base fails at the same site through
    any check, case or input (a crash counts as a failure)."""
    if unit.get("fault") == "base":
        fid = documented.finding_of({"stage": "fuzz", "check": unit["id"], "verdict": "FAIL",
                                     "identity": unit.get("base_identity")}, docs)
        return "known", "the base's own bug (ref finds the fault on the base's side)%s" % (
            ": documented for the base's tree (%s)" % fid if fid else "")
    shared = _shared(c_fail, b_fail, ev)
    if shared:
        return shared
    linked = _same_site(c_fail, ev, unit["stage"] == "fuzz")
    if linked:
        other, site = linked
        return "known", "one root cause with the base's own failure of %s at %s (%s): the " \
            "base has this bug too" % (other["check"], sites.shown(site), summary(c_fail))
    return None


def _same_site(c_fail, ev, stackless):
    """(the base's record, the site) when the base fails where the
    candidate does, through any check, case or input (stackless: a fuzz
    finding's, which may link by family and entry point: Evidence.base_at)."""
    for r in c_fail:
        site = sites.site_of(r)
        other = ev.base_at(site, stackless)
        if other is not None:
            return other, site
    return None


def place(unit, c_fail, b_fail, base_has, ev, catalogue, docs):
    """(category, why) of a unit the candidate fails. unit: {"stage", "id"};
    b_fail: the base's failing records of the same unit; base_has: whether
    the base has the unit's entry point (True/False/None)."""
    theirs = whose(unit, c_fail, b_fail, ev, docs)
    if theirs:
        return theirs
    kind = worst_kind(c_fail)
    is_case = unit["stage"] in CASE_STAGES
    found = [documented.finding_of(r, docs, catalogue.case(unit["id"]) if is_case else None)
             for r in c_fail]
    if base_has is False:
        if all(found):
            return "known", "documented for the candidate's tree (%s); the base has no such " \
                "entry point" % found[0]
        if is_case:
            return "regression", "the base has no such entry point; the candidate has this " \
                "catalogued bug (%s)" % summary(c_fail)
        return policy.category_of_new(kind), "the base has no such entry point; %s (%s)" % (
            kind, summary(c_fail))
    if is_case:
        cat, advice = catalogue.lost_or_regression(unit["id"])
        if cat == "lost":
            return "lost", "base passes, candidate fails (%s)" % summary(c_fail)
        return "regression", "the base predates this bug; the candidate brings it (%s)%s" % (
            summary(c_fail), advice)
    note = "; documented for the candidate's tree (%s), which never hides a bug the base " \
        "does not have" % found[0] if found and all(found) else ""
    # a UBSan unit: the base ran the check (it may fail it otherwise) and
    # reported no undefined behaviour there
    base_said = "the base reports none here" if unit["stage"] == "ubsan" else "base passes"
    return policy.category_of_new(kind), "%s; candidate: %s (%s)%s" % (
        base_said, kind, summary(c_fail), note)
