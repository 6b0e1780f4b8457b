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
import glob
import json
import os
import re

from harness.errors import BadInput
from harness.paths import TOP
from harness.report.known import Documented
from harness.report.records import STATUS_ORDER, status_of

RESULTS_DIR = os.path.join(TOP, "regress", "results")
DEFAULT_SNAPSHOT = "default.jsonl"
RELEASES_SNAPSHOT = "releases.jsonl"
RANGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "release_ranges.json")
BEGIN, END = "<!-- releases:begin -->", "<!-- releases:end -->"
NEED = {"tree": ("tree", "tag", "commit", "version"),
        "case": ("tree", "case", "config", "verdict"),
        "contract": ("tree", "check", "config", "verdict")}
SHORT = {"pass": "pass", "FAIL": "**FAIL**", "known finding": "known", "n/a": "n/a"}
MARK = " †"      # a disagreement with the documented range
RELEASE_TAG = re.compile(r"^(?:r|lz4-r|rc)(\d+)(?:v\d+)?$|^v(\d+(?:\.\d+)+)$")


def load_snapshot(path):
    """The records of one tree snapshot, each checked for its kind's fields."""
    out = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BadInput("cannot read tree snapshot: %s" % e)
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError:
            raise BadInput("%s:%d: not a JSON record" % (path, n))
        missing = [k for k in NEED.get(r.get("kind"), ("kind",)) if k not in r]
        if missing:
            raise BadInput("%s:%d: %s record without '%s'" % (path, n, r.get("kind"), missing[0]))
        if r["kind"] != "tree" and r["verdict"] not in ("pass", "n/a", "FAIL", "CRASH",
                                                        "TIMEOUT"):
            raise BadInput("%s:%d: unknown verdict '%s'" % (path, n, r["verdict"]))
        out.append(r)
    return out


def snapshot_files(results_dir=RESULTS_DIR):
    return sorted(p for p in glob.glob(os.path.join(results_dir, "*.jsonl"))
                  if os.path.basename(p) != DEFAULT_SNAPSHOT)


def load_trees(results_dir=RESULTS_DIR):
    """(trees in column order, records) of every tree snapshot."""
    trees, recs = {}, []
    for path in snapshot_files(results_dir):
        for r in load_snapshot(path):
            if r["kind"] == "tree":
                if r["tree"] in trees:
                    raise BadInput("%s: tree %s is in two snapshots" % (path, r["tree"]))
                trees[r["tree"]] = dict(r, file=os.path.basename(path))
            else:
                recs.append(r)
    for r in recs:
        if r["tree"] not in trees:
            raise BadInput("a record of tree %s, which has no tree record" % r["tree"])
    # releases.jsonl's trees first, then each other file's (kernels.jsonl),
    # each file's trees by their "order", then name
    ordered = sorted(trees.values(), key=lambda t: (t["file"] != RELEASES_SNAPSHOT, t["file"],
                                                    t.get("order", 0), t["tree"]))
    return ordered, recs


KERNEL_VERSION = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?")


def kernel_position(text):
    m = KERNEL_VERSION.match(text or "")
    return None if not m else (1, int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


def axis_key(tree):
    """(axis, position) of a tree on its axis: an upstream tree by its tag
    (r117 < r131 < v1.7.3 < v1.10.0), a development head after every
    release; a kernel tree by its version (3.11 < 4.4.111 < 6.1); other
    kinds, and kernel trees of no version, are not placed (None)."""
    axis = tree.get("spec", "upstream:").split(":")[0]
    if axis == "kernel":
        pos = kernel_position(tree.get("version")) or kernel_position(tree.get("tag"))
        return None if pos is None else (axis, pos)
    if axis != "upstream":
        return None
    m = RELEASE_TAG.match(tree["tag"])
    if not m:
        return (axis, (2,))
    if m.group(2):
        return (axis, (1,) + tuple(int(x) for x in m.group(2).split(".")))
    return (axis, (0, int(m.group(1))))


# Kernel API generations as range items (harness/runners/kernels/tree.py).
CODE_GENERATIONS = ("G1", "G2", "G3")


def in_range(expr, tree):
    """Is the tree in a range expression of its axis: "none", "all", or
    items "TAG", "A..B", "..B", "A.." (upstream: release tags, "dev" = the
    development head; kernel: versions vX.Y[.Z])?"""
    key = axis_key(tree)
    if key is None:
        return None
    axis, pos = key
    for item in [i.strip() for i in expr.split(",") if i.strip()]:
        if item == "all":
            return True
        if item == "none":
            continue
        if axis == "kernel" and item in CODE_GENERATIONS:
            # A vendor tree's LZ4 may be newer than its kernel version (an
            # Android 4.4 tree with the 4.11 or 4.20 code): the generation
            # lz4gate reads from the code (runners/kernels/tree.py) decides.
            if tree.get("generation") == item:
                return True
            continue
        lo, dots, hi = item.partition("..")
        lo_k = tag_position(lo, axis) if lo else (0, 0)
        hi_k = tag_position(hi, axis) if hi else (3,)
        if not dots:
            hi_k = lo_k
        if axis == "kernel" and not dots:   # v4.4 is every 4.4.y
            hi_k = hi_k[:3] + (10 ** 6,)
        elif axis == "kernel" and hi and hi.count(".") < 2:
            hi_k = hi_k[:3] + (10 ** 6,)     # ..v4.19 includes 4.19.y
        if lo_k <= pos <= hi_k:
            return True
    return False


def tag_position(tag, axis="upstream"):
    if axis == "kernel":
        pos = kernel_position(tag)
        if pos is None or not tag.startswith("v"):
            raise BadInput("release_ranges.json: '%s' is not a kernel version (vX.Y[.Z])" % tag)
        return pos
    if tag == "dev":
        return (2,)
    m = RELEASE_TAG.match(tag)
    if not m:
        raise BadInput("release_ranges.json: '%s' is not a release tag" % tag)
    return axis_key({"tag": tag, "spec": "upstream:"})[1]


def load_ranges(path=RANGES):
    try:
        with open(path) as f:
            data = json.load(f)["ranges"]
    except (OSError, ValueError, KeyError) as e:
        raise BadInput("cannot read %s: %s" % (path, e))
    for cid, r in data.items():     # syntax
        for key in ("upstream", "unknown"):
            if key in r:
                in_range(r[key], {"tag": "v1.0", "spec": "upstream:"})
        for key in ("kernel", "kernel_unknown"):
            if key in r:
                in_range(r[key], {"tag": "v1.0", "version": "1.0", "spec": "kernel:"})
    return data


def expected(rng, tree):
    """"inside", "outside" or None (no documented range for this tree): the
    range of the tree's axis ("upstream" or "kernel"), less its "unknown"
    ("kernel_unknown") part."""
    key = axis_key(tree)
    if not rng or key is None or key[0] not in rng:
        return None
    unknown = rng.get("unknown" if key[0] == "upstream" else "kernel_unknown")
    if unknown and in_range(unknown, tree):
        return None
    return "inside" if in_range(rng[key[0]], tree) else "outside"


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
        if st == "FAIL" and docs.case(by_id[r["case"]], ident[r["tree"]], r["config"]):
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
            known = bool(docs.check(ident[r["tree"]], r["config"], r["check"]))
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
