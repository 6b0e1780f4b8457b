"""The reference codec's C unit tests, in every build configuration.

Each tests/c/test_*.c is its own program; it prints "N checks, M failed" and
exits non-zero on any failed check or sanitizer report.
"""
import os
import subprocess

import pytest

from conftest import TOP, make

CONFIGS = ["asan64", "asan32", "gcc-O0", "gcc-O2", "gcc-O2-m32", "clang-O2"]
PROGRAMS = sorted(f[:-2] for f in os.listdir(os.path.join(TOP, "tests", "c"))
                  if f.startswith("test_") and f.endswith(".c"))
NATIVE_ONLY = {"test_interop"}   # Debian ships liblz4 for the native ABI only
THIRTY_TWO_BIT = {"asan32", "gcc-O2-m32"}

_built = set()


def build(config):
    if config not in _built:
        make("ref-tests", "CONFIG=" + config, "-j2")
        _built.add(config)


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("program", PROGRAMS)
def test_unit_program(config, program):
    if program in NATIVE_ONLY and config in THIRTY_TWO_BIT:
        pytest.skip("liblz4 is not installed for the 32-bit ABI")
    build(config)
    binary = os.path.join(TOP, "build", "ref", config, program)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    proc = subprocess.run([binary], cwd=TOP, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True,
                          errors="replace", timeout=900)
    assert proc.returncode == 0, proc.stdout[-6000:]
    assert " 0 failed" in proc.stdout, proc.stdout[-2000:]
