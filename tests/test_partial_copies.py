"""Copies of LZ4 with only some of its files (issue 24, "Build what is
there"): a copy is built and tested for the entry points it has (compile
probes: declared by its headers and defined by its own files), every other
check is n/a; headers kept elsewhere come in with --include, configuration
macros with --define; a build that cannot work says why in one line.

The trees are made here (tests/partial_trees.py, on the reference codec)."""
import json
import os
import re

import pytest

from conftest import expect_bad_input, harness
from harness import toolchain
from harness.gate import options as gate_options
from harness.report import differences
from harness.subjects.build import generation, subject_identity
from partial_trees import make_copy, write


def info(spec, *opts, config="O0"):
    proc = harness("subjects", "info", "-q", spec, "--config", config, *opts)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def statuses(proc):
    """{check: status} of a contracts/regress matrix."""
    out = {}
    for line in proc.stdout.splitlines():
        f = line.split()
        if len(f) == 2 and f[1] in ("pass", "FAIL", "n/a", "known"):
            out[f[0]] = f[1]
    assert out, proc.stdout + proc.stderr
    return out


@pytest.mark.check
def test_a_header_kept_elsewhere_is_named_with_its_includer(tmp_path):
    top = make_copy(tmp_path / "dec")
    spec = "upstream:%s/lib" % top          # the copy's folder, as u-boot's lib/
    expect_bad_input(harness("subjects", "build", "-q", spec, "--config", "O0"),
                     "lz4.c (%s) includes testlz4/lz4.h, which is not in the copy" % spec,
                     "pass --include DIR")
    # The project's top is not the copy: the scan finds it and says how to
    # name it.
    expect_bad_input(harness("subjects", "build", "-q", "upstream:" + top),
                     "found only lib (decoder-only)", "upstream:%s/lib, with --include" % top)
    # Found through --include (relative to the copy's folder), it builds;
    # the header declares compressors lib/lz4.c does not define: the copy
    # has only its decoder.
    got = info(spec, "--include", "../include")
    assert got["entry_points"] == ["LZ4_decompress_safe"]
    assert got["includes"] == [os.path.join(top, "include")]
    # (the control: the header alone declares more)
    declared = toolchain.probe_symbols(
        "cc", ["-I" + os.path.join(top, "include", "testlz4")], '#include "lz4.h"\n',
        ["LZ4_decompress_safe", "LZ4_compress_default", "LZ4_compressBound"])
    assert len(declared) == 3
    assert generation(got) == "upstream"


@pytest.mark.check
def test_options_are_checked_and_belong_to_the_subject(tmp_path):
    top = make_copy(tmp_path / "dec")
    spec = "upstream:%s/lib" % top
    expect_bad_input(harness("subjects", "build", "-q", spec, "--include", "nope"),
                     "--include nope", os.path.join(top, "lib", "nope"))
    expect_bad_input(harness("subjects", "build", "-q", spec, "--define", "1X=2"),
                     "--define 1X=2", "NAME, NAME=VALUE or NAME(ARGS)=VALUE")
    expect_bad_input(harness("subjects", "build", "-q", "ref", "--define", "X"),
                     "apply to a source tree")
    # (a function-like macro too: LZ4_FREESTANDING wants LZ4_memcpy(d,s,n))
    ids = {subject_identity(spec, (), ["../include"], d)
           for d in ([], ["A=1"], ["A=2"], ["F(d,s,n)=g(d,s,n)"])}
    assert len(ids) == 4
    # The gate: --include/--define for both sides, then each side's own.
    other = make_copy(tmp_path / "both", compressor=True)
    o = gate_options.parse(["--base", spec, "--candidate", "upstream:%s/lib" % other,
                            "--include", "../include", "--define", "A=1",
                            "--candidate-define", "LZ4_HEAPMODE=1", "--base-include", "."])
    assert o.base_opts == {"includes": ["../include", "."], "defines": ["A=1"]}
    assert o.candidate_opts == {"includes": ["../include"],
                                "defines": ["A=1", "LZ4_HEAPMODE=1"]}


def test_a_decoder_only_copy_is_tested_for_its_decoder(tmp_path):
    top = make_copy(tmp_path / "dec")
    spec, inc = "upstream:%s/lib" % top, ("--include", "../include")
    proc = harness("contracts", "--config", "asan64", "-q", spec, *inc)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    st = statuses(proc)
    assert any(c.startswith("decompress_safe") and s == "pass" for c, s in st.items())
    assert all(s == "n/a" for c, s in st.items()
               if c.startswith(("compress_default", "compress_hc", "frame")))
    assert "FAIL" not in st.values()
    proc = harness("regress", "--config", "asan64", "-q", spec, *inc)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    cells = [line.split()[1] for line in proc.stdout.splitlines()[1:] if len(line.split()) == 2]
    assert "n/a" in cells and "pass" in cells and "FAIL" not in cells
    # The fuzz targets: the compressor target has nothing to test (n/a, not
    # a pass that tested nothing), the decoder target runs.
    proc = harness("fuzz", "replay", "--target", "compress_roundtrip", "--subject", spec, *inc)
    assert proc.returncode == 0 and "n/a (" in proc.stdout and "compress_default" in \
        proc.stdout, proc.stdout + proc.stderr
    proc = harness("fuzz", "replay", "--target", "decode_differential", "--subject", spec, *inc)
    assert proc.returncode == 0 and "inputs ok" in proc.stdout, proc.stdout + proc.stderr


def test_a_compressor_only_copy_is_tested_for_its_compressor(tmp_path):
    top = make_copy(tmp_path / "comp", decoder=False, compressor=True, header="beside")
    spec = "upstream:" + top
    got = info(spec)
    assert got["entry_points"] == ["LZ4_compressBound", "LZ4_compress_default"]
    assert generation(got) == "upstream"      # not the r1xx API: it has no decoder at all
    proc = harness("contracts", "--config", "asan64", "-q", spec, "--check", "compress_*",
                   "--check", "decompress_*")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    st = statuses(proc)
    assert st["compress_default.into_bound"] == "pass"
    assert all(s == "n/a" for c, s in st.items() if c.startswith("decompress"))
    proc = harness("fuzz", "replay", "--target", "compress_roundtrip", "--subject", spec)
    assert proc.returncode == 0 and "inputs ok" in proc.stdout, proc.stdout + proc.stderr


def test_a_define_configures_the_copy(tmp_path):
    top = make_copy(tmp_path / "comp", decoder=True, compressor=True, header="beside")
    spec = "upstream:" + top
    check = ("contracts", "--config", "O0", "-q", spec, "--check", "compress_bound*")
    assert harness(*check).returncode == 0
    # The bound's constant, a configuration macro of this copy: 0 breaks the
    # bound's contract, and the two builds are two subjects.
    proc = harness(*check, "--define", "TESTLZ4_BOUND_MARGIN=0")
    assert proc.returncode == 1 and "want 16" in proc.stdout, proc.stdout + proc.stderr
    assert harness(*check).returncode == 0
    # A renaming macro: the entry points keep their API names for lz4gate,
    # the copy's objects define the prefixed ones.
    got = info(spec, "--define", "TESTLZ4_PREFIX")
    assert sorted(got["entry_points"]) == ["LZ4_compressBound", "LZ4_compress_default",
                                           "LZ4_decompress_safe"]
    proc = harness("contracts", "--config", "O0", "-q", spec, "--define", "TESTLZ4_PREFIX",
                   "--check", "decompress_safe.*")
    assert proc.returncode == 0 and " pass" in proc.stdout, proc.stdout + proc.stderr


def test_a_build_error_is_shown_verbatim(tmp_path):
    # The error is in a header, and the tree's path has "error" in it: the
    # "In file included from .../error-demo/lib/lz4.c" line before it is
    # not the line that matters.
    top = make_copy(tmp_path / "error-demo", header="beside", extra='#include "cfg.h"\n')
    write(os.path.join(top, "lib", "cfg.h"), "int cfg(void) { return lz4gate_no_such_name; }\n")
    proc = harness("subjects", "build", "-q", "upstream:" + top, "--config", "O0")
    expect_bad_input(proc, "compiling lz4.c of upstream:", "lib/cfg.h:1:",
                     "error: use of undeclared identifier 'lz4gate_no_such_name'")


def test_a_link_error_names_the_symbol_the_file_and_the_options(tmp_path):
    # the copy's file and line as the reader knows them, not a staging path
    # (issue 45: librdkafka's lz4.c calls rd_kafka_mem_malloc)
    top = make_copy(tmp_path / "link", header="beside",
                    extra="int lz4gate_min(int a, int b) { return MIN(a, b); }\n")
    proc = harness("subjects", "build", "-q", "upstream:" + top, "--config", "O0")
    line = expect_bad_input(proc, "lz4.c:", "(upstream:%s) calls MIN, which no file of the "
                            "copy defines" % top, "--define", "--adapter FILE.c with --sources")
    assert "build/stage" not in line and "linker command failed" not in proc.stderr


def test_a_renamed_companion_the_copy_includes_is_compiled(tmp_path):
    # librdkafka keeps xxHash as rdxxhash.c/.h, included by its lz4frame.c;
    # a .c file of the folder no LZ4 source reaches is not compiled (issue 45)
    top = make_copy(tmp_path / "companion", header="beside",
                    extra='#include "rdcomp.h"\nint lz4gate_comp(void) { return rd_comp(); }\n')
    write(os.path.join(top, "lib", "rdcomp.h"), "int rd_comp(void);\n")
    write(os.path.join(top, "lib", "rdcomp.c"), '#include "rdcomp.h"\n'
          "int rd_comp(void) { return 7; }\n")
    write(os.path.join(top, "lib", "project.c"), "int project(void) { return no_such(); }\n")
    proc = harness("subjects", "build", "-q", "upstream:" + top, "--config", "O0")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.check
def test_the_line_that_matters():
    link = ("/usr/bin/ld: /b/obj/ab.o: in function `f':\n"
            "/t/lib/lz4.c:9: undefined reference to `MIN'\n"
            "clang: error: linker command failed with exit code 1 (use -v to see invocation)\n")
    assert toolchain.first_error(link) == "/t/lib/lz4.c:9: undefined reference to `MIN'"
    cc = ("In file included from /x/error-demo/lib/lz4.c:3:\n"
          "/x/error-demo/lib/cfg.h:1:25: error: use of undeclared identifier 'n'\n"
          "1 error generated.\n")
    assert toolchain.first_error(cc) == "/x/error-demo/lib/cfg.h:1:25: error: use of " \
                                        "undeclared identifier 'n'"
    for line, want in (("/s/lz4frame.c:75:10: fatal error: '../zstd/xxhash.h' file not found",
                        ("../zstd/xxhash.h", "/s/lz4frame.c")),
                       ("lz4.c:2:10: fatal error: u-boot/lz4.h: No such file or directory",
                        ("u-boot/lz4.h", "lz4.c"))):
        assert toolchain.BuildError("compiling", line).missing == want


def test_the_gate_names_each_side_and_its_entry_points(tmp_path):
    base = make_copy(tmp_path / "base")
    cand = make_copy(tmp_path / "cand", compressor=True)
    proc = harness("gate", "--base", "upstream:%s/lib" % base, "--base-include", "../include",
                   "--candidate", "upstream:%s/lib" % cand, "--configs", "O0", "--fuzz-time", "0",
                   "--no-coverage", "--out", str(tmp_path / "gate"))
    last = proc.stderr.strip().splitlines()[-1]
    assert proc.returncode == 2, proc.stderr
    assert "lz4.c (upstream:%s/lib) includes testlz4/lz4.h" % cand in last, last
    assert last.endswith("pass --candidate-include DIR"), last
    # With the candidate's header found, it is gated on what each side has,
    # and the report says what is n/a.
    out = tmp_path / "gate-ok"
    proc = harness("gate", "--base", "upstream:%s/lib" % base, "--candidate",
                   "upstream:%s/lib" % cand, "--include", "../include", "--configs", "O0",
                   "--fuzz-time", "0", "--no-coverage", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    report = (out / "report.md").read_text()
    assert "+ `--include ../include` |" in report, report[:3000]
    assert re.search(r"^\| n/a \(entry points a side does not have\) \| base: \d+ contract "
                     r"checks, \d+ regression cases; candidate: ", report, re.M), report[:3000]
    assert re.search(r"^\| fuzz targets n/a \| .*frame_decode \(upstream:\S+ has none of the "
                     r"entry points frame_decode exercises: LZ4F_decompress\)", report, re.M)
    assert re.search(r"^\| text \| \d+ \| n/a \| \d+ \|", report, re.M), report
    kw = {"includes": ["../include"], "defines": []}
    lines = differences.section("upstream:%s/lib" % base, "upstream:%s/lib" % cand, (), "O0",
                                kw, kw)
    assert "| entry points | 1: `LZ4_decompress_safe` | 3: `LZ4_compressBound`, " \
           "`LZ4_compress_default`, `LZ4_decompress_safe` |" in lines, lines
