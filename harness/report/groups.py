"""Root causes, not rows: the gate's failing items grouped by failure
signature (failure.py signature(): class @ entry, and the top frame in
subject code), ordered by severity, each with what a reviewer needs: the
access (READ/WRITE, size), the buffer and the distance, the place in the
candidate's source, one command that reproduces it, and the history link."""
import os
import re

from harness.gate.policy import CATEGORIES, FAIL, LEVEL
from harness.report.failure import SEGV_ACCESS_RE, failure_of, signature, signature_class

# Severity, most severe first.
SEVERITY = ("out-of-bounds write", "out-of-bounds read", "wrong output or information leak",
            "contract or API deviation", "performance")
LEAK_OR_WRONG = re.compile(r"wrong_output|stale_output|offset0_output|cross_decode|roundtrip|"
                           r"malformed_wrong_output|valid_block|nonconformant_block|"
                           r"accepts_invalid|nondeterministic|leak")
# "0x6020... is located 3 bytes to the right of 100-byte region [0x..,0x..)"
LOCATED_RE = re.compile(r"is located (\d+) bytes (to the right|to the left|inside) of "
                        r"(\d+)-byte region \[(0x[0-9a-f]+),(0x[0-9a-f]+)\)")
ADDRESS_RE = re.compile(r"(?:on|at) (?:unknown )?address (0x[0-9a-f]+)")
# The runners' buffer map: "lz4gate-buffer NAME 0xSTART 0xEND" (guard.c).
BUFFER_RE = re.compile(r"lz4gate-buffer (\S+) (0x[0-9a-f]+) (0x[0-9a-f]+)")
# How far from a buffer a fault still counts as "just outside" it.
GUARD_SPAN = 1 << 16


def failure_of_item(item):
    """The parsed failure behind a gate item (a runner record or a fuzz finding)."""
    if item.get("fuzz"):
        f = item["fuzz"]
        text = f.get("report") or f["message"]
        got = failure_of(text) if f.get("report") else {}
        got.update(signature=f["signature"], cls=f.get("cls"), entry=f.get("entry"),
                   message=f["message"], top=f.get("top"), frames=f.get("frames", []))
        got.setdefault("text", text)
        return got
    r = item["record"]
    text = r.get("report") or r.get("evidence", "")
    entry = r.get("entry") or entry_of_check(r["check"])
    if r["verdict"] == "FAIL" and "ERROR: " not in text:
        # No crash: the check's own verdict. A case says what class of bug
        # it is about (its "class"), a contract check that it was violated.
        cls = "case" if r.get("stage") in ("regress", "kunit") else "contract"
        return {"signature": signature(cls, entry), "cls": cls, "entry": entry,
                "message": first_line(r.get("evidence", "")), "frames": [], "top": None,
                "text": "%s %s" % (text, r.get("class") or "")}
    got = failure_of(text)
    got["entry"] = got.get("entry") or entry
    got["signature"] = signature(signature_class(got["kind"], text), got["entry"],
                                 got.get("top"))
    got["text"] = text
    return got


def entry_of_check(check):
    """The API entry of a check id: "decompress_safe_partial.targets" ->
    decompress_safe_partial, "vector.NAME.decompress_safe" -> decompress_safe,
    "compress_hc[9].x" -> compress_hc."""
    if check.startswith("vector."):
        return check.rsplit(".", 1)[-1]
    return re.split(r"[.\[]", check, 1)[0]


def explain(record):
    """One line for a failing runner record: its signature, the access and
    the buffer, and the place in the subject's source (what the gate's
    report groups it by, so a reproducer shows it failed the same way)."""
    fail = failure_of_item({"record": record})
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


# ASan reports without a READ/WRITE line, ranked by what they do: a
# negative memcpy size is a write as long as the address space; overlapping
# memcpy arguments give undefined (wrong) output.
ASAN_SEVERITY = {"negative-size-param": 0, "memcpy-param-overlap": 2, "double-free": 0,
                 "heap-use-after-free": 1, "bad-free": 0}


def severity(fail):
    text = "%s %s" % (fail.get("signature", ""), fail.get("text", ""))
    report = fail.get("signature", "").split("@")[0]
    if report in ASAN_SEVERITY:
        return ASAN_SEVERITY[report]
    access = access_of(fail)
    if access and access["kind"] == "WRITE":
        return 0
    if access or "SEGV" in text or re.search(r"(buffer|heap|stack)[- ]overflow", text):
        return 1
    if LEAK_OR_WRONG.search(text):
        return 2
    if "timeout" in fail.get("signature", "") or "slow" in text:
        return 4
    return 3


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


def _by_fix(items):
    """Regression cases of one fix (harness/gate/fixes.py: one CVE or
    upstream fix, the kernel and upstream ids of one bug) go together, in
    the most severe category any of them is in: one fix is never shown as
    lost under one id and newly fixed under another."""
    worst = {}
    for item in items:
        if item.get("fix"):
            rank = CATEGORIES.index(item["category"])
            worst[item["fix"]] = min(worst.get(item["fix"], rank), rank)
    for item in items:
        item["relation"] = item["category"]
        if item.get("fix"):
            item["category"] = CATEGORIES[worst[item["fix"]]]
    return items


def _one_root_cause_one_section(keyed):
    """A crash at one place (a signature with a frame in the subject's code)
    that fails a regression case and a contract is one root cause: its FAIL
    items go to the first FAIL section any of them is in (a lost fix before
    a regression), each keeping its own relation."""
    worst = {}
    for item, fail, sig in keyed:
        if LEVEL[item["category"]] == FAIL and fail.get("top"):
            rank = CATEGORIES.index(item["category"])
            worst[sig] = min(worst.get(sig, rank), rank)
    for item, fail, sig in keyed:
        if LEVEL[item["category"]] == FAIL and fail.get("top"):
            item["category"] = CATEGORIES[worst[sig]]


def group(items):
    """[{signature, severity, category, items, failure}] most severe first:
    the ids of one fix together, everything else by failure signature."""
    groups = {}
    items = _by_fix(items)
    ids = {}
    for item in items:
        if item.get("fix"):
            ids.setdefault(item["fix"], set()).add(item["id"])
    keyed = []
    for item in items:
        fail = failure_of_item(item)
        # A fix with several ids here is one group under its label; anything
        # else is grouped by its root cause (the failure signature).
        multi = item.get("fix") and len(ids[item["fix"]]) > 1
        keyed.append((item, fail, item["fix"] if multi else fail["signature"]))
    _one_root_cause_one_section(keyed)
    for item, fail, sig in keyed:
        key = (item["category"], sig)
        g = groups.setdefault(key, {"signature": sig, "category": item["category"],
                                    "severity": severity(fail), "items": [], "failure": fail})
        g["severity"] = min(g["severity"], severity(fail))
        g["items"].append(item)
    return sorted(groups.values(), key=lambda g: (CATEGORIES.index(g["category"]),
                                                  g["severity"], g["signature"]))
