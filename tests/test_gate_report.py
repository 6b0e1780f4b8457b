"""The gate's report as a reviewer reads it: one group per root cause, each
with the access, the buffer and the distance, the source line, and a
reproducer that fails the same way; SARIF 2.1.0 that validates."""
import copy
import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from conftest import TOP
from jsonschema_lite import validate
from sarif_schema import SARIF_2_1_0

GATE = os.path.join(TOP, "ci", "gate.py")
# One planted over-read (decompress_safe reads the byte after its input)
# and one planted over-write (compress_default writes dst[capacity]):
# harness/subjects/adapters/adapter_broken.c.
# The module's gate run once (Makefile: --dist loadgroup).
pytestmark = pytest.mark.xdist_group("gate_report")

PLANTED = "broken:overread_and_overwrite"


@pytest.fixture(scope="module")
def planted_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("gate") / "out"
    proc = subprocess.run([sys.executable, GATE, "--base", "ref", "--candidate", PLANTED,
                           "--configs", "asan64", "--fuzz-time", "0", "--no-coverage",
                           "--skip", "compare", "--skip", "replay", "--out", str(out)],
                          cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return out


def failing_groups(out):
    found = json.loads((out / "findings.json").read_text())
    return found["groups"]["lost"] + found["groups"]["regression"]


def group_sections(report):
    """{signature: the lines of its group} of the FAIL sections."""
    body = report.split("## WARN:")[0]
    out = {}
    for block in re.split(r"^### \d+\. ", body, flags=re.M)[1:]:
        sig = re.search(r"— `([^`]+)`", block.splitlines()[0]).group(1)
        out[sig] = block
    return out


def test_each_planted_defect_is_one_group_with_access_buffer_and_source_line(planted_report):
    groups = failing_groups(planted_report)
    sigs = sorted(g["signature"] for g in groups)
    assert len(sigs) == 2, sigs
    write, read = (next(g for g in groups if "@" + e in g["signature"])
                   for e in ("compress_default", "decompress_safe"))
    assert write["severity"] == "out-of-bounds write"
    assert read["severity"] == "out-of-bounds read"
    sections = group_sections((planted_report / "report.md").read_text())
    assert set(sections) == set(sigs)
    for grp, kind, buf in ((write, "WRITE", "output"), (read, "READ", "input")):
        text = sections[grp["signature"]]
        assert re.search(r"\*\*What\*\*: %s.*the first byte past the end of %s" % (kind, buf),
                         text), text
        where = re.search(r"\*\*Where\*\*: `([^`:]+):(\d+)`", text)
        assert where and where.group(1).endswith("adapter_broken.c"), text
        # The three source lines around it, the faulting one marked.
        assert re.search(r"^\s+%s> " % where.group(2), text, re.M), text
        assert "reproduce: `python3 -m harness " in text


def test_each_reproducer_fails_the_same_way(planted_report):
    sections = group_sections((planted_report / "report.md").read_text())
    for sig, text in sections.items():
        cmd = shlex.split(re.search(r"reproduce: `([^`]+)`", text).group(1))
        assert cmd[:3] == ["python3", "-m", "harness"]
        proc = subprocess.run([sys.executable] + cmd[1:], cwd=TOP, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        kind = re.search(r"\*\*What\*\*: (READ|WRITE)", text).group(1)
        assert "signature %s; %s" % (sig, kind) in proc.stdout, proc.stdout


def test_the_report_fits_a_pull_request_comment(planted_report):
    report = (planted_report / "report.md").read_text()
    assert len(report) < 65536
    assert report.startswith("# lz4gate: FAIL")
    assert "| stages |" in report and "| configurations | asan64 |" in report


def test_the_report_names_no_build_folder(planted_report):
    # Every path is the user's or lz4gate's own source (issue 43): the
    # planted defects' "Where" lines are harness/subjects/adapters/ files.
    for name in ("report.md", "report-full.md", "results.sarif"):
        text = (planted_report / name).read_text()
        assert "build/" not in text, (name, re.findall(r".*build/.*", text)[:3])
    report = (planted_report / "report.md").read_text()
    assert "**Candidate** %s **may not replace base** lz4gate's reference codec (ref)" \
        % PLANTED in report
    assert re.search(r"^\| candidate \| `%s` \| `broken:\w+` \|$" % PLANTED, report, re.M)


def test_sarif_validates_against_sarif_2_1_0_and_points_at_source_lines(planted_report):
    log = json.loads((planted_report / "results.sarif").read_text())
    assert validate(log, SARIF_2_1_0) == []
    run = log["runs"][0]
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base.startswith("file:///") and base.endswith("/")    # SARIF 3.14.14
    results = [r for r in run["results"] if r["level"] == "error"]
    assert {r["ruleId"] for r in results} >= {"ULZ4-SVN-r20"}
    rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
    for r in results:
        assert r["ruleId"] in rules
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"].endswith("adapter_broken.c")
        assert loc["region"]["startLine"] > 0


def test_the_sarif_check_bites():
    good = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "lz4gate"}},
                                          "results": [{"message": {"text": "x"},
                                                       "level": "error", "ruleId": "A"}]}]}
    assert validate(good, SARIF_2_1_0) == []
    for path, value in ((("version",), "2.0"), (("runs", 0, "results", 0, "level"), "fatal"),
                        (("runs", 0, "results", 0, "lineNumber"), 3),
                        (("runs", 0, "tool", "driver", "name"), None)):
        bad = copy.deepcopy(good)
        node = bad
        for key in path[:-1]:
            node = node[key]
        if value is None:
            del node[path[-1]]
        else:
            node[path[-1]] = value
        assert validate(bad, SARIF_2_1_0), path
