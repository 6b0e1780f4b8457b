"""junit.xml (CI test-report views): one test case per item of the
decision (harness/findings/classify.py), named by its section, a failure
exactly where the verdict fails on it (a FAIL section of the policy, or a
WARN one under --strict), and one passing (or skipped, n/a) test case per
candidate check or case that no item is about. Nothing is decided here:
the report, junit.xml and results.sarif render the same items."""
from xml.sax.saxutils import escape, quoteattr

from harness.evidence.failure import clip
from harness.findings import policy


def fails(category, strict):
    """Does an item in this section fail the gate?"""
    return policy.LEVEL[category] == policy.FAIL or (strict and
                                                      policy.LEVEL[category] == policy.WARN)


def testcases(gate, decision):
    """[(classname, name, outcome, message)]: outcome "failure", "pass" or
    "skipped"; one per item, then one per candidate record no item covers."""
    strict = gate.opts.strict
    out, covered = [], set()
    for cat in policy.CATEGORIES:
        for i in decision["categories"][cat]:
            covered.add((i["stage"], i["id"]))
            name = "%s %s [%s]" % (i["stage"], i["id"], ", ".join(i["configs"]))
            out.append(("%s.%s" % (policy.LEVEL[cat], cat), name,
                        "failure" if fails(cat, strict) else "pass",
                        "%s: %s" % (policy.TITLE[cat], i["why"])))
    for r in gate.records:
        if r.get("role") != "candidate" or (r.get("stage"), r["check"]) in covered:
            continue
        out.append(("candidate.%s" % r.get("stage"), "%s.%s[%s]" % (
            r.get("stage"), r["check"], r["config"]),
            "skipped" if r["status"] == "n/a" else "pass", ""))
    return out


def render(gate, decision):
    cases = []
    for classname, name, outcome, message in testcases(gate, decision):
        body = ""
        if outcome == "failure":
            body = "<failure message=%s/>" % quoteattr(clip(message, 500))
        elif outcome == "skipped":
            body = "<skipped/>"
        elif message:
            body = "<system-out>%s</system-out>" % escape(clip(message, 500))
        cases.append("  <testcase classname=%s name=%s>%s</testcase>" % (
            quoteattr(classname), quoteattr(name), body))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="lz4gate" tests="%d">\n'
            '%s\n</testsuite>\n' % (len(cases), "\n".join(cases)))
