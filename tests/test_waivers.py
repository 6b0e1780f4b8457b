"""Waivers in the user's repository (harness/gate/waivers.py): a reviewed
deviation moves to "Waived" with its reason; an expired one waives nothing;
one that matches nothing is listed as stale; a waiver without a reason is
refused. And reports that travel: paths relative to the user's repository
root, in "Where:" and in SARIF."""
import datetime
import json
import os
import subprocess
import sys

import pytest

from conftest import TOP
from harness.errors import BadInput
from harness.findings import policy
from harness.gate import waivers

GATE = os.path.join(TOP, "ci", "gate.py")


def item(iid, cat="lost"):
    return {"id": iid, "category": cat, "why": "base passes", "kind": "case"}


def cats(*items):
    out = {c: [] for c in policy.CATEGORIES}
    for i in items:
        out[i["category"]].append(i)
    return out


def write(tmp_path, text):
    p = tmp_path / ".lz4gate.toml"
    p.write_text(text)
    return str(p)


@pytest.mark.check
def test_a_waiver_moves_its_item_and_lists_what_it_matched(tmp_path):
    path = write(tmp_path, '''
[[waiver]]
id = "KLZ4-2022-*"
path = "third_party/lz4/*"
reason = "reviewed in #12"

[[waiver]]
id = "ULZ4-NOTHING"
reason = "an old one"

[[waiver]]
id = "vector.x.decompress_safe"
reason = "until the next release"
expires = 2020-01-01
''')
    ws = waivers.load(path)
    c = cats(item("KLZ4-2022-49078"), item("vector.x.decompress_safe", "regression"),
             item("KLZ4-2014-4611"))
    waivers.apply(c, ws, lambda i: i["id"], lambda i: "third_party/lz4/lz4.c",
                  today=datetime.date(2026, 12, 4))
    assert [i["id"] for i in c["waived"]] == ["KLZ4-2022-49078"]
    assert "reviewed in #12" in c["waived"][0]["why"]
    assert [i["id"] for i in c["lost"]] == ["KLZ4-2014-4611"]
    # expired: matched, but waives nothing
    assert [i["id"] for i in c["regression"]] == ["vector.x.decompress_safe"]
    assert policy.failed(c, strict=False)
    text = "\n".join(waivers.report_lines(ws))
    assert "**stale**: matches nothing" in text and "**expired**" in text
    assert "`KLZ4-2022-49078`" in text


@pytest.mark.check
def test_a_path_that_does_not_match_waives_nothing(tmp_path):
    ws = waivers.load(write(tmp_path, '[[waiver]]\nid = "KLZ4-2022-49078"\npath = "src/*"\n'
                                      'reason = "r"\n'))
    c = cats(item("KLZ4-2022-49078"))
    waivers.apply(c, ws, lambda i: i["id"], lambda i: "third_party/lz4/lz4.c")
    assert not c["waived"] and ws[0]["matched"] == []


@pytest.mark.check
@pytest.mark.parametrize("text,words", [
    ('[[waiver]]\nid = "X"\n', "no reason"),
    ('[[waiver]]\nreason = "r"\n', "no id or signature"),
    ('[[waiver]]\nid = "X"\nreason = "r"\nexpire = 2027-01-01\n', "unknown key"),
    ('[[waiver]]\nid = "X"\nreason = "r"\nexpires = "soon"\n', "must be a date"),
    ('[[waiver]\n', "cannot read waivers")])
def test_a_malformed_waiver_is_refused_naming_why(tmp_path, text, words):
    with pytest.raises(BadInput) as e:
        waivers.load(write(tmp_path, text))
    assert words in str(e.value)


def vendored_kernel_repo(tmp_path):
    """A git repository of the test's own that vendors Linux 6.1's LZ4 files
    (copied at test time from the fetched subject, never committed) under
    vendor/linux, with the KLZ4-2022-49078 fix reverted in its copy."""
    src = os.path.join(TOP, "build", "subjects", "linux-6.1")
    if not os.path.isdir(src):
        pytest.skip("default kernel tree not fetched (make subjects)")
    repo = tmp_path / "repo"
    dst = repo / "vendor" / "linux"
    for dirpath, _, files in os.walk(src):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), src)
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            (dst / rel).write_bytes(open(os.path.join(dirpath, name), "rb").read())
    dec = dst / "lib" / "lz4" / "lz4_decompress.c"
    text = dec.read_text()
    assert " || (ip >= (iend - 2))" in text
    dec.write_text(text.replace(" || (ip >= (iend - 2))", ""))
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def test_waivers_and_paths_relative_to_the_users_repository(tmp_path):
    repo = vendored_kernel_repo(tmp_path)
    (repo / ".lz4gate.toml").write_text(
        # The report's group of the fix (one CVE, the kernel and upstream ids).
        '[[waiver]]\nsignature = "CVE-2022-49078"\npath = "vendor/linux/lib/lz4/*"\n'
        'reason = "reviewed: our callers never decode partially"\n\n'
        # The same dropped check shows in the partial decoder's own case.
        '[[waiver]]\nid = "ULZ4-2019-PARTIAL"\nreason = "same review"\n\n'
        '[[waiver]]\nid = "KLZ4-1999-NONE"\nreason = "stale on purpose"\n')
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, GATE, "--base", "kernel", "--candidate",
                           "kernel:%s" % (repo / "vendor" / "linux"), "--fuzz-time", "0",
                           "--configs", "asan64", "--no-coverage", "--skip", "contracts",
                           "--skip", "compare", "--skip", "replay", "--out", str(out)],
                          cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr      # the lost fix is waived
    found = json.loads((out / "findings.json").read_text())
    waived = [i["id"] for g in found["groups"]["waived"] for i in g["items"]]
    assert sorted(waived) == ["KLZ4-2022-49078", "ULZ4-2019-PARTIAL", "ULZ4-2020-783"], waived
    assert not found["groups"]["lost"] and not found["groups"]["regression"]
    report = (out / "report.md").read_text()
    assert "reviewed: our callers never decode partially" in report
    assert "**stale**: matches nothing" in report
    # "Where:" and SARIF: relative to the repository root, never build/stage.
    assert "`vendor/linux/lib/lz4/lz4_decompress.c:" in report
    assert "build/stage" not in report
    run = json.loads((out / "results.sarif").read_text())["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://%s/" % repo
    locs = [r["locations"][0]["physicalLocation"]["artifactLocation"]
            for r in run["results"] if r["ruleId"] == "KLZ4-2022-49078"]
    assert locs and locs[0] == {"uri": "vendor/linux/lib/lz4/lz4_decompress.c",
                                "uriBaseId": "%SRCROOT%"}
    # Each item carries its summary: what the fix was, its CVE, its commit.
    assert "about: KLZ4-2022-49078 (CVE-2022-49078, " in report
