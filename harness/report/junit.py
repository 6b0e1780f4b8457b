"""junit.xml: one test case per record of both sides, one per fuzz finding,
and one per lost fix (CI test-report views)."""
from xml.sax.saxutils import quoteattr

from harness.report.failure import clip


def render(gate, decision):
    strict = gate.opts.strict
    cases = []
    for r in gate.records:
        name = "%s.%s[%s]" % (r.get("stage"), r["check"], r["config"])
        body = ""
        if r["status"] == "FAIL" or (r["status"] == "known finding" and strict):
            body = "<failure message=%s/>" % quoteattr(clip(r.get("evidence", ""), 500))
        elif r["status"] == "n/a":
            body = "<skipped/>"
        cases.append("  <testcase classname=%s name=%s>%s</testcase>" % (
            quoteattr("%s.%s" % (r.get("role"), r["spec"])), quoteattr(name), body))
    for f in gate.fuzz_findings:
        body = "" if f["status"] == "known" and not strict else \
            "<failure message=%s/>" % quoteattr(clip(f["message"], 500))
        cases.append("  <testcase classname=%s name=%s>%s</testcase>" % (
            quoteattr("fuzz.%s" % f["target"]), quoteattr(f["signature"]), body))
    for i in decision["categories"]["lost"]:
        cases.append('  <testcase classname="gate" name=%s><failure message=%s/></testcase>'
                     % (quoteattr("lost fix " + i["id"]), quoteattr(
                         "%s [%s]" % (i["why"], ", ".join(i["configs"])))))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="lz4gate" tests="%d">\n'
            '%s\n</testsuite>\n' % (len(cases), "\n".join(cases)))
