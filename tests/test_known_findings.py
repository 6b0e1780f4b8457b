"""Documented findings (harness/findings/documented.py) are matched on the tree, the
configuration and the signature, never on a generation alone."""
import json
import os

import pytest

from harness.findings import documented as known
from harness.subjects.build import subject_identity
from harness.subjects.spec import DEFAULT_TREES


def docs_with(tmp_path, findings, trees):
    path = tmp_path / "known.json"
    path.write_text(json.dumps({"trees": trees, "findings": findings}))
    return known.Documented(str(path))


@pytest.mark.check
def test_a_finding_applies_to_its_tree_configurations_and_signature_only(tmp_path):
    docs = docs_with(tmp_path, [
        {"id": "F", "trees": ["t"], "configs": ["asan32"], "checks": ["a.*"],
         "fuzz": ["roundtrip@compress_fast"]}],
        {"t": {"identity": "kernel@1111"}, "u": {"identity": "kernel@2222"}})
    assert docs.check("kernel@1111", "asan32", "a.b") == "F"
    assert docs.check("kernel@1111", "asan64", "a.b") is None      # another configuration
    assert docs.check("kernel@2222", "asan32", "a.b") is None      # another tree, same kind
    assert docs.check("kernel@1111", "asan32", "b.a") is None      # another check
    assert docs.fuzz("kernel@1111", "roundtrip@compress_fast", "asan32") == "F"
    assert docs.fuzz("kernel@1111", "roundtrip@compress_default", "asan32") is None
    assert docs.fuzz("kernel@2222", "roundtrip@compress_fast", "asan32") is None


@pytest.mark.check
def test_a_fuzz_signature_with_a_frame_needs_that_frame(tmp_path):
    docs = docs_with(tmp_path, [{"id": "F", "trees": ["t"], "configs": "all",
                                 "fuzz": ["SEGV@decompress_fast in LZ4_decompress_generic"]}],
                     {"t": {"identity": "upstream@1"}})
    assert docs.fuzz("upstream@1", "SEGV@decompress_fast in LZ4_decompress_generic") == "F"
    assert docs.fuzz("upstream@1", "SEGV@decompress_fast in LZ4_memcpy") is None


@pytest.mark.check
def test_an_unknown_tree_name_is_an_error(tmp_path):
    with pytest.raises(known.BadInput, match="names tree 'nope'"):
        docs_with(tmp_path, [{"id": "F", "trees": ["nope"], "checks": ["x"]}], {})


@pytest.mark.check
def test_a_patched_kernel_is_another_tree(tmp_path):
    # The documented findings of Linux 6.1 never apply to a candidate made
    # from it by a patch: its LZ4 files differ, so its identity does.
    patch = tmp_path / "comment.patch"
    patch.write_text("--- a/lib/lz4/lz4defs.h\n+++ b/lib/lz4/lz4defs.h\n@@ -1,1 +1,2 @@\n"
                     "+/* lz4gate test */\n" + " " + open(os.path.join(
                         DEFAULT_TREES["kernel"], "lib/lz4/lz4defs.h")).readline())
    assert subject_identity("kernel", [str(patch)]) != subject_identity("kernel")


@pytest.mark.check
def test_the_default_trees_are_the_documented_ones():
    # If Debian ships other LZ4 files in these packages, the documented
    # findings were confirmed on another tree: re-run the matrix, confirm
    # them, and record the new identity in harness/findings/known_findings.json.
    trees = known.Documented().trees
    for name, spec in (("linux-6.1", "kernel"), ("linux-6.12", "kernel-6.12"),
                       ("lz4-1.9.4", "upstream"), ("liblz4-1.9.4", "system")):
        assert subject_identity(spec) == trees[name]["identity"], (name, spec)
