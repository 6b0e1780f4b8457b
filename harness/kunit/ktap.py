"""Reading KTAP v1 (what the kernel tree's `kunit.py run --raw_output`
prints, or a kernel log holding it) back into lz4gate records.

The generated suite (emit.py) names each KUnit case by a regression case's
id and each of its parameters "tc N" (the test's tcId), so a result line
nested in case ID reads back as {"case": ID, "tcId": N, "status": ...}. A
case without parameter lines (it failed before its first row) gives one
record with tcId None; so does a case whose output ends before its result
line (a crash), as a FAIL after the rows it printed. Statuses are PASS,
FAIL, SKIP; the message is the SKIP reason, or the diagnostic lines before
a failed result.
"""
import re

# "ok 3 name # SKIP reason" / "not ok 1 name" (TAP 13: "ok 3 - name").
RESULT = re.compile(r"^(not ok|ok)\s+(\d+)(?:\s+-)?(?:\s+([^#]*?))?\s*(?:#\s*(.*))?$")
SUBTEST = re.compile(r"^#\s*Subtest:\s*(.*?)\s*$")
VERSION = re.compile(r"^(KTAP|TAP) version (\d+)")
# Attributes KUnit prints in a suite's header, no diagnostics.
ATTRIBUTE = re.compile(r"^(module|is_init|speed): ")
CRASH = re.compile(r"Kernel panic|BUG:|Oops|RIP:")
PLAN = re.compile(r"^\d+\.\.\d+")
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
    subtest come before its own result line, one level deeper. Any other
    line since the last result or subtest header (a "# ..." diagnostic, the
    text of a failed expectation, kernel messages) is the message of the
    next result line if that one fails."""
    stack = [[]]   # stack[d]: the results at depth d not yet claimed by a parent
    pending = []   # (depth, line) of the diagnostics not yet claimed
    names = {}     # depth -> the name of the subtest whose lines are there

    def close_open_levels():
        # A run cut short (a crash) leaves levels open: each becomes a
        # failed node of the subtest it belongs to, marked incomplete, with
        # the lines of the crash that say where.
        crash = [t for _, t in pending if CRASH.search(t)][:3]
        message = "; ".join(["the output ends before this test's result line"] + crash)
        while len(stack) > 1:
            depth = len(stack) - 1
            children = stack.pop()
            stack[-1].append({"name": names.get(depth, "?"), "number": None, "status": "FAIL",
                              "message": message, "children": children, "incomplete": True})
        del pending[:]

    for raw in text.splitlines():
        line = LOG_PREFIX.sub("", raw.rstrip("\r\n"))
        stripped = line.strip()
        depth = (len(line) - len(line.lstrip(" "))) // 4
        m = SUBTEST.match(stripped)
        if m:
            names[depth] = m.group(1)
            del pending[:]   # what came before belongs to no result of it
            while len(stack) <= depth:   # its level exists before its first result
                stack.append([])
            continue
        if VERSION.match(stripped) and depth == 0:
            close_open_levels()   # a new document (another boot) starts
            continue
        if not stripped or VERSION.match(stripped) or PLAN.match(stripped):
            continue
        r = result_line(stripped)
        if not r:
            pending.append((depth, stripped.lstrip("#").strip()))
            continue
        ok, number, name, directive = r
        while len(stack) <= depth:
            stack.append([])
        children = []
        while len(stack) > depth + 1:   # the deeper levels are its subtests
            children = stack.pop() + children
        # KUnit prints a failure one level up and its text at column 0:
        # every line since the previous result belongs to this one.
        mine = [t for _, t in pending if not ATTRIBUTE.match(t)]
        pending = []
        status, reason = status_of(ok, directive)
        msg = reason if status == "SKIP" else ("\n".join(mine) if status == "FAIL" else "")
        stack[depth].append({"name": name, "number": number, "status": status,
                             "message": msg.strip(), "children": children})
    close_open_levels()
    return stack[0]


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
            for row in rows:
                out.append({"suite": node["name"], "case": case["name"],
                            "tcId": int(TC.match(row["name"]).group(1)),
                            "status": row["status"], "message": row["message"]})
            if not rows or case.get("incomplete"):
                out.append({"suite": node["name"], "case": case["name"], "tcId": None,
                            "status": case["status"], "message": case["message"]})
    return out
