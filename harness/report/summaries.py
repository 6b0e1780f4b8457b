"""One paragraph per case or documented finding, for reports that travel:
a reader of a gate report posted in a pull request has neither this
repository nor its REGRESSIONS.md, so each item says what the fix was, its
CVE and its upstream commit in words (from the case's own file,
regress/cases/ID.json, or the documented finding's note in
harness/findings/known_findings.json)."""
import functools
import json
import os
import re

from harness.paths import TOP
from harness.findings.documented import KNOWN_FINDINGS

CASES = os.path.join(TOP, "regress", "cases")
HEX = re.compile(r"\b[0-9a-f]{7,40}\b")
MAX = 600        # characters of a paragraph


@functools.lru_cache(maxsize=None)
def _case(cid):
    path = os.path.join(CASES, cid + ".json")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def _notes():
    try:
        with open(KNOWN_FINDINGS) as f:
            return {x["id"]: x.get("note", "") for x in json.load(f)["findings"]}
    except (OSError, ValueError, KeyError):
        return {}


def _commit(case):
    """The first commit a case names that has an id, with its qualifier."""
    for c in case.get("commits") or []:
        m = HEX.search(c)
        if m:
            qual = c.split(m.group(0))[0].strip(" :(") or ("upstream" if case["id"].startswith(
                "ULZ4-") else "kernel")
            return "%s %s" % (qual, m.group(0)[:12])
    return None


def _clip(text):
    text = " ".join((text or "").split())
    return text if len(text) <= MAX else text[:MAX - 3].rsplit(" ", 1)[0] + "..."


def summary(fid):
    """The paragraph for a case or documented-finding id, or None."""
    if not fid:
        return None
    case = _case(fid)
    if case:
        facts = [x for x in (case.get("cve"), _commit(case)) if x]
        head = "%s%s: %s." % (fid, " (%s)" % ", ".join(facts) if facts else "",
                              case.get("title", "").rstrip("."))
        parts = [head]
        if case.get("fix"):
            parts.append("The fix: %s" % case["fix"].rstrip(".") + ".")
        if case.get("affected"):
            parts.append("Affected: %s." % case["affected"].rstrip("."))
        return _clip(" ".join(parts))
    note = _notes().get(fid)
    return _clip("%s: %s" % (fid, note)) if note else None


def item_summary(item):
    """The paragraph for a gate item: its case, else its documented finding."""
    return summary(item["id"] if item["kind"] == "case" else item.get("finding"))
