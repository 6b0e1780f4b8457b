"""The gate's verdict: the candidate's records compared with the base's, one
check or case at a time, over all configurations of one word size, and the
policy (harness/gate/policy.py) applied once.

For each check or case and word size (64-bit configurations together,
32-bit ones together: a bug of 32-bit builds never hides one of 64-bit
builds, and the same bug showing in -O0 on one side and -O2 on the other is
still one bug on both):

  candidate fails | base                       | category
  ----------------+----------------------------+---------------------------------
  yes             | passes (has the entry)     | case: lost fix, or a regression
                  |                            |   when the base predates the bug
                  |                            | contract: by the failure's kind
                  |                            |   (regression FAIL / changed WARN)
  yes             | fails too                  | known: fails on both, each side's
                  |                            |   evidence shown; a regression if
                  |                            |   only the candidate's is a memory
                  |                            |   error
  yes             | has no such entry point    | known when documented for the
                  |                            |   candidate's tree, or when the
                  |                            |   base crashes the same way in
                  |                            |   another check (its crash site);
                  |                            |   else a case: regression; a
                  |                            |   contract: by kind
  no              | fails                      | fixed (with the base's evidence)

A crash site is the report's class and the three innermost functions of the
subject's own code (harness/report/failure.py): one bug reached through a
new entry point (lz4 1.9.4's custom-memory LZ4F contexts reach the
NULL state of ULZ4-LZ4F-ALLOCFAIL-REUSE that 1.9.3 reaches through the
plain ones) is the base's bug, not one the candidate brings.
"""
from harness import toolchain
from harness.gate import policy
from harness.gate.policy import CATEGORIES, MEMORY

FAILING = ("FAIL", "known finding")
# Stages whose checks are regression cases: in userspace, and inside a
# kernel (the gate's --kunit stage).
CASE_STAGES = ("regress", "kunit")


def bits_of(config):
    try:
        return toolchain.bits_of(config)
    except KeyError:
        return 64


def _summary(recs):
    """'CRASH in asan64, O0; FAIL in O2' for the failing records."""
    by = {}
    for r in recs:
        by.setdefault(r["verdict"], []).append(r["config"])
    return "; ".join("%s in %s" % (v, ", ".join(cs)) for v, cs in sorted(by.items()))


class Lineage:
    """What the verdict needs to know of the cases and the base's tree:
    fix groups, whether the base predates a bug, where it was fixed."""

    def __init__(self, cases=(), base_tree=None, ranges=None, tags=()):
        from harness.gate import fixes
        self.fixes = fixes
        self.groups = fixes.fix_groups(list(cases)) if cases else {}
        self.base_tree = base_tree
        self.ranges = ranges or {}
        self.tags = list(tags)

    def predates(self, case_id):
        return self.fixes.base_predates(self.ranges.get(case_id), self.base_tree)

    def fixed_in(self, case_id):
        return self.fixes.fixed_in(self.ranges.get(case_id), self.tags)

    def group(self, case_id):
        return self.groups.get(case_id)


def _evidence_first(recs):
    """The records a reader learns most from first: a sanitizer report
    (asan builds) before a bare signal, then configuration order."""
    from harness.report.regressions.results import config_key
    return sorted(recs, key=lambda r: ("ERROR: " not in (r.get("report") or
                                                         r.get("evidence") or ""),
                                       config_key(r["config"])))


def crash_site(record):
    """(class, innermost 3 subject functions) of a record with a sanitizer
    report or a stack, else None."""
    from harness.report import failure
    text = record.get("report") or ""
    if "ERROR: " not in text:
        return None
    got = failure.failure_of(text)
    funcs = tuple(f["func"] for f in failure.subject_frames(got["frames"])[:3])
    return (failure.signature_class(got["kind"], text), funcs) if funcs else None


def _base_sites(records):
    """{(stage, word size, crash site): check} of the base's failing records."""
    out = {}
    for r in records:
        if r["role"] == "base" and r["status"] in FAILING:
            site = crash_site(r)
            if site:
                out.setdefault((r["stage"], bits_of(r["config"]), site), r["check"])
    return out


def _same_bug_in_base(c_fail, stage, bits, base_sites):
    """The base's check that crashes where the candidate's records do, or None."""
    for r in c_fail:
        site = crash_site(r)
        if site and (stage, bits, site) in base_sites:
            return base_sites[(stage, bits, site)], site
    return None


def _classify(stage, check, bits, cand, base, lineage, base_sites):
    """(category, why, failing records shown, the other side's records) for
    one check and word size, or None when there is nothing to say.
    base_sites: the base's crash sites (_base_sites)."""
    c_fail = _evidence_first([r for r in cand if r["status"] in FAILING])
    b_fail = _evidence_first([r for r in base if r["status"] in FAILING])
    b_has = any(r["status"] != "n/a" for r in base)
    if not c_fail:
        if b_fail and any(r["status"] == "pass" for r in cand):
            return "fixed", "base fails (%s), candidate passes" % _summary(b_fail), b_fail, cand
        return None
    kinds = {policy.kind_of_record(r) for r in c_fail}
    kind = next((k for k in (MEMORY,) + policy.FAILING_KINDS if k in kinds), sorted(kinds)[0])
    if b_fail:
        if any(map(policy.observed_memory_error, c_fail)) and \
                not any(map(policy.observed_memory_error, b_fail)):
            return ("regression", "a memory-safety error in the candidate (%s); the base "
                    "fails without one (%s)" % (_summary(c_fail), _summary(b_fail)),
                    c_fail, b_fail)
        return "known", "fails on both: base %s; candidate %s" % (
            _summary(b_fail), _summary(c_fail)), c_fail, b_fail
    documented = [r for r in c_fail if r["status"] == "known finding"]
    if not b_has:
        if documented and len(documented) == len(c_fail):
            return "known", "documented for the candidate's tree (%s); the base has no such " \
                "entry point" % documented[0].get("finding"), c_fail, base
        same_in_base = _same_bug_in_base(c_fail, stage, bits, base_sites)
        if same_in_base:
            other, (cls, funcs) = same_in_base
            return "known", "the base has no such entry point, and crashes the same way " \
                "through %s (%s in %s): the base's bug (%s)" % (
                    other, cls, " <- ".join(funcs), _summary(c_fail)), c_fail, base
        if stage in CASE_STAGES:
            return "regression", "the base has no such entry point; the candidate has this " \
                "catalogued bug (%s)" % _summary(c_fail), c_fail, base
        return policy.category_of_new(kind), "the base has no such entry point; %s (%s)" % (
            kind, _summary(c_fail)), c_fail, base
    if stage in CASE_STAGES:
        if lineage.predates(check):
            fixed = lineage.fixed_in(check)
            return "regression", "the base predates this bug; the candidate brings it (%s)%s" % (
                _summary(c_fail), "; fixed upstream in %s: update to that instead" % fixed
                if fixed else ""), c_fail, base
        return "lost", "base passes, candidate fails (%s)" % _summary(c_fail), c_fail, base
    return policy.category_of_new(kind), "base passes; candidate: %s (%s)" % (
        kind, _summary(c_fail)), c_fail, base


def compare(records, lineage=None):
    """{category: [item]} from the gate's records (role base/candidate). An
    item is one check or case with the configurations it is in that
    category; "record" is its first failing record (the base's for a fixed
    item), "other" the first record of the other side."""
    lineage = lineage or Lineage()
    cells = {}
    for r in records:
        key = (r["stage"], r["check"], bits_of(r["config"]))
        cells.setdefault(key, {"base": [], "candidate": []})[r["role"]].append(r)
    items = {}
    base_sites = _base_sites(records)
    for (stage, check, bits), sides in sorted(cells.items()):
        got = _classify(stage, check, bits, sides["candidate"], sides["base"], lineage,
                        base_sites)
        if not got:
            continue
        cat, why, shown, other = got
        rep = shown[0]
        item = items.get((cat, stage, check))
        if item is None:
            item = items[(cat, stage, check)] = {
                "category": cat, "stage": stage, "id": check,
                "kind": "case" if stage in CASE_STAGES else "contract", "configs": [],
                "why": why, "record": rep, "other": other[0] if other else None,
                "base": ("n/a" if not sides["base"] else
                         "fails" if any(r["status"] in FAILING for r in sides["base"])
                         else "passes"),
                "failure_kind": None if cat == "fixed" else policy.kind_of_record(rep),
                "finding": rep.get("finding"), "fix": lineage.group(check)
                if stage in CASE_STAGES else None}
        else:
            # 64- and 32-bit for the same reason: said once (a reason may
            # hold "; " itself, so the whole reason is looked for)
            if ("; %s; " % why) not in ("; %s; " % item["why"]):
                item["why"] += "; " + why
            if not _has_report(item["record"]) and _has_report(rep):
                # The example shown is the one with a sanitizer's report
                # (a 32-bit plain build only says "killed by signal 11").
                item.update(record=rep, other=other[0] if other else None,
                            failure_kind=item["failure_kind"] and policy.kind_of_record(rep))
        item["configs"] += [r["config"] for r in shown if r["config"] not in item["configs"]]
    out = {c: [] for c in CATEGORIES}
    for item in items.values():
        out[item["category"]].append(item)
    for c in out:
        out[c].sort(key=lambda i: (i["stage"], i["id"]))
    return out


def _has_report(record):
    return "ERROR: " in (record.get("report") or record.get("evidence") or "")


def fuzz_items(findings):
    """Gate items from confirmed fuzz findings (harness/gate/confirm.py: each
    has its category and why)."""
    out = {c: [] for c in CATEGORIES}
    for f in findings:
        cat = f.get("category") or "regression"
        out[cat].append({"category": cat, "stage": "fuzz", "id": f["signature"],
                         "kind": "fuzz", "configs": [f["config"]], "why": f["why"],
                         "target": f["target"], "finding": f.get("finding"), "fuzz": f,
                         "record": None, "other": None, "base": f.get("base", "n/a"),
                         "failure_kind": f.get("failure_kind"), "fix": None})
    return out


def failed(categories, strict):
    return policy.failed(categories, strict)
