"""The subject layer (harness/subjects): building, isolation, bad input."""
import hashlib
import os
import subprocess

import pytest

from conftest import CONFIG32, TOP, expect_bad_input, harness
from harness import toolchain
from harness.paths import ADAPTERS
from harness.subjects.build import global_definitions

PAIR_PROGRAM = os.path.join(TOP, "tests", "c", "two_subjects_link.c")


def subjects_cli(*args):
    return harness("subjects", *args)


def tree_digest(path):
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(path)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            h.update(p.encode())
            with open(p, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()


def test_unknown_kind():
    expect_bad_input(subjects_cli("build", "-q", "zstd:/tmp"), "unknown subject", "kernel[:DIR]")


def test_missing_directory(tmp_path):
    expect_bad_input(subjects_cli("build", "-q", "upstream:%s/nope" % tmp_path),
                     "does not exist")


def test_tree_without_lz4(tmp_path):
    (tmp_path / "README").write_text("not lz4\n")
    expect_bad_input(subjects_cli("build", "-q", "upstream:%s" % tmp_path), "no LZ4 sources")
    expect_bad_input(subjects_cli("build", "-q", "kernel:%s" % tmp_path),
                     "no kernel LZ4 sources")


def test_subject_that_does_not_compile(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "lz4.h").write_text("int LZ4_decompress_safe(const char *, char *, int, int);\n")
    (lib / "lz4.c").write_text("#include \"lz4.h\"\nthis is not C;\n")
    before = tree_digest(str(tmp_path))
    expect_bad_input(subjects_cli("build", "-q", "upstream:%s" % tmp_path),
                     "compiling", "failed")
    assert tree_digest(str(tmp_path)) == before


def test_patch_that_does_not_apply_leaves_tree_alone(tmp_path):
    upstream = os.path.join(TOP, "build", "subjects", "lz4-upstream")
    patch = tmp_path / "bad.patch"
    patch.write_text("--- a/lib/lz4.c\n+++ b/lib/lz4.c\n@@ -1,1 +1,1 @@\n"
                     "-this line is not in lz4.c\n+neither is this one\n")
    before = tree_digest(upstream)
    expect_bad_input(subjects_cli("build", "-q", "upstream", "--patch", str(patch)),
                     "does not apply")
    assert tree_digest(upstream) == before


def test_patch_applies_to_a_copy_only(tmp_path):
    kernel = os.path.join(TOP, "build", "subjects", "linux-6.1")
    src = os.path.join(kernel, "lib", "lz4", "lz4_decompress.c")
    import difflib
    with open(src) as f:
        lines = f.read().splitlines(True)
    # A harmless change: one comment line added at the top.
    changed = ["/* lz4gate test patch */\n"] + lines
    patch = tmp_path / "comment.patch"
    patch.write_text("".join(difflib.unified_diff(lines, changed, "a/lib/lz4/lz4_decompress.c",
                                                  "b/lib/lz4/lz4_decompress.c")))
    before = tree_digest(kernel)
    proc = subjects_cli("build", "-q", "kernel", "--patch", str(patch))
    assert proc.returncode == 0, proc.stderr
    assert tree_digest(kernel) == before
    out = proc.stdout.strip()
    import json
    with open(os.path.join(out, "subject.json")) as f:
        info = json.load(f)
    staged = os.path.join(TOP, "build", "stage", info["id"], "lib", "lz4", "lz4_decompress.c")
    with open(staged) as f:
        assert "lz4gate test patch" in f.read()


def test_bad_config_and_system_32bit():
    expect_bad_input(subjects_cli("build", "-q", "ref", "--config", "m68k"),
                     "unknown build configuration")
    expect_bad_input(subjects_cli("build", "-q", "system", "--config", "asan32"), "64-bit")


def test_second_build_reuses_the_cache():
    first = subjects_cli("build", "ref")
    second = subjects_cli("build", "ref")
    assert first.returncode == 0 and second.returncode == 0
    assert "building" not in second.stderr


@pytest.mark.parametrize("config", ["asan64", CONFIG32])
def test_two_subjects_in_one_program(config, tmp_path):
    """upstream (subject.o) and kernel (subject_b.o) link together; each
    decodes the other's output. Without isolation the same link fails."""
    up = subjects_cli("build", "-q", "upstream", "--config", config).stdout.strip()
    kern = subjects_cli("build", "-q", "kernel", "--config", config).stdout.strip()
    assert up and kern
    _, config_flags, bits = toolchain.CONFIGS[config]
    flags = [f for f in config_flags if f.startswith(("-m32", "-fsanitize"))] + \
        ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-I" + ADAPTERS]
    prog = str(tmp_path / "pair")
    subprocess.run(["clang"] + flags + [PAIR_PROGRAM,
                                        os.path.join(up, "subject.o"),
                                        os.path.join(kern, "subject_b.o"), "-o", prog],
                   check=True)
    proc = subprocess.run(toolchain.run_argv(config, [prog]), stdout=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.count(": ok") == 2
    # The control: the un-isolated objects clash.
    clash = subprocess.run(["clang"] + flags + [PAIR_PROGRAM,
                                                os.path.join(up, "merged.o"),
                                                os.path.join(kern, "merged.o"), "-o", prog],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
    assert clash.returncode != 0 and "multiple definition" in clash.stdout


@pytest.mark.parametrize("config", ["O0", "O2", "O0-32", "O2-32", "gcov", "libfuzzer", "afl"])
@pytest.mark.parametrize("spec", ["ref", "kernel"])
def test_every_configuration_builds_isolated(spec, config):
    proc = subjects_cli("build", "-q", spec, "--config", config)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.strip()
    assert global_definitions(os.path.join(out, "subject.o")) == {"lz4gate_subject"}
    assert global_definitions(os.path.join(out, "subject_b.o")) == {"lz4gate_subject_b"}
