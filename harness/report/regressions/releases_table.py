"""The "fixes by release" table of REGRESSIONS.md: rows are the regression
cases, columns the trees of every tree snapshot under regress/results/
(every *.jsonl there except default.jsonl: releases.jsonl from
`python3 -m harness releases`, kernels.jsonl, ...; record format in
harness/runners/releases/run.py), one column per tree, ordered by the
tree's "order" and name, releases.jsonl's first, then the other files'.

A cell is the worst status over the configurations run. Statuses are
recomputed here from each record's verdict and the documentation as it is
now (a case's "known_findings" for the tree's identity, harness/report/
known.py), so documenting a finding does not need a new run.

Each case's documented range (release_ranges.json: the affected upstream
releases, from the case's "affected" and docs/fix-history.md "First release
with each fix") says what a cell should be: FAIL inside the range, pass
outside. A FAIL outside it or a pass inside it is a disagreement, marked in
the cell and listed in the legend with the answer the ranges file gives; a
FAIL that no known finding documents is unexplained.
"""

from harness.evidence.records import STATUS_ORDER, status_of
from harness.evidence.snapshots import RESULTS_DIR, load_trees
from harness.findings.documented import Documented, finding_of
from harness.findings.ranges import expected, load_ranges

BEGIN, END = "<!-- releases:begin -->", "<!-- releases:end -->"
SHORT = {"pass": "pass", "FAIL": "**FAIL**", "known finding": "known", "n/a": "n/a"}
MARK = " †"      # a disagreement with the documented range


def cells(cases, trees, recs, docs=None):
    """(case id, tree) -> {"status", "configs", "expected", "disagrees"}."""
    docs = docs or Documented()
    by_id = {c["id"]: c for c in cases}
    ident = {t["tree"]: t.get("identity", "") for t in trees}
    out = {}
    for r in recs:
        if r["kind"] != "case" or r["case"] not in by_id or r["tree"] not in ident:
            continue
        st = status_of(r["verdict"])
        if st == "FAIL" and finding_of({"stage": "regress", "verdict": r["verdict"],
                                        "identity": ident[r["tree"]], "config": r["config"],
                                        "check": r["case"]}, docs, by_id[r["case"]]):
            st = "known finding"
        cell = out.setdefault((r["case"], r["tree"]), {"configs": {}})
        cell["configs"][r["config"]] = st
    ranges = load_ranges()
    for c in cases:
        for t in trees:
            cell = out.get((c["id"], t["tree"]))
            if cell is None:
                continue
            if not c.get("exercised"):
                cell["configs"] = {k: "n/a" for k in cell["configs"]}
            cell["status"] = min(cell["configs"].values(), key=lambda s: STATUS_ORDER[s])
            cell["expected"] = expected(ranges.get(c["id"]), t)
            # A FAIL inside the case's documented range is the documented bug
            # on a release made before its fix: a known finding.
            if cell["status"] == "FAIL" and cell["expected"] == "inside":
                cell["status"] = "known finding"
            failed = cell["status"] in ("FAIL", "known finding")
            cell["disagrees"] = (failed and cell["expected"] == "outside") or \
                (cell["status"] == "pass" and cell["expected"] == "inside")
            # a FAIL outside the range (or where the range is unknown) that
            # the ranges file answers after investigation ("disagreements")
            cell["answered"] = bool(ranges.get(c["id"], {}).get("disagreements"))
    return out


def column_name(tree):
    return tree["tree"][4:] if tree["tree"].startswith("lz4-") else tree["tree"]


def cell_text(cell):
    if cell is None:
        return "-"
    if cell["status"] == "FAIL" and cell["answered"]:
        return "FAIL" + MARK     # investigated: the note under the table says what it is
    return SHORT[cell["status"]] + (MARK if cell["disagrees"] else "")


def table(cases, trees, cl):
    head = "| case | " + " | ".join(column_name(t) for t in trees) + " |"
    rows = [BEGIN, head, "|---|" + "---|" * len(trees)]
    for c in cases:
        rows.append("| [%s](#%s) | %s |" % (c["id"], c["id"].lower(), " | ".join(
            cell_text(cl.get((c["id"], t["tree"]))) for t in trees)))
    return "\n".join(rows + [END])


def legend(trees, recs):
    configs = {}
    for r in recs:
        configs.setdefault(r["tree"], set()).add(r["config"])
    rows = ["| column | tree | tag (aliases) | commit | version (lz4.h) | configurations | "
            "identity | snapshot |", "|---|---|---|---|---|---|---|---|"]
    for t in trees:
        tag = t["tag"] + (" (%s)" % ", ".join(t["aliases"]) if t.get("aliases") else "")
        rows.append("| %s | %s | %s | `%s` | %s | %s | `%s` | %s |" % (
            column_name(t), t["tree"], tag, t["commit"], t["version"] or "-",
            " ".join(sorted(configs.get(t["tree"], ()))) or "-",
            t.get("identity", "") or "-", t["file"]))
    return "\n".join(rows)


def disagreements(cases, trees, cl):
    """One line per case with disagreeing cells, with the ranges file's answer."""
    ranges = load_ranges()
    out = []
    for c in cases:
        bad = [(t, cl[(c["id"], t["tree"])]) for t in trees
               if cl.get((c["id"], t["tree"]), {}).get("disagrees")]
        # FAILs where no range says what to expect (none given, or "unknown")
        unjudged = [column_name(t) for t in trees
                    if cl.get((c["id"], t["tree"]), {}).get("status") == "FAIL" and
                    cl[(c["id"], t["tree"])]["expected"] is None]
        if not bad and not unjudged:
            continue
        fails = [column_name(t) for t, cell in bad if cell["status"] != "pass"]
        passes = [column_name(t) for t, cell in bad if cell["status"] == "pass"]
        what = []
        if fails:
            what.append("fails outside it on %s" % ", ".join(fails))
        if unjudged:
            what.append("fails where it says nothing on %s" % ", ".join(unjudged))
        if passes:
            what.append("passes inside it on %s" % ", ".join(passes))
        why = ranges.get(c["id"], {}).get("disagreements") or \
            "**unexplained**: investigate, then answer in release_ranges.json and the case notes"
        out.append("- [%s](#%s) (documented range `%s`): %s. %s" % (
            c["id"], c["id"].lower(), "; ".join("%s %s" % (a, ranges[c["id"]][a]) for a in ("upstream", "kernel")
                      if a in ranges.get(c["id"], {})) or "not given",
            "; ".join(what), why))
    return "\n".join(out) or "- none"


def notes(cases):
    """The ranges file's notes of each case: why its ranges are what they are
    where the case's "affected" alone does not say (kernel cases on the
    upstream axis, API semantics of old releases)."""
    ranges = load_ranges()
    out = []
    for c in cases:
        r = ranges.get(c["id"], {})
        # "note" explains the upstream range, "kernel_note" the kernel one.
        text = " Kernel trees: ".join(filter(None, [r.get("note"), r.get("kernel_note")]))
        if text:
            out.append("- [%s](#%s): %s" % (c["id"], c["id"].lower(), text))
    return "\n".join(out) or "- none"


def unexplained(cases, trees, cl):
    """FAILs neither documented (in range, known_findings) nor answered."""
    out = []
    for c in cases:
        fails = [column_name(t) for t in trees
                 if cl.get((c["id"], t["tree"]), {}).get("status") == "FAIL" and
                 not cl[(c["id"], t["tree"])]["answered"]]
        if fails:
            out.append("- [%s](#%s) on %s: **unexplained FAIL**: fix the case or, once the "
                       "failure is confirmed, document it (the case's known_findings, with "
                       "the tree's name)" % (c["id"], c["id"].lower(), ", ".join(fails)))
    return "\n".join(out) or "- none"


def contract_row(trees, recs, docs=None):
    """Per tree: contract checks (and vectors) failing in some configuration."""
    docs = docs or Documented()
    ident = {t["tree"]: t.get("identity", "") for t in trees}
    failing = {}    # tree -> check -> documented in every configuration it failed in
    for r in recs:
        if r["kind"] == "contract" and status_of(r["verdict"]) == "FAIL":
            known = bool(finding_of({"stage": "contracts", "verdict": r["verdict"],
                                     "identity": ident[r["tree"]], "config": r["config"],
                                     "check": r["check"]}, docs))
            checks = failing.setdefault(r["tree"], {})
            checks[r["check"]] = checks.get(r["check"], True) and known
    ran = {r["tree"] for r in recs if r["kind"] == "contract"}
    cells_ = []
    for t in trees:
        f = failing.get(t["tree"], {})
        if t["tree"] not in ran:
            cells_.append("-")
        else:
            new = sum(1 for k in f.values() if not k)
            cells_.append("%d" % new + (" (+%d known)" % (len(f) - new) if len(f) > new else ""))
    return "| contract checks failing | " + " | ".join(cells_) + " |"


def render(cases, results_dir=RESULTS_DIR):
    """The section's Markdown, or a line saying there is no tree snapshot."""
    trees, recs = load_trees(results_dir)
    if not trees:
        return "No tree snapshot under regress/results/ (run `python3 -m harness releases`)."
    docs = Documented()
    cl = cells(cases, trees, recs, docs)
    tab = table(cases, trees, cl).replace("\n" + END, "\n" + contract_row(trees, recs, docs) +
                                         "\n" + END)
    return "\n\n".join([
        tab, "Columns (each tree's commit, the version its lz4.h reports, the configurations run):",
        legend(trees, recs),
        "### Notes on the documented ranges", notes(cases),
        "### Disagreements with the documented ranges", disagreements(cases, trees, cl),
        "### Unexplained failures", unexplained(cases, trees, cl)])
