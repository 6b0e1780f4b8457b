"""junit.xml: one test case per record of both sides, one per fuzz finding,
and one per lost fix (CI test-report views)."""
from xml.sax.saxutils import quoteattr

from harness.gate import policy
from harness.report.failure import clip


def render(gate, decision):
    """A test case per candidate record and per fuzz finding; a failure
    where the verdict fails on it (a FAIL section of the policy, or WARN
    under --strict), a skip for n/a; the base's own records are its
    evidence, not the candidate's tests."""
    strict = gate.opts.strict
    failing = {}
    for cat, items in decision["categories"].items():
        if policy.LEVEL[cat] == policy.FAIL or (strict and policy.LEVEL[cat] == policy.WARN):
            for i in items:
                failing[(i["stage"], i["id"])] = "%s: %s [%s]" % (
                    policy.TITLE[cat], i["why"], ", ".join(i["configs"]))
    cases = []
    for r in gate.records:
        if r.get("role") != "candidate":
            continue
        name = "%s.%s[%s]" % (r.get("stage"), r["check"], r["config"])
        why = failing.get((r.get("stage"), r["check"]))
        body = ""
        if why and r["status"] in ("FAIL", "known finding"):
            body = "<failure message=%s/>" % quoteattr(clip(why + ": " + r.get("evidence", ""),
                                                            500))
        elif r["status"] == "n/a":
            body = "<skipped/>"
        cases.append("  <testcase classname=%s name=%s>%s</testcase>" % (
            quoteattr("candidate.%s" % r["spec"]), quoteattr(name), body))
    for f in gate.fuzz_findings:
        why = failing.get(("fuzz", f["signature"]))
        body = "<failure message=%s/>" % quoteattr(clip(why + ": " + f["message"], 500)) \
            if why else ""
        cases.append("  <testcase classname=%s name=%s>%s</testcase>" % (
            quoteattr("fuzz.%s" % f["target"]), quoteattr(f["signature"]), body))
    for i in decision["categories"]["lost"]:
        cases.append('  <testcase classname="gate" name=%s><failure message=%s/></testcase>'
                     % (quoteattr("lost fix " + i["id"]), quoteattr(
                         "%s [%s]" % (i["why"], ", ".join(i["configs"])))))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="lz4gate" tests="%d">\n'
            '%s\n</testsuite>\n' % (len(cases), "\n".join(cases)))
