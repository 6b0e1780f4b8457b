"""Finding the LZ4 copy in a project (issue 24): `python3 -m harness scan`
and tree SPECs given a project's top (upstream:ROOT, kernel:ROOT, auto:ROOT).

Every tree here is written by the test, in our own C that merely has the
names and layouts of vendored copies: no LZ4, kernel or project code."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import TOP, expect_bad_input, harness
from harness.errors import BadInput
from harness.subjects import spec as spec_mod
from harness.subjects.find import copies as copies_mod
from harness.subjects.find import ctext, fingerprints
from harness.subjects.find.copies import scan
from harness.subjects.spec import Subject

# A stand-in for a vendored lz4.c: public compressor and decoder, a static
# decoder core.
LZ4_C = """#include "lz4.h"
static int LZ4_decompress_generic(const char *s, char *d, int n, int cap)
{
    return n <= cap ? n : -1;
}
int LZ4_compress_default(const char *s, char *d, int n, int cap) { return 0; }
int LZ4_decompress_safe(const char *s, char *d, int n, int cap)
{
    return LZ4_decompress_generic(s, d, n, cap);
}
"""


def lz4_h(major, minor, release):
    return ("#define LZ4_VERSION_MAJOR %d\n#define LZ4_VERSION_MINOR %d\n"
            "#define LZ4_VERSION_RELEASE %d\n"
            "int LZ4_compress_default(const char *, char *, int, int);\n"
            "int LZ4_decompress_safe(const char *, char *, int, int);\n"
            % (major, minor, release))


# Files that only CALL LZ4: a language binding, a wrapper, JNI glue, a codec
# derived from LZ4 under its own names.
CALLERS = {
    "bindings/lz4/_block.c": '#include "lz4.h"\nstatic int compress(const char *s, char *d)\n'
                             "{\n    return LZ4_compress_default(s, d, 10, 20);\n}\n",
    "src/lz4_wrapper.c": '#include "lz4.c"\nint ulz4fn(const void *s, void *d)\n'
                         "{\n    if (LZ4_decompress_safe(s, d, 1, 2) < 0) {\n"
                         "        return -1;\n    }\n    return 0;\n}\n",
    "jni/net_jpountz_lz4_LZ4JNI.c": "int Java_net_jpountz_lz4_LZ4JNI_LZ4_1compress(int n)\n"
                                    "{\n    return LZ4_compress_default(0, 0, n, n);\n}\n",
    "lizard/lizard_decompress_lz4.h": "static int Lizard_decompress_LZ4(const char *s)\n"
                                      "{\n    return s != 0;\n}\n",
    "include/lz4_compat.h": "static inline int LZ4_compressBound(int n)\n"
                            "{\n    return n + n / 255 + 16;\n}\n",
}


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(str(root), rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return str(root)


def upstream_copy(prefix, version):
    return {prefix + "/lz4.c": LZ4_C, prefix + "/lz4.h": lz4_h(*version),
            prefix + "/lz4hc.c": "int LZ4_compress_HC(const char *s, char *d)\n{ return 0; }\n",
            prefix + "/lz4hc.h": "int LZ4_compress_HC(const char *s, char *d);\n"}


def kernel_tree(decoder_extra=""):
    return {
        "Makefile": "VERSION = 5\nPATCHLEVEL = 4\nSUBLEVEL = 61\nEXTRAVERSION =\n",
        "include/linux/lz4.h": "static inline int LZ4_compressBound(int n) { return n + 1; }\n"
                               "static inline int LZ4_decompress_inline(const char *s)\n"
                               "{\n    return LZ4_decompress_safe(s, 0, 0, 0);\n}\n"
                               "int LZ4_decompress_safe(const char *s, char *d, int n, int c);\n",
        "lib/lz4/lz4_decompress.c": "int LZ4_decompress_safe(const char *s, char *d, int n, int c)"
                                    "\n{\n    return 0;\n}\n" + decoder_extra,
        "lib/lz4/lz4_compress.c": "int LZ4_compress_fast(const char *s, char *d, int n, int c)"
                                  "\n{\n    return 0;\n}\n",
        "lib/lz4/lz4defs.h": "#define LZ4_MEMORY_USAGE 14\n",
        "lib/decompress_unlz4.c": "int unlz4(void) { return LZ4_decompress_safe(0, 0, 0, 0); }\n",
        "crypto/lz4.c": "static int lz4_compress_crypto(void)\n"
                        "{\n    return LZ4_compress_fast(0, 0, 0, 0, 0);\n}\n",
        "fs/squashfs/lz4_wrapper.c": "static int lz4_uncompress(void)\n"
                                     "{\n    return LZ4_decompress_safe(0, 0, 0, 0);\n}\n",
    }


def by_path(listing):
    return {c["path"]: c for c in listing}


def scan_cli(*args):
    return harness("scan", *args)


@pytest.mark.check
def test_a_project_with_one_copy_under_a_versioned_folder(tmp_path, capsys):
    root = write_tree(tmp_path / "proj", dict(upstream_copy("internal-complibs/lz4-1.2.3",
                                                            (1, 2, 3)), **CALLERS))
    listing = scan(root)
    assert [c["path"] for c in listing] == ["internal-complibs/lz4-1.2.3"], listing
    c = listing[0]
    assert (c["kind"], c["version"], c["buildable"]) == ("upstream", "1.2.3", True)
    assert c["files"] == ["lz4.c", "lz4.h", "lz4hc.c", "lz4hc.h"]
    # The SPEC takes the project's top, says which copy it uses, and is the
    # same subject as the copy named directly: its identity is its content.
    copy = os.path.join(root, "internal-complibs/lz4-1.2.3")
    for spec in ("upstream:" + root, "auto:" + root):
        s = Subject(spec)
        assert (s.kind, s.path) == ("upstream", copy)
        assert s.id == Subject("upstream:" + copy).id
        assert capsys.readouterr().err == \
            "%s: using the LZ4 copy at internal-complibs/lz4-1.2.3 (1.2.3)\n" % spec
    moved = shutil.copytree(root, str(tmp_path / "elsewhere" / "checkout"))
    assert Subject("upstream:" + moved).id == Subject("upstream:" + root).id
    # ... and a change of content is another subject.
    write_tree(copy, {"lz4.c": LZ4_C + "int LZ4_x(void) { return 1; }\n"})
    assert Subject("upstream:" + root).id != Subject("upstream:" + moved).id


@pytest.mark.check
def test_a_project_with_two_copies_names_both(tmp_path):
    files = upstream_copy("vendor/lz4-1.9.1", (1, 9, 1))
    files.update(upstream_copy("third_party/lz4", (1, 8, 3)))
    root = write_tree(tmp_path / "proj", files)
    proc = scan_cli(root)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["PATH", "KIND", "VERSION", "LZ4.C", "FILES"]
    assert [ln.split()[:4] for ln in lines[1:3]] == [
        ["third_party/lz4", "upstream", "*", "1.8.3"], ["vendor/lz4-1.9.1", "upstream", "*", "1.9.1"]]
    for spec in ("upstream:", "auto:"):
        expect_bad_input(harness("subjects", "info", spec + root),
                         "holds 2 LZ4 copies: third_party/lz4 (1.8.3), vendor/lz4-1.9.1 (1.9.1)",
                         "name one")
    # Naming one of them works.
    assert Subject("upstream:%s/vendor/lz4-1.9.1" % root).kind == "upstream"


@pytest.mark.check
def test_a_kernel_tree_inside_a_project_and_as_its_own_root(tmp_path, capsys):
    files = {"kernel/msm-5.4/" + k: v for k, v in kernel_tree("int forceExtDict;\n").items()}
    root = write_tree(tmp_path / "proj", files)
    listing = scan(root)
    assert [(c["path"], c["kind"], c["generation"], c["version"]) for c in listing] == \
        [("kernel/msm-5.4", "kernel", "G3", "linux 5.4.61")], listing
    assert "include/linux/lz4.h" in listing[0]["files"]
    kernel = os.path.join(root, "kernel/msm-5.4")
    for spec in ("kernel:" + root, "auto:" + root):
        assert (Subject(spec).kind, Subject(spec).path) == ("kernel", kernel)
    assert "using the LZ4 copy at kernel/msm-5.4 (linux 5.4.61)" in capsys.readouterr().err
    # A whole Linux tree is its own root: nothing else in it is a copy
    # (crypto/, fs/squashfs/ and lib/decompress_unlz4.c only call LZ4,
    # include/linux/lz4.h belongs to it), and it needs no scan.
    assert [(c["path"], c["generation"]) for c in scan(kernel)] == [(".", "G3")]
    s = Subject("kernel:" + kernel)
    assert s.path == kernel and capsys.readouterr().err == ""
    # upstream: is not for kernel trees.
    expect_bad_input(harness("subjects", "info", "upstream:" + root), "no LZ4 sources",
                     "found only kernel/msm-5.4 (kernel G3)")
    # The 2017 API without the 1.8.3 decoder is G2.
    old = write_tree(tmp_path / "g2", kernel_tree())
    assert [c["generation"] for c in scan(old)] == ["G2"]
    # The same LZ4 files in a tree of another version are another subject
    # (the build records the version).
    other = write_tree(str(tmp_path / "g2-other"), dict(kernel_tree(), Makefile="VERSION = 4\n"))
    assert Subject("kernel:" + other).id != Subject("kernel:" + old).id


@pytest.mark.check
def test_a_decoder_only_copy_with_its_header_elsewhere(tmp_path):
    decoder = ("#include <u-boot/lz4.h>\n"
               "static int LZ4_decompress_generic(const char *s, char *d, int n)\n"
               "{\n    return n;\n}\n"
               "int LZ4_decompress_safe(const char *s, char *d, int n, int cap)\n"
               "{\n    return LZ4_decompress_generic(s, d, n);\n}\n")
    root = write_tree(tmp_path / "boot", {
        "lib/lz4.c": decoder, "lib/xxhash.c": "int xxh(void) { return 0; }\n",
        "include/u-boot/lz4.h": "int LZ4_decompress_safe(const char *, char *, int, int);\n"})
    c, = scan(root)
    assert (c["path"], c["kind"], c["header"], c["buildable"]) == \
        ("lib", "decoder-only", "include/u-boot/lz4.h", False)
    assert c["files"] == ["lz4.c"]       # xxhash.c is the project's, not the copy's
    assert c["version"] == "unknown (lz4.h has no version; not a released lz4.c)"
    proc = scan_cli(root)
    assert "lz4.c; header include/u-boot/lz4.h" in proc.stdout, proc.stdout
    expect_bad_input(harness("subjects", "info", "upstream:" + root), "no LZ4 sources",
                     "found only lib (decoder-only)")
    # Of two headers that match the #include, the nearer one.
    write_tree(root, {"arch/sandbox/include/u-boot/lz4.h": "/* deeper */\n"})
    assert scan(root)[0]["header"] == "include/u-boot/lz4.h"
    write_tree(root, {"lib/include/u-boot/lz4.h": "/* nearer */\n"})
    assert scan(root)[0]["header"] == "lib/include/u-boot/lz4.h"
    shutil.rmtree(os.path.join(root, "lib/include"))
    shutil.rmtree(os.path.join(root, "arch"))
    # Without the header: "no header". With a compressor beside it, no
    # longer decoder-only.
    os.remove(os.path.join(root, "include/u-boot/lz4.h"))
    c, = scan(root)
    assert (c["kind"], c["header"]) == ("decoder-only", None)
    assert c["version"] == "unknown (no header; not a released lz4.c)"
    assert "lz4.c; no header" in scan_cli(root).stdout
    write_tree(root, {"lib/lz4.c": decoder + "int LZ4_compress_default(void) { return 0; }\n"})
    assert scan(root)[0]["kind"] == "upstream"


@pytest.mark.check
def test_a_project_api_copy(tmp_path):
    root = write_tree(tmp_path / "fs", {"module/zfs/lz4.c": (
        "static int LZ4_compressCtx(void *ctx, const char *s, char *d, int n)\n{ return 0; }\n"
        "static int LZ4_uncompress_unknownOutputSize(const char *s, char *d, int n, int m)\n"
        "{ return 0; }\n"
        "size_t lz4_compress_zfs(void *s, void *d, size_t n, size_t m, int l)\n"
        "{\n    return LZ4_compressCtx(0, s, d, n);\n}\n"
        "int lz4_decompress_zfs(void *s, void *d, size_t n, size_t m, int l)\n"
        "{\n    return LZ4_uncompress_unknownOutputSize(s, d, n, m) < 0;\n}\n")})
    c, = scan(root)
    assert (c["path"], c["kind"], c["public"], c["buildable"]) == \
        ("module/zfs", "project API", [], False)
    assert c["project_api"] == ["lz4_compress_zfs", "lz4_decompress_zfs"]
    assert "project API (lz4_compress_zfs, lz4_decompress_zfs)" in scan_cli(root).stdout
    # A public decoder beside a compressor kept static is still the
    # project's API, not decoder-only.
    write_tree(root, {"module/zfs/lz4.c": (
        "int LZ4_uncompress_unknownOutputSize(const char *s, char *d, int n, int m)\n"
        "{ return 0; }\n"),
        "module/zfs/lz4_zfs.c": "static int LZ4_compressCtx(void *c, const char *s, char *d)\n"
                                "{ return 0; }\n"})
    c, = scan(root)
    assert (c["kind"], c["public"], c["files"]) == \
        ("project API", ["LZ4_uncompress_unknownOutputSize"], ["lz4.c", "lz4_zfs.c"])
    expect_bad_input(harness("subjects", "info", "auto:" + root), "no LZ4 sources",
                     "found only module/zfs (project API",
                     "project:%s with --adapter" % os.path.join(root, "module/zfs"))


@pytest.mark.check
def test_files_that_only_call_lz4_are_not_copies(tmp_path):
    root = write_tree(tmp_path / "app", CALLERS)
    assert scan(root) == []
    proc = scan_cli(root)
    assert proc.returncode == 0 and proc.stdout.startswith("no LZ4 copy under"), proc.stdout
    expect_bad_input(harness("subjects", "info", "upstream:" + root), "no LZ4 sources",
                     "looked for lib/lz4.c")
    expect_bad_input(harness("subjects", "info", "kernel:" + root), "no kernel LZ4 sources")
    # The same wrapper that DEFINES an entry point is one (the check bites).
    write_tree(root, {"src/lz4_wrapper.c": CALLERS["src/lz4_wrapper.c"] +
                      "int LZ4_decompress_safe(const char *s, char *d, int n, int c)\n{}\n"})
    assert [c["path"] for c in scan(root)] == ["src"]


@pytest.mark.check
def test_a_release_trees_tests_examples_and_programs_are_not_copies(tmp_path):
    helper = "static int LZ4_compress_local(const char *s, char *d)\n{ return 0; }\n"
    files = upstream_copy("deps/lz4/lib", (1, 10, 0))
    files.update({"deps/lz4/%s/x.c" % d: helper for d in
                  ("programs", "tests", "examples", "contrib/gen", "ossfuzz")})
    root = write_tree(tmp_path / "proj", files)
    c, = scan(root)
    assert (c["path"], c["library"], c["version"]) == ("deps/lz4", "deps/lz4/lib", "1.10.0")
    # Outside a release tree such a file is a copy of its own (the rule bites).
    os.rename(os.path.join(root, "deps/lz4/tests"), os.path.join(root, "lz4-tests"))
    assert [c["path"] for c in scan(root)] == ["deps/lz4", "lz4-tests"]
    # A release's lib/ is reported at the release's top when that has
    # programs/ or lz4 in its name; a project's own lib/ is not.
    shutil.rmtree(os.path.join(root, "lz4-tests"))
    os.rename(os.path.join(root, "deps/lz4"), os.path.join(root, "deps/compress"))
    assert [c["path"] for c in scan(root)] == ["deps/compress"]
    shutil.rmtree(os.path.join(root, "deps/compress/programs"))
    assert [c["path"] for c in scan(root)] == ["deps/compress/lib"]
    os.rename(os.path.join(root, "deps/compress"), os.path.join(root, "deps/LZ4"))
    assert [c["path"] for c in scan(root)] == ["deps/LZ4"]


@pytest.mark.check
def test_a_copy_that_includes_from_outside_its_folder_is_not_buildable(tmp_path):
    files = upstream_copy("C/lz4", (1, 10, 0))
    files.update({"C/lz4/lz4frame.c": '#include "lz4frame.h"\n#include "../hashes/xxhash.h"\n'
                                      "int LZ4F_compressFrame(void) { return 0; }\n",
                  "C/lz4/lz4frame.h": "int LZ4F_compressFrame(void);\n",
                  "C/hashes/xxhash.h": "/* the project's own */\n"})
    root = write_tree(tmp_path / "zip", files)
    c, = scan(root)
    assert (c["kind"], c["buildable"], c["outside"]) == \
        ("upstream", False, ["lz4frame.c: ../hashes/xxhash.h"])
    assert "includes from outside it: lz4frame.c: ../hashes/xxhash.h" in scan_cli(root).stdout
    expect_bad_input(harness("subjects", "info", "upstream:" + root), "found only C/lz4 (upstream)")
    # With xxhash.h in the folder (and included from there) it is.
    write_tree(root, {"C/lz4/lz4frame.c": '#include "lz4frame.h"\n#include "xxhash.h"\n'
                                          "int LZ4F_compressFrame(void) { return 0; }\n",
                      "C/lz4/xxhash.h": "/* here */\n"})
    c, = scan(root)
    assert (c["buildable"], c["outside"]) == (True, [])


@pytest.mark.check
def test_a_flat_copy_in_lib_lz4_is_not_a_linux_tree(tmp_path):
    root = write_tree(tmp_path / "proj", upstream_copy("lib/lz4", (1, 9, 2)))
    c, = scan(root)
    assert (c["path"], c["kind"], c["version"]) == ("lib/lz4", "upstream", "1.9.2")


@pytest.mark.check
def test_only_files_named_for_lz4_are_opened_and_vcs_dirs_are_skipped(tmp_path, monkeypatch):
    files = dict(upstream_copy("lz4", (1, 9, 4)))
    files.update({".git/objects/lz4.c": LZ4_C, "src/codec.c": LZ4_C,
                  "src/main.c": "int main(void) { return 0; }\n"})
    root = write_tree(tmp_path / "proj", files)
    opened = []
    real = copies_mod._read
    monkeypatch.setattr(copies_mod, "_read", lambda p: opened.append(p) or real(p))
    assert [c["path"] for c in scan(root)] == ["lz4"]
    rel = sorted(os.path.relpath(p, root) for p in opened)
    assert rel == ["lz4/lz4.c", "lz4/lz4.h", "lz4/lz4hc.c", "lz4/lz4hc.h"], rel


@pytest.mark.check
def test_a_header_less_copy_is_named_by_fingerprint(tmp_path):
    root = write_tree(tmp_path / "proj", {"ext/lz4.c": LZ4_C})
    table = tmp_path / "fingerprints.tsv"
    table.write_text("# test table\n%s\tv9.8.7 v9.8.7.1\n" % ctext.fingerprint(LZ4_C))
    proc = scan_cli(root, "--json", "--fingerprints", table)
    c, = json.loads(proc.stdout)["copies"]
    assert (c["version"], c["version_from"], c["releases"]) == \
        ("v9.8.7/v9.8.7.1 (by fingerprint)", "fingerprint", ["v9.8.7", "v9.8.7.1"])
    assert c["header"] is None and c["buildable"] is False and c["spec"] == ""
    # Comments and white space do not change a fingerprint; code does.
    restyled = "/* vendored */\n" + LZ4_C.replace("    ", "\t").replace("{ return 0; }",
                                                                         "{\n  return 0; // x\n}")
    write_tree(root, {"ext/lz4.c": restyled})
    assert scan(root, fingerprints.load(str(table)))[0]["releases"] == ["v9.8.7", "v9.8.7.1"]
    write_tree(root, {"ext/lz4.c": LZ4_C.replace("n <= cap", "n < cap")})
    c, = scan(root, fingerprints.load(str(table)))
    assert (c["version"], c["releases"]) == ("unknown (no header; not a released lz4.c)", [])
    assert "ext  " in scan_cli(root, "--fingerprints", table).stdout
    table.write_text("not-a-row\n")
    expect_bad_input(scan_cli(root, "--fingerprints", table), "want a digest and its tags")


@pytest.mark.check
def test_the_committed_fingerprint_table(tmp_path):
    table = fingerprints.load()
    tags = [t for ts in table.values() for t in ts]
    assert len(table) >= 20 and {"r131", "v1.9.4", "v1.10.0"} <= set(tags), table
    assert all(len(d) == 16 and int(d, 16) >= 0 for d in table)
    with open(fingerprints.TABLE) as f:
        first = f.readline()
    assert first.startswith("# ") and "--write LZ4_GIT" in first
    # The lz4 release this suite fetches is found by it.
    upstream = os.path.join(TOP, "build", "subjects", "lz4-upstream")
    if os.path.isdir(upstream):
        c, = scan(upstream)
        assert (c["path"], c["version"], c["releases"]) == (".", "1.9.4", ["v1.9.4"])


@pytest.mark.check
def test_the_table_is_made_from_a_clones_release_tags(tmp_path):
    repo = str(tmp_path / "lz4")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t", GIT_CEILING_DIRECTORIES=str(tmp_path))

    def git(*args):
        subprocess.run(["git", "-C", repo] + list(args), check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.makedirs(repo)
    git("init", "-q")
    # r1xx kept lz4.c at the top, later releases under lib/; a release
    # that did not touch lz4.c shares its row.
    for tag, rel, text in (("r100", "lz4.c", LZ4_C), ("v1.0.0", "lib/lz4.c", LZ4_C + "int a;\n"),
                           ("v1.0.1", "lib/lz4.c", LZ4_C + "int a;\n")):
        write_tree(repo, {rel: text})
        git("add", "-A")
        git("commit", "-q", "--allow-empty", "-m", tag)
        git("tag", tag)
    text = fingerprints.make(repo)
    lines = text.splitlines()
    assert lines[0] == fingerprints.NOTE
    assert lines[1:] == ["%s\tr100" % ctext.fingerprint(LZ4_C),
                         "%s\tv1.0.0 v1.0.1" % ctext.fingerprint(LZ4_C + "int a;\n")]
    assert fingerprints.main(["--check", repo]) == 1         # not the committed table
    assert fingerprints.main(["--write"]) == 2
    with pytest.raises(BadInput, match="not a git clone"):
        fingerprints.make(str(tmp_path / "nothing"))


@pytest.mark.check
def test_scan_command_line(tmp_path):
    proc = scan_cli("--help")
    assert proc.returncode == 0 and "SYNOPSIS" in proc.stdout and "EXIT STATUS" in proc.stdout
    expect_bad_input(scan_cli(tmp_path / "nope"), "is not a directory")
    expect_bad_input(scan_cli(tmp_path, "--bogus"))
    root = write_tree(tmp_path / "p", upstream_copy("lz4", (1, 2, 3)))
    out = json.loads(scan_cli(root, "--json").stdout)
    c, = out["copies"]
    assert c["spec"] == "upstream:%s/lz4" % root and out["root"] == root
    proc = harness("--help")
    assert " scan " in proc.stdout


@pytest.mark.check
def test_a_root_spec_with_a_patch_applies_to_the_copy(tmp_path):
    root = write_tree(tmp_path / "proj", upstream_copy("lz4-1.2.3", (1, 2, 3)))
    patch = tmp_path / "p.patch"
    patch.write_text("--- a/lz4.h\n+++ b/lz4.h\n@@ -1 +1 @@\n-#define LZ4_VERSION_MAJOR 1\n"
                     "+#define LZ4_VERSION_MAJOR 2\n")
    s = Subject("upstream:" + root, [str(patch)])
    assert s.path.endswith("lz4-1.2.3") and s.id != Subject("upstream:" + root).id


def test_the_default_upstream_tree_under_a_project_root_builds_as_itself(tmp_path):
    """A real build through a root SPEC, sharing the default subject's build
    (the identity is the copy's content)."""
    upstream = os.path.join(TOP, "build", "subjects", "lz4-upstream")
    if not os.path.isdir(upstream):
        pytest.skip("default upstream tree not fetched (make subjects)")
    root = tmp_path / "project"
    shutil.copytree(upstream, str(root / "third_party" / "lz4"))
    write_tree(root, CALLERS)
    direct = harness("subjects", "build", "-q", "--config", "O0", "upstream")
    found = harness("subjects", "build", "-q", "--config", "O0", "upstream:%s" % root)
    assert direct.returncode == 0 and found.returncode == 0, direct.stderr + found.stderr
    assert found.stdout == direct.stdout
    assert found.stderr.strip() == \
        "upstream:%s: using the LZ4 copy at third_party/lz4 (1.9.4)" % root
