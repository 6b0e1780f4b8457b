"""The gate's verdict rules (harness/gate/verdict.py, policy.py) on synthetic
records: each check compared whole over the configurations of one word
size, the policy's FAIL / WARN / INFO sections, lost fixes apart from
regressions, one fix across its ids."""
import pytest

from harness.gate import fixes, policy, verdict
from harness.report.gate_report import split_groups


def rec(role, check, config, status, verdict_="FAIL", stage="contracts", finding=None,
        evidence="", **extra):
    r = {"role": role, "check": check, "config": config, "status": status,
         "verdict": verdict_ if status in ("FAIL", "known finding") else status,
         "stage": stage, "evidence": evidence, "spec": role}
    if finding:
        r["finding"] = finding
    r.update(extra)
    return r


def ids(cats, cat):
    return [i["id"] for i in cats[cat]]


WRONG = "accepted: returned 12 (output ab); expected strict: valid, 12 bytes (cd)"


@pytest.mark.check
def test_a_32_bit_failure_of_the_base_does_not_hide_a_64_bit_one_of_the_candidate():
    records = [rec("base", "decompress_safe.exact_capacity", "asan32", "FAIL", evidence=WRONG),
               rec("base", "decompress_safe.exact_capacity", "asan64", "pass"),
               rec("candidate", "decompress_safe.exact_capacity", "asan32", "FAIL",
                   evidence=WRONG),
               rec("candidate", "decompress_safe.exact_capacity", "asan64", "FAIL",
                   evidence=WRONG)]
    cats = verdict.compare(records)
    assert [(i["id"], i["configs"]) for i in cats["regression"]] == [
        ("decompress_safe.exact_capacity", ["asan64"])]
    assert [(i["id"], i["configs"]) for i in cats["known"]] == [
        ("decompress_safe.exact_capacity", ["asan32"])]
    assert verdict.failed(cats, strict=False)


@pytest.mark.check
def test_configurations_of_one_word_size_are_compared_whole():
    # The base crashes in asan64 and O0, the candidate in O2 only: one bug
    # on both sides (issue 23 item 5), with each side's evidence.
    crash = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1"
    records = [rec("base", "compress_using_dict.x", "asan64", "FAIL", "CRASH", evidence=crash),
               rec("base", "compress_using_dict.x", "O0", "FAIL", "CRASH", evidence=crash),
               rec("base", "compress_using_dict.x", "O2", "pass"),
               rec("candidate", "compress_using_dict.x", "asan64", "pass"),
               rec("candidate", "compress_using_dict.x", "O0", "pass"),
               rec("candidate", "compress_using_dict.x", "O2", "FAIL", "CRASH",
                   evidence="killed by signal 11")]
    cats = verdict.compare(records)
    assert ids(cats, "known") == ["compress_using_dict.x"] and not cats["regression"]
    item = cats["known"][0]
    assert item["record"]["config"] == "O2" and item["other"]["config"] in ("asan64", "O0")
    assert "base CRASH in asan64, O0" in item["why"]
    assert not verdict.failed(cats, strict=False)


@pytest.mark.check
def test_lost_fixed_and_known_cases():
    records = [rec("base", "KLZ4-X", "asan64", "pass", stage="regress"),
               rec("candidate", "KLZ4-X", "asan64", "FAIL", stage="regress"),
               rec("base", "KLZ4-Y", "asan64", "known finding", stage="regress",
                   evidence="test 1: returned 7"),
               rec("candidate", "KLZ4-Y", "asan64", "pass", stage="regress"),
               rec("base", "KLZ4-Z", "O2", "FAIL", "CRASH", stage="regress"),
               rec("candidate", "KLZ4-Z", "O2", "FAIL", "CRASH", stage="regress")]
    cats = verdict.compare(records)
    assert ids(cats, "lost") == ["KLZ4-X"]
    assert ids(cats, "fixed") == ["KLZ4-Y"]
    # Newly fixed keeps its evidence: the base's failing record.
    assert cats["fixed"][0]["record"]["evidence"] == "test 1: returned 7"
    assert ids(cats, "known") == ["KLZ4-Z"]
    assert verdict.failed(cats, strict=False)
    assert not verdict.failed(dict(cats, lost=[]), strict=False)
    assert not verdict.failed(dict(cats, lost=[]), strict=True)     # known stays INFO


@pytest.mark.check
def test_a_memory_error_where_the_base_only_fails_otherwise_is_a_regression():
    records = [rec("base", "c", "asan64", "FAIL", "FAIL", evidence=WRONG),
               rec("candidate", "c", "asan64", "FAIL", "CRASH",
                   evidence="==1==ERROR: AddressSanitizer: SEGV on unknown address")]
    cats = verdict.compare(records)
    assert ids(cats, "regression") == ["c"] and not cats["known"]
    assert cats["regression"][0]["failure_kind"] == policy.MEMORY


@pytest.mark.check
def test_a_latitude_change_warns_and_fails_only_under_strict():
    records = [rec("base", "vector.v.decompress_safe", "asan64", "pass"),
               rec("candidate", "vector.v.decompress_safe", "asan64", "FAIL",
                   evidence="malformed block accepted: returned 3 (output ab), not a prefix")]
    cats = verdict.compare(records)
    assert ids(cats, "changed") == ["vector.v.decompress_safe"]
    assert cats["changed"][0]["failure_kind"] == policy.LATITUDE
    assert not verdict.failed(cats, strict=False)
    assert verdict.failed(cats, strict=True)


@pytest.mark.check
def test_candidate_only_entry_points():
    records = [rec("base", "frame_decompress.x", "asan64", "n/a", "n/a"),
               rec("candidate", "frame_decompress.x", "asan64", "known finding",
                   finding="ULZ4-2023-1227"),
               rec("base", "frame_compress.y", "asan64", "n/a", "n/a"),
               rec("candidate", "frame_compress.y", "asan64", "FAIL",
                   evidence="rejected: returned -1; expected strict: valid"),
               rec("base", "frame_decompress.z", "asan64", "n/a", "n/a"),
               rec("candidate", "frame_decompress.z", "asan64", "FAIL",
                   evidence="malformed block accepted: returned 3")]
    cats = verdict.compare(records)
    assert ids(cats, "known") == ["frame_decompress.x"]
    assert ids(cats, "regression") == ["frame_compress.y"]
    assert "no such entry point" in cats["regression"][0]["why"]
    assert ids(cats, "changed") == ["frame_decompress.z"]


RANGES = {"ULZ4-2020-783": {"upstream": "v1.8.3..v1.9.2"}}
TAGS = ["v1.8.2", "v1.8.3", "v1.9.0", "v1.9.1", "v1.9.2", "v1.9.3", "v1.9.4"]


@pytest.mark.check
def test_a_bug_the_base_predates_is_a_regression_with_the_release_that_fixed_it():
    records = [rec("base", "ULZ4-2020-783", "asan64", "pass", stage="regress"),
               rec("candidate", "ULZ4-2020-783", "asan64", "FAIL", "CRASH", stage="regress")]
    old = verdict.Lineage([], fixes.tree_of("upstream", "1.8.2"), RANGES, TAGS)
    cats = verdict.compare(records, old)
    assert ids(cats, "regression") == ["ULZ4-2020-783"] and not cats["lost"]
    assert "fixed upstream in v1.9.3: update to that instead" in cats["regression"][0]["why"]
    # A base inside or past the range had the bug and carries its fix: lost.
    for version in ("1.9.3", "1.8.3"):
        lin = verdict.Lineage([], fixes.tree_of("upstream", version), RANGES, TAGS)
        assert ids(verdict.compare(records, lin), "lost") == ["ULZ4-2020-783"]
    # Unknown lineage: the strict reading, a lost fix.
    assert ids(verdict.compare(records), "lost") == ["ULZ4-2020-783"]
    # Kernel API generations: a G1 base predates a bug of the G2/G3 code.
    gens = {"KLZ4-2017-COMPAT": {"kernel": "G2,G3"}}
    recs = [dict(r, check="KLZ4-2017-COMPAT") for r in records]
    for gen, cat in (("G1", "regression"), ("G2", "lost"), ("G3", "lost")):
        lin = verdict.Lineage([], fixes.tree_of("kernel", "4.4.111", gen), gens, TAGS)
        assert ids(verdict.compare(recs, lin), cat) == ["KLZ4-2017-COMPAT"], gen


@pytest.mark.check
def test_one_fix_across_its_ids_is_one_group_in_its_worst_category():
    cases = [{"id": "KLZ4-2014-4611", "cve": "CVE-2014-4611", "commits": []},
             {"id": "ULZ4-2014-4611", "cve": "CVE-2014-4611", "commits": []},
             {"id": "KLZ4-GAP-HCLIM", "cve": None, "commits": ["upstream 660d2127 (v1.9.0)"]},
             {"id": "ULZ4-2019-HCLIM", "cve": None, "commits": ["660d21272e4c8a0f49db5fc1"]},
             {"id": "KLZ4-PARTIAL-OFFSET0", "cve": None, "commits": ["none"]},
             {"id": "ULZ4-PARTIAL-OFFSET0", "cve": None, "commits": ["none"]},
             {"id": "ULZ4-2021-974", "cve": None, "commits": ["0a0922067fdb"]}]
    groups = fixes.fix_groups(cases)
    assert groups["KLZ4-2014-4611"] == groups["ULZ4-2014-4611"] == "CVE-2014-4611"
    assert groups["KLZ4-GAP-HCLIM"] == groups["ULZ4-2019-HCLIM"]
    assert groups["KLZ4-PARTIAL-OFFSET0"] == groups["ULZ4-PARTIAL-OFFSET0"]
    assert groups["ULZ4-2021-974"] == "ULZ4-2021-974"
    # Lost under the kernel's id, fixed under upstream's: one group, lost.
    records = [rec("base", "KLZ4-2014-4611", "O2-32", "pass", stage="regress"),
               rec("candidate", "KLZ4-2014-4611", "O2-32", "FAIL", stage="regress"),
               rec("base", "ULZ4-2014-4611", "O2-32", "FAIL", stage="regress"),
               rec("candidate", "ULZ4-2014-4611", "O2-32", "pass", stage="regress")]
    cats = verdict.compare(records, verdict.Lineage(cases))
    grouped = split_groups(cats)
    assert [g["signature"] for g in grouped["lost"]] == ["CVE-2014-4611"]
    assert not grouped["fixed"]
    rel = {i["id"]: i["relation"] for i in grouped["lost"][0]["items"]}
    assert rel == {"KLZ4-2014-4611": "lost", "ULZ4-2014-4611": "fixed"}


@pytest.mark.check
def test_the_policy_table_is_the_one_in_the_readme():
    from conftest import TOP
    import os
    with open(os.path.join(TOP, "README.md")) as f:
        readme = f.read()
    for line in policy.markdown_table():
        assert line in readme, line


@pytest.mark.check
def test_every_oracle_class_the_targets_report_has_a_kind():
    import glob
    import os
    import re
    from conftest import TOP
    classes = set()
    for path in glob.glob(os.path.join(TOP, "fuzz", "*.c")) + \
            glob.glob(os.path.join(TOP, "harness", "runners", "common", "*.c")):
        with open(path) as f:
            text = f.read()
        classes |= set(re.findall(r'fz_finding\(\s*"([a-z_0-9]+)"', text))
        classes |= set(re.findall(r'fz_finding_by\([^,()]+,\s*"([a-z_0-9]+)"', text))
        classes |= set(re.findall(r'stream_problem\([^,]+, "([a-z_0-9]+)"', text))
    missing = sorted(c for c in classes if policy.kind_of_class(c) is None)
    assert classes and not missing, missing


@pytest.mark.check
def test_the_example_shown_is_the_one_with_a_sanitizer_report():
    # A planted over-read crashes the 32-bit plain build (no report) and the
    # 64-bit ASan build: the item's example is the ASan one, and a runner's
    # buffer map is never the line shown (the report's "What").
    buffers = "lz4gate-buffer output 0x3f57e408 0x3f57f000\n"
    asan = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\nREAD of size 1"
    records = [rec("base", "decompress_safe_partial.targets", c, "pass")
               for c in ("O2-32", "asan64")]
    records += [rec("candidate", "decompress_safe_partial.targets", "O2-32", "FAIL", "CRASH",
                    evidence=buffers + "killed by signal 11"),
                rec("candidate", "decompress_safe_partial.targets", "asan64", "FAIL", "CRASH",
                    evidence=buffers + asan)]
    item = verdict.compare(records)["regression"][0]
    assert item["record"]["config"] == "asan64"
    assert item["configs"] == ["O2-32", "asan64"]
    from harness.report.groups import first_line
    assert first_line(buffers + "killed by signal 11") == "killed by signal 11"


@pytest.mark.check
def test_a_case_whose_run_shows_corrupt_output_is_data_corruption():
    # The over-read case ULZ4-SVN-r20 failed by a compressor whose block does
    # not decode (planted corruption): the kind is what the run showed; a
    # memory-class case that shows an accepted wrap keeps its class's kind.
    corrupt = rec("candidate", "ULZ4-SVN-r20", "asan64", "FAIL", stage="regress",
                  evidence="test 6 (compress zeros:4099 (input ends at a guard page), capacity "
                  "= bound): capacity 4131: 26-byte block does not decode to the input",
                  **{"class": "OOB read"})
    assert policy.kind_of_record(corrupt) == policy.CORRUPTION
    wrap = rec("candidate", "KLZ4-2014-4611", "O2-32", "FAIL", stage="regress",
               evidence="test 2 (literal length chain that wraps): accepted: returned 29",
               **{"class": "integer overflow"})
    assert policy.kind_of_record(wrap) == policy.MEMORY


@pytest.mark.check
def test_strict_invalid_input_accepted_with_other_bytes_than_compatible_is_latitude():
    # c-blosc's lz4 1.8.3 -> 1.9.1 (docs/acceptance.md): 1.9.1 decodes an
    # offset-0 block (invalid, block format) to other bytes than ref's
    # compatible profile: WARN, not data corruption. A leak stays FAIL.
    offset0 = ("accepted: returned 24 (output e7960923d36f); expected strict: invalid "
               "(offset_zero); compatible: valid, 24 bytes (82133ff84240)")
    leak = offset0 + "; the output depends on the output buffer's previous content"
    records = [rec("base", "vector.offset0.decompress_safe", "asan64", "pass"),
               rec("candidate", "vector.offset0.decompress_safe", "asan64", "FAIL",
                   evidence=offset0),
               rec("base", "vector.leak.decompress_safe", "asan64", "pass"),
               rec("candidate", "vector.leak.decompress_safe", "asan64", "FAIL",
                   evidence=leak)]
    cats = verdict.compare(records)
    assert ids(cats, "changed") == ["vector.offset0.decompress_safe"]
    assert ids(cats, "regression") == ["vector.leak.decompress_safe"]
    assert policy.kind_of_record({"evidence": WRONG}) == policy.CORRUPTION


def _segv_in(*funcs):
    """An ASan SEGV report whose stack is funcs (innermost first) in a staged
    subject, under an adapter frame."""
    frames = ["    #%d 0x55 in %s /x/build/stage/upstream-1/lib/lz4frame.c:%d:5" % (n, f, 10 + n)
              for n, f in enumerate(funcs)]
    frames.append("    #%d 0x55 in f_begin /x/harness/subjects/adapters/"
                  "adapter_upstream_frame.c:180:33" % len(funcs))
    return ("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000004014\n"
            "==1==The signal is caused by a READ memory access.\n" + "\n".join(frames) + "\n")


@pytest.mark.check
def test_a_new_entry_point_that_crashes_where_the_base_crashes_is_the_bases_bug():
    # lz4 1.9.3 -> 1.9.4 (a real update, docs/acceptance.md): 1.9.4's
    # custom-memory contexts reach the NULL state that 1.9.3 reaches through
    # the plain ones (ULZ4-LZ4F-ALLOCFAIL-REUSE). The same crash site is the
    # base's bug; a crash elsewhere stays a regression.
    same = _segv_in("LZ4_prepareTable", "LZ4_resetStream_fast", "LZ4F_initStream")
    other = _segv_in("LZ4F_makeBlock", "LZ4F_compressUpdate", "LZ4F_compressUpdateImpl")
    plain, mem = "sweep.alloc.frame_stream[levels=1,9]", "sweep.alloc.frame_mem_stream[levels=1,9]"

    def cats(candidate_report):
        return verdict.compare([
            rec("base", plain, "asan64", "FAIL", "CRASH", report=same),
            rec("base", mem, "asan64", "n/a"),
            rec("candidate", plain, "asan64", "FAIL", "CRASH", report=same),
            rec("candidate", mem, "asan64", "FAIL", "CRASH", report=candidate_report)])
    got = cats(same)
    assert ids(got, "known") == [mem, plain] and not got["regression"]
    why = next(i["why"] for i in got["known"] if i["id"] == mem)
    assert "through %s" % plain in why and "LZ4_prepareTable <- LZ4_resetStream_fast" in why
    got = cats(other)
    assert ids(got, "regression") == [mem] and verdict.failed(got, strict=False)


@pytest.mark.check
def test_a_reason_shared_by_both_word_sizes_is_said_once():
    # the report's "Why" read "documented ... (X); ...; documented ... (X); ..."
    # for an item failing in asan64 and O2-32 for the same reason
    records = [rec("candidate", "frame_x", config, "known finding", "CRASH", finding="X")
               for config in ("asan64", "O2-32")]
    item = verdict.compare(records)["known"][0]
    assert sorted(item["configs"]) == ["O2-32", "asan64"]
    assert item["why"].count("documented for the candidate's tree (X)") == 1, item["why"]
