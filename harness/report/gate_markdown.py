"""report.md (a pull-request comment, under 64 KiB) and report-full.md
(every item of every group) of the gate."""
import os

from harness.findings import policy
from harness.gate import waivers
from harness.findings.policy import TITLE
from harness.report import differences
from harness.evidence.failure import clip, subject_frames
from harness.report.groups import SEVERITY, access_of, source_excerpt
from harness.report.regressions.results import config_key

LIMIT = 60000          # GitHub's comment limit is 65,536 characters
EMPTY = {"lost": "None: every fix the base has, the candidate has too."}


def code(text):
    return "`%s`" % str(text).replace("`", "'")


def configs(items):
    cs = sorted({c for i in items for c in i["configs"]}, key=config_key)
    return ", ".join(cs)


def side_options(o, role):
    """" + --include DIR --define X" of a side, for the header table."""
    kw = getattr(o, role + "_opts", None) or {}
    opts = ["--include %s" % d for d in kw.get("includes", [])] + \
        ["--define %s" % d for d in kw.get("defines", [])]
    return " + " + ", ".join(code(x) for x in opts) if opts else ""


def not_applicable(records):
    """"base: 387 contract checks, 42 regression cases; candidate: ..." of
    the records that are n/a (summed over the configurations), or ""."""
    sides = []
    for role in ("base", "candidate"):
        n = {st: sum(1 for r in records if r.get("role") == role and r.get("stage") == st
                     and r.get("status") == "n/a") for st in ("contracts", "regress")}
        if any(n.values()):
            sides.append("%s: %d contract checks, %d regression cases" % (
                role, n["contracts"], n["regress"]))
    return "; ".join(sides)


def header(ctx):
    g, cats = ctx["gate"], ctx["decision"]["categories"]
    o = g.opts
    verdict = "FAIL" if ctx["decision"]["failed"] else "PASS"
    count = {c: (len(ctx["groups"][c]), len(cats[c])) for c in cats}
    warn = count["changed"][1]
    names = ctx["names"]
    lines = ["# lz4gate: %s" % verdict, "",
             "**Candidate** %s **%s base** %s: %d lost fixes, %d regressions (%d root "
             "causes); %d behaviour changes (WARN%s); %d not reproducible; %d known findings; "
             "%d newly fixed." % (
                 cell(names["candidate"]),
                 "may not replace" if verdict == "FAIL" else "may replace", cell(names["base"]),
                 count["lost"][1], count["regression"][1],
                 count["lost"][0] + count["regression"][0], warn,
                 ", failing under --strict" if o.strict else ", listed, not failing",
                 count["unconfirmed"][1], count["known"][1], count["fixed"][1]), "",
             "| | |", "|---|---|",
             "| base | %s%s |" % (cell(names["base"]), side_options(o, "base")),
             "| candidate | %s%s%s |" % (
                 cell(names["candidate"]),
                 " + patches " + ", ".join(code(os.path.basename(p)) for p in o.patch)
                 if o.patch else "", side_options(o, "candidate")),
             "| configurations | %s%s |" % (", ".join(o.configs),
                                           " (%s)" % o.config_note if getattr(
                                               o, "config_note", None) else ""),
             "| fuzzing | %s |" % ("%d s, %d job(s); seeds %s (rerun: --fuzz-seed %d)" % (
                 o.fuzz_time, o.jobs, ", ".join("%s %d" % s for s in g.seeds),
                 g.seed_base) if o.fuzz_time and g.seeds
                 else "%d s, %d job(s)" % (o.fuzz_time, o.jobs) if o.fuzz_time else "off"),
             "| stages | %s |" % " · ".join("%s %.1f s" % t for t in g.timings)]
    if g.skipped:
        lines.append("| **skipped on purpose** | %s |" % "; ".join(
            "%s (%s)" % s for s in g.skipped))
    na = not_applicable(getattr(g, "records", []))
    if na:
        lines.append("| n/a (entry points a side does not have) | %s |" % na)
    if getattr(g, "fuzz_na", None):
        lines.append("| fuzz targets n/a | %s |" % "; ".join(
            "%s (%s)" % (t, why.replace("|", "\\|")) for t, why in g.fuzz_na))
    if o.strict:
        lines.append("| strict | behaviour changes (WARN) fail the gate |")
    lines += ["", "<details><summary>Verdict policy</summary>", ""] + \
        policy.markdown_table() + ["", "</details>", ""] + build_identity(ctx)
    return lines + [""]


def cell(text):
    """Text in a table cell or a sentence: no "|" that ends the cell."""
    return str(text).replace("|", "\\|")


def build_identity(ctx):
    """Each side's SPEC as a command takes it and its build identity (the
    digest of what it is built from: its files, patches and options)."""
    o = ctx["gate"].opts
    rows = [("base", o.base), ("candidate", o.candidate)]
    return ["<details><summary>Build identity</summary>", "",
            "| side | SPEC | identity |", "|---|---|---|"] + [
        "| %s | %s | %s |" % (side, code(ctx["words"](spec)), code(ctx["identities"][side]))
        for side, spec in rows] + ["", "</details>"]


def group_lines(ctx, n, grp, full):
    fail, items = grp["failure"], grp["items"]
    acc = access_of(fail)
    head = "### %d. %s — %s, %d %s" % (
        n, SEVERITY[grp["severity"]], code(grp["signature"]), len(items),
        "item" if len(items) == 1 else "items")
    out = [head, ""]
    what = []
    if acc:
        # A guard-page fault (SEGV) tells the access, not its size.
        what.append("%s %s" % (acc["kind"], "of %d bytes" % acc["size"] if acc["size"]
                               else "(size not reported for a page fault)"))
        if acc["where"]:
            what.append(acc["where"])
    out.append("- **What**: %s [%s]" % ("; ".join(what) or code(clip(fail["message"], 200)),
                                        configs(items)))
    top = fail.get("top")
    if top and top.get("file"):
        out.append("- **Where**: %s in %s" % (code("%s:%d" % (ctx["relpath"](top["file"]),
                                                              top["line"])), code(top["func"])))
        lines = source_excerpt(top)
        if lines:
            out += ["  ```c"] + ["  " + l for l in lines] + ["  ```"]
    stack = subject_frames(fail.get("frames") or [])[:4]
    if len(stack) > 1:
        # The top frames in subject code, innermost first.
        out.append("- **Stack**: %s" % " ← ".join(
            "%s %s" % (code(f["func"]), "(%s:%d)" % (os.path.basename(f["file"]), f["line"])
                       if f["file"] else "") for f in stack))
    out.append("- **Why**: %s" % items[0]["why"])
    if items[0].get("failure_kind"):
        out.append("- **Kind**: %s" % items[0]["failure_kind"])
    shown_items = items if full else items[:3]
    for i in shown_items:
        # A fuzz finding is every input with its signature: say how many.
        count = i["fuzz"].get("count") if i.get("fuzz") else None
        rel = i.get("relation", i["category"])
        out.append("- %s (%s%s) [%s]%s%s" % (code(i["id"]), i["kind"],
                                             ", %d inputs" % count if count else "", ", ".join(
            sorted(i["configs"], key=config_key)), " — documented: %s" % i["finding"]
            if i.get("finding") else "", " — %s" % TITLE[rel].lower()
            if rel != i["category"] else ""))
        for side, text in evidence(i):
            out.append("  - %s: %s" % (side, code(clip(text, 240))))
        out.append("  - reproduce: %s" % code(ctx["reproduce"](i)))
        about = ctx["summary"](i)
        if about:
            out.append("  - about: %s" % about)
        link = ctx["history"](i)
        if link:
            out.append("  - history: %s" % link)
        if full:
            out.append("  - message: %s" % code(ctx["message"](i)))
    if len(items) > len(shown_items):
        out.append("- ... and %d more (report-full.md)" % (len(items) - len(shown_items)))
    out.append("- first line: %s" % code(fail["message"]))
    return out + [""]


def evidence(item):
    """(side, what it did) of both sides where the records say."""
    out = []
    if item.get("fuzz"):
        f = item["fuzz"]
        reps = f.get("replays") or {}
        if reps:
            out.append(("replays", ", ".join("%s %s" % kv for kv in sorted(reps.items()))))
        if f.get("base") not in (None, "n/a"):
            out.append(("base", f["base"]))
        return out
    rec, other = item.get("record"), item.get("other")
    mine = "base" if item["category"] == "fixed" or item.get("relation") == "fixed" \
        else "candidate"
    theirs = "candidate" if mine == "base" else "base"
    if rec:
        out.append((mine, "%s [%s] %s" % (rec["verdict"], rec["config"],
                                          rec.get("evidence") or "")))
    if other and other["verdict"] != "n/a":
        out.append((theirs, "%s [%s] %s" % (other["verdict"], other["config"],
                                            other.get("evidence") or "")))
    elif item.get("base") == "n/a" or other:
        out.append(("base", "has no such entry point"))
    return out


def body(ctx, full):
    """Blocks of lines: a section heading (kind "title") or one group."""
    out = []
    for cat in policy.CATEGORIES:
        groups = ctx["groups"][cat]
        title = "## %s: %s (%s)" % (policy.LEVEL[cat], TITLE[cat], len(groups))
        out.append(("title", [title, ""] + ([EMPTY.get(cat, "None."), ""] if not groups
                                            else [])))
        for n, grp in enumerate(groups, 1):
            out.append(("group", group_lines(ctx, n, grp, full)))
    return out


def tail(ctx):
    g = ctx["gate"]
    # What changed in the code, beside the results that changed with it.
    out = differences.section(g.opts.base, g.opts.candidate, g.opts.patch, g.opts.configs[0],
                              getattr(g.opts, "base_opts", None),
                              getattr(g.opts, "candidate_opts", None))
    out += waivers.report_lines(getattr(g, "waivers", []))
    out += fuzz_table(g)
    out += ["## Size and speed, base vs candidate", ""] + compare_table(g.compare)
    out += ["", "## Coverage of the candidate", ""]
    if g.coverage:
        out.append("Lines %.1f%%, branches %.1f%% (gcovr; HTML in `coverage/index.html`)." % (
            g.coverage["line"] or 0, g.coverage["branch"] or 0))
    else:
        out.append("Not measured.")
    if g.notes:
        out += ["", "## Notes", ""] + ["- " + n for n in g.notes]
    out += ["", "Files: report-full.md (every item), findings.json, results.sarif, junit.xml, "
            "records.jsonl, fuzz.log, reproducers/."]
    return out


def fuzz_table(g):
    """Per campaign: its seed and what its crash files held (every file is
    triaged: harness/fuzzing/crash_triage.py)."""
    if not getattr(g, "crash_triage", None):
        return []
    out = ["## Fuzzing", "", "| target | -seed | crash files | replayed | distinct stacks | "
           "signatures | not looked at |", "|---|---|---|---|---|---|---|"]
    for target, seed, s in g.crash_triage:
        out.append("| %s | %d | %d | %d | %d | %d | %d |" % (
            target, seed, s["files"], s["replayed"], s["stacks"], s["signatures"],
            len(s["not_looked_at"])))
    return out + [""]


def _ratio(x, y):
    return "%.3f" % (float(y) / x) if x and x > 0 and y > 0 else "-"


def _size(n):
    return "%d" % n if n >= 0 else "n/a"


def compare_table(rows):
    if not rows:
        return ["Not measured."]
    out = ["-O2 builds, compress_default / decompress_safe, best of 5, measured in one "
           "process (speed is a ratio, not a budget).", "",
           "| data | bytes | base size | candidate size | size ratio | HC9 base / cand |"
           " compress speed ratio | decompress speed ratio |",
           "|---|---|---|---|---|---|---|---|"]
    for c in rows:
        # (-1: a side without compress_default and decompress_safe, a copy
        # in pieces: not measured)
        out.append("| %s | %d | %s | %s | %s | %s / %s | %s | %s |" % (
            c["data"], c["bytes"], _size(c["base_size"]), _size(c["candidate_size"]),
            _ratio(c["base_size"], c["candidate_size"]),
            c["base_hc9_size"] if c["base_hc9_size"] >= 0 else "-",
            c["candidate_hc9_size"] if c["candidate_hc9_size"] >= 0 else "-",
            _ratio(c["base_compress_mbs"], c["candidate_compress_mbs"]),
            _ratio(c["base_decompress_mbs"], c["candidate_decompress_mbs"])))
    return out


def render(ctx, full=False):
    """The report; the compact one drops whole groups (never a line cut in
    two) from the end until it fits LIMIT, saying how many."""
    head, rest = header(ctx), tail(ctx)
    blocks = body(ctx, full)

    def join(bs, note=()):
        # (in the user's words: no path of lz4gate's build/ folders)
        return ctx["words"]("\n".join(head + [l for _, b in bs for l in b] + list(note) +
                                      rest) + "\n")
    if full or len(join(blocks)) <= LIMIT:
        return join(blocks)
    kept, dropped = list(blocks), 0
    while len(join(kept)) > LIMIT - 200:
        i = max(n for n, (kind, _) in enumerate(kept) if kind == "group")
        del kept[i]
        dropped += 1
    return join(kept, ["**%d more groups are in report-full.md** (this comment stops at "
                       "64 KiB)." % dropped, ""])
