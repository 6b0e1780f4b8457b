"""The difference probe of `make mutate` (harness/mutate/probe.py,
harness/runners/probe/): how it sorts a survivor, and that each class is
reached by a real subject: the same tree twice gives no difference; lz4
1.9.4 with a smaller hash table (LZ4_MEMORY_USAGE=12: other matches, the
same format) is latitude; subjects with a planted decoder or compressor
bug are observable. Plus the run's journal: records kept for --resume."""
import os

import pytest

from conftest import TOP, session_memo
from harness.mutate import journal, probe
from harness.subjects.build import build

UPSTREAM = os.path.join(TOP, "build", "subjects", "lz4-upstream")
CONFIG = "asan64"


def rec(kind, valid, digest):
    return (kind, valid, digest)


BASE = {"compress_default[a]": rec("compress", 1, "c1"), "decompress_safe[a]": rec("decode", -1, "d1"),
        "compress_bound[1]": rec("api", -1, "b1")}


def test_only_valid_compressed_bytes_changed_is_latitude():
    got = dict(BASE, **{"compress_default[a]": rec("compress", 1, "c2")})
    c = probe.classify(BASE, got, True, "")
    assert c["class"] == "latitude" and c["differs"] == ["compress_default[a]"], c


def test_an_output_ref_rejects_is_observable_even_with_the_same_bytes():
    got = dict(BASE, **{"compress_default[a]": rec("compress", 0, "c1")})
    c = probe.classify(BASE, got, True, "")
    assert c["class"] == "observable" and "ref rejects" in c["evidence"], c


@pytest.mark.parametrize("call", ["decompress_safe[a]", "compress_bound[1]"])
def test_a_decoder_or_api_result_that_differs_is_observable(call):
    kind = BASE[call][0]
    c = probe.classify(BASE, dict(BASE, **{call: rec(kind, -1, "zz")}), True, "")
    assert c["class"] == "observable" and c["differs"] == [call], c


def test_a_probe_that_stopped_is_observable_and_says_where():
    got = {"compress_default[a]": BASE["compress_default[a]"]}
    c = probe.classify(BASE, got, False, "AddressSanitizer: heap-buffer-overflow")
    assert c["class"] == "observable", c
    assert "after compress_default[a]" in c["evidence"] and "heap-buffer" in c["evidence"]


def test_the_same_results_are_no_difference():
    assert probe.classify(BASE, dict(BASE), True, "")["class"] == "no difference"


def probe_records(spec, defines=()):
    def compute():
        d = build(spec, CONFIG, quiet=True, defines=defines)
        records, complete, tail = probe.run(d, CONFIG, 600)
        return {"records": records, "complete": complete, "tail": tail}
    got = session_memo("probe:%s:%s" % (spec, ",".join(defines)), compute)
    assert got["complete"], got["tail"]
    return {c: tuple(v) for c, v in got["records"].items()}


@pytest.fixture(scope="module")
def upstream_base():
    if not os.path.isdir(UPSTREAM):
        pytest.skip("the lz4 1.9.4 tree is not fetched (python3 -m harness fetch)")
    return probe_records("upstream:" + UPSTREAM)


@pytest.mark.xdist_group("probe_upstream")
def test_the_probe_covers_every_entry_point_family_and_ref_accepts_the_tree(upstream_base):
    families = {c.split("[")[0] for c in upstream_base}
    for f in ("compress_default", "compress_fast", "compress_dest_size", "compress_hc",
              "compress_using_dict", "stream_compress", "stream_load_dict", "stream_attach",
              "stream_after_failure", "frame_compress", "frame_stream", "decompress_safe",
              "decompress_partial", "decompress_fast", "decompress_using_dict", "dstream",
              "dstream_continue", "frame_decompress", "frame_get_info", "compress_bound",
              "frame_compress_bound", "frame_update_bound"):
        assert f in families, f
    invalid = [c for c, (kind, valid, _) in upstream_base.items() if kind == "compress" and
               valid != 1]
    assert not invalid, invalid[:5]


@pytest.mark.xdist_group("probe_upstream")
def test_a_smaller_hash_table_is_latitude(upstream_base):
    other = probe_records("upstream:" + UPSTREAM, ("LZ4_MEMORY_USAGE=12",))
    c = probe.classify(upstream_base, other, True, "")
    assert c["class"] == "latitude", c


@pytest.mark.xdist_group("probe_upstream")
def test_a_tree_against_itself_is_no_difference(upstream_base):
    c = probe.classify(upstream_base, probe_records("upstream:" + UPSTREAM), True, "")
    assert c["class"] == "no difference", c


@pytest.mark.parametrize("mode,what", [
    ("compress_flip_last", "ref rejects"),      # a compressor's invalid output
    ("short_return", "differ"),                 # a decoder's result
])
def test_planted_bugs_are_observable(mode, what):
    base = probe_records("ref")
    c = probe.classify(base, probe_records("broken:" + mode), True, "")
    assert c["class"] == "observable" and what in c["evidence"], c


def test_the_journal_keeps_records_only_for_the_same_checks(tmp_path, monkeypatch):
    out = str(tmp_path / "result.json")
    j = journal.Journal(out, "tree-1", ["vectors"], True, resume=False)
    j.add({"id": "lib/lz4.c:1:1:inc", "result": "killed"})
    assert journal.Journal(out, "tree-1", ["vectors"], True, resume=True).kept == {
        "lib/lz4.c:1:1:inc": {"id": "lib/lz4.c:1:1:inc", "result": "killed"}}
    assert journal.Journal(out, "tree-2", ["vectors"], True, resume=True).kept == {}
    j = journal.Journal(out, "tree-1", ["vectors"], True, resume=False)
    j.add({"id": "lib/lz4.c:1:1:inc", "result": "killed"})
    monkeypatch.setattr(journal, "checks_digest", lambda: "other checks")
    assert journal.Journal(out, "tree-1", ["vectors"], True, resume=True).kept == {}
