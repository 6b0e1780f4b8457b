"""The KTAP reader (harness/kunit/ktap.py) on KTAP v1 text written here in
the shape kunit.py run --raw_output prints for the generated suite: pass,
fail with its diagnostics, skip with its reason, nested parameters, a kernel
log's prefixes, a run cut short, and the records the command prints."""
import json
import os

import pytest

from conftest import TOP, harness
from harness.kunit import ktap, model

# KTAP of the generated suite on linux-source-6.12 under UML (x86-64), one
# boot per case (kunit.py --run_isolated=test), reduced to its KTAP lines and
# the two lines of each panic: python3 -m harness kunit --kernel, 2026-12-06.
RECORDED = os.path.join(TOP, "tests", "data", "kunit-linux-6.12-uml.ktap")

SAMPLE = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: lz4gate
    # module: lz4_kunit
    1..3
        KTAP version 1
        # Subtest: KLZ4-2014-4611
        ok 1 tc 1 # SKIP needs a 32-bit kernel
        ok 2 tc 2 # SKIP needs a 32-bit kernel
    # KLZ4-2014-4611: pass:0 fail:0 skip:2 total:2
    ok 1 KLZ4-2014-4611 # SKIP
        KTAP version 1
        # Subtest: KLZ4-PARTIAL-OFFSET0
        ok 1 tc 1
        # KLZ4-PARTIAL-OFFSET0: EXPECTATION FAILED at lib/lz4/lz4_kunit.c:230
        tc 2: returned 12 but the output differs
        not ok 2 tc 2
        ok 3 tc 3 # SKIP input compress:... is made by ref's encoder at run time
    # KLZ4-PARTIAL-OFFSET0: pass:1 fail:1 skip:1 total:3
    not ok 2 KLZ4-PARTIAL-OFFSET0
    # ULZ4-SVN-r9: EXPECTATION FAILED at lib/lz4/lz4_kunit.c:99
    out of memory
    not ok 3 ULZ4-SVN-r9
# lz4gate: pass:0 fail:2 skip:1 total:3
# Totals: pass:1 fail:2 skip:3 total:6
not ok 1 lz4gate
"""

WANT = [
    ("KLZ4-2014-4611", 1, "SKIP", "needs a 32-bit kernel"),
    ("KLZ4-2014-4611", 2, "SKIP", "needs a 32-bit kernel"),
    ("KLZ4-PARTIAL-OFFSET0", 1, "PASS", ""),
    ("KLZ4-PARTIAL-OFFSET0", 2, "FAIL",
     "KLZ4-PARTIAL-OFFSET0: EXPECTATION FAILED at lib/lz4/lz4_kunit.c:230\n"
     "tc 2: returned 12 but the output differs"),
    ("KLZ4-PARTIAL-OFFSET0", 3, "SKIP", "input compress:... is made by ref's encoder at run time"),
    ("ULZ4-SVN-r9", None, "FAIL",
     "ULZ4-SVN-r9: EXPECTATION FAILED at lib/lz4/lz4_kunit.c:99\nout of memory"),
]


def short(recs):
    return [(r["case"], r["tcId"], r["status"], r["message"]) for r in recs]


@pytest.mark.check
def test_records_of_a_run():
    assert short(ktap.records(SAMPLE)) == WANT
    assert {r["suite"] for r in ktap.records(SAMPLE)} == {"lz4gate"}


def test_tree_nesting_and_statuses():
    (suite,) = ktap.parse(SAMPLE)
    assert (suite["name"], suite["status"]) == ("lz4gate", "FAIL")
    assert [(c["name"], c["status"], len(c["children"])) for c in suite["children"]] == [
        ("KLZ4-2014-4611", "SKIP", 2), ("KLZ4-PARTIAL-OFFSET0", "FAIL", 3),
        ("ULZ4-SVN-r9", "FAIL", 0)]
    # The case's summary line is its own diagnostic, not a parameter's.
    assert "pass:1 fail:1" in suite["children"][1]["message"]
    assert "pass:1 fail:1" not in suite["children"][1]["children"][1]["message"]


def test_a_kernel_log_with_prefixes_reads_the_same():
    log = "\n".join("[    1.%06d] %s" % (i, line) for i, line in enumerate(SAMPLE.splitlines()))
    assert short(ktap.records("Linux version 6.12\nrandom boot noise\n" + log)) == WANT
    assert short(ktap.records(SAMPLE.replace("\n", "\r\n"))) == WANT


def test_only_the_named_suite():
    other = SAMPLE.replace("lz4gate", "other")
    both = "KTAP version 1\n1..2\n" + "\n".join(
        (SAMPLE + other.replace("not ok 1 other", "not ok 2 other")).splitlines()[2:]) + "\n"
    assert len(ktap.records(both)) == 2 * len(WANT)
    assert short(ktap.records(both, suite="lz4gate")) == WANT


def test_a_run_cut_short_keeps_what_it_printed():
    cut = SAMPLE.split("        not ok 2 tc 2")[0]
    recs = ktap.records(cut)
    # KLZ4-2014-4611 ended; tc 1 of the next case was printed before the
    # crash: it keeps its status, and the case it was in fails.
    assert short(recs) == WANT[:3] + [
        ("KLZ4-PARTIAL-OFFSET0", None, "FAIL", "the output ends before this test's result line")]


BOOT = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: lz4gate
    1..1
        KTAP version 1
        # Subtest: %s
%s"""


def test_a_crash_before_the_first_row_and_one_boot_per_case():
    # kunit.py --run_isolated=test: one document per boot; the first boot
    # panics in its case's first row, the second one completes.
    crashed = BOOT % ("KLZ4-FAST", "Kernel panic - not syncing: Segfault with no mm\n")
    done = BOOT % ("ULZ4-SVN-r9", "    # ULZ4-SVN-r9: EXPECTATION FAILED at x.c:1\n"
                   "tc 1: returned 3\n        not ok 1 tc 1\n    not ok 1 ULZ4-SVN-r9\n"
                   "not ok 1 lz4gate\n")
    noisy = done.replace("    1..1\n", "    1..1\nrandom: crng init done\n")
    assert short(ktap.records(crashed + noisy)) == [
        ("KLZ4-FAST", None, "FAIL", "the output ends before this test's result line; "
         "Kernel panic - not syncing: Segfault with no mm"),
        ("ULZ4-SVN-r9", 1, "FAIL", "ULZ4-SVN-r9: EXPECTATION FAILED at x.c:1\ntc 1: returned 3")]


def test_tap13_dash_and_todo():
    text = "TAP version 13\n1..1\n    # Subtest: s\n    1..2\n    ok 1 - a\n" \
           "    not ok 2 - b # TODO later\nok 1 - s\n"
    (suite,) = ktap.parse(text)
    assert [(c["name"], c["status"]) for c in suite["children"]] == [("a", "PASS"),
                                                                    ("b", "SKIP")]
    # A plan line is no diagnostic of the failure after it.
    (first,) = ktap.parse("KTAP version 1\n1..1\nnot ok 1 x\n")
    assert (first["status"], first["message"]) == ("FAIL", "")


def test_the_command_prints_records(tmp_path):
    f = tmp_path / "run.ktap"
    f.write_text(SAMPLE)
    proc = harness("kunit", "--ktap", f)
    assert proc.returncode == 0, proc.stderr
    recs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert short(recs) == WANT


def test_the_recorded_uml_run():
    with open(RECORDED) as f:
        recs = ktap.records(f.read(), suite="lz4gate")
    cases = {case["id"]: rows for case, rows in model.suite()[0]}
    assert {r["case"] for r in recs} <= set(cases)
    statuses = {}
    for r in recs:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    assert statuses == {"PASS": 130, "FAIL": 23, "SKIP": 74}
    # Two cases panic UML in LZ4_decompress_fast (the trusted-input decoder
    # reading before its output); their rows are lost, the case fails.
    crashed = [r for r in recs if r["tcId"] is None]
    assert [(r["case"], r["status"]) for r in crashed] == [("KLZ4-FAST", "FAIL"),
                                                            ("ULZ4-2022-FASTBOUND", "FAIL")]
    assert all("LZ4_decompress_fast" in r["message"] for r in crashed)
    fails = {(r["case"], r["tcId"]) for r in recs if r["status"] == "FAIL" and r["tcId"]}
    assert ("KLZ4-GAP-17543", 1) in fails and ("ULZ4-2019-PARTIAL", 2) in fails
    assert ("KLZ4-ACCEL-WRAP", 1) in fails   # generated text data
    # A row's message is its expectation and text, no boot noise before it.
    assert all(r["message"].splitlines() == [
        r["message"].splitlines()[0], r["message"].splitlines()[-1]]
        and r["message"].startswith(r["case"] + ": EXPECTATION FAILED at lib/lz4/lz4_kunit.c:")
        and r["message"].splitlines()[-1].startswith("tc %d: " % r["tcId"])
        for r in recs if r["status"] == "FAIL" and r["tcId"])
