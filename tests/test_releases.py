"""`python3 -m harness releases` and the "fixes by release" table of
REGRESSIONS.md (harness/runners/releases, harness/report/regressions/
releases_table.py): release order and export on a small git repository made
here, and the committed snapshot regress/results/releases.jsonl checked
against the case files, the documented ranges and REGRESSIONS.md."""
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import TOP, harness
from harness.evidence import snapshots
from harness.findings import ranges as rng_mod
from harness.report.regressions import releases_table as rt
from harness.runners.regress.cases import load_cases
from harness.subjects import releases as relgit

MD = os.path.join(TOP, "REGRESSIONS.md")
SNAPSHOT = os.path.join(TOP, "regress", "results", "releases.jsonl")
HISTORY = os.path.join(TOP, "docs", "fix-history.md")


def section(text):
    return text.split(rt.BEGIN, 1)[1].split(rt.END, 1)[0]


def table_rows(text):
    """{first column: [cells]} of the fixes-by-release table, and its header."""
    lines = [l for l in section(text).splitlines() if l.startswith("|")]
    split = lambda l: [c.strip() for c in l.strip().strip("|").split("|")]
    return split(lines[0])[1:], {split(l)[0]: split(l)[1:] for l in lines[2:]}


# ---- release tags and export ---------------------------------------------------

def test_release_order():
    tags = ["v1.10.0", "r131", "v1.7.3", "r117", "rc129v0", "r129", "lz4-r130", "r130",
            "v1.8.1.2", "v1.8.1", "v1.9.4", "r116", "fullbench", "v1.7.4.2"]
    ordered = sorted([t for t in tags if relgit.release_key(t)], key=relgit.release_key)
    assert ordered == ["r116", "r117", "r129", "rc129v0", "r130", "lz4-r130", "r131", "v1.7.3",
                       "v1.7.4.2", "v1.8.1", "v1.8.1.2", "v1.9.4", "v1.10.0"]
    assert relgit.release_key("fullbench") is None


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo)] + list(args), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL,
                   env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
                            GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t"))


@pytest.fixture
def clone(tmp_path):
    """A git repository with release-like tags (no LZ4 code: export only)."""
    repo = tmp_path / "clone"
    repo.mkdir()
    _git(repo, "init", "-q")
    for n, tag in enumerate(("r116", "r117", "v1.7.3", "notarelease")):
        (repo / "f.txt").write_text("version %d\n" % n)
        _git(repo, "add", "f.txt")
        _git(repo, "commit", "-q", "-m", tag)
        _git(repo, "tag", tag)
    return repo


def test_tags_since_and_export_reuse(clone, monkeypatch, tmp_path):
    assert relgit.release_tags(str(clone)) == ["r117", "v1.7.3"]
    assert relgit.release_tags(str(clone), since="r116") == ["r116", "r117", "v1.7.3"]
    monkeypatch.setattr(relgit, "RELEASES_DIR", str(tmp_path / "out"))
    path, commit = relgit.export(str(clone), "r117", "r117")
    assert open(os.path.join(path, "f.txt")).read() == "version 1\n"
    assert open(os.path.join(path, relgit.MARK)).read().strip() == commit
    # reused while it holds the same commit, re-exported when not
    with open(os.path.join(path, "scratch"), "w") as f:
        f.write("x")
    assert relgit.export(str(clone), "r117", "r117") == (path, commit)
    assert os.path.exists(os.path.join(path, "scratch"))
    path2, commit2 = relgit.export(str(clone), "v1.7.3", "r117")
    assert path2 == path and commit2 != commit and not os.path.exists(os.path.join(path, "scratch"))


def test_bad_input(clone, tmp_path):
    proc = harness("releases", "--lz4-git", tmp_path / "missing")
    assert proc.returncode == 2 and "is not a directory" in proc.stderr
    proc = harness("releases", "--lz4-git", clone, "--tags", "v9.9.9")
    assert proc.returncode == 2 and "has no tag v9.9.9" in proc.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    _git(empty, "init", "-q")
    proc = harness("releases", "--lz4-git", empty)
    assert proc.returncode == 2 and "failed" in proc.stderr or "no release tags" in proc.stderr
    proc = harness("releases", "--lz4-git", clone, "--configs", "bogus")
    assert proc.returncode == 2 and "unknown configuration bogus" in proc.stderr


# ---- documented ranges ------------------------------------------------------------

def test_ranges_name_cases_and_parse():
    ids = {c["id"] for c in load_cases()}
    ranges = rng_mod.load_ranges()
    assert set(ranges) <= ids, set(ranges) - ids
    with pytest.raises(Exception):
        rng_mod.in_range("r117..v9", {"tag": "r118", "spec": "upstream:"})
    with pytest.raises(Exception):
        rng_mod.in_range("1.9.4", {"tag": "r118", "spec": "upstream:"})
    tree = lambda tag: {"tag": tag, "spec": "upstream:x"}
    assert rng_mod.in_range("..v1.9.1", tree("v1.9.1")) and not rng_mod.in_range("..v1.9.1", tree("v1.9.2"))
    assert rng_mod.in_range("v1.9.2..", tree("dev")) and not rng_mod.in_range("..v1.10.0", tree("dev"))
    assert rng_mod.in_range("r119..v1.7.3", tree("r131")) and not rng_mod.in_range("none", tree("r131"))
    assert rng_mod.in_range("x", {"tag": "v6.1", "spec": "other:x"}) is None
    kernel = lambda v: {"tag": "v" + v, "version": v, "spec": "kernel:x"}
    assert rng_mod.in_range("..v3.11", kernel("3.10.94")) and rng_mod.in_range("v4.4", kernel("4.4.111"))
    assert rng_mod.in_range("v3.11..v4.19", kernel("4.19.120"))
    assert not rng_mod.in_range("v3.11..v4.19", kernel("4.20.0"))
    assert not rng_mod.in_range("..v3.15.1", kernel("3.15.2"))
    assert rng_mod.expected({"kernel": "..v5.13", "kernel_unknown": "v4.4"}, kernel("4.4.1")) is None
    assert rng_mod.expected({"kernel": "..v5.13"}, kernel("5.14.0")) == "outside"
    assert rng_mod.expected({"upstream": "all"}, kernel("5.14.0")) is None
    with pytest.raises(Exception):
        rng_mod.in_range("r117..", kernel("4.4.1"))


def first_releases():
    """{case id: first release with its fix} from docs/fix-history.md."""
    text = open(HISTORY).read().split("### First release with each fix", 1)[1]
    text = text.split("\n## ", 1)[0]
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\| (r\d+|v[\d.]+) \| (.*) \|$", line)
        if m:
            for cid in re.findall(r"ULZ4-[A-Za-z0-9-]+", m.group(2)):
                out[cid] = m.group(1)
            # "X (effective in optimised builds only from T)": the table's
            # 32-bit runs are optimised (O2-32), so T is its first fixed release
            for cid, tag in re.findall(r"(ULZ4-[A-Za-z0-9-]+) \(effective in optimised builds "
                                       r"only from (\S+)\)", m.group(2)):
                out[cid] = tag
    return out


def test_ranges_end_before_the_first_fixed_release():
    """A range agrees with the fix history: the first release with the fix
    is outside it, the release before it inside (unless the range is none)."""
    ranges, order = rng_mod.load_ranges(), sorted(
        {"r117", "r118", "r119", "v1.7.3", "v1.7.4", "v1.8.0", "v1.8.1", "v1.8.1.2", "v1.8.2",
         "v1.8.3", "v1.9.0", "v1.9.1", "v1.9.2", "v1.9.3", "v1.9.4", "v1.10.0"},
        key=relgit.release_key)
    fixed = first_releases()
    assert len(fixed) >= 15, fixed
    for cid, tag in fixed.items():
        if cid not in ranges or tag not in order or ranges[cid]["upstream"] == "none":
            continue
        tree = lambda t: {"tag": t, "spec": "upstream:x"}
        assert not rng_mod.in_range(ranges[cid]["upstream"], tree(tag)), (cid, tag)
        before = order[order.index(tag) - 1] if order.index(tag) else None
        if before:
            assert rng_mod.in_range(ranges[cid]["upstream"], tree(before)), (cid, before)


# ---- the committed snapshot and the table --------------------------------------------

needs_snapshot = pytest.mark.skipif(not os.path.isfile(SNAPSHOT),
                                    reason="no regress/results/releases.jsonl")


@needs_snapshot
def test_every_case_has_a_row_and_every_tree_a_column():
    trees, _ = snapshots.load_trees()
    header, rows = table_rows(open(MD).read())
    assert header == [rt.column_name(t) for t in trees]
    for c in load_cases():
        key = "[%s](#%s)" % (c["id"], c["id"].lower())
        assert key in rows and len(rows[key]) == len(trees), c["id"]
    for t in trees:
        assert "`%s`" % t["commit"] in open(MD).read(), t["tree"]


@needs_snapshot
def test_snapshot_has_every_case_on_every_tree():
    """Every case has a record on every tree, except where the tree ran no
    configuration of the case's bits (a 32-bit-only case on a tree run in
    asan64 only: the table shows '-', not run)."""
    from harness.toolchain import bits_of
    trees, recs = snapshots.load_trees()
    have = {(r["case"], r["tree"]) for r in recs if r["kind"] == "case"}
    ran = {}
    for r in recs:
        ran.setdefault(r["tree"], set()).add(str(bits_of(r["config"])))
    _, rows = table_rows(open(MD).read())
    for c in load_cases():
        for i, t in enumerate(trees):
            if (c["id"], t["tree"]) not in have:
                assert c["bits"] != "both" and c["bits"] not in ran[t["tree"]], \
                    (c["id"], t["tree"])
                assert rows["[%s](#%s)" % (c["id"], c["id"].lower())][i] == "-"


@needs_snapshot
def test_table_is_generated_from_the_snapshot():
    """REGRESSIONS.md holds exactly the section the committed snapshot, the
    case files and the ranges give (regenerate: regressions-md --write)."""
    assert rt.render(load_cases()) in open(MD).read()


@needs_snapshot
def test_every_cell_is_explained():
    """No column, release (releases.jsonl) or kernel tree (kernels.jsonl),
    has an unexplained FAIL or disagreement: each is in the case's
    documented range ("upstream"/"kernel" in release_ranges.json, kernel
    ranges by version or by the code's generation) or answered there."""
    trees, recs = snapshots.load_trees()
    assert {t["file"] for t in trees} >= {snapshots.RELEASES_SNAPSHOT}
    cl = rt.cells(load_cases(), trees, recs)
    text = rt.disagreements(load_cases(), trees, cl) + rt.unexplained(load_cases(), trees, cl)
    assert "unexplained" not in text, text
    assert not [k for k, c in cl.items() if rt.cell_text(c) == "**FAIL**"]


def _tampered(tmp_path, change):
    d = tmp_path / "snapshots"
    d.mkdir()
    recs = [json.loads(l) for l in open(SNAPSHOT) if l.strip()]
    change(recs)
    (d / "releases.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    return rt.render(load_cases(), str(d))


@needs_snapshot
def test_a_tampered_record_changes_the_table(tmp_path):
    """Cell-level: one record of the snapshot changed, and the table no longer
    matches REGRESSIONS.md; a documented FAIL turned into a pass inside its
    range is an unexplained disagreement, a pass turned into a FAIL an
    unexplained failure."""
    committed = open(MD).read()
    cases = {c["id"]: c for c in load_cases()}
    trees = {t["tree"]: t for t in snapshots.load_trees()[0]}
    ranges = rng_mod.load_ranges()
    recs = [r for r in snapshots.load_trees()[1] if r["kind"] == "case"]
    recs = [r for r in recs if trees[r["tree"]]["file"] == snapshots.RELEASES_SNAPSHOT]
    known = next(r for r in recs if r["verdict"] != "pass" and r["verdict"] != "n/a" and
                 rng_mod.expected(ranges.get(r["case"]), trees[r["tree"]]) == "inside" and
                 not ranges[r["case"]].get("disagreements"))

    def to_pass(rs):
        for r in rs:
            if r.get("kind") == "case" and r["case"] == known["case"] and \
                    r["tree"] == known["tree"]:
                r["verdict"] = "pass"
    text = _tampered(tmp_path, to_pass)
    assert text not in committed
    assert "[%s](#%s) (documented range" % (known["case"], known["case"].lower()) in text
    assert "**unexplained**" in text

    passing = next(r for r in recs if r["verdict"] == "pass" and cases[r["case"]]["exercised"]
                   and rng_mod.expected(ranges.get(r["case"]), trees[r["tree"]]) == "outside"
                   and not ranges[r["case"]].get("disagreements"))

    def to_fail(rs):
        for r in rs:
            if r.get("kind") == "case" and (r["case"], r["tree"], r["config"]) == \
                    (passing["case"], passing["tree"], passing["config"]):
                r["verdict"] = "FAIL"
    shutil.rmtree(str(tmp_path / "snapshots"))
    text = _tampered(tmp_path, to_fail)
    assert "**unexplained FAIL**" in text and passing["case"] in text.split("Unexplained")[1]


def test_aliases_run_once(clone):
    """A tag on the commit of an earlier one is the same tree, run once and
    listed as an alias (lz4: rc129v0 = r129, lz4-r130 = r130, r127 = r126)."""
    from harness.runners.releases import cli
    _git(clone, "tag", "rc117v0", "r117")
    _git(clone, "tag", "lz4-r117", "r117")
    trees = cli.trees_of(type("A", (), {"lz4_git": str(clone), "since": "r117", "tags": [],
                                        "no_head": True, "head": None})())
    assert [t[1] for t in trees] == ["r117", "lz4-r117", "rc117v0", "v1.7.3"]
    got = cli.unique_trees(str(clone), trees)
    assert [(g[2], g[4]) for g in got] == [("r117", ["lz4-r117", "rc117v0"]), ("v1.7.3", [])]


def test_snapshot_merge_and_compaction(tmp_path):
    """A run updates only the cells it ran; passing contract checks are only
    counted (in the tree record), a check that passes now drops its old FAIL."""
    from harness.runners.releases.run import write_snapshot
    from harness.evidence.snapshots import load_snapshot
    path = str(tmp_path / "s.jsonl")
    tree = {"kind": "tree", "tree": "lz4-r1", "order": 0, "tag": "r1", "commit": "c" * 40,
            "version": "1", "spec": "upstream:x", "identity": "upstream@1"}
    case = lambda cid, cfg, v: {"kind": "case", "tree": "lz4-r1", "case": cid, "config": cfg,
                                "verdict": v, "status": v}
    check = lambda cid, cfg, v: {"kind": "contract", "tree": "lz4-r1", "check": cid,
                                 "config": cfg, "verdict": v, "status": v}
    write_snapshot(path, [dict(tree), case("A", "asan64", "FAIL"), case("B", "asan64", "pass"),
                          check("x", "asan64", "FAIL"), check("y", "asan64", "pass")])
    recs = load_snapshot(path)
    assert recs[0]["contracts"] == {"asan64": {"FAIL": 1, "pass": 1}}
    assert not [r for r in recs if r["kind"] == "contract" and r["status"] == "pass"]
    # O2-32 cases only: asan64 cells and counts kept
    write_snapshot(path, [dict(tree), case("A", "O2-32", "pass")])
    recs = load_snapshot(path)
    assert {(r["case"], r["config"]) for r in recs if r["kind"] == "case"} == \
        {("A", "asan64"), ("B", "asan64"), ("A", "O2-32")}
    assert recs[0]["contracts"] == {"asan64": {"FAIL": 1, "pass": 1}}
    # asan64 again: A now passes, x now passes (its FAIL record goes)
    write_snapshot(path, [dict(tree), case("A", "asan64", "pass"), check("x", "asan64", "pass"),
                          check("y", "asan64", "pass")])
    recs = load_snapshot(path)
    assert [r["verdict"] for r in recs if r.get("case") == "A" and r["config"] == "asan64"] == \
        ["pass"]
    assert not [r for r in recs if r["kind"] == "contract"]
    assert recs[0]["contracts"] == {"asan64": {"pass": 2}}
