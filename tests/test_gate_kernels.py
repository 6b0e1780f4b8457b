"""The second real kernel in CI (issue 13, item 5): the gate from Debian's
6.1 to Debian's 6.12 (`make gate BASE=kernel CANDIDATE=kernel-6.12`) runs
to a verdict, and the differences section (harness/report/differences.py)
shows what differs between the two kernels' LZ4 code; on the synthetic G1
fixtures (tests/fixtures: CI has no real 3.11-4.10 tree), what a variant
changed. Kept cheap: no fuzzing, asan64 only, no coverage, no size/speed
comparison and no corpus replay (the fuzz stages are tested in
tests/test_gate.py).
"""
import json
import os
import subprocess
import sys

from conftest import TOP
from harness.report.differences import TITLE, functions, section

GATE = os.path.join(TOP, "ci", "gate.py")


def test_gate_from_kernel_6_1_to_6_12_reaches_a_verdict_and_shows_the_differences(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, GATE, "--base", "kernel", "--candidate", "kernel-6.12",
                           "--fuzz-time", "0", "--configs", "asan64", "--no-coverage",
                           "--skip", "compare", "--skip", "replay", "--out", str(out)],
                          cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    report = (out / "report.md").read_text()
    found = json.loads((out / "findings.json").read_text())
    assert report.startswith("# lz4gate: " + found["verdict"])
    # 6.12 changed only the unaligned-access include: no fix is lost.
    assert not found["groups"]["lost"], found["groups"]["lost"]
    lines = section("kernel", "kernel-6.12")
    text = "\n".join(lines)
    assert lines[0] == TITLE
    assert "| version | 6.1." in text and "| 6.12." in text
    assert "`-#include <asm/unaligned.h>`; `+#include <linux/unaligned.h>`" in text
    assert "| `lib/lz4/lz4_decompress.c` | +1 -1 lines |" in text
    # The report shows the same section.
    assert TITLE in report and "+#include <linux/unaligned.h>" in report


def test_differences_of_a_g1_variant_name_the_changed_line():
    text = "\n".join(section("fixture:kernel-g1", "fixture:kernel-g1-compat"))
    assert "| generation | G1, old API (3.11-4.10) | G1, old API (3.11-4.10) |" in text
    assert "| `lib/lz4/lz4_decompress.c` | +1 -0 lines | `+#define G1_VARIANT_COMPAT 1` |" in text
    assert section("ref", "kernel") == []
    assert section("fixture:kernel-g1", "fixture:kernel-g1")[-2] == \
        "The LZ4 files are identical."


def test_functions_are_found_in_both_brace_styles():
    code = ("static int a(int x)\n{\n\treturn x;\n}\n\n"
            "int b(const char *s,\n\tint n) {\n\tif (n) {\n\t\treturn 1;\n\t}\n"
            "\treturn 0;\n}\n/* c(int) */\nstruct s { int (*f)(void); };\n")
    assert sorted(functions(code)) == ["a", "b"]
