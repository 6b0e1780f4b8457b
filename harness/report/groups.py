"""What a reviewer needs of one root cause (harness/findings/rootcause.py
groups them): the access (READ/WRITE, size), the buffer and the distance,
the place in the candidate's source, one line for a failing record."""
import os
import re

from harness.evidence.failure import SEGV_ACCESS_RE
from harness.findings.rootcause import failure_of

# Severity, most severe first (harness/runners/common/fail_class.h SEVERITY).
SEVERITY = ("out-of-bounds write", "out-of-bounds read", "wrong output or information leak",
            "contract or API deviation", "performance")
# "0x6020... is located 3 bytes to the right of 100-byte region [0x..,0x..)"
LOCATED_RE = re.compile(r"is located (\d+) bytes (to the right|to the left|inside) of "
                        r"(\d+)-byte region \[(0x[0-9a-f]+),(0x[0-9a-f]+)\)")
ADDRESS_RE = re.compile(r"(?:on|at) (?:unknown )?address (0x[0-9a-f]+)")
# The runners' buffer map: "lz4gate-buffer NAME 0xSTART 0xEND" (guard.c).
BUFFER_RE = re.compile(r"lz4gate-buffer (\S+) (0x[0-9a-f]+) (0x[0-9a-f]+)")
# How far from a buffer a fault still counts as "just outside" it.
GUARD_SPAN = 1 << 16


def failure_of_item(item):
    """The parsed failure behind a gate item (its example record)."""
    return item.get("failure") or failure_of(item)


def explain(record):
    """One line for a failing runner record: its signature, the access and
    the buffer, and the place in the subject's source (what the gate's
    report groups it by, so a reproducer shows it failed the same way)."""
    fail = failure_of({"record": record, "kind": "contract", "id": record["check"],
                       "fail_class": record.get("fail_class")})
    acc = access_of(fail)
    parts = ["signature " + fail["signature"]]
    if acc:
        parts.append(" ".join(filter(None, [acc["kind"], acc["where"]])))
    top = fail.get("top")
    if top and top.get("file"):
        parts.append("at %s:%d" % (top["file"], top["line"]))
    return "; ".join(parts)


def first_line(text):
    """The first line that says something: the runners' buffer map
    ("lz4gate-buffer NAME START END", printed before each test) is not."""
    lines = [l for l in (text or "").strip().splitlines()
             if l.strip() and not BUFFER_RE.match(l.strip())]
    return lines[0] if lines else ""


def access_of(fail):
    """{kind: READ|WRITE, size, where} of a memory error, or None."""
    text = fail.get("text", "")
    m = re.search(r"(READ|WRITE) of size (\d+)", text)
    seg = SEGV_ACCESS_RE.search(text)
    if not m and not seg:
        return None
    kind = m.group(1) if m else seg.group(1)
    return {"kind": kind, "size": int(m.group(2)) if m else None, "where": where(text)}


def where(text):
    """Which buffer, and how far outside it, from the sanitizer's words or
    from the fault address and the runner's buffer map."""
    buffers = [(n, int(a, 16), int(b, 16)) for n, a, b in BUFFER_RE.findall(text)]
    m = LOCATED_RE.search(text)
    if m:
        dist, side, size, start = int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4), 16)
        name = next((n for n, a, _ in buffers if a == start), "a %d-byte buffer" % size)
        if side == "to the right":
            return past_end(dist, name)
        if side == "to the left":
            return "%d bytes before the start of %s" % (dist, name)
        return "inside %s" % name
    m = ADDRESS_RE.search(text)
    if m and buffers:
        addr = int(m.group(1), 16)
        # The nearest buffer edge: a guard page may sit between the end of
        # one buffer and the start of the next (guard.c maps them in a row).
        near = []
        for name, a, b in buffers:
            if b <= addr < b + GUARD_SPAN:
                near.append((addr - b, past_end(addr - b, name) + " (guard page)"))
            if a - GUARD_SPAN <= addr < a:
                near.append((a - addr, "%d bytes before the start of %s (guard page)"
                             % (a - addr, name)))
        if near:
            return min(near)[1]
        return "at 0x%x, outside every buffer the runner mapped" % addr
    return None


def past_end(dist, name):
    """ASan's count: 0 bytes past the end is the first byte after it."""
    if dist == 0:
        return "the first byte past the end of %s" % name
    return "%d bytes past the end of %s" % (dist, name)


def source_excerpt(frame, around=1):
    """The frame's line in the candidate's source with `around` lines on each side."""
    if not frame or not frame.get("file") or not os.path.isfile(frame["file"]):
        return []
    with open(frame["file"], errors="replace") as f:
        lines = f.read().splitlines()
    n = frame["line"]
    lo, hi = max(1, n - around), min(len(lines), n + around)
    return ["%5d%s %s" % (i, ">" if i == n else " ", lines[i - 1]) for i in range(lo, hi + 1)]
