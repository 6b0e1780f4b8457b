"""Crash triage: every crash file of a campaign looked at, in two passes
(issue 27: a cap on the files replayed lost a distinct bug among many
crashes of a frequent one).

1. Stack pass: every file is replayed once, without symbols
   (ASAN_OPTIONS/UBSAN_OPTIONS symbolize=0), each in a child process of one
   replay process (`REPLAY --each`, fuzz/replay_main.c: the start-up and the
   target's first-call set-up are paid once per batch), and keyed by what it
   printed: the failure's kind (the oracle's CLASS@ENTRY, or the sanitizer's
   report type and access) and the module+offset of every frame of the
   first stack. Files with one key fail the same way on the same path.
2. Symbol pass: the smallest file of each distinct stack is replayed again
   with symbols; failure_of() gives the finding's signature. Several stacks
   may give one signature (a defect reached through several call paths):
   their files add up in its count.

No limit applies per file. Per distinct stack, when its smallest file does
not fail again, the next smallest is tried, MAX_TRIES in all; then the stack
counts as "does not fail when replayed".

What the engine provides (libFuzzer 14, -fork with -ignore_crashes): one
crash-<sha1 of the input> file per crashing job (identical inputs share a
file), the ERROR:/runtime error: lines of each job echoed without the file
they belong to, and "oom/timeout/crash: O/T/C" counts on its status lines
(campaign.engine_counts reports them beside ours). It de-duplicates nothing
by stack: DEDUP_TOKEN (ASAN_OPTIONS dedup_token_length) is read only by
-minimize_crash, stays in the job logs fork mode deletes, and needs symbols
(nothing is printed with symbolize=0). So the stack key is ours.
"""
import concurrent.futures
import hashlib
import os
import re
import subprocess

from harness import symbolize
from harness.evidence.failure import ORACLE_RE, UB_RE, failure_of, report_of

MAX_TRIES = 3        # symbolized replays per distinct stack whose smallest file passes
MAX_SAMPLE = 8       # reproducers kept per finding (findings.MAX_SAMPLE)
BATCH = 400          # files per replay process (its command line)

MARK_RE = re.compile(r"^replay: \[(\d+)\] (begin|end: (.*))$", re.M)
# "#3 0x55d0c1 (/path/prog+0x17ee21) (BuildId: ...)" unsymbolized, or
# "#3 0x55d0c1 in func /path/file.c:12:3" symbolized.
FRAME_RE = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ +(.*?)\s*(?:\(BuildId: [0-9a-f]+\))?\s*$", re.M)
MODULE_RE = re.compile(r"^\((?:.*/)?([^/()]+\+0x[0-9a-f]+)\)$")

PASSES, TIMEOUT = "no failure when replayed", "timeout"


def without_symbols(env):
    env = dict(env)
    for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        env[var] = ":".join(o for o in (env.get(var), "symbolize=0") if o)
    return env


def stack_of(text):
    """The frames of the first stack in text, each as module+offset (or the
    symbolized function and place, without directories)."""
    out = []
    for m in FRAME_RE.finditer(text):
        if out and m.group(1) == "0":
            break                          # the next stack (allocation, free...)
        frame = m.group(2)
        mod = MODULE_RE.match(frame)
        out.append(mod.group(1) if mod else re.sub(r"\S*/", "", frame))
    return out


def stack_key(status, text):
    """What a replay printed, as the key of the stack pass."""
    if status == "ok":
        return PASSES
    if status == "timeout":
        return TIMEOUT
    m = ORACLE_RE.search(text)
    if m:                                   # the oracle's verdict: no stack
        return "oracle " + (m.group(2) or "error")
    head = failure_of(text)["kind"]
    ub = UB_RE.search(text)
    if ub and "ERROR: " not in text:
        head += " at " + os.path.basename(ub.group(1))
    frames = stack_of(text)
    if not frames:
        return "%s (%s, no stack)" % (head, status)
    return "%s | %s" % (head, hashlib.sha1("\n".join(frames).encode()).hexdigest()[:16])


def replay_each(binary, files, env, timeout, prefix=(), jobs=1):
    """{path: (status, text)} of the files replayed one per child process
    (status: ok, exit N, signal N, timeout, unreadable); a file without a
    status is missing from the result (its replay process ended early)."""
    chunks = [files[i:i + BATCH] for i in range(0, len(files), BATCH)]
    if len(chunks) < jobs and len(files) > 1:
        k = max(1, -(-len(files) // jobs))
        chunks = [files[i:i + k] for i in range(0, len(files), k)]

    def run(chunk):
        out = {}
        todo = list(chunk)
        while todo:
            got = _run_batch(binary, todo, env, timeout, prefix)
            out.update(got)
            done = [p for p in todo if p in got]
            if not done:
                break                         # no progress: the rest stay missing
            last = max(todo.index(p) for p in done)
            todo = todo[last + 1:]
        return out
    out = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for got in pool.map(run, chunks):
            out.update(got)
    return out


def _run_batch(binary, files, env, timeout, prefix):
    cmd = list(prefix) + [binary, "--each", "--timeout", str(int(timeout))] + list(files)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                              timeout=timeout * (len(files) + 1) + 60)
        text = proc.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        text = (e.stdout or b"").decode(errors="replace")
    out, begin = {}, {}
    for m in MARK_RE.finditer(text):
        k = int(m.group(1))
        if m.group(2) == "begin":
            begin[k] = m.end()
        elif k in begin and 1 <= k <= len(files):
            out[files[k - 1]] = (m.group(3), text[begin.pop(k):m.start()])
    return out


class CrashTriage:
    """The crash files of one campaign, added as they come (the detection
    bench adds each poll's new files): add() returns the signatures it saw
    first; findings() and summary() are the result so far."""

    def __init__(self, replay_binary, env, timeout=120, prefix=(), jobs=1):
        self.binary, self.env, self.timeout = replay_binary, env, timeout
        self.prefix, self.jobs = tuple(prefix), jobs
        self.files = []                     # every file given, in order
        self.stacks = {}                    # key -> {"files": [(size, path)], ...}
        self.missing = []                   # [{"path", "why"}]

    def add(self, files):
        known = set(self.files)
        files = [f for f in files if f not in known]
        self.files += files
        sizes = {}
        for f in files:
            try:
                sizes[f] = os.path.getsize(f)
            except OSError as e:
                self.missing.append({"path": f, "why": "cannot read it: %s" % e.strerror})
        todo = sorted(sizes, key=lambda f: (sizes[f], f))
        got = replay_each(self.binary, todo, without_symbols(self.env), self.timeout,
                          self.prefix, self.jobs)
        fresh = []
        for f in todo:
            if f not in got:
                self.missing.append({"path": f, "why": "its replay process ended before it"})
                continue
            status, text = got[f]
            if status == "unreadable" or (status == "exit 2" and "replay: cannot" in text):
                self.missing.append({"path": f, "why": "the replay could not read it"})
                continue
            key = stack_key(status, text)
            if key not in self.stacks:
                self.stacks[key] = {"key": key, "files": [], "finding": None}
                fresh.append(key)
            self.stacks[key]["files"].append((sizes[f], f))
        before = {s["finding"]["signature"] for s in self.stacks.values() if s["finding"]}
        self._symbolize(fresh)
        return {s["finding"]["signature"] for s in self.stacks.values()
                if s["finding"]} - before

    def _symbolize(self, keys):
        """The symbol pass over the new stacks (their smallest file first)."""
        tries = {k: 0 for k in keys}
        for k in keys:
            st = self.stacks[k]
            st["files"].sort()
            if k in (PASSES, TIMEOUT):
                st["finding"] = _plain(k, self.timeout)
                st["input"] = st["files"][0][1]
        pending = [k for k in keys if self.stacks[k]["finding"] is None]
        while pending:
            reps = {self.stacks[k]["files"][tries[k]][1]: k for k in pending}
            got = replay_each(self.binary, sorted(reps), without_symbols(self.env),
                              self.timeout, self.prefix, self.jobs)
            # symbolized here, every report of the pass in one batch
            paths = sorted(got)
            for path, text in zip(paths, symbolize.texts(got[p][1] for p in paths)):
                got[path] = (got[path][0], text)
            pending = []
            for path, k in reps.items():
                st = self.stacks[k]
                tries[k] += 1
                status, text = got.get(path, (None, ""))
                if status not in (None, "ok", "timeout", "unreadable"):
                    f = failure_of(text)
                    st["finding"] = {"signature": f["signature"], "cls": f.get("cls"),
                                     "entry": f.get("entry"), "message": f["message"],
                                     "top": f.get("top"), "frames": f.get("frames", [])[:8],
                                     "fault": f.get("fault"), "report": report_of(text)}
                    st["input"] = path
                elif tries[k] < min(MAX_TRIES, len(st["files"])):
                    pending.append(k)
                elif status is None:
                    self.missing.append({"path": path, "why": "the symbolized replay of stack "
                                         "'%s' did not run" % k})
                    st["finding"], st["input"] = None, None
                    st["untriaged"] = True
                else:
                    st["finding"] = _plain(PASSES, self.timeout)
                    st["input"] = st["files"][0][1]

    def findings(self):
        """{signature: finding}, as findings.from_crashes gives them."""
        out = {}
        for st in sorted(self.stacks.values(), key=lambda s: s["files"][0]):
            f = st["finding"]
            if f is None:
                continue
            paths = [p for _, p in st["files"]]
            prev = out.get(f["signature"])
            if prev:
                prev["count"] += len(paths)
                prev["stacks"] += 1
                prev["inputs"] = (prev["inputs"] + paths)[:MAX_SAMPLE]
                continue
            rep = st["input"]
            out[f["signature"]] = dict(f, count=len(paths), stacks=1, input=rep,
                                       inputs=([rep] + [p for p in paths if p != rep])
                                       [:MAX_SAMPLE], source="crash")
        if self.missing:
            out["not_triaged@-"] = {
                "signature": "not_triaged@-", "cls": "not triaged", "entry": None,
                "count": len(self.missing), "stacks": 0, "source": "crash",
                "message": "%d crash file(s) not looked at: %s" % (
                    len(self.missing), "; ".join("%s (%s)" % (m["path"], m["why"])
                                                 for m in self.missing[:3])),
                "input": self.missing[0]["path"],
                "inputs": [m["path"] for m in self.missing][:MAX_SAMPLE],
                "top": None, "frames": [], "report": ""}
        return out

    def summary(self):
        """The counts a report gives: files written, replayed, distinct
        stacks, stacks triaged with symbols, signatures, and every file
        that was not looked at (with why)."""
        stacks = sorted(self.stacks.values(), key=lambda s: s["files"][0])
        triaged = [s for s in stacks if s["finding"] is not None]
        return {"files": len(self.files),
                "replayed": sum(len(s["files"]) for s in stacks),
                "stacks": len(stacks), "triaged": len(triaged),
                "signatures": len({s["finding"]["signature"] for s in triaged}),
                "not_looked_at": list(self.missing),
                "by_stack": [{"stack": s["key"], "files": len(s["files"]),
                              "smallest": s["files"][0][1], "size": s["files"][0][0],
                              "signature": s["finding"]["signature"] if s["finding"]
                              else None} for s in stacks]}


def _plain(kind, timeout):
    if kind == TIMEOUT:
        return {"signature": "timeout@-", "cls": "timeout", "entry": None, "top": None,
                "message": "no result after %d s" % timeout, "frames": [], "report": ""}
    return {"signature": "flaky@-", "cls": "flaky", "entry": None, "top": None,
            "message": "does not fail when replayed (a timeout, OOM or a state "
                       "the fork-mode job had built up)", "frames": [], "report": ""}


def summary_line(s, engine=None):
    """One line: "crash files: N written, N replayed, S distinct stacks, S
    triaged with symbols -> F signature(s); 0 not looked at"."""
    line = ("crash files: %d written%s, %d replayed, %d distinct stack(s), %d triaged with "
            "symbols (the smallest file of each) -> %d signature(s); %d not looked at" % (
                s["files"], " (%s)" % engine if engine else "", s["replayed"], s["stacks"],
                s["triaged"], s["signatures"], len(s["not_looked_at"])))
    return line


def not_looked_at_lines(s):
    return ["  not looked at: %s (%s)" % (m["path"], m["why"]) for m in s["not_looked_at"]]
