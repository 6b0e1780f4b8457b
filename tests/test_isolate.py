"""The child-process isolation every runner check goes through
(harness/runners/common/isolate.c): a child that writes more than a pipe
holds to stderr is not mistaken for a hang, and its report is kept."""
import os
import subprocess

import pytest

from conftest import TOP
from harness import objcache, toolchain
from harness.paths import COMMON_C


@pytest.mark.check
@pytest.mark.parametrize("config", ["asan64", "O2"])
def test_isolate_selftest(config):
    cc, flags, _ = toolchain.config(config)
    flags = list(flags) + toolchain.OUR_WARNINGS + ["-I" + COMMON_C]
    objs = [objcache.compile_object(cc, flags, os.path.join(COMMON_C, f))
            for f in ("isolate_selftest.c", "isolate.c")]
    exe = objcache.link_program(cc, list(toolchain.CONFIGS[config][1]), objs,
                                os.path.join(TOP, "build", "selftest", config, "isolate"),
                                "linking the isolate self-test")
    proc = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=120,
                          env=toolchain.sanitizer_env("runner"))
    assert proc.returncode == 0, proc.stdout[-3000:]
