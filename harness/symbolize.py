"""Sanitizer reports symbolized in one batch, after the run.

A sanitizer that symbolizes its own report starts llvm-symbolizer in the
crashing process: a fork of a process with ASan's mappings, then a cold start
that reads the program's debug information, about 0.3-1 s per crash on the
2-core machine. The runners (contracts, vectors, regression cases) see
hundreds of crashes on a buggy subject, so they run with symbolize=0
(toolchain.SANITIZER_ENV) and their reports are symbolized here: every
unsymbolized frame of every report of a run, in one llvm-symbolizer
process. The text is rewritten into what the sanitizer would have
printed itself, so every reader of reports (report/failure.py) is unchanged:

    #0 0x5595014cd453  (/path/prog+0x11b453) (BuildId: ...)
 -> #0 0x5595014cd453 in LZ4_decompress_safe /path/lz4.c:1079:22

with one frame per inlined function (numbered on, as the sanitizer does),
and the SUMMARY line's "(/path/prog+0x11b453)" as "/path/lz4.c:1079:22 in
LZ4_decompress_safe". A frame the symbolizer cannot name stays as it was.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess

from harness import atomic
from harness.paths import BUILD

# "    #3 0x55d0c1a2  (/path/module+0x1a2b) (BuildId: 0123abcd)"
RAW_FRAME_RE = re.compile(r"^(?P<indent>\s*)#(?P<num>\d+) (?P<pc>0x[0-9a-f]+)  "
                          r"(?P<where>\((?P<module>[^()\s]+)\+(?P<off>0x[0-9a-f]+)\)"
                          r"(?: \(BuildId: [0-9a-f]+\))?)\s*$")
# Any frame line, symbolized or not: its number (frames are renumbered).
ANY_FRAME_RE = re.compile(r"^(\s*)#(\d+) (.*)$")
SUMMARY_RE = re.compile(r"^(SUMMARY: \w+: [\w-]+) \((?P<module>[^()\s]+)\+(?P<off>0x[0-9a-f]+)\)"
                        r"(?: \(BuildId: [0-9a-f]+\))?\s*$")
SYMBOLIZERS = ("llvm-symbolizer-14", "llvm-symbolizer")


def _symbolizer():
    return next((p for p in map(shutil.which, SYMBOLIZERS) if p), None)


def _locations(wanted, tool):
    """{(module, offset): [(function, file:line:col or None), ...innermost
    first]}: every address in one symbolizer process ("MODULE OFFSET" lines,
    as the sanitizers send them)."""
    proc = subprocess.run([tool, "--demangle", "--inlines"],
                          input="".join('"%s" %s\n' % w for w in wanted),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          universal_newlines=True, errors="replace", timeout=600)
    out = {}
    for key, block in zip(wanted, proc.stdout.split("\n\n")):
        lines = [l for l in block.strip("\n").split("\n") if l]
        pairs = [(lines[i], lines[i + 1]) for i in range(0, len(lines) - 1, 2)]
        if pairs and pairs[0][0] != "??":
            out[key] = [(f, _location(loc)) for f, loc in pairs]
    return out


def _location(loc):
    """file:line:col as the sanitizer prints it ("./csu/x.c" as "csu/x.c"),
    None when the symbolizer knows no file."""
    if loc.startswith("??"):
        return None
    loc = loc[2:] if loc.startswith("./") else loc
    parts = loc.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        if parts[1] == "0":
            return parts[0]                    # no line: the file alone
        if parts[2] == "0":
            return "%s:%s" % (parts[0], parts[1])    # no column
    return loc


# What a program's addresses symbolize to, kept per program file (its path,
# size, mtime and inode: a rebuilt program is another file): the same
# documented findings crash the same programs in test after test and gate
# after gate, and each llvm-symbolizer start read their debug information
# again (make test started 271, 52 CPU seconds).
MEMO = os.path.join(BUILD, "symbolize")


def _memo_path(module):
    try:
        st = os.stat(module)
    except OSError:
        return None
    ident = "%s\0%d\0%d\0%d" % (module, st.st_size, st.st_mtime_ns, st.st_ino)
    return os.path.join(MEMO, hashlib.sha256(ident.encode()).hexdigest()[:32] + ".json")


def _memo_load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def _table(texts):
    """{(module, offset): locations} for every raw frame and summary of texts:
    from the memo of each program, the rest from one symbolizer process."""
    wanted = set()
    for text in texts:
        for line in text.splitlines():
            m = RAW_FRAME_RE.match(line) or SUMMARY_RE.match(line)
            if m:
                wanted.add((m.group("module"), m.group("off")))
    memos = {mod: _memo_path(mod) for mod in {mod for mod, _ in wanted}}
    known = {mod: _memo_load(path) if path else {} for mod, path in memos.items()}
    table, missing = {}, []
    for mod, off in sorted(wanted):
        if off not in known[mod]:
            missing.append((mod, off))
        elif known[mod][off]:           # [] : the symbolizer knew nothing
            table[(mod, off)] = [tuple(pair) for pair in known[mod][off]]
    tool = _symbolizer() if missing else None
    if not tool:
        return table
    found = _locations(missing, tool)
    table.update(found)
    for mod in {mod for mod, _ in missing}:
        if memos[mod]:
            fresh = _memo_load(memos[mod])
            fresh.update({off: found.get((m, off), []) for m, off in missing if m == mod})
            atomic.write_file(memos[mod], json.dumps(fresh))
    return table


def _rewrite(text, table):
    out, shift = [], 0
    for line in text.split("\n"):
        m = RAW_FRAME_RE.match(line)
        f = ANY_FRAME_RE.match(line)
        if f and int(f.group(2)) == 0:
            shift = 0                          # a new stack
        locs = table.get((m.group("module"), m.group("off"))) if m else None
        if locs:
            num = int(m.group("num")) + shift
            for k, (func, loc) in enumerate(locs):
                out.append("%s#%d %s in %s %s" % (m.group("indent"), num + k, m.group("pc"),
                                                   func, loc or m.group("where")))
            shift += len(locs) - 1
            continue
        if f and shift:
            line = "%s#%d %s" % (f.group(1), int(f.group(2)) + shift, f.group(3))
        s = SUMMARY_RE.match(line)
        locs = table.get((s.group("module"), s.group("off"))) if s else None
        if locs and locs[0][1]:
            line = "%s %s in %s" % (s.group(1), locs[0][1], locs[0][0])
        elif locs:                             # a function without a file
            line = "%s in %s" % (line.rstrip(), locs[0][0])
        out.append(line)
    return "\n".join(out)


def texts(items):
    """items symbolized: one llvm-symbolizer process for all."""
    items = list(items)
    if not any("+0x" in t for t in items):
        return items
    table = _table(items)
    return [_rewrite(t, table) if table else t for t in items]


def records(recs, fields=("report",)):
    """Symbolize the fields of records (dicts) in place; returns recs."""
    slots = [(r, k) for r in recs for k in fields if isinstance(r.get(k), str) and r[k]]
    for (r, k), text in zip(slots, texts(r[k] for r, k in slots)):
        r[k] = text
    return recs
