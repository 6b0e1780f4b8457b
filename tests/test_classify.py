"""The classifier's rules (harness/findings/classify.py, placement.py,
fuzz_units.py, rootcause.py) on structured records: each check compared
whole over the configurations of one word size, lost fixes apart from
regressions, one fix across its ids, root causes across stages and inputs,
one evidence standard for both sides. The records carry what the runners
record (a fail_class from the table, a sanitizer report); the records the
runners really printed are classified in tests/test_planted_records.py."""
import pytest

from harness.findings import catalogue, classify as classifier, policy
from harness.findings.catalogue import Catalogue
from harness.report import gate_markdown

pytestmark = pytest.mark.check


class Docs:
    """Documented findings: {(identity, check or signature): id}."""

    def __init__(self, documented=None):
        self.documented = documented or {}

    def check(self, identity, config, check):
        return self.documented.get((identity, check))

    def fuzz(self, identity, sig):
        return self.documented.get((identity, sig))

    def case(self, case, identity, config):
        return case["id"] if (identity, case["id"]) in self.documented else None


def rec(role, check, config, verdict="FAIL", fail_class="wrong_output", stage="contracts",
        **extra):
    r = {"role": role, "check": check, "config": config, "verdict": verdict, "stage": stage,
         "evidence": "", "identity": role}
    if verdict == "FAIL":
        r["fail_class"] = fail_class
    r.update(extra)
    return r


def run(records, cat=None, docs=None):
    return classifier.classify(records, cat or Catalogue(), docs or Docs())


def ids(decision, cat):
    return sorted(i["id"] for i in decision["categories"][cat])


def crash(*funcs, kind="heap-buffer-overflow", access="READ", entry="decompress_safe"):
    """An ASan report whose stack is funcs (innermost first) in a staged
    subject, under the adapter frame of `entry`."""
    frames = ["    #%d 0x55 in %s /x/build/stage/upstream-1/lib/lz4.c:%d:5" % (n, f, 10 + n)
              for n, f in enumerate(funcs)]
    frames.append("    #%d 0x55 in api_%s /x/harness/subjects/adapters/adapter_upstream.c:9:3"
                  % (len(funcs), entry))
    return ("==1==ERROR: AddressSanitizer: %s on address 0x602000000011\n%s of size 1 at "
            "0x602000000011\n%s\n" % (kind, access, "\n".join(frames)))


def test_a_32_bit_failure_of_the_base_does_not_hide_a_64_bit_one_of_the_candidate():
    c = "decompress_safe.exact_capacity"
    got = run([rec("base", c, "asan32"), rec("base", c, "asan64", "pass"),
               rec("candidate", c, "asan32"), rec("candidate", c, "asan64")])
    assert [(i["id"], i["configs"]) for i in got["categories"]["regression"]] == [
        (c, ["asan64"])]
    assert [(i["id"], i["configs"]) for i in got["categories"]["known"]] == [(c, ["asan32"])]
    assert got.failed(strict=False)


def test_configurations_of_one_word_size_are_compared_whole():
    report = crash("LZ4_compress_generic")
    c = "compress_using_dict.x"
    got = run([rec("base", c, "asan64", "CRASH", report=report),
               rec("base", c, "O0", "CRASH", evidence="killed by signal 11"),
               rec("base", c, "O2", "pass"), rec("candidate", c, "asan64", "pass"),
               rec("candidate", c, "O0", "pass"),
               rec("candidate", c, "O2", "CRASH", evidence="killed by signal 11")])
    assert ids(got, "known") == [c] and not got["categories"]["regression"]
    item = got["categories"]["known"][0]
    assert item["record"]["config"] == "O2" and item["other"]["config"] == "asan64"
    assert "base CRASH in asan64, O0" in item["why"]
    assert not got.failed(strict=False)


def test_lost_fixed_and_known_cases():
    got = run([rec("base", "KLZ4-X", "asan64", "pass", stage="regress"),
               rec("candidate", "KLZ4-X", "asan64", stage="regress"),
               rec("base", "KLZ4-Y", "asan64", stage="regress", evidence="test 1: returned 7"),
               rec("candidate", "KLZ4-Y", "asan64", "pass", stage="regress"),
               rec("base", "KLZ4-Z", "O2", "CRASH", stage="regress", fail_class="crash"),
               rec("candidate", "KLZ4-Z", "O2", "CRASH", stage="regress")])
    assert ids(got, "lost") == ["KLZ4-X"] and ids(got, "fixed") == ["KLZ4-Y"]
    assert got["categories"]["fixed"][0]["record"]["evidence"] == "test 1: returned 7"
    assert ids(got, "known") == ["KLZ4-Z"] and got.failed(strict=False)


def test_a_memory_error_where_the_base_only_fails_otherwise_is_a_regression():
    got = run([rec("base", "c", "asan64", fail_class="wrong_output"),
               rec("candidate", "c", "asan64", "CRASH", report=crash("LZ4_decompress_generic"))])
    assert ids(got, "regression") == ["c"]
    assert got["categories"]["regression"][0]["failure_kind"] == policy.MEMORY


@pytest.mark.parametrize("fail_class,category", [
    # The kind comes from the class, whatever the message says: a decoder
    # that rejects a valid block, one that returns the right length with
    # wrong bytes, a compressor failing inside its bound (issue 40's WARNs).
    ("rejects_valid", "regression"), ("wrong_output", "regression"),
    ("wrong_length", "regression"), ("fails_within_bound", "regression"),
    ("writes_past_capacity", "regression"), ("stale_output", "regression"),
    ("reads_before_history", "regression"),
    ("accepts_invalid", "changed"), ("malformed_wrong_output", "changed"),
    ("wrong_return", "changed"), ("bound_differs", "changed"), ("ubsan", "changed"),
    ("timeout", "changed"), ("check_incomplete", "changed")])
def test_a_candidate_only_failure_is_placed_by_its_class(fail_class, category):
    got = run([rec("base", "c", "asan64", "pass"),
               rec("candidate", "c", "asan64", fail_class=fail_class,
                   evidence="valid 100-byte block, exact capacity: returned -1")])
    assert ids(got, category) == ["c"]
    assert got.failed(strict=False) == (category == "regression")
    assert got.failed(strict=True)


def test_a_fail_record_without_a_class_is_refused_not_guessed():
    from harness.errors import BadInput
    r = rec("candidate", "c", "asan64", evidence="rejected: returned -1")
    del r["fail_class"]
    with pytest.raises(BadInput, match="without a fail_class"):
        run([r])
    with pytest.raises(BadInput, match="not in"):
        run([rec("candidate", "c", "asan64", fail_class="rejected")])


def test_candidate_only_entry_points():
    got = run([rec("base", "frame_decompress.x", "asan64", "n/a"),
               rec("candidate", "frame_decompress.x", "asan64", fail_class="frame_error"),
               rec("base", "frame_compress.y", "asan64", "n/a"),
               rec("candidate", "frame_compress.y", "asan64", fail_class="frame_error"),
               rec("base", "frame_decompress.z", "asan64", "n/a"),
               rec("candidate", "frame_decompress.z", "asan64", fail_class="accepts_invalid")],
              docs=Docs({("candidate", "frame_decompress.x"): "ULZ4-2023-1227"}))
    assert ids(got, "known") == ["frame_decompress.x"]
    assert ids(got, "regression") == ["frame_compress.y"]
    assert "no such entry point" in got["categories"]["regression"][0]["why"]
    assert ids(got, "changed") == ["frame_decompress.z"]


def test_documentation_never_hides_a_bug_the_base_does_not_have():
    got = run([rec("base", "decompress_safe.x", "asan64", "pass"),
               rec("candidate", "decompress_safe.x", "asan64")],
              docs=Docs({("candidate", "decompress_safe.x"): "ULZ4-X"}))
    assert ids(got, "regression") == ["decompress_safe.x"]
    assert "documented for the candidate's tree (ULZ4-X)" in \
        got["categories"]["regression"][0]["why"]


RANGES = {"ULZ4-2020-783": {"upstream": "v1.8.3..v1.9.2"}}
TAGS = ["v1.8.2", "v1.8.3", "v1.9.0", "v1.9.1", "v1.9.2", "v1.9.3", "v1.9.4"]


def test_a_bug_the_base_predates_is_a_regression_with_the_release_that_fixed_it():
    records = [rec("base", "ULZ4-2020-783", "asan64", "pass", stage="regress"),
               rec("candidate", "ULZ4-2020-783", "asan64", "CRASH", stage="regress")]
    old = Catalogue([], catalogue.tree_of("upstream", "1.8.2"), RANGES, TAGS)
    got = run(records, old)
    assert ids(got, "regression") == ["ULZ4-2020-783"] and not got["categories"]["lost"]
    assert "fixed upstream in v1.9.3: update to that instead" in \
        got["categories"]["regression"][0]["why"]
    for version in ("1.9.3", "1.8.3"):
        cat = Catalogue([], catalogue.tree_of("upstream", version), RANGES, TAGS)
        assert ids(run(records, cat), "lost") == ["ULZ4-2020-783"]
    assert ids(run(records), "lost") == ["ULZ4-2020-783"]     # unknown: the strict reading
    gens = {"KLZ4-2017-COMPAT": {"kernel": "G2,G3"}}
    recs = [dict(r, check="KLZ4-2017-COMPAT") for r in records]
    for gen, cat in (("G1", "regression"), ("G2", "lost"), ("G3", "lost")):
        c = Catalogue([], catalogue.tree_of("kernel", "4.4.111", gen), gens, TAGS)
        assert ids(run(recs, c), cat) == ["KLZ4-2017-COMPAT"], gen


def test_one_fix_across_its_ids_is_one_root_cause_in_its_first_section():
    cases = [{"id": "KLZ4-2014-4611", "cve": "CVE-2014-4611", "commits": []},
             {"id": "ULZ4-2014-4611", "cve": "CVE-2014-4611", "commits": []}]
    got = run([rec("base", "KLZ4-2014-4611", "O2-32", "pass", stage="regress"),
               rec("candidate", "KLZ4-2014-4611", "O2-32", stage="regress"),
               rec("base", "ULZ4-2014-4611", "O2-32", stage="regress"),
               rec("candidate", "ULZ4-2014-4611", "O2-32", "pass", stage="regress")],
              Catalogue(cases))
    assert [(g["category"], g["signature"]) for g in got["groups"]] == [
        ("lost", "CVE-2014-4611")]
    rel = {i["id"]: i["relation"] for i in got["groups"][0]["items"]}
    assert rel == {"KLZ4-2014-4611": "lost", "ULZ4-2014-4611": "fixed"}
    # every item is in its root cause's section: the report, JUnit and SARIF
    # read the same one
    assert ids(got, "lost") == ["KLZ4-2014-4611", "ULZ4-2014-4611"]


def test_a_failure_at_the_bases_crash_site_is_the_bases_bug_whatever_showed_it():
    # lz4 1.9.4's custom-memory LZ4F contexts reach the NULL state 1.9.3
    # reaches through the plain ones (ULZ4-LZ4F-ALLOCFAIL-REUSE); a case of
    # the base crashing there makes a contract crash of the candidate known
    # too (one root cause across stages), a crash elsewhere stays new.
    same = crash("LZ4_prepareTable", "LZ4_resetStream_fast", "LZ4F_initStream",
                 kind="SEGV", entry="frame_compress")
    other = crash("LZ4F_makeBlock", "LZ4F_compressUpdate", "LZ4F_compressUpdateImpl",
                  kind="SEGV", entry="frame_compress")
    plain, mem = "sweep.alloc.frame_stream", "sweep.alloc.frame_mem_stream"

    def got(candidate_report, base_stage="contracts"):
        return run([rec("base", plain, "asan64", "CRASH", report=same, stage=base_stage),
                    rec("base", mem, "asan64", "n/a"),
                    rec("candidate", mem, "asan64", "CRASH", report=candidate_report)])
    for stage in ("contracts", "regress"):
        d = got(same, stage)
        assert ids(d, "known") == [mem], stage
        why = d["categories"]["known"][0]["why"]
        assert plain in why and "LZ4_prepareTable <- LZ4_resetStream_fast" in why
    d = got(other)
    assert ids(d, "regression") == [mem] and d.failed(strict=False)


def test_the_example_shown_is_the_one_with_a_sanitizer_report():
    c = "decompress_safe_partial.targets"
    got = run([rec("base", c, k, "pass") for k in ("O2-32", "asan64")] +
              [rec("candidate", c, "O2-32", "CRASH", evidence="killed by signal 11"),
               rec("candidate", c, "asan64", "CRASH", report=crash("LZ4_decompress_generic"))])
    item = got["categories"]["regression"][0]
    assert item["record"]["config"] == "asan64"
    assert sorted(item["configs"]) == ["O2-32", "asan64"]


def test_a_reason_shared_by_both_word_sizes_is_said_once():
    recs = [rec("candidate", "frame_x", c, "CRASH", report=crash("f")) for c in ("asan64",
                                                                                 "O2-32")]
    got = run(recs, docs=Docs({("candidate", "frame_x"): "X"}))
    item = got["categories"]["known"][0]
    assert sorted(item["configs"]) == ["O2-32", "asan64"]
    assert item["why"].count("documented for the candidate's tree (X)") == 1, item["why"]


def test_undefined_behaviour_in_a_passing_check_is_a_behaviour_change_never_silent():
    ub = "lz4.c:10:5: runtime error: signed integer overflow"
    got = run([rec("base", "c", "asan64", "pass", ubsan=""),
               rec("candidate", "c", "asan64", "pass", ubsan=ub)])
    assert ids(got, "changed") == ["c"]
    item = got["categories"]["changed"][0]
    assert item["stage"] == "ubsan" and item["failure_kind"] == policy.UNDEFINED
    assert not got.failed(strict=False) and got.failed(strict=True)
    got = run([rec("base", "c", "asan64", "pass", ubsan=ub),
               rec("candidate", "c", "asan64", "pass", ubsan=ub)])
    assert ids(got, "known") == ["c"]


def test_undefined_behaviour_the_base_does_not_have_is_said_so_not_a_missing_entry():
    ub = "lz4.c:10:5: runtime error: pointer overflow"
    got = run([rec("base", "c", "asan32", "pass", ubsan=""),
               rec("candidate", "c", "asan32", "pass", ubsan=ub)])
    item = got["categories"]["changed"][0]
    assert item["why"].startswith("the base reports none here; candidate: undefined "
                                  "behaviour"), item["why"]
    # the report's base line: the base's own run of the check, not a
    # missing entry point (the 1.9.2 -> 1.9.3 stability run's lz4hc.c:1034)
    assert item["base"] == "passes" and item["other"]["verdict"] == "pass", item["other"]
    assert ("base", "pass [asan32] ") in gate_markdown.evidence(item)
    got = run([rec("base", "c", "asan32", "n/a"),
               rec("candidate", "c", "asan32", "pass", ubsan=ub)])
    assert "no such entry point" in got["categories"]["changed"][0]["why"]


def test_a_case_never_links_to_another_checks_failure_without_a_stack():
    # The openzfs acceptance row (docs/acceptance.md): the base's contract
    # check accepts invalid input in decompress_safe; the candidate's case
    # KLZ4-2014-4611 fails (a lost fix), with no stack. One entry point and
    # one family are no evidence of one bug for a check or a case: lost.
    got = run([rec("base", "decompress_safe.compressed_size_zero", "O2-32",
                   fail_class="accepts_invalid"),
               rec("candidate", "decompress_safe.compressed_size_zero", "O2-32",
                   fail_class="accepts_invalid"),
               rec("base", "KLZ4-2014-4611", "O2-32", "pass", stage="regress"),
               rec("candidate", "KLZ4-2014-4611", "O2-32", stage="regress",
                   fail_class="accepts_invalid", entry="decompress_safe")])
    assert ids(got, "lost") == ["KLZ4-2014-4611"]
    # nor a crash with no stack to another crash with none (Android G2 -> G3)
    got = run([rec("base", "decompress_safe_partial.negative_target", "O2", "CRASH",
                   evidence="killed by signal 11"),
               rec("base", "KLZ4-2022-49078", "O2", "pass", stage="regress"),
               rec("candidate", "KLZ4-2022-49078", "O2", "CRASH", stage="regress",
                   evidence="killed by signal 11", entry="decompress_safe_partial")])
    assert ids(got, "lost") == ["KLZ4-2022-49078"]
