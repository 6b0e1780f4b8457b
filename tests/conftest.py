"""Shared helpers for the pytest suite of lz4gate."""
import functools
import os
import subprocess
import sys

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


@functools.lru_cache(maxsize=None)
def contract_records(spec, config):
    """Contract + vector records of one subject/config, run once per session
    (several tests read the same run)."""
    sys.path.insert(0, os.path.join(TOP, "harness"))
    import contracts
    return tuple(contracts.run_contracts(spec, config, quiet=True))
