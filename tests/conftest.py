"""Shared helpers for the pytest suite of lz4gate."""
import fcntl
import hashlib
import json
import os
import subprocess
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEMO = os.path.join(TOP, "build", "test-memo")


def make(*targets, **kw):
    """Run make in the repository; fail the test with the output if it fails."""
    cmd = ["make", "-s", "--no-print-directory"] + list(targets)
    proc = subprocess.run(cmd, cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", **kw)
    if proc.returncode != 0:
        pytest.fail("make %s failed:\n%s" % (" ".join(targets), proc.stdout[-4000:]))
    return proc.stdout


def harness(*args, **kw):
    """Run `python3 -m harness ARGS` in the repository (CompletedProcess, text)."""
    return subprocess.run([sys.executable, "-m", "harness"] + [str(a) for a in args], cwd=TOP,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, errors="replace", **kw)


def needs(config):
    """A skip mark for a build configuration this machine cannot run (32-bit
    sanitizer builds on a kernel without IA-32 emulation); the reason is the
    one line harness/toolchain.py gives, shown by pytest -rs."""
    from harness import toolchain
    return pytest.mark.skipif(not toolchain.runnable(config),
                              reason="%s: %s" % (config, toolchain.NO_I386))


def _config32():
    from harness import toolchain
    return "asan32" if toolchain.runnable("asan32") else "O2-32"


# The 32-bit build the tests run: ASan+UBSan where this machine can execute
# 32-bit programs, else the plain -O2 build under the i386 emulator (a kernel
# without IA-32 emulation; harness/toolchain.py exec_prefix).
CONFIG32 = _config32()


def expect_bad_input(proc, *words):
    """Exit status 2 and one clear line on stderr naming each of words."""
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def _session_id():
    # pytest-xdist gives every worker of one run the same id; a plain run
    # uses its process id.
    return os.environ.get("PYTEST_XDIST_TESTRUNUID") or "pid%d" % os.getpid()


# A regression test that passed on a program is not run again on the same
# program within this test run (never in a later one: the directory is this
# run's). Workers and the commands tests start inherit it. harness/result_memo.py.
os.environ.setdefault("LZ4GATE_RESULT_MEMO", os.path.join(MEMO, _session_id(), "results"))


def session_memo(name, compute):
    """compute() once per test run, whichever worker asks first; the others
    wait for it and read its JSON result (shared runs such as the contract
    records of one subject)."""
    key = hashlib.sha256(name.encode()).hexdigest()[:16]
    d = os.path.join(MEMO, _session_id())
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, key + ".json")
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(path):
            with open(path) as f:
                return json.load(f)
        value = compute()
        with open(path + ".tmp", "w") as f:
            json.dump(value, f)
        os.replace(path + ".tmp", path)
        return value


def contract_records(spec, config):
    """Contract + vector records of one subject/config, run once per test run
    (several tests in several workers read the same run), with the
    documented findings of their tree marked (harness/findings/documented.py)."""
    from harness.findings import documented
    from harness.runners.contracts.run import run_contracts
    return tuple(session_memo("contracts:%s:%s" % (spec, config), lambda: documented.mark_all(
        run_contracts(spec, config, quiet=True), documented.Documented())))


@pytest.fixture(scope="session")
def top():
    return TOP


def pytest_sessionstart(session):
    """Drop the memos of earlier runs (a day old)."""
    import shutil
    import time
    if os.path.isdir(MEMO):
        for d in os.listdir(MEMO):
            path = os.path.join(MEMO, d)
            if time.time() - os.path.getmtime(path) > 86400:
                shutil.rmtree(path, ignore_errors=True)


# Modules with the longest tests first: --dist loadgroup hands tests to the
# workers in collection order, and a 2-minute test handed out last keeps one
# worker busy while the others have finished. Seconds of each module's
# longest test, measured on a fresh clone (pytest --durations=0; modules not
# listed keep their order, after these).
LONGEST_TEST_SECONDS = {
    "test_gate": 187, "test_fuzz_triage": 134, "test_fuzz_tools": 116,
    "test_ref_mutants": 110, "test_fuzz": 76, "test_regress": 74, "test_pr_gate": 68,
    "test_gate_kernels": 57, "test_contracts": 50, "test_partial_copies": 49,
    "test_ref_unit": 36, "test_gate_report": 35, "test_cache": 35,
    "test_compress_large": 27, "test_adapter": 24, "test_waivers": 22, "test_mutate": 40,
}


def pytest_collection_modifyitems(session, config, items):
    # a stable sort: each module's own order is kept
    items.sort(key=lambda item: -LONGEST_TEST_SECONDS.get(item.module.__name__, 0))


# LZ4GATE_TEST_CPU=FILE: each test's CPU seconds (its own and every program
# it waited for; user + system, setup and call) appended to FILE, one
# "seconds<TAB>nodeid" line per test, to find what make test spends its
# budget on (CPU, unlike --durations, does not depend on what the other
# worker runs at the same time).
if os.environ.get("LZ4GATE_TEST_CPU"):
    import resource

    def _cpu():
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        start = _cpu()
        yield
        with open(os.environ["LZ4GATE_TEST_CPU"], "a") as f:
            f.write("%.2f\t%s\n" % (_cpu() - start, item.nodeid))
