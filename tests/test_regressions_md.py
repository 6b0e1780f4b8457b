"""REGRESSIONS.md and its generator (harness/report/regressions)."""
import json
import os
import re
import shutil

from conftest import TOP, harness
from harness.findings.documented import KNOWN_FINDINGS as KNOWN

CASES = os.path.join(TOP, "regress", "cases")
MD = os.path.join(TOP, "REGRESSIONS.md")
SNAPSHOT = os.path.join(TOP, "regress", "results", "default.jsonl")
HISTORY = os.path.join(TOP, "docs", "fix-history.md")
# History ids: KLZ4-<year or topic>-<what>, ULZ4-..., e.g. KLZ4-2014-4611,
# KLZ4-GAP-HCLIM, ULZ4-SVN-r109, ULZ4-2017-LZ4F-HDR.
ID_RE = re.compile(r"^(KLZ4|ULZ4)(-[A-Za-z0-9]+)+$")


def gen(*args):
    return harness("regressions-md", *args)


def case_files():
    return sorted(f for f in os.listdir(CASES) if f.endswith(".json"))


def temp_copy(tmp_path):
    cases = tmp_path / "cases"
    shutil.copytree(CASES, str(cases))
    md = tmp_path / "REGRESSIONS.md"
    shutil.copy(MD, str(md))
    return cases, md


def check_copy(cases, md):
    return gen("--check", "--cases", str(cases), "--md", str(md))


def test_check_passes():
    proc = gen("--check")
    assert proc.returncode == 0, proc.stderr
    assert "lists the %d cases" % len(case_files()) in proc.stdout


def test_case_added_without_regenerating_fails_check(tmp_path):
    cases, md = temp_copy(tmp_path)
    case = json.load(open(os.path.join(CASES, "KLZ4-GAP-3520.json")))
    case["id"] = "KLZ4-9999-ADDED"
    case["title"] = "A case nobody listed"
    (cases / "KLZ4-9999-ADDED.json").write_text(json.dumps(case))
    proc = check_copy(cases, md)
    assert proc.returncode == 1
    assert "KLZ4-9999-ADDED is a case file but is not listed" in proc.stderr
    # Regenerating makes the two agree again.
    proc = gen("--write", "--cases", str(cases), "--md", str(md), "--results", SNAPSHOT)
    assert proc.returncode == 0, proc.stderr
    proc = check_copy(cases, md)
    assert proc.returncode == 0, proc.stderr


def test_case_removed_retitled_or_cve_changed_fails_check(tmp_path):
    cases, md = temp_copy(tmp_path)
    os.remove(str(cases / "ULZ4-SVN-r9.json"))
    path = cases / "KLZ4-2014-4611.json"
    case = json.loads(path.read_text())
    case["title"] = "a different title"
    case["cve"] = "CVE-2000-0001"
    path.write_text(json.dumps(case))
    proc = check_copy(cases, md)
    assert proc.returncode == 1
    assert "ULZ4-SVN-r9 is listed in REGRESSIONS.md but has no case file" in proc.stderr
    assert "KLZ4-2014-4611: title differs" in proc.stderr
    assert "KLZ4-2014-4611: CVE differs" in proc.stderr


def test_every_case_id_is_a_history_id():
    # An id comes from the fix history (docs/fix-history.md, in the
    # repository), or, for a bug lz4gate found itself, from
    # harness/findings/known_findings.json.
    history = open(HISTORY).read()
    ours = {f["id"] for f in json.load(open(KNOWN))["findings"]}
    for name in case_files():
        case = json.load(open(os.path.join(CASES, name)))
        assert ID_RE.match(case["id"]), case["id"]
        assert name == case["id"] + ".json"
        assert case["id"] in history or case["id"] in ours, \
            "%s is not an id of docs/fix-history.md or known_findings.json" % case["id"]


def test_committed_file_is_what_the_generator_writes(tmp_path):
    out = tmp_path / "out.md"
    proc = gen("--write", "--results", SNAPSHOT, "--md", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == open(MD).read(), \
        "REGRESSIONS.md is stale: run python3 -m harness regressions-md --write"


def test_snapshot_covers_every_case_and_has_no_unexplained_failure():
    recs = [json.loads(l) for l in open(SNAPSHOT) if l.strip()]
    assert not [r for r in recs if r["status"] == "FAIL"], "unexplained FAIL in the snapshot"
    have = {(r["case"], r["spec"], r["config"]) for r in recs}
    for name in case_files():
        case = json.load(open(os.path.join(CASES, name)))
        config = "asan32" if case["bits"] == "32" else "asan64"
        if case.get("configs") and config not in case["configs"]:
            config = case["configs"][0]
        for spec in ("ref", "upstream", "kernel"):
            assert (case["id"], spec, config) in have, (case["id"], spec, config)


def test_known_findings_are_listed_with_their_case():
    text = open(MD).read()
    section = text.split("## Known findings in the default subjects", 1)[1].split("\n## ", 1)[0]
    recs = [json.loads(l) for l in open(SNAPSHOT) if l.strip()]
    for r in recs:
        if r["status"] == "known finding" and r["spec"] in ("kernel", "upstream"):
            assert "**%s** on `%s`" % (r["case"], r["spec"]) in section, r["case"]


def test_bad_input(tmp_path):
    proc = gen("--write", "--results", str(tmp_path / "missing.jsonl"),
               "--md", str(tmp_path / "x.md"))
    assert proc.returncode == 2 and "cannot read results file" in proc.stderr
    (tmp_path / "empty").mkdir()
    proc = gen("--check", "--cases", str(tmp_path / "empty"))
    assert proc.returncode == 2 and "no case files" in proc.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"case": "X", "spec": "ref", "config": "asan64", "status": "maybe"}\n')
    proc = gen("--write", "--results", str(bad), "--md", str(tmp_path / "x.md"))
    assert proc.returncode == 2 and "unknown status" in proc.stderr
