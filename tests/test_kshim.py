"""The kernel header shim's own self-test (harness/subjects/kshim/selftest.c)."""
import os
import subprocess

import pytest

from harness import toolchain
from harness.paths import KSHIM


@pytest.mark.parametrize("cc", ["gcc", "clang"])
@pytest.mark.parametrize("bits", [64, 32])
def test_kshim_selftest(cc, bits, tmp_path):
    exe = str(tmp_path / "kshim-selftest")
    san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    if toolchain.exec_prefix(bits, san) is None:
        san = []              # 32-bit under the emulator: no sanitizer runtime there
    subprocess.run([cc, "-m%d" % bits, "-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror",
                    "-Wundef", "-Wshadow", "-Wstrict-prototypes", "-Wmissing-prototypes"] + san +
                   ["-I", KSHIM, os.path.join(KSHIM, "selftest.c"), "-o", exe], check=True)
    proc = subprocess.run(toolchain.exec_prefix(bits, san) + [exe], stdout=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    assert " 0 failed" in proc.stdout
