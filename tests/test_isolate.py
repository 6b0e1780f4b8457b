"""The child-process isolation every runner check goes through
(harness/runners/common/isolate.c): a child that writes more than a pipe
holds to stderr is not mistaken for a hang, and its report is kept; checks
that share a worker process get the records a process each gives."""
import os
import re
import subprocess

import pytest

from conftest import TOP
from harness import objcache, toolchain
from harness.paths import COMMON_C
from harness.runners.contracts.run import run_contracts
from harness.runners.regress.cases import load_cases
from harness.runners.regress.run import run_subject


@pytest.mark.check
@pytest.mark.parametrize("config", ["asan64", "O2"])
def test_isolate_selftest(config):
    cc, flags, _ = toolchain.config(config)
    flags = list(flags) + toolchain.OUR_WARNINGS + ["-I" + COMMON_C]
    objs = [objcache.compile_object(cc, flags, os.path.join(COMMON_C, f))
            for f in ("isolate_selftest.c", "isolate.c", "fail_class.c")]
    exe = objcache.link_program(cc, list(toolchain.CONFIGS[config][1]), objs,
                                os.path.join(TOP, "build", "selftest", config, "isolate"),
                                "linking the isolate self-test")
    proc = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=120,
                          env=toolchain.sanitizer_env("runner"))
    assert proc.returncode == 0, proc.stdout[-3000:]


HEX = re.compile(r"0x[0-9a-f]+|==\d+==")


def _records(spec, mode, monkeypatch):
    monkeypatch.setenv("LZ4GATE_FORK_EACH", mode)
    recs = run_contracts(spec, "asan64", quiet=True)
    # the cases that fail on the mutant, and as many that pass
    cases = load_cases()
    failing = [c for c in cases if spec in c.get("fails_on", [])]
    recs += run_subject(spec, failing + [c for c in cases if c not in failing][:len(failing)],
                        ["asan64"], quiet=True)
    return {r.get("case") or r["check"]: (r["status"], HEX.sub("#", r["evidence"] or ""))
            for r in recs}


def test_a_shared_worker_gives_the_records_a_process_per_check_gives(monkeypatch):
    # isolate_each runs passing checks one after another in one worker; the
    # records must be those of a process per check (LZ4GATE_FORK_EACH=1),
    # crashes and failures included, for the contract, vector and
    # regression runners alike.
    # A planted subject whose checks crash, fail and pass, each always.
    spec = "ref-mutant:LITERALS_IN_OUTPUT"
    each = _records(spec, "1", monkeypatch)
    shared = _records(spec, "0", monkeypatch)
    assert each == shared, sorted((k, each.get(k), shared.get(k))
                                  for k in set(each) | set(shared) if each.get(k) != shared.get(k))
    assert {s for s, _ in shared.values()} >= {"pass", "FAIL"}
    assert any("AddressSanitizer" in e for _, e in shared.values())
