"""Reports in the user's words (harness/subjects/origin.py): each side named
by what the user gave, every "Where" line, SARIF location and reproduce
line in the user's paths, never lz4gate's build/ folders; the build
identity kept in the details. (gate-pr's naming: tests/test_ci_action.py;
a planted defect's report: tests/test_gate_report.py.)"""
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import TOP
from jsonschema_lite import validate
from sarif_schema import SARIF_2_1_0

GATE = os.path.join(TOP, "ci", "gate.py")
pytestmark = pytest.mark.xdist_group("report_words")


def build_free(out):
    """{file: the first line naming build/} of the three files a reader gets."""
    found = {}
    for name in ("report.md", "report-full.md", "results.sarif"):
        text = (out / name).read_text()
        hit = re.search(r".*build/.*", text)
        if hit:
            found[name] = hit.group(0)
    return found


def test_the_default_scenario_names_the_debian_packages_and_their_files(tmp_path):
    # The README's `make gate` (Linux 6.1 -> lz4 1.9.4), cheaply: the
    # regression cases in asan64, which crash in both trees' code.
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, GATE, "--fuzz-time", "0", "--configs", "asan64",
                           "--no-coverage", "--skip", "compare", "--skip", "replay",
                           "--skip", "contracts", "--out", str(out)], cwd=TOP,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = (out / "report.md").read_text()
    assert re.search(r"^\*\*Candidate\*\* Debian lz4 1\.9\.4 source \(lz4-1\.9\.4/\) \*\*may "
                     r"replace base\*\* Linux 6\.1\.\d+ \(Debian linux-source-6\.1\): ", report,
                     re.M), report[:600]
    assert "Where**: `lz4-1.9.4/lib/lz4.c:" in report
    assert "Where**: `base: linux-source-6.1/lib/lz4/lz4_decompress.c:" in report
    # The build identity, in the details.
    assert re.search(r"^\| candidate \| `upstream` \| `upstream@[0-9a-f]{16}` \|$", report, re.M)
    assert not build_free(out), build_free(out)
    log = json.loads((out / "results.sarif").read_text())
    assert validate(log, SARIF_2_1_0) == []
    run = log["runs"][0]
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in run["results"] for loc in r.get("locations", [])}
    assert "lz4-1.9.4/lib/lz4.c" in uris and "linux-source-6.1/lib/lz4/lz4_decompress.c" in uris
    # A fetched tree's root is wherever the reader unpacks it: no file:// URI.
    assert "originalUriBaseIds" not in run
    assert run["properties"]["candidate"] == "Debian lz4 1.9.4 source (lz4-1.9.4/)"


@pytest.mark.check
def test_a_default_tree_is_named_by_its_package_and_its_files_by_its_folder():
    from harness.subjects.origin import origin
    up = origin("upstream")
    assert up.name == "Debian lz4 1.9.4 source (lz4-1.9.4/)"
    assert up.path(os.path.join(TOP, "build", "subjects", "lz4-upstream", "lib", "lz4.c")) == \
        "lz4-1.9.4/lib/lz4.c"
    k = origin("kernel")
    assert re.fullmatch(r"Linux 6\.1\.\d+ \(Debian linux-source-6\.1\)", k.name), k.name
    # Linux 6.12's folder is not 6.1's with a "2" after it.
    text = "%s/lib/lz4/x.c %s/lib/lz4/x.c" % (k.root, k.root + "2")
    assert k.words(text) == "linux-source-6.1/lib/lz4/x.c %s2/lib/lz4/x.c" % k.root
    # A tree given by path is named by that path; no tree, by what it is.
    assert origin("ref").name == "lz4gate's reference codec (ref)"
    assert origin("upstream:%s" % up.root).name == up.root
