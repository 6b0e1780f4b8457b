"""The kernel header shim's own self-test (harness/kshim/selftest.c)."""
import os
import subprocess

import pytest

from conftest import TOP


@pytest.mark.parametrize("cc", ["gcc", "clang"])
@pytest.mark.parametrize("bits", ["-m64", "-m32"])
def test_kshim_selftest(cc, bits, tmp_path):
    exe = str(tmp_path / "kshim-selftest")
    subprocess.run([cc, bits, "-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-Wundef",
                    "-Wshadow", "-Wstrict-prototypes", "-Wmissing-prototypes",
                    "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                    "-I", os.path.join(TOP, "harness", "kshim"),
                    os.path.join(TOP, "harness", "kshim", "selftest.c"), "-o", exe], check=True)
    proc = subprocess.run([exe], stdout=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    assert " 0 failed" in proc.stdout
