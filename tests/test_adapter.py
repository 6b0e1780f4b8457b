"""project:DIR subjects: an LZ4 copy behind its project's own API, reached
through an adapter the user writes (harness/subjects/project.py,
recipes/project.py, adapters/project_adapter.h; docs/subjects.md "Project APIs").

The copies are written here (tests/adapter_projects.py: ref/ behind the APIs
of the two examples docs/subjects.md shows, docs/examples/), with planted bugs."""
import os
import re
import shutil
import subprocess

import pytest

import adapter_projects as ap
from conftest import TOP, contract_records, expect_bad_input, harness
from harness import toolchain
from harness.paths import ADAPTERS
from harness.subjects import project
from harness.subjects.build import global_definitions, subject_identity
from harness.subjects.spec import Subject

pytestmark = pytest.mark.xdist_group("adapter")      # the trees are shared
PAIR_PROGRAM = os.path.join(TOP, "tests", "c", "two_subjects_link.c")


def tree(name, api, **kw):
    return ap.make_project(name, api, **kw)


def failing(records):
    return sorted(r["check"] for r in records if r["status"] == "FAIL")


def adapter_variant(tmp_path, api, old, new):
    """A copy of an example adapter with one line changed."""
    with open(ap.ADAPTER[api]) as f:
        text = f.read()
    assert old in text
    path = tmp_path / ("variant_" + os.path.basename(ap.ADAPTER[api]))
    path.write_text(text.replace(old, new))
    return str(path)


# ---- the examples --------------------------------------------------------

@pytest.mark.check
@pytest.mark.parametrize("bits", ["64", "32"])
@pytest.mark.parametrize("example", sorted(ap.ADAPTER.values()))
def test_readme_examples_compile_against_subject_h(example, bits, tmp_path):
    # Nothing but subject.h's folder on the include path, our warnings.
    proc = subprocess.run(["gcc", "-m" + bits, "-c"] + toolchain.OUR_WARNINGS +
                          ["-I" + ADAPTERS, example, "-o", str(tmp_path / "a.o")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    assert global_definitions(str(tmp_path / "a.o")) == {"lz4gate_subject"}


@pytest.mark.check
@pytest.mark.parametrize("cc", ["gcc", "clang"])
def test_the_example_stub_headers_compile_and_give_what_they_name(cc, tmp_path):
    # docs/examples/stubs: the project headers the acceptance rows of
    # OpenZFS and U-Boot pass with --include (a wrong byte order or a
    # const-discarding get_unaligned would change what the copy decodes).
    stubs = os.path.join(TOP, "docs", "examples", "stubs")
    exe = str(tmp_path / "stubs")
    proc = subprocess.run([cc, "-std=gnu11", "-fsanitize=address,undefined",
                           "-fno-sanitize-recover=all"] + toolchain.OUR_WARNINGS[1:] +
                          ["-I" + os.path.join(stubs, "bootloader"), "-I" + os.path.join(stubs, "fs"),
                           os.path.join(TOP, "tests", "c", "example_stubs.c"), "-o", exe],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    run = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    assert run.returncode == 0, run.stdout


@pytest.mark.check
def test_the_bootloader_example_maps_the_block_decoders_on_request(tmp_path):
    # -DBOOT_BLOCK_API (acceptance row u-boot-1.8.3dec, candidate side).
    obj = str(tmp_path / "a.o")
    proc = subprocess.run(["gcc", "-c", "-DBOOT_BLOCK_API"] + toolchain.OUR_WARNINGS +
                          ["-I" + ADAPTERS, ap.ADAPTER["boot"], "-o", obj],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    undefined = subprocess.run(["nm", "-u", obj], stdout=subprocess.PIPE,
                               universal_newlines=True).stdout
    assert "LZ4_decompress_safe_partial" in undefined and "ulz4fn" in undefined


@pytest.mark.check
def test_the_manual_shows_the_examples_as_they_are():
    with open(os.path.join(TOP, "docs", "subjects.md")) as f:
        section = f.read().split("## Project APIs", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```c\n(.*?)```", section, re.S)
    assert len(blocks) >= 2
    texts = {}
    for path in ap.ADAPTER.values():
        with open(path) as f:
            texts[path] = f.read()
    for b in blocks:
        assert any(b in t for t in texts.values()), \
            "docs/subjects.md block not in docs/examples:\n" + b
    for path, t in texts.items():
        assert any(b in t for b in blocks), "docs/subjects.md shows nothing of " + path


# ---- specs, options, bad input -------------------------------------------

@pytest.mark.check
def test_spec_carries_adapter_and_sources(tmp_path):
    s = project.compose(str(tmp_path), "a.c", ["x.c", "sub/y.c"])
    assert project.parse(s.partition(":")[2]) == (str(tmp_path), os.path.abspath("a.c"),
                                                  ["x.c", "sub/y.c"])
    assert project.with_options("project:" + str(tmp_path), "a.c") == \
        project.compose(str(tmp_path), "a.c")
    assert project.with_options("upstream", "a.c") == "upstream"


@pytest.mark.check
def test_default_sources_skip_tests_and_programs(tmp_path):
    for name, text in (("lz4.c", "int f(void) { return 0; }\n"),
                       ("lz4_test.c", "int g(void) { return 0; }\n"),
                       ("bench.c", "int h(void) { return 0; }\n"),
                       ("tool.c", "int main(void) { return 0; }\n"),
                       ("frame.h", "\n")):
        (tmp_path / name).write_text(text)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.c").write_text("int x;\n")
    s = Subject(project.compose(str(tmp_path), ap.ADAPTER["fs"]))
    assert s.sources == ["lz4.c"]
    assert set(s.files) == {"lz4.c", "lz4_test.c", "bench.c", "tool.c", "frame.h", "sub/x.c"}
    chosen = Subject(project.compose(str(tmp_path), ap.ADAPTER["fs"], ["sub/x.c", "tool.c"]))
    assert chosen.sources == ["sub/x.c", "tool.c"] and chosen.id != s.id


@pytest.mark.check
def test_bad_input_is_one_line(tmp_path):
    (tmp_path / "lz4.c").write_text("int f(void) { return 0; }\n")
    d = str(tmp_path)
    expect_bad_input(harness("subjects", "build", "-q", "project:" + d), "no adapter",
                     "--adapter")
    expect_bad_input(harness("subjects", "build", "-q", "project:" + d, "--adapter",
                             d + "/none.c"), "not a C file")
    expect_bad_input(harness("subjects", "build", "-q", "ref", "--adapter", ap.ADAPTER["fs"]),
                     "--adapter", "project:DIR")
    expect_bad_input(harness("contracts", "-q", "project:" + d, "--adapter", ap.ADAPTER["fs"],
                             "--sources", "nope.c"), "nope.c")
    expect_bad_input(harness("gate", "--base", "kernel", "--candidate", "upstream",
                             "--candidate-adapter", ap.ADAPTER["fs"]), "candidate")
    os.remove(d + "/lz4.c")
    (tmp_path / "lz4_test.c").write_text("int f(void) { return 0; }\n")
    expect_bad_input(harness("subjects", "build", "-q", "project:" + d, "--adapter",
                             ap.ADAPTER["fs"]), "no library .c file", "--sources")


@pytest.mark.check
def test_adapter_that_does_not_compile_is_bad_input(tmp_path):
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "lz4.c").write_text("int f(void) { return 0; }\n")
    bad = tmp_path / "adapter.c"
    bad.write_text('#include "project_adapter.h"\nstatic int unused(void) { return 0; }\n')
    proc = harness("subjects", "build", "-q", "project:%s" % (tmp_path / "copy"),
                   "--adapter", str(bad))
    expect_bad_input(proc, "compiling adapter.c", "unused")
    # An adapter kept beside the copy is not one of the copy's sources.
    inside = tmp_path / "copy" / "adapter.c"
    inside.write_text(bad.read_text())
    expect_bad_input(harness("subjects", "build", "-q", "project:%s" % (tmp_path / "copy"),
                             "--adapter", str(inside)), "compiling adapter.c", "unused")


@pytest.mark.check
def test_include_and_define_reach_the_copy_and_the_adapter(tmp_path):
    # A header kept outside the copy (--include) and a macro (--define), as
    # for every tree subject: both the copy and the adapter see them (neither
    # compiles without them).
    (tmp_path / "copy").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "toy_types.h").write_text("typedef int toy_int;\n")
    (tmp_path / "copy" / "toy.c").write_text(
        '#include "toy_types.h"\n'
        "toy_int toy_decode(const char *s, char *d, toy_int n, toy_int cap);\n"
        "toy_int toy_decode(const char *s, char *d, toy_int n, toy_int cap)\n"
        "{ (void)s; (void)d; (void)n; (void)cap; return TOY_RESULT; }\n")
    adapter = tmp_path / "toy_adapter.c"
    adapter.write_text('#include "project_adapter.h"\n#include "toy_types.h"\n'
                       "toy_int toy_decode(const char *s, char *d, toy_int n, toy_int cap);\n"
                       "static int safe(const char *s, char *d, int n, int cap)\n"
                       "{ return toy_decode(s, d, n, cap); }\n"
                       "PROJECT_SUBJECT(.decompress_safe = safe)\n")
    args = ["subjects", "info", "-q", "project:%s" % (tmp_path / "copy"), "--adapter",
            str(adapter)]
    expect_bad_input(harness(*args), "toy_types.h")
    proc = harness(*args, "--include", str(tmp_path / "inc"), "--define", "TOY_RESULT=-1")
    assert proc.returncode == 0, proc.stderr
    assert '"kind": "project"' in proc.stdout and '"TOY_RESULT=-1"' in proc.stdout


@pytest.mark.check
def test_the_adapter_is_part_of_the_identity(tmp_path):
    d = tree("fs-good", "fs")
    other = adapter_variant(tmp_path, "fs", "enum { PREFIX = 4 };", "enum { PREFIX = 4, X };")
    a, b = Subject(ap.spec(d, "fs")), Subject(project.compose(d, other))
    assert a.files == b.files and a.id != b.id
    assert subject_identity(ap.spec(d, "fs")) != subject_identity(project.compose(d, other))
    assert subject_identity(ap.spec(d, "fs")).startswith("project@")


@pytest.mark.check
def test_gate_sides_take_their_own_adapter_or_the_shared_one():
    from harness.gate import options as gate_options
    fs, boot = tree("fs-good", "fs"), tree("boot-good", "boot")
    a = gate_options.parse(["--base", "project:" + fs, "--candidate", "project:" + boot,
                            "--base-adapter", ap.ADAPTER["fs"],
                            "--candidate-adapter", ap.ADAPTER["boot"]])
    assert (a.base, a.candidate) == (ap.spec(fs, "fs"), ap.spec(boot, "boot"))
    # --adapter is both sides', a side's own option wins for that side
    a = gate_options.parse(["--base", "project:" + fs, "--candidate", "project:" + boot,
                            "--adapter", ap.ADAPTER["fs"],
                            "--candidate-adapter", ap.ADAPTER["boot"]])
    assert (a.base, a.candidate) == (ap.spec(fs, "fs"), ap.spec(boot, "boot"))
    a = gate_options.parse(["--base", "project:" + fs, "--candidate", "project:" + fs,
                            "--adapter", ap.ADAPTER["fs"]])
    assert a.base == a.candidate == ap.spec(fs, "fs")


# ---- isolation: two copies behind one adapter link ------------------------

@pytest.mark.check
def test_two_copies_behind_one_adapter_link_into_one_program(tmp_path):
    outs = []
    for name, kw in (("fs-good", {}), ("fs-accepts", {"bug": "fs-accepts-errors"})):
        proc = harness("subjects", "build", "-q", ap.spec(tree(name, "fs", **kw), "fs"))
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout.strip())
        assert global_definitions(os.path.join(outs[-1], "subject.o")) == {"lz4gate_subject"}
        assert global_definitions(os.path.join(outs[-1], "subject_b.o")) == \
            {"lz4gate_subject_b"}
    flags = ["-fsanitize=address,undefined"] + toolchain.OUR_WARNINGS + ["-I" + ADAPTERS]
    prog = str(tmp_path / "pair")
    subprocess.run(["clang"] + flags + [PAIR_PROGRAM, os.path.join(outs[0], "subject.o"),
                                        os.path.join(outs[1], "subject_b.o"), "-o", prog],
                   check=True)
    proc = subprocess.run([prog], stdout=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0 and proc.stdout.count(": ok") == 2, proc.stdout
    # The control: without the isolation, the copies (and adapters) clash.
    clash = subprocess.run(["clang"] + flags + [PAIR_PROGRAM] +
                           [os.path.join(o, "merged.o") for o in outs] + ["-o", prog],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
    assert clash.returncode != 0 and "multiple definition" in clash.stdout


# ---- contracts through the examples --------------------------------------

@pytest.mark.parametrize("api", ["fs", "boot"])
def test_contracts_pass_through_the_example_adapter(api):
    recs = contract_records(ap.spec(tree(api + "-good", api), api), "asan64")
    ran = [r for r in recs if r["status"] != "n/a"]
    assert not failing(recs)
    if api == "fs":       # decoder and compressor, with the length prefix
        assert any(r["check"].startswith("compress_default.") for r in ran)
        assert len([r for r in ran if r["check"].startswith("vector.")]) > 100
    else:                 # the frame decoder only
        assert ran and all(r["check"].startswith(("frame_decompress.",
                                                  "sweep.capacity.frame_decompress",
                                                  "sweep.input.frame_")) for r in ran)


@pytest.mark.parametrize("name,api,kw,expect", [
    ("fs-offset", "fs", {"mutant": "OFFSET_IN_HISTORY"}, "vector.inv-offset-before-start"),
    ("fs-accepts", "fs", {"bug": "fs-accepts-errors"}, "vector.inv-output-full-input-left"),
    ("boot-cksum", "boot", {"mutant": "BLOCK_CHECKSUM"}, "frame_decompress.rejects_corrupt"),
])
def test_a_planted_bug_in_the_copy_fails(name, api, kw, expect):
    recs = contract_records(ap.spec(tree(name, api, **kw), api), "asan64")
    assert any(c.startswith(expect) for c in failing(recs)), failing(recs)


@pytest.mark.parametrize("api,old,new,expect", [
    # Without the flags the project's conventions read as failures: each
    # flag's handling in the runners is needed (and the planted bugs above
    # show it hides none).
    ("fs", ".flags = SUBJECT_DECODE_SIZE_UNREPORTED", ".flags = 0",
     "decompress_safe.capacity_larger"),
    ("boot", ".flags = SUBJECT_FRAME_ONE_SHOT", ".flags = 0",
     "frame_decompress.ref_frames_bytewise"),
])
def test_each_flag_is_needed(api, old, new, expect, tmp_path):
    variant = adapter_variant(tmp_path, api, old, new)
    proc = harness("contracts", "-q", "--config", "asan64", "--check", expect + "*",
                   "project:" + tree(api + "-good", api), "--adapter", variant)
    assert proc.returncode == 1 and "FAIL" in proc.stdout, proc.stdout + proc.stderr


def test_regress_through_the_example_adapter():
    # The regression cases on a copy that reports no size: the good copy
    # passes every case it can run, the planted bug fails one.
    def regress(name, **kw):
        return harness("regress", "--config", "asan64", "project:" + tree(name, "fs", **kw),
                       "--adapter", ap.ADAPTER["fs"])
    good = regress("fs-good")
    assert good.returncode == 0 and " pass " in good.stdout, good.stdout + good.stderr
    bad = regress("fs-offset", mutant="OFFSET_IN_HISTORY")
    assert bad.returncode == 1 and "FAIL KLZ4-FAST on project:" in bad.stdout + bad.stderr, \
        bad.stdout + bad.stderr


def test_fuzz_replay_judges_through_the_adapter():
    # decode_differential's oracle on a copy that reports no size: the seeds
    # pass on the good copy and catch the planted bug.
    good = harness("fuzz", "replay", "--target", "decode_differential", "--subject",
                   "project:" + tree("fs-good", "fs"), "--adapter", ap.ADAPTER["fs"])
    assert good.returncode == 0, good.stdout + good.stderr
    bad = harness("fuzz", "replay", "--target", "decode_differential", "--subject",
                  "project:" + tree("fs-offset", "fs", mutant="OFFSET_IN_HISTORY"),
                  "--adapter", ap.ADAPTER["fs"])
    assert bad.returncode == 1, bad.stdout + bad.stderr


# ---- the gate, one adapter for both sides ---------------------------------

def gate(out, base, candidate, api):
    return harness("gate", "--base", "project:" + base, "--candidate", "project:" + candidate,
                   "--adapter", ap.ADAPTER[api], "--configs", "asan64", "--fuzz-time", "0",
                   "--no-coverage", "--skip", "compare", "--skip", "replay", "--out", out)


def test_gate_fails_a_copy_with_a_planted_bug(tmp_path):
    out = str(tmp_path / "gate")
    proc = gate(out, tree("fs-good", "fs"), tree("fs-offset", "fs", mutant="OFFSET_IN_HISTORY"),
                "fs")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    with open(os.path.join(out, "report.md")) as f:
        report = f.read()
    assert report.startswith("# lz4gate: FAIL")
    assert re.search(r"## FAIL: (Lost fixes|Regressions) \([1-9]", report)
    assert ",adapter=" + ap.ADAPTER["fs"] in report     # the reproducers name the adapter


def test_gate_passes_two_equal_copies_behind_one_adapter(tmp_path):
    base = tree("boot-good", "boot")
    candidate = str(tmp_path / "boot-copy")
    shutil.copytree(base, candidate)
    with open(os.path.join(candidate, "boot_api.c"), "a") as f:
        f.write("/* the candidate's copy */\n")
    out = str(tmp_path / "gate")
    proc = gate(out, base, candidate, "boot")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(os.path.join(out, "report.md")) as f:
        assert f.read().startswith("# lz4gate: PASS")
