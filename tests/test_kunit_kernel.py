"""`python3 -m harness kunit --kernel DIR` without building a kernel: the
copy of the tree is made of hard links and the user's tree is never
written (harness/kunit/kernel.py), the suite's Kconfig and Makefile lines
are added once, the per-case table."""
import os
import subprocess

import pytest

from conftest import harness
from harness.kunit import kernel


@pytest.fixture
def fake_tree(tmp_path):
    """A user's tree with what the copy changes, and one file it does not."""
    user = tmp_path / "linux"
    for rel, text in (("lib/Kconfig", "config CRC32\n\ttristate\n"),
                      ("lib/lz4/Makefile", "obj-$(CONFIG_LZ4_COMPRESS) += lz4_compress.o\n"),
                      ("lib/lz4/lz4_compress.c", "int x;\n"),
                      ("tools/testing/kunit/kunit.py", "")):
        (user / rel).parent.mkdir(parents=True, exist_ok=True)
        (user / rel).write_text(text)
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-al", str(user), str(copy)], check=True)
    return user, copy


def snapshot(root):
    out = {}
    for dirpath, _, files in os.walk(str(root)):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path) as f:
                out[os.path.relpath(path, str(root))] = (f.read(), os.stat(path).st_ino)
    return out


def test_the_users_tree_is_never_written(fake_tree):
    user, copy = fake_tree
    before = snapshot(user)
    changed = kernel.add_suite(str(copy), "/* suite */\n")
    assert changed == ["lib/lz4/lz4_kunit.c", "lib/Kconfig", "lib/lz4/Makefile"]
    assert snapshot(user) == before
    assert "config LZ4_KUNIT_TEST" in (copy / "lib/Kconfig").read_text()
    assert (copy / "lib/lz4/Makefile").read_text().endswith(
        "obj-$(CONFIG_LZ4_KUNIT_TEST) += lz4_kunit.o\n")
    # What the copy did not change is still the user's file (a link).
    assert os.stat(str(copy / "lib/lz4/lz4_compress.c")).st_ino == \
        os.stat(str(user / "lib/lz4/lz4_compress.c")).st_ino


def test_an_edit_in_place_would_be_seen(fake_tree):
    # The check above fails for a copy that edits a linked file in place.
    user, copy = fake_tree
    before = snapshot(user)
    with open(str(copy / "lib/Kconfig"), "a") as f:
        f.write("config X\n")
    assert snapshot(user) != before


def test_adding_twice_changes_nothing(fake_tree):
    _, copy = fake_tree
    kernel.add_suite(str(copy), "/* suite */\n")
    first = snapshot(copy)
    assert kernel.add_suite(str(copy), "/* suite */\n") == []
    assert snapshot(copy) == first
    assert kernel.add_suite(str(copy), "/* suite 2 */\n") == ["lib/lz4/lz4_kunit.c"]


def test_table():
    recs = [{"case": "KLZ4-A", "tcId": 1, "status": "PASS", "message": ""},
            {"case": "KLZ4-A", "tcId": 2, "status": "FAIL", "message": "x: EXPECTATION\ntc 2: y"},
            {"case": "ULZ4-B", "tcId": 1, "status": "SKIP", "message": "why"}]
    assert kernel.table(recs).splitlines() == [
        "case    pass FAIL skip",
        "KLZ4-A     1    1    0",
        "    tc 2: y",
        "ULZ4-B     0    0    1"]


def test_not_a_kernel_tree(tmp_path):
    proc = harness("kunit", "--kernel", tmp_path)
    assert proc.returncode == 2 and "not a kernel tree" in proc.stderr


def test_the_erofs_suite_goes_into_the_copys_decompressor_only(fake_tree):
    user, copy = fake_tree
    for rel, text in (("fs/erofs/Kconfig", "config EROFS_FS\n\ttristate\n"),
                      ("fs/erofs/decompressor.c", "static int f(void) { return 0; }\n")):
        for root in (user,):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
    subprocess.run(["rm", "-rf", str(copy)], check=True)
    subprocess.run(["cp", "-al", str(user), str(copy)], check=True)
    before = snapshot(user)
    changed = kernel.add_suite(str(copy), "/* suite */\n", "/* erofs suite */\n")
    assert changed == ["lib/lz4/lz4_kunit.c", "fs/erofs/lz4gate_erofs_kunit.c", "lib/Kconfig",
                       "lib/lz4/Makefile", "fs/erofs/Kconfig", "fs/erofs/decompressor.c"]
    assert snapshot(user) == before
    assert (copy / "fs/erofs/decompressor.c").read_text().endswith(
        '#include "lz4gate_erofs_kunit.c"\n#endif\n')
    assert kernel.add_suite(str(copy), "/* suite */\n", "/* erofs suite */\n") == []


def test_the_copy_takes_the_patches_and_the_users_tree_keeps_its_files(fake_tree, tmp_path,
                                                                       monkeypatch):
    user, _ = fake_tree
    monkeypatch.setattr(kernel, "WORK", str(tmp_path / "work"))
    patch = tmp_path / "p.patch"
    patch.write_text("--- a/lib/lz4/lz4_compress.c\n+++ b/lib/lz4/lz4_compress.c\n"
                     "@@ -1 +1 @@\n-int x;\n+int y;\n")
    before = snapshot(user)
    copy = kernel.copy_tree(str(user), "t", [str(patch)])
    assert open(os.path.join(copy, "lib/lz4/lz4_compress.c")).read() == "int y;\n"
    assert snapshot(user) == before
    bad = tmp_path / "bad.patch"
    bad.write_text(patch.read_text().replace("-int x;", "-int z;"))
    with pytest.raises(kernel.KernelError, match="does not apply"):
        kernel.copy_tree(str(user), "t", [str(bad)])
