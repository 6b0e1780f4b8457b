"""Rendering REGRESSIONS.md: the prose is template.md; this module fills in
the tables and the per-case sections from the case files and the results."""
import os
import re

from harness.findings.documented import Documented
from harness.report.regressions import kunit_results, releases_table
from harness.report.regressions.results import cell_text, cells, config_key, configs_in, specs_in

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "template.md")
BASE = "kernel"          # the vendored copy today (build/subjects/linux-6.1)
CANDIDATE = "upstream"   # the release a vendoring update would bring in (lz4 1.9.4)
REFERENCE = "ref"
BEGIN, END = "<!-- cases:begin -->", "<!-- cases:end -->"
DOCS = Documented()
CALL_KEYS = ("alg", "input", "decoded", "data", "src_size", "target", "capacity", "original",
             "repeat_capacity", "level", "levels", "acceleration", "dict", "dst_len",
             "in_place", "high", "mode", "flip", "cut", "input2", "in_chunk",
             "out_chunk", "chunk", "block_size_id", "expect", "len")


def esc(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def short_commit(c):
    """The first commit id in a commits entry (12 hex digits), else the text."""
    doubt = re.search(r"unknown|not verified|candidate|vendor", c)
    for m in re.finditer(r"\b[0-9a-f]{6,40}\b", c):
        if re.search(r"[0-9]", m.group(0)):
            return m.group(0)[:12] + ("?" if doubt else "")
    return c if len(c) <= 30 else c[:27] + "..."


def commits_cell(case):
    commits = case.get("commits") or []
    if not commits:
        return "-"
    return short_commit(commits[0]) + (" +%d" % (len(commits) - 1) if len(commits) > 1 else "")


def cve_of(case):
    return case.get("cve") or "-"


def call_summary(call):
    keys = [k for k in CALL_KEYS if k in call]
    parts = []
    for k in keys:
        v = str(call[k])
        if len(v) > 60:
            v = v[:57] + "..."
        parts.append("%s=%s" % (k, v))
    return "`%s` %s" % (call.get("entry", "?"), " ".join("`%s`" % p for p in parts))


KUNIT_INTRO = (" An in-kernel column is the generated KUnit suite run in that whole tree under "
               "UML (`make kunit`, docs/kunit.md; records in `regress/results/kunit/`): pass, "
               "FAIL or known finding (documented for that tree) with its rows, skipped (no row the kernel suite can run) or - (not in the "
               "suite).")


def matrix_intro(recs, results_name):
    if not recs:
        return "No results file was given: the status columns say \"not run\"."
    runs = "; ".join("%s: %s" % (s, ", ".join(configs_in(recs, s))) for s in specs_in(recs))
    return ("Results from `%s` (%s). Base = `%s` (Linux 6.1 lib/lz4 by default), candidate = "
            "`%s` (lz4 1.9.4 by default), `%s` = lz4gate's reference codec. A cell is the worst "
            "status over the configurations run; the configurations that failed are named."
            % (results_name, runs, BASE, CANDIDATE, REFERENCE)) + KUNIT_INTRO


def case_table(cases, cl, runs):
    rows = [BEGIN,
            "| id | title | CVE | commits | API entry | class | base: %s | candidate: %s | %s |%s"
            % (BASE, CANDIDATE, REFERENCE, kunit_results.header(runs)),
            "|---|---|---|---|---|---|---|---|---|" + "---|" * len(runs)]
    for c in cases:
        rows.append("| [%s](#%s) | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            c["id"], c["id"].lower(), esc(c["title"]), esc(cve_of(c)), esc(commits_cell(c)),
            esc(c.get("entry", "-")), esc(c.get("class", "-")),
            cell_text(c, cl.get((c["id"], BASE))), cell_text(c, cl.get((c["id"], CANDIDATE))),
            cell_text(c, cl.get((c["id"], REFERENCE)))) + kunit_results.cells(runs, c))
    return "\n".join(rows + [END])


def known_findings(cases, recs, cl):
    out = []
    for c in cases:
        for spec in specs_in(recs):
            cell = cl.get((c["id"], spec))
            if not cell or cell["status"] not in ("known finding", "FAIL"):
                continue
            w = cell["worst"]
            kf = [k for k in c.get("known_findings", [])
                  if DOCS.identities([k.get("tree")]) == {w.get("identity")}]
            text = cell_text(c, cell)
            configs = text[text.index("(") + 1:-1] if "(" in text else w["config"]
            if cell["status"] == "FAIL" or not kf:
                out.append("- **%s** on `%s` [%s]: **unexplained FAIL**: fix the case or, once "
                           "the failure is confirmed as a real bug, add a known finding"
                           % (c["id"], spec, configs))
            else:
                out.append("- **%s** on `%s` [%s] (source: %s): %s" % (
                    c["id"], spec, configs, kf[0].get("source", "not given"), kf[0]["note"]))
            if w.get("evidence"):
                out.append("  Evidence [%s]: `%s`" % (w["config"], w["evidence"].replace("`", "'")))
    return "\n".join(out) or "- none in the results given"


def found_here(cases):
    out = []
    new = [c for c in cases
           if any(str(k.get("source", "")).startswith("lz4gate (new)")
                  for k in c.get("known_findings", []))]
    if new:
        out += ["Found by lz4gate, not known before it ran them (the case notes say how):", ""]
        for c in new:
            ours = [k for k in c.get("known_findings", [])
                    if str(k.get("source", "")).startswith("lz4gate (new)")]
            gens = sorted({k["tree"] for k in ours})
            first = ours[0]["note"].split(". ")[0].rstrip(".") + "."
            out.append("- [%s](#%s) (%s): %s" % (c["id"], c["id"].lower(), ", ".join(gens), first))
        out.append("")
    fast_ids = [c["id"] for c in cases
                if any("confirmed by lz4gate" in str(k.get("source", ""))
                       for k in c.get("known_findings", []))]
    if fast_ids:
        out.append("Known from reading the code and now confirmed by running it: %s "
                   "(`LZ4_decompress_fast` in 6.1 reads before `dest`, and on 32-bit writes at a "
                   "wrapped address)." % ", ".join(fast_ids))
    return "\n".join(out).rstrip()


def case_section(c, recs, cl):
    out = ['<a id="%s"></a>' % c["id"].lower(), "", "### %s: %s" % (c["id"], c["title"]), "",
           "- CVE: %s; origin: %s; bits: %s; class: %s" % (
               cve_of(c), c.get("origin", "-"), c.get("bits", "-"), c.get("class", "-")),
           "- Commits: %s" % ("; ".join("`%s`" % x for x in c.get("commits", [])) or "-")]
    if c.get("entry"):
        out.append("- API entry: `%s`" % c["entry"])
    if c.get("related"):
        out.append("- Related: %s" % ", ".join("[%s](#%s)" % (r, r.lower()) for r in c["related"]))
    if c.get("generations"):
        out.append("- Generations: %s" % ", ".join(c["generations"]))
    out += ["- Trigger: %s" % c.get("trigger", "-"), "- What the fix checks: %s" % c.get("fix", "-")]
    if not c.get("exercised"):
        out.append("- **Not exercised here**: %s" % c.get("reason", "-"))
    else:
        out.append("- Shown to fail on: %s (`python3 -m harness regress --mutants --case %s`)"
                   % (", ".join("`%s`" % s for s in c.get("fails_on", [])), c["id"]))
        if c.get("configs"):
            out.append("- Configurations: %s" % ", ".join(c["configs"]))
        out += ["", "| tc | call | comment |", "|---|---|---|"]
        out += ["| %s | %s | %s |" % (t["tcId"], esc(call_summary(t["call"])), esc(t["comment"]))
                for t in c.get("tests", [])]
        out.append("")
        for spec in specs_in(recs):
            cell = cl.get((c["id"], spec))
            if not cell:
                continue
            per = ", ".join("%s %s" % (cfg, st) for cfg, st in
                            sorted(cell["configs"].items(), key=lambda x: config_key(x[0])))
            out.append("- Results `%s`: %s" % (spec, per))
            if cell["status"] in ("FAIL", "known finding") and cell["worst"].get("evidence"):
                out.append("  - %s [%s]: `%s`" % (cell["status"], cell["worst"]["config"],
                                                 cell["worst"]["evidence"].replace("`", "'")))
    kunit = c.get("kunit") or {}
    if kunit.get("tests"):
        out += ["- In a kernel (`make kunit`): %s" % kunit.get("note", ""), "",
                "| tc | call | comment |", "|---|---|---|"]
        out += ["| %s | %s | %s |" % (t["tcId"], esc(call_summary(t["call"])), esc(t["comment"]))
                for t in kunit["tests"]]
        out.append("")
    if kunit.get("bug"):
        out.append("- Shown to fail on a kernel tree with its bug (`make kunit`, --prove-bugs: "
                   "%s): %s" % (", ".join(sorted({b["file"] for b in kunit["bug"]})),
                                kunit.get("bug_note", "")))
    if kunit.get("differs"):
        out.append("- In-kernel result differs from the kshim's: %s" % kunit["differs"])
    for k in c.get("known_findings", []):
        out.append("- Known finding (%s, %s): %s" % (
            k.get("tree"), "all configurations" if k.get("configs", "all") == "all"
            else ", ".join(k["configs"]), k.get("note", "")))
    if c.get("notes"):
        out.append("- Notes: %s" % c["notes"])
    return "\n".join(out) + "\n"


def render(cases, recs, results_name, snapshots_dir=releases_table.RESULTS_DIR):
    cl = cells(recs)
    runs = kunit_results.load(os.path.join(snapshots_dir, "kunit"))
    with open(TEMPLATE) as f:
        template = f.read()
    return template.format(
        results_name=results_name, n_cases=len(cases),
        n_exercised=sum(1 for c in cases if c.get("exercised")),
        matrix_intro=matrix_intro(recs, results_name), case_table=case_table(cases, cl, runs),
        known_findings=known_findings(cases, recs, cl), found_here=found_here(cases),
        releases=releases_table.render(cases, snapshots_dir),
        cases="\n".join(case_section(c, recs, cl) for c in cases))
