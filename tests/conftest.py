"""Shared helpers for the pytest suite of lz4gate."""
import os
import subprocess

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make(*targets, **kw):
    """Run make in the repository; raise with the build output on failure."""
    cmd = ["make", "-s", "--no-print-directory"] + list(targets)
    proc = subprocess.run(cmd, cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", **kw)
    if proc.returncode != 0:
        pytest.fail("make %s failed:\n%s" % (" ".join(targets), proc.stdout[-4000:]))
    return proc.stdout


@pytest.fixture(scope="session")
def top():
    return TOP
