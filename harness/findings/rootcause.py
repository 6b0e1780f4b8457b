"""Root causes, not rows: the placed items of a gate run grouped so that
one bug is one group, in one section, with every id and signature it has.

  - the regression cases of one fix (catalogue.py fix_groups: one CVE, one
    upstream commit, the kernel and upstream ids of one bug) are one group
    under the fix's label;
  - every other item is grouped by its site (sites.py) over both word
    sizes: a crash by its family and the innermost functions of the
    subject's code; a wrong result by its family and entry point, and its
    placement (one such group is in one section by construction).

A group is in the first section any of its items is placed in, in the
order of SECTION_ORDER (a lost fix before a regression, a regression
before a known finding): one fix is never lost under one id and newly
fixed under another, and one root cause never both fails and passes the
gate. "Not reproducible" comes last: a group is there only when none of its
items was confirmed (a bug seen failing on both sides is known, whatever
one unconfirmed input of it did). Each item keeps its own placement as
"relation"."""
from harness.evidence import classes, failure
from harness.findings.policy import CATEGORIES

SECTION_ORDER = ("lost", "regression", "changed", "waived", "known", "fixed", "unconfirmed")
assert sorted(SECTION_ORDER) == sorted(CATEGORIES)


def key_of(item, fix_ids):
    """The group an item belongs to."""
    if item.get("fix") and len(fix_ids.get(item["fix"], ())) > 1:
        return ("fix", item["fix"])
    site = item["site"]
    if site.kind != "stack":
        # a family at an entry point is no evidence that two checks fail by
        # one bug (placement.py links them only for a fuzz finding): such a
        # group never spans sections
        return (site.kind, site.where, site.frames, item["relation"])
    return (site.kind, site.where, site.frames)


def failure_of(item):
    """The parsed failure of an item's example record (harness/evidence/
    failure.py failure_of, with the item's own class and entry point)."""
    rec = item.get("record") or {}
    text = rec.get("report") or ""
    got = failure.failure_of(text) if "ERROR: " in text or "runtime error:" in text else \
        {"frames": [], "top": None, "kind": item.get("fail_class") or "",
         "message": failure.first_sanitizer_line(rec.get("evidence") or "")}
    cls = item.get("fail_class") or rec.get("fail_class") or ""
    # the entry point the crash went through (its adapter frame), else the
    # record's (a case's names the entry its bug is in)
    entry = got.get("entry") or rec.get("entry") or (item.get("fuzz") or {}).get("entry")
    got.update(cls=cls, entry=entry, text=text or rec.get("evidence") or "",
               signature=item["id"] if item["kind"] == "fuzz" else
               failure.signature(cls, entry, got.get("top")))
    got.setdefault("message", rec.get("evidence") or "")
    return got


def severity(item, fail):
    """0 out-of-bounds write, 1 read, 2 wrong output or leak, 3 contract or
    API deviation, 4 performance: the class's (fail_class.h), refined for a
    memory error by the access its report names."""
    cls = item.get("fail_class")
    if not cls:
        return 3
    sev = classes.severity_of(cls)
    if classes.kind_of(cls) == classes.MEMORY and sev in (0, 1):
        text = fail.get("text") or ""
        if failure.ACCESS_RE.search(text) or failure.SEGV_ACCESS_RE.search(text):
            acc = (failure.ACCESS_RE.search(text) or failure.SEGV_ACCESS_RE.search(text))
            return 0 if acc.group(1) == "WRITE" else 1
    return sev


def group(items):
    """[{key, signature, category, severity, items, failure}], most severe
    first within each section; sets each item's "failure"."""
    fix_ids = {}
    for i in items:
        if i.get("fix"):
            fix_ids.setdefault(i["fix"], set()).add(i["id"])
    groups = {}
    for i in items:
        k = key_of(i, fix_ids)
        fail = failure_of(i)
        g = groups.setdefault(k, {"key": k, "items": [], "failure": fail,
                                  "severity": severity(i, fail),
                                  "signature": i["fix"] if k[0] == "fix" else
                                  fail["signature"]})
        sev = severity(i, fail)
        if sev < g["severity"]:
            g.update(severity=sev, failure=fail)
            if k[0] != "fix":
                g["signature"] = fail["signature"]
        g["items"].append(i)
    for g in groups.values():
        g["category"] = min((i["relation"] for i in g["items"]), key=SECTION_ORDER.index)
        g["items"].sort(key=lambda i: (CATEGORIES.index(i["relation"]), i["stage"], i["id"]))
    return sorted(groups.values(), key=lambda g: (CATEGORIES.index(g["category"]),
                                                  g["severity"], g["signature"]))
