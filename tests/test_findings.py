"""The upstream-ready finding write-ups (docs/findings/): every reproducer is
built against the default subjects' staged trees, as a user would build it
against theirs (its own source plus the tree's LZ4 files; kernel trees
through the kshim), and must report what docs/findings/affected.tsv says
for that tree: exit 1 "defect shown", 0 "not shown" (2 = could not run).
The rows of the default trees in affected.tsv are thus checked against a
live run; the other rows are data from development-time runs on real trees
(docs/findings/README.md says how to reproduce them)."""
import csv
import os
import re
import subprocess

import pytest

from harness import objcache, toolchain
from harness.paths import BUILD, KSHIM, TOP
from harness.subjects.recipes.kernel import KERNEL_DIALECT
from harness.subjects.spec import Subject
from harness.subjects.stage import stage

FINDINGS = os.path.join(TOP, "docs", "findings")
REPRO = os.path.join(FINDINGS, "repro")
OUT = os.path.join(BUILD, "findings")
CONFIG = "O0"   # plain (the unlz4 reproducer has its own guard page) and quick to build

# reproducer: the tree files it is built with, per subject kind.
SOURCES = {
    "klz4-accel-wrap.c": {"kernel": ["lib/lz4/lz4_compress.c", "lib/lz4/lz4_decompress.c"],
                          "upstream": ["lib/lz4.c"], "system": []},
    "lz4-partial-offset0.c": {"kernel": ["lib/lz4/lz4_decompress.c"],
                              "upstream": ["lib/lz4.c"], "system": []},
    "klz4-partial-truncated-chain.c": {"kernel": ["lib/lz4/lz4_decompress.c"],
                                       "upstream": ["lib/lz4.c"], "system": []},
    "klz4-unlz4-short-magic.c": {"kernel": ["lib/decompress_unlz4.c",
                                            "lib/lz4/lz4_decompress.c"]},
    "ulz4-lz4f-bsid.c": {"upstream": ["lib/lz4frame.c", "lib/lz4.c", "lib/lz4hc.c",
                                      "lib/xxhash.c"], "system": []},
    # 1.9.4 has LZ4F_createCompressionContext_advanced: no --wrap needed
    "ulz4-lz4f-allocfail-reuse.c": {"upstream": ["lib/lz4frame.c", "lib/lz4.c", "lib/lz4hc.c",
                                                 "lib/xxhash.c"], "system": []},
}
# The default subjects (harness/subjects/spec.py), their kinds and the
# affected.tsv rows that describe them.
DEFAULT_ROWS = {"kernel": "debian-linux-6.1", "kernel-6.12": "debian-linux-6.12",
                "upstream": "debian-lz4-1.9.4", "system": "debian-liblz4-1.9.4"}
KIND = {"kernel": "kernel", "kernel-6.12": "kernel", "upstream": "upstream", "system": "system"}
EXIT = {"shown": 1, "not-shown": 0}


def affected():
    """affected.tsv as {tree: row}; '#' lines are comments."""
    with open(os.path.join(FINDINGS, "affected.tsv")) as f:
        rows = list(csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t"))
    return {r["tree"]: r for r in rows}


def _build(spec, repro):
    cc, cflags, _ = toolchain.config(CONFIG)
    kind = KIND[spec]
    libs = ["-llz4"] if kind == "system" else []
    if kind == "system":
        tree, inc, lib_flags = "", [], []
    else:
        tree = stage(Subject(spec))
        if kind == "kernel":
            inc = ["-DREPRO_KERNEL", "-I" + KSHIM, "-I" + os.path.join(tree, "include")]
            lib_flags = KERNEL_DIALECT + inc + ["-w"]
        else:
            inc = ["-I" + os.path.join(tree, "lib")]
            lib_flags = ["-std=gnu11", "-w"] + inc
    extra = KERNEL_DIALECT[1:] if kind == "kernel" else []
    objs = [objcache.compile_object(cc, cflags + toolchain.OUR_WARNINGS + extra + inc,
                                    os.path.join(REPRO, repro))]
    objs += [objcache.compile_object(cc, cflags + lib_flags, os.path.join(tree, f))
             for f in SOURCES[repro][kind]]
    out = os.path.join(OUT, "%s-%s" % (spec, repro[:-2]))
    return objcache.link_program(cc, cflags, objs, out, "linking " + repro, libs=libs)


CALLS = [(spec, repro) for repro in sorted(SOURCES) for spec in DEFAULT_ROWS
         if KIND[spec] in SOURCES[repro]]


@pytest.mark.parametrize("spec,repro", CALLS)
def test_reproducer_on_default_subject(spec, repro):
    want = affected()[DEFAULT_ROWS[spec]][repro[:-2]]
    assert want in EXIT, "affected.tsv: %s/%s is %r" % (spec, repro, want)
    exe = _build(spec, repro)
    proc = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", timeout=60)
    assert proc.returncode == EXIT[want], proc.stdout
    # The verdict line says the same as the exit status.
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith("DEFECT" if want == "shown" else "not shown"), proc.stdout


def test_writeups_index_and_table_agree():
    """Every write-up is in the index and names reproducers that exist; every
    reproducer has a column in affected.tsv and a test row above."""
    with open(os.path.join(FINDINGS, "README.md")) as f:
        index = f.read()
    docs = sorted(f for f in os.listdir(FINDINGS) if f.endswith(".md") and f != "README.md")
    assert docs, "no write-ups"
    for doc in docs:
        assert "(%s)" % doc in index, "%s not linked from docs/findings/README.md" % doc
        with open(os.path.join(FINDINGS, doc)) as f:
            named = set(re.findall(r"repro/([\w.-]+\.c)", f.read()))
        assert named, "%s names no reproducer" % doc
        for r in named:
            assert os.path.isfile(os.path.join(REPRO, r)), "%s names missing %s" % (doc, r)
    table = affected()
    cols = set(next(iter(table.values())).keys())
    for repro in os.listdir(REPRO):
        assert repro in SOURCES, "no test builds %s" % repro
        assert repro[:-2] in cols, "affected.tsv has no column for %s" % repro
    for row in DEFAULT_ROWS.values():
        assert row in table, "affected.tsv lacks the default tree %s" % row
    repro_cols = [r[:-2] for r in SOURCES]
    for tree, row in table.items():
        for col in repro_cols:
            assert row[col] in ("shown", "not-shown", "no-api", "-"), (tree, col, row[col])


# alloc_fail op 3 (fuzz/alloc_fail.c header): one custom-memory context,
# frames at levels 1, 9, 1, allocation 4 (the level-9 HC state) failing.
REUSE_INPUT = (bytes([3]) + (4).to_bytes(4, "little") + bytes([1, 0, 2]) + bytes(12) +
               b"It was the best of times, it was the worst of times. " * 40)


def test_alloc_fail_records_the_allocfail_reuse_finding(tmp_path):
    """ULZ4-LZ4F-ALLOCFAIL-REUSE in the fuzz target: lz4 1.9.4's NULL state is
    caught and recorded as null_state_reuse (no sanitizer crash), documented
    for that tree so that campaigns count it and go on; ref passes."""
    from conftest import harness
    from harness.findings.documented import Documented
    from harness.subjects.build import subject_identity
    path = tmp_path / "reuse-fail4"
    path.write_bytes(REUSE_INPUT)
    if not os.path.isdir(stage(Subject("upstream"))):
        pytest.skip("default upstream tree not fetched")
    proc = harness("fuzz", "replay", "-q", "--target", "alloc_fail", "--subject", "upstream",
                   path, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "FAIL [null_state_reuse@frame_compress_stream]" in out, out
    assert "AddressSanitizer" not in out, out
    assert Documented().fuzz(subject_identity("upstream", []),
                             "null_state_reuse@frame_compress_stream") == \
        "ULZ4-LZ4F-ALLOCFAIL-REUSE"
    assert harness("fuzz", "replay", "-q", "--target", "alloc_fail", "--subject", "ref", path,
                   timeout=600).returncode == 0
