"""`python3 -m harness acceptance`: the gate on the acceptance set, real
vendoring updates of public projects (regress/results/acceptance.json,
docs/acceptance.md), and whether each gets the verdict its row argues for.

  python3 -m harness acceptance [--trees DIR] [--repos DIR] [--rows ID,...] [--fuzz-time S]
                                [--configs C,...] [--jobs N] [--write]
  python3 -m harness acceptance --check

The trees are not in the repository: export each row's two sides into
DIR/<row id>/base and DIR/<row id>/candidate (docs/acceptance.md says how;
default DIR build/acceptance). Each row runs `ci/gate.py` on them, its
reports in DIR/<row id>/gate-now/, and gets a line: expected, got, and the
expected groups (regression:ID, lost:ID, fixed:ID) the report has or lacks.
--write records the results in the data file ("now": verdict, counts per
section, items per section, the lz4gate commit, the gate's arguments).

--check (what CI can do without the trees): the data file and the table of
docs/acceptance.md agree, every row has a recorded result, and every
recorded result is the verdict its row expects.

Exit status: 0 every row as expected, 1 a row that is not, 2 could not run.
"""
import argparse
import json
import os
import subprocess
import sys

from harness import atomic
from harness.errors import EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK, BadInput
from harness.findings.policy import CATEGORIES
from harness.paths import BUILD, TOP

DATA = os.path.join(TOP, "regress", "results", "acceptance.json")
DOC = os.path.join(TOP, "docs", "acceptance.md")
GATE = os.path.join(TOP, "ci", "gate.py")
TABLE_START = "<!-- acceptance table: python3 -m harness acceptance --write -->"
TABLE_END = "<!-- end of acceptance table -->"


def load(path=DATA):
    try:
        with open(path) as f:
            rows = json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput("cannot read %s: %s" % (path, e))
    for r in rows:
        for key in ("id", "repo", "spec_kind", "expected", "why"):
            if key not in r:
                raise BadInput("%s: row %s has no '%s'" % (path, r.get("id"), key))
    return rows


def lz4gate_commit():
    proc = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=TOP,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          universal_newlines=True)
    return proc.stdout.strip() or "unknown"


def result_of(out_dir, rc):
    """The row's result from the gate's findings.json."""
    if rc == 2 or not os.path.isfile(os.path.join(out_dir, "findings.json")):
        return {"verdict": "could not run"}
    with open(os.path.join(out_dir, "findings.json")) as f:
        found = json.load(f)
    items = {c: sorted({i["id"] for g in found["groups"].get(c, []) for i in g["items"]})
             for c in CATEGORIES}
    # An id's own relation (a fix grouped under its worst category keeps it).
    rel = {c: sorted({i["id"] for gs in found["groups"].values() for g in gs
                      for i in g["items"] if i.get("relation", c) == c and i["id"]})
           for c in CATEGORIES}
    return {"verdict": found["verdict"], "counts": {c: len(items[c]) for c in CATEGORIES},
            "items": {c: v for c, v in rel.items() if v and c != "known"}}


def missing_groups(row, now):
    """Expected groups (CATEGORY:ID) the result lacks; ids the catalogue
    has no case for are not looked for."""
    if now.get("verdict") == "could not run":
        return list(row.get("expected_groups", []))
    out = []
    for g in row.get("expected_groups", []):
        cat, _, cid = g.partition(":")
        if cat not in CATEGORIES or not os.path.isfile(
                os.path.join(TOP, "regress", "cases", cid + ".json")):
            continue
        if cid not in now.get("items", {}).get(cat, []):
            out.append(g)
    return out


def repository(row, repos):
    """(clone, base commit, candidate commit) of the row under repos
    (OWNER+NAME/repo, as `fetch` leaves it, OWNER+NAME or NAME), or None.
    A copy kept as a git submodule of lz4/lz4 (lz4-java) is gated in lz4's
    own clone at the commits the project records (lz4_commits)."""
    if not repos:
        return None
    repo, commits = row["repo"], (row.get("base_commit"), row.get("candidate_commit"))
    if "submodule" in row.get("path", ""):
        if not row.get("lz4_commits"):
            return None
        repo, commits = "lz4/lz4", (row["lz4_commits"]["base"], row["lz4_commits"]["candidate"])
    owner_name = repo.replace("/", "+")
    for rel in (os.path.join(owner_name, "repo"), owner_name, repo.split("/")[-1]):
        if os.path.isdir(os.path.join(repos, rel)):
            return (os.path.join(repos, rel),) + commits
    return None


def row_gate_args(row):
    """The row's own gate options, {lz4gate} (this repository's top, where
    the example adapters and stub headers live) made a path."""
    return [a.replace("{lz4gate}", TOP) for a in row.get("gate_args", [])]


def missing_files(row):
    """Files of lz4gate a row's options name (--adapter and its per-side
    forms, {lz4gate}/... paths) that do not exist."""
    args, out = row_gate_args(row), []
    for k, a in enumerate(args):
        named = args[k + 1] if a.endswith("adapter") and k + 1 < len(args) else None
        if a.startswith(TOP):
            named = a
        if named and not os.path.exists(os.path.join(TOP, named)):
            out.append(named.replace(TOP + os.sep, ""))
    return out


def run_row(row, trees, opts):
    side = os.path.join(trees, row["id"])
    os.makedirs(side, exist_ok=True)
    out = os.path.join(side, "gate-now")
    repo = repository(row, opts.repos)
    if repo:    # the project's own history: `harness pr` finds the copy (issue 24)
        cmd = [sys.executable, "-m", "harness", "pr", repo[0], "--head", repo[2],
               "--base-ref", repo[1]]
    else:
        cmd = [sys.executable, GATE, "--base", "%s:%s/base" % (row["spec_kind"], side),
               "--candidate", "%s:%s/candidate" % (row["spec_kind"], side)]
    cmd += ["--fuzz-time", str(opts.fuzz_time), "--no-coverage", "--jobs", str(opts.jobs),
            "--out", out] + (["--configs", opts.configs] if opts.configs else [])
    # A row's own gate options (its copy's configuration: 7-Zip-zstd takes
    # xxHash from zstd's header-only form; an adapter and stub headers for a
    # project API), argued in its "why". {lz4gate} is this repository's top.
    cmd += row_gate_args(row)
    with open(os.path.join(side, "gate-now.log"), "w") as log:
        rc = subprocess.run(cmd, cwd=TOP, stdout=log, stderr=subprocess.STDOUT).returncode
    return result_of(out, rc), cmd[cmd.index("pr") if repo else 2:]


def table(rows):
    """The Markdown table docs/acceptance.md carries between its markers."""
    lines = [TABLE_START, "",
             "| row id | project | lz4 | old -> new | expected | gate now | expected groups "
             "missing |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        now = r.get("now") or {}
        counts = now.get("counts") or {}
        got = now.get("verdict", "not run")
        if counts:
            got += " (%s)" % ", ".join("%s %d" % (c, counts[c]) for c in CATEGORIES
                                       if counts.get(c))
        lines.append("| `%s` | %s | %s -> %s | `%s` -> `%s` | **%s** | %s | %s |" % (
            r["id"], r.get("project", ""), r.get("base_version", "?"),
            r.get("candidate_version", "?"), r.get("base_commit", "")[:12],
            r.get("candidate_commit", "")[:12], r["expected"], got,
            ", ".join(now.get("missing_groups", [])) or "-"))
    return lines + ["", TABLE_END]


def doc_with_table(text, rows):
    if TABLE_START not in text or TABLE_END not in text:
        raise BadInput("%s has no acceptance table markers (%s ... %s)"
                       % (DOC, TABLE_START, TABLE_END))
    a, b = text.index(TABLE_START), text.index(TABLE_END) + len(TABLE_END)
    return text[:a] + "\n".join(table(rows)) + text[b:]


def check(rows):
    """Problems of the committed data (no trees needed)."""
    problems = []
    for r in rows:
        now = r.get("now")
        for f in missing_files(r):
            problems.append("%s: its gate_args name %s, which is not in lz4gate" % (r["id"], f))
        if r.get("buildable", True) is False:
            continue
        if not now:
            problems.append("%s: no recorded result" % r["id"])
        elif now.get("verdict") != r["expected"]:
            problems.append("%s: expected %s, recorded %s" % (r["id"], r["expected"],
                                                              now.get("verdict")))
        elif now.get("missing_groups"):
            problems.append("%s: expected groups missing: %s" % (
                r["id"], ", ".join(now["missing_groups"])))
    with open(DOC) as f:
        text = f.read()
    if doc_with_table(text, rows) != text:
        problems.append("docs/acceptance.md's table is not the data file's; run "
                        "python3 -m harness acceptance --write")
    return problems


def parse(argv):
    ap = argparse.ArgumentParser(prog="python3 -m harness acceptance", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/acceptance.md")
    ap.add_argument("--trees", default=os.path.join(BUILD, "acceptance"), metavar="DIR")
    ap.add_argument("--repos", default=None, metavar="DIR",
                    help="clones of the rows' projects (OWNER+NAME/repo, OWNER+NAME or NAME "
                         "under DIR): each such row is gated from its repository, merge base "
                         "vs the candidate commit, by `harness pr` (no exported trees)")
    ap.add_argument("--rows", default=None, metavar="ID,...", help="only these rows")
    ap.add_argument("--fuzz-time", type=int, default=0, metavar="S",
                    help="the gate's --fuzz-time (default 0)")
    ap.add_argument("--configs", default=None, metavar="C,...",
                    help="the gate's --configs (default: the gate's default)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, metavar="N")
    ap.add_argument("--write", action="store_true", help="record the results")
    ap.add_argument("--check", action="store_true", help="check the committed data only")
    return ap.parse_args(argv)


def main(argv):
    try:
        opts = parse(argv)
        opts.trees = os.path.abspath(opts.trees)
        opts.repos = opts.repos and os.path.abspath(opts.repos)
        rows = load()
        if opts.check:
            problems = check(rows)
            for p in problems:
                print("acceptance: " + p)
            print("acceptance: %d rows, %s" % (len(rows), "%d problem(s)" % len(problems)
                                               if problems else "every row as expected"))
            return EXIT_FAIL if problems else EXIT_OK
        wanted = set(opts.rows.split(",")) if opts.rows else None
        todo = [r for r in rows if (wanted is None or r["id"] in wanted) and
                (os.path.isdir(os.path.join(opts.trees, r["id"], "candidate")) or
                 repository(r, opts.repos))]
        if not todo:
            raise BadInput("no exported trees under %s and no --repos clone for the rows "
                           "(docs/acceptance.md: re-running the set)" % opts.trees)
    except BadInput as e:
        print("acceptance: cannot run: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    bad, commit = 0, lz4gate_commit()
    for k, row in enumerate(todo, 1):
        print("acceptance: [%d/%d] %s ..." % (k, len(todo), row["id"]), file=sys.stderr,
              flush=True)
        now, args = run_row(row, opts.trees, opts)
        now["missing_groups"] = missing_groups(row, now)
        now.update(lz4gate=commit, gate_args=" ".join(
            a.replace(opts.trees, "DIR").replace(opts.repos or opts.trees, "REPOS")
            .replace(TOP + os.sep, "")
            for a in args))
        ok = now["verdict"] == row["expected"] and not now["missing_groups"]
        bad += not ok
        print("%-32s expected %-4s got %-13s %s" % (row["id"], row["expected"], now["verdict"],
                                                   "ok" if ok else "MISSING " + ", ".join(
                                                       now["missing_groups"]) or "WRONG"))
        row["now"] = now
        if opts.write:
            atomic.write_file(DATA, json.dumps(rows, indent=1) + "\n")
    if opts.write:
        with open(DOC) as f:
            atomic.write_file(DOC, doc_with_table(f.read(), rows))
    return EXIT_FAIL if bad else EXIT_OK
