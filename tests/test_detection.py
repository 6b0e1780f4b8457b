"""The detection benchmark on real releases (fuzz-bench --find releases,
issue 15 item 5): the bug catalogue derived from the release records, the
one matching rule, and the committed table's consistency with the case
files and regress/results/releases.jsonl. No campaign runs here."""
import csv
import os

import pytest

from harness.bench import cli
from harness.bench import detect_bugs as db
from harness.bench import detect_releases as dr
from harness.fuzzing.targets import TABLE, TARGETS
from harness.paths import FUZZ

pytestmark = pytest.mark.check


def test_same_defect_matches_the_same_class_family_and_entry():
    # A guard page gives SEGV in the runner, ASan's heap an overflow in a fuzzer.
    assert db.same_defect("SEGV@decompress_safe",
                          "OOB-READ@decompress_safe in LZ4_decompress_generic")
    # A frame adapter's crash names the entry without "frame_" (f_decompress).
    assert db.same_defect("SEGV@frame_decompress", "OOB-WRITE@decompress in LZ4F_decompress")
    assert not db.same_defect("SEGV@frame_decompress", "OOB-WRITE@update in LZ4F_compressUpdate")
    assert db.same_defect("return_above_target@decompress_safe_partial",
                          "return_above_capacity@decompress_safe_partial")


def test_same_defect_rejects_a_wrong_signature():
    bug = "SEGV@decompress_safe"
    assert not db.same_defect(bug, "accepts_invalid@decompress_safe")      # class family
    assert not db.same_defect(bug, "wrong_output@decompress_safe")
    assert not db.same_defect(bug, "OOB-READ@compress_default in LZ4_compress_generic")
    assert not db.same_defect(bug, "OOB-READ@-")                          # no entry
    assert not db.same_defect(bug, "OOB-WRITE@decompress_safe_partial")   # another entry
    assert not db.same_defect("memcpy-param-overlap@decompress_safe", "OOB-READ@decompress_safe")
    # Both with a top frame: the frames must agree too.
    assert not db.same_defect("SEGV@compress_hc in LZ4HC_encodeSequence",
                              "OOB-WRITE@compress_hc in LZ4_compressHC_continue")
    assert db.same_defect("SEGV@compress_hc in LZ4HC_encodeSequence",
                          "OOB-WRITE@compress_hc in LZ4HC_encodeSequence")


def test_class_of_evidence():
    assert db.class_of_evidence("test 1 (x): ==PID==ERROR: AddressSanitizer: SEGV on unknown "
                                "address") == "SEGV"
    assert db.class_of_evidence("test 5 (y): returned 1 (expected reject; src_size 6)") == \
        "accepts_invalid"
    assert db.class_of_evidence("test 1 (z): returned 1280 (expected return:1000; ...)") == \
        "return_above_target"
    assert db.class_of_evidence("test 2 (w): returned 12 but the output differs") == \
        "wrong_output"


CASE = {"id": "ULZ4-TEST", "generations": ["upstream"], "tests": [
    {"tcId": 1, "call": {"entry": "decompress_safe"}},
    {"tcId": 2, "call": {"entry": "decompress_safe_partial"}},
    {"tcId": 3, "call": {"entry": "compress_hc", "alloc_fail_at": "1"}}]}
TREE = {"tree": "lz4-v9.9", "tag": "v9.9", "commit": "c" * 40, "order": 9}


def rec(config, evidence):
    return {"case": "ULZ4-TEST", "tree": "lz4-v9.9", "config": config, "status": "FAIL",
            "evidence": evidence}


def test_bug_of_derives_signature_targets_and_skips():
    b = db.bug_of(CASE, TREE, [rec("asan64", "test 2 (p): returned 12 but the output differs")])
    assert (b.signature, b.skip) == ("wrong_output@decompress_safe_partial", None)
    assert b.targets == ["decode_differential", "ref_to_subject", "decode_large"]
    assert b.entries == ["compress_hc", "decompress_safe", "decompress_safe_partial"]
    # An allocation-failure test is for alloc_fail alone.
    b = db.bug_of(CASE, TREE, [rec("asan64", "test 3 (h): ==1==ERROR: AddressSanitizer: SEGV")])
    assert (b.signature, b.targets) == ("SEGV@compress_hc", ["alloc_fail"])
    # Only 32-bit failures: 32-bit campaigns of decode_large, the one target
    # that makes a length near 2^32; not benchmarked where libfuzzer32
    # cannot run, with the reason.
    b = db.bug_of(CASE, TREE, [rec("O2-32", "test 1 (w): returned 0 (expected reject)")])
    assert (b.bits, b.targets, b.signature) == ("32", ["decode_large"],
                                                "accepts_invalid@decompress_safe")
    runnable = db.toolchain.runnable
    try:
        db.toolchain.runnable = lambda config: False
        b = db.bug_of(CASE, TREE, [rec("O2-32", "test 1 (w): returned 0 (expected reject)")])
        assert b.skip and "32-bit" in b.skip
    finally:
        db.toolchain.runnable = runnable


def test_default_set_is_the_newest_release_carrying_each_bug():
    mk = lambda case, tag, skip=None: db.Bug(case, tag, "lz4-" + tag, None, "SEGV@x", [], ["t"],
                                             skip, "64")
    bugs = {("A", "v1"): mk("A", "v1"), ("A", "v3"): mk("A", "v3"), ("A", "dev"): mk("A", "dev"),
            ("B", "v2"): mk("B", "v2"), ("C", "v3"): mk("C", "v3", "32-bit only")}
    order = {"v1": 1, "v2": 2, "v3": 3, "dev": 9}
    assert db.default_set(bugs, order) == [("B", "v2"), ("A", "v3")]


def test_target_entries_are_called_by_the_targets():
    for target, entries in db.TARGET_ENTRIES.items():
        assert target in TARGETS
        text = open(os.path.join(FUZZ, target + ".c")).read()
        for helper in TABLE[target].sources:          # fuzz/targets.tsv
            if helper.startswith("fuzz/"):
                text += open(os.path.join(FUZZ, os.path.basename(helper))).read()
        if target in ("decode_differential", "ref_to_subject", "decode_large"):   # decoders
            text += open(os.path.join(FUZZ, "oracle_call.c")).read()
            text += open(os.path.join(FUZZ, "oracle.c")).read()
        for e in entries:
            assert '"%s"' % e in text, (target, e)


def test_find_releases_without_a_clone_exits_2(capsys):
    assert cli.main(["--find", "releases"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--lz4-git" in err[0]


def test_session_cpu_counts_this_session():
    assert dr.session_cpu(os.getsid(0)) > 0


def read_table():
    with open(dr.TSV) as f:
        rows = [l for l in f if not l.startswith("#")]
    return list(csv.DictReader(rows, delimiter="\t"))


def table_problems(rows, cases, trees, recs):
    """What is wrong with detection.tsv rows: every row's bug is a case, its
    release one the case FAILs on, its signature the catalogue's, its
    targets fuzz targets that reach the bug (marked "(32-bit)" exactly when
    the bug fails only in 32-bit builds), its times within the cap. A
    32-bit bug's row holds on a machine that cannot run 32-bit campaigns
    (there the catalogue lists it as not benchmarked)."""
    out = []
    fails = db.failing(recs)
    bugs = db.catalogue(cases=cases, releases=(trees, recs))
    for r in rows:
        key = (r["case"], r["release"])
        configs = {x["config"] for x in fails.get(r["case"], {}).get("lz4-" + r["release"], [])}
        if r["case"] not in cases:
            out.append("%s %s: no such case" % key)
        elif not configs & set(db.CONFIGS_64 + db.CONFIGS_32):
            out.append("%s does not FAIL on %s" % key)
        elif (bugs[key].skip and bugs[key].bits == "64") or \
                r["signature"] != bugs[key].signature:
            out.append("%s %s: not the catalogue's signature" % key)
        elif trees["lz4-" + r["release"]]["commit"] != r["commit"]:
            out.append("%s %s: not the release's commit" % key)
        elif any(t not in TARGETS or t not in db.TARGETS_32 + tuple(bugs[key].targets)
                 for t in r["target"].replace(" (32-bit)", "").split("+")):
            out.append("%s %s: a target that does not reach the bug" % key)
        elif ("(32-bit)" in r["target"]) != (bugs[key].bits == "32"):
            out.append("%s %s: the 32-bit mark does not match the release records" % key)
        times = r["runs_cpu_s"].split(",")
        found = [float(t) for t in times if t != "-"]
        if any(t > float(r["cap_cpu_s"]) for t in found):
            out.append("%s %s: a time above the cap" % key)
        if r["found"] == "yes" and ("+" in r["target"] or 2 * len(found) <= len(times) or
                                    float(r["median_cpu_s"]) not in found):
            out.append("%s %s: found, but not in a majority of runs" % key)
        if r["found"] != "yes" and (r["found"] != "no" or r["median_cpu_s"] != "-"):
            out.append("%s %s: a miss with a median" % key)
    return out


def test_committed_table_is_consistent_with_cases_and_release_records():
    rows = read_table()
    assert rows, "regress/results/detection.tsv has no rows"
    assert table_problems(rows, db.load_cases(), *db.load_releases()) == []


def test_table_check_fails_on_a_wrong_row():
    cases = db.load_cases()
    trees, recs = db.load_releases()
    good = {"case": "ULZ4-2019-PARTIAL", "release": "v1.9.1",
            "commit": trees["lz4-v1.9.1"]["commit"],
            "signature": db.catalogue(cases=cases, releases=(trees, recs))[
                ("ULZ4-2019-PARTIAL", "v1.9.1")].signature,
            "target": "decode_differential", "found": "yes", "median_cpu_s": "2",
            "runs_cpu_s": "1,2,3", "cap_cpu_s": "90"}
    assert table_problems([good], cases, trees, recs) == []
    for change in ({"release": "v1.9.2"}, {"case": "ULZ4-NOPE"}, {"target": "frame_decode"},
                   {"signature": "wrong_output@decompress_safe"}, {"runs_cpu_s": "1,-,-"},
                   {"runs_cpu_s": "1,2,300"}, {"found": "no"}):
        assert table_problems([dict(good, **change)], cases, trees, recs), change
