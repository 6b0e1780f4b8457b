"""Reading KTAP v1 (the output of `tools/testing/kunit/kunit.py run
--raw_output`, or a kernel log holding it) back into lz4gate records.

The generated suite (emit.py) names each KUnit case by a regression case's
id and each of its parameters "tc N" (the test's tcId), so a result line
nested in case ID reads back as {"case": ID, "tcId": N, "status": ...}. A
case without parameter lines (it failed before its first row) gives one
record with tcId None. Statuses are PASS, FAIL, SKIP; the message is the
SKIP reason, or the diagnostic lines ("# ...") before a failed result.
"""
import re

# "ok 3 name # SKIP reason" / "not ok 1 name" (TAP 13: "ok 3 - name").
RESULT = re.compile(r"^(not ok|ok)\s+(\d+)(?:\s+-)?(?:\s+([^#]*?))?\s*(?:#\s*(.*))?$")
SUBTEST = re.compile(r"^#\s*Subtest:\s*(.*?)\s*$")
VERSION = re.compile(r"^(KTAP|TAP) version (\d+)")
TC = re.compile(r"^tc\s+(\d+)$")
# Prefixes a kernel log puts before each line ("[    0.5] ", "<6>").
LOG_PREFIX = re.compile(r"^(?:<\d+>)?(?:\[\s*\d+\.\d+\]\s?)?")


def result_line(text):
    """(ok, number, name, directive) of a result line, or None."""
    m = RESULT.match(text)
    if not m:
        return None
    return m.group(1) == "ok", int(m.group(2)), (m.group(3) or "").strip(), m.group(4)


def status_of(ok, directive):
    if directive and directive.upper().startswith("SKIP"):
        return "SKIP", directive[4:].strip()
    if directive and directive.upper().startswith("TODO"):
        return "SKIP", directive
    return ("PASS" if ok else "FAIL"), ""


def parse(text):
    """The KTAP tree: a list of result nodes {name, number, status, message,
    children}. Nesting is by indentation (4 spaces a level): the lines of a
    subtest, its results and diagnostics, come before its own result line,
    one level deeper."""
    stack = []   # stack[d]: results and pending diagnostics at depth d

    def level(depth):
        while len(stack) <= depth:
            stack.append({"children": [], "diag": []})
        return stack[depth]

    for raw in text.splitlines():
        line = LOG_PREFIX.sub("", raw.rstrip("\r\n"))
        stripped = line.strip()
        if not stripped or VERSION.match(stripped) or SUBTEST.match(stripped):
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 4
        r = result_line(stripped)
        if r:
            ok, number, name, directive = r
            parent = level(depth)
            children, diag = [], []
            while len(stack) > depth + 1:   # deeper levels are its subtests
                inner = stack.pop()
                children = inner["children"] + children
                diag = inner["diag"] + diag
            status, reason = status_of(ok, directive)
            msg = reason if status == "SKIP" else (
                "\n".join(parent["diag"] + diag) if status == "FAIL" else "")
            parent["children"].append({"name": name, "number": number, "status": status,
                                       "message": msg.strip(), "children": children})
            parent["diag"] = []
        elif stripped.startswith("#"):
            level(depth)["diag"].append(stripped.lstrip("#").strip())
    # A run cut short (a crash mid-suite) leaves levels open: keep their results.
    top = []
    for lv in stack:
        top += lv["children"]
    return top


def records(text, suite=None):
    """lz4gate records of every regression-case result in the text:
    {"suite", "case", "tcId", "status", "message"}; only the suite named
    `suite` when given."""
    out = []
    for node in parse(text):
        if suite and node["name"] != suite:
            continue
        for case in node["children"] or []:
            rows = [c for c in case["children"] if TC.match(c["name"])]
            if not rows:
                out.append({"suite": node["name"], "case": case["name"], "tcId": None,
                            "status": case["status"], "message": case["message"]})
            for row in rows:
                out.append({"suite": node["name"], "case": case["name"],
                            "tcId": int(TC.match(row["name"]).group(1)),
                            "status": row["status"], "message": row["message"]})
    return out
