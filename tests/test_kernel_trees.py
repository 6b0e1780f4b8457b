"""Kernel trees of every API generation (issue 13): odd trees are refused
with the file at fault, a compressor-only tree gets the compressor checks, a
mailbox patch series applies in order, the generation comes from the code,
and the committed snapshot of real trees (regress/results/kernels.jsonl,
from `python3 -m harness kernels`) is consistent.

Every tree here is written by the test (or is our synthetic fixture,
tests/fixtures/kernel-g1): no kernel code is in the repository.
"""
import os
import re
import shutil
import subprocess

import pytest

from conftest import TOP, expect_bad_input, harness
from harness.errors import BadInput
from harness.evidence.snapshots import load_snapshot
from harness.runners.contracts.run import run_contracts
from harness.subjects.versions import generation
from harness.subjects.build import build, info as subject_info
from harness.subjects import fixtures
from harness.subjects.recipes.kernel import missing_headers
from harness.subjects.spec import Subject
from harness.subjects.stage import split_mailbox, stage

SNAPSHOT = os.path.join(TOP, "regress", "results", "kernels.jsonl")
OLD_CHECKS = 7      # the old API's contract checks (harness/runners/contracts/contracts_old_api.c)
# Declarations only, in the two APIs' shapes: these trees are refused before
# anything is compiled.
NEW_HEADER = "int LZ4_decompress_safe(const char *s, char *d, int n, int cap);\n"
OLD_HEADER = ("int lz4_decompress(const unsigned char *src, size_t *src_len,\n"
              "                   unsigned char *dest, size_t actual_dest_len);\n")


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(str(root), rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return str(root)


@pytest.mark.check
def test_a_missing_header_is_named_with_the_file_that_needs_it(tmp_path):
    tree = write_tree(tmp_path / "t", {
        "include/linux/lz4.h": NEW_HEADER,
        "lib/lz4/lz4_compress.c": '#include <linux/lz4.h>\n#include "lz4defs.h"\n'
                                  "int LZ4_compress_fast(void);\n"})
    proc = harness("subjects", "build", "kernel:" + tree, "--config", "O2", "-q")
    expect_bad_input(proc, "missing lib/lz4/lz4defs.h", "included by lib/lz4/lz4_compress.c")
    # With the header there, that refusal is gone (the tree then fails to
    # compile, which is a different line).
    write_tree(tmp_path / "t", {"lib/lz4/lz4defs.h": "/* empty */\n"})
    assert missing_headers(tree) == []


@pytest.mark.check
def test_includes_of_the_boot_decompressor_build_are_not_required(tmp_path):
    # decompress_unlz4.c includes the decoder's .c only under STATIC.
    tree = write_tree(tmp_path / "t", {
        "include/linux/lz4.h": NEW_HEADER,
        "lib/decompress_unlz4.c": '#ifdef STATIC\n#define PREBOOT\n#include "lz4/lz4_decompress.c"\n'
                                  "#else\n#include <linux/decompress/unlz4.h>\n#endif\n"
                                  "#include <linux/lz4.h>\n"})
    assert missing_headers(tree) == [("include/linux/decompress/unlz4.h",
                                      "lib/decompress_unlz4.c")]


@pytest.mark.check
def test_a_tree_mixing_generations_is_refused(tmp_path):
    tree = write_tree(tmp_path / "t", {
        "include/linux/lz4.h": OLD_HEADER,
        "lib/lz4/lz4defs.h": "/* old */\n",
        "lib/lz4/lz4_compress.c": '#include "lz4defs.h"\nint LZ4_compress_fast(void);\n'})
    proc = harness("subjects", "build", "kernel:" + tree, "--config", "O2", "-q")
    expect_bad_input(proc, "mixes LZ4 API generations",
                     "include/linux/lz4.h, lib/lz4/lz4defs.h of the old API",
                     "lib/lz4/lz4_compress.c of the 4.11+ API")


@pytest.mark.check
def test_generation_comes_from_the_code(tmp_path):
    g1 = write_tree(tmp_path / "g1", {"include/linux/lz4.h": OLD_HEADER})
    # a 4.11 tree may keep the old names as wrappers: still G2
    g2 = write_tree(tmp_path / "g2", {"include/linux/lz4.h": OLD_HEADER + NEW_HEADER,
                                      "lib/lz4/lz4_decompress.c": "/* 1.7.2 */\n"})
    g3 = write_tree(tmp_path / "g3", {"include/linux/lz4.h": NEW_HEADER,
                                      "lib/lz4/lz4_decompress.c":
                                      "int LZ4_decompress_safe_forceExtDict(void);\n"})
    assert [generation(t) for t in (g1, g2, g3)] == ["G1", "G2", "G3"]
    assert generation(str(tmp_path)) == ""


def test_a_compressor_only_tree_gets_the_compressor_checks():
    # The synthetic G1 tree without its decoder file: compressors build and
    # are checked, the decoders are absent (n/a), nothing else fails. (A
    # fixed path under build/: the same content is the same subject, so a
    # second run reuses the build.)
    _, src = fixtures.materialize("kernel-g1")
    tree = os.path.join(TOP, "build", "test-kernel-trees", "compressor-only")
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(src, tree)
    os.remove(os.path.join(tree, "lib/lz4/lz4_decompress.c"))
    spec = "kernel:" + tree
    assert subject_info(build(spec, "O2", quiet=True))["missing"] == [
        "lib/lz4/lz4_decompress.c", "lib/decompress_unlz4.c"]
    status = {r["check"]: r["verdict"] for r in run_contracts(spec, "O2", quiet=True,
                                                              vectors=False)}
    assert "FAIL" not in status.values(), status
    assert status["old_compress.ignores_dst_len_fits_bound"] == "pass"
    assert status["old_hc_compress.ignores_dst_len_fits_bound"] == "pass"
    decoders = {c: v for c, v in status.items() if c.startswith("old_decompress")}
    assert decoders and set(decoders.values()) == {"n/a"}, decoders


def mbox(*patches):
    """A mailbox as `git format-patch --stdout` writes one: (subject, diff)."""
    out = []
    for n, (title, diff) in enumerate(patches, 1):
        out.append("From %040x Mon Sep 17 00:00:00 2001\nFrom: Someone <a@b.c>\n"
                   "Date: Mon, 1 Jan 2018 00:00:00 +0000\nSubject: [PATCH %d/%d] %s\n\n"
                   "---\n%s-- \n2.39.2\n\n" % (n, n, len(patches), title, diff))
    return "".join(out)


DIFF1 = ("--- a/lib/lz4/lz4_compress.c\n+++ b/lib/lz4/lz4_compress.c\n"
         "@@ -1,2 +1,2 @@\n int a;\n-int b;\n+int b2;\n")
DIFF2 = ("--- a/lib/lz4/lz4_compress.c\n+++ b/lib/lz4/lz4_compress.c\n"
         "@@ -1,2 +1,3 @@\n int a;\n int b2;\n+int c;\n")       # needs patch 1


@pytest.mark.check
def test_a_mailbox_series_applies_in_order_and_the_tree_is_untouched(tmp_path):
    tree = write_tree(tmp_path / "t", {"include/linux/lz4.h": NEW_HEADER,
                                       "lib/lz4/lz4_compress.c": "int a;\nint b;\n"})
    box = tmp_path / "series.mbox"
    cover = mbox(("cover letter", ""))        # no diff: skipped
    box.write_text(cover + mbox(("rename b", DIFF1), ("add c", DIFF2)))
    assert len(split_mailbox(box.read_text())) == 3
    staged = stage(Subject("kernel:" + tree, [str(box)]))
    with open(os.path.join(staged, "lib/lz4/lz4_compress.c")) as f:
        assert f.read() == "int a;\nint b2;\nint c;\n"
    with open(os.path.join(tree, "lib/lz4/lz4_compress.c")) as f:
        assert f.read() == "int a;\nint b;\n"
    # git am agrees on the same series (it stops on a cover letter)
    box.write_text(box.read_text()[len(cover):])
    repo = tmp_path / "am"
    shutil.copytree(tree, str(repo))
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "base"], ["am", "-q", str(box)]):
        subprocess.run(git + args, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (repo / "lib/lz4/lz4_compress.c").read_text() == "int a;\nint b2;\nint c;\n"


@pytest.mark.check
def test_a_series_out_of_order_names_the_patch_that_fails(tmp_path):
    tree = write_tree(tmp_path / "t", {"include/linux/lz4.h": NEW_HEADER,
                                       "lib/lz4/lz4_compress.c": "int a;\nint b;\n"})
    box = tmp_path / "series.mbox"
    box.write_text(mbox(("add c", DIFF2), ("rename b", DIFF1)))
    with pytest.raises(BadInput, match=r"patch 1 of 2, \"\[PATCH 1/2\] add c\"\)"):
        stage(Subject("kernel:" + tree, [str(box)]))


def snapshot_problems(recs):
    """What the kernels snapshot lacks: >= 6 trees, G1, G2 and G3, >= 3
    Android trees, provenance, both record kinds in asan64 and O2-32, and
    the old API's contracts run (not n/a) on every G1 tree."""
    out = []
    trees = [r for r in recs if r["kind"] == "tree"]
    if len(trees) < 6:
        out.append("%d trees" % len(trees))
    gens = {t["generation"] for t in trees}
    if not {"G1", "G2", "G3"} <= gens:
        out.append("generations %s" % sorted(gens))
    if sum(1 for t in trees if t["android"]) < 3:
        out.append("fewer than 3 Android trees")
    for t in trees:
        name = t["tree"]
        if not re.match(r"^[\w.-]+/[\w.-]+$", t["repository"]) or \
                not re.match(r"^[0-9a-f]{40}$", t["commit"]):
            out.append("%s: no repository + commit" % name)
        if not re.match(r"^\d+\.\d+\.\d+", t["version"]) or \
                not t["identity"].startswith("kernel@"):
            out.append("%s: no version or identity" % name)
        # cases are all kept; contract passes are counted in the tree
        # record (harness/runners/releases/run.py compact())
        mine = [r for r in recs if r["tree"] == name and r["kind"] != "tree"]
        counts = t.get("contracts", {})
        if not {"asan64", "O2-32"} <= {r["config"] for r in mine if r["kind"] == "case"} or \
                not {"asan64", "O2-32"} <= set(counts):
            out.append("%s: cases or contracts missing in asan64/O2-32" % name)
        old_na = [r for r in mine if r["kind"] == "contract" and
                  r["check"].startswith("old_") and r["verdict"] == "n/a"]
        if t["generation"] == "G1" and (old_na or any(
                c.get("pass", 0) + c.get("FAIL", 0) + c.get("known finding", 0) < OLD_CHECKS
                for c in counts.values())):
            out.append("%s: the old API's contracts did not run" % name)
    return out


@pytest.mark.check
def test_the_kernels_snapshot_covers_every_generation_with_provenance():
    recs = load_snapshot(SNAPSHOT)
    assert snapshot_problems(recs) == []
    # and the check bites: a G1 tree whose old-API checks did not run, a
    # tree without its commit
    g1 = next(r["tree"] for r in recs if r["kind"] == "tree" and r["generation"] == "G1")
    bad = [dict(r, commit="") if r["kind"] == "tree" and r["tree"] != g1 else r for r in recs]
    bad.append({"kind": "contract", "tree": g1, "check": "old_decompress.error_is_minus_one",
                "config": "asan64", "verdict": "n/a", "status": "n/a"})
    problems = snapshot_problems(bad)
    assert "%s: the old API's contracts did not run" % g1 in problems
    assert any(p.endswith("no repository + commit") for p in problems)
