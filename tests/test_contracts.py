"""API contract tests on the default subjects and on broken subjects."""
import subprocess

import pytest

from conftest import CONFIG32, contract_records
from harness import toolchain
from harness.runners.contracts.run import CONTRACT_SOURCES, run_contracts
from harness.runners.link import link_runner, runner_sources
from harness.subjects.build import build

# (make check: ref and upstream in asan64)
DEFAULT = [pytest.param("ref", "asan64", marks=pytest.mark.check), ("ref", CONFIG32),
           ("system", "asan64"), pytest.param("upstream", "asan64", marks=pytest.mark.check),
           ("upstream", CONFIG32), ("upstream", "O2"),
           ("kernel", "asan64"), ("kernel", CONFIG32), ("kernel", "O0"), ("kernel", "O2")]


@pytest.mark.parametrize("spec,config", DEFAULT)
def test_default_subject_has_no_unexplained_failure(spec, config):
    recs = contract_records(spec, config)
    failed = [r for r in recs if r["status"] == "FAIL"]
    assert not failed, "\n".join("%s: %s" % (r["check"], r["evidence"]) for r in failed)
    assert sum(r["status"] == "pass" for r in recs) >= 30


@pytest.mark.parametrize("config", ["asan64", "O2"])
def test_kernel_findings_are_shown(config):
    # Linux 6.1's LZ4_decompress_safe_partial with a negative target hits the
    # CVE-2021-3520 pattern (docs/fix-history.md). The suite must show it.
    recs = contract_records("kernel", config)
    known = {r["check"]: r["finding"] for r in recs if r["status"] == "known finding"}
    assert known.get("decompress_safe_partial.negative_target") == "KLZ4-GAP-3520"
    assert known.get("decompress_safe_partial.negative_capacity") == "KLZ4-GAP-3520"


# Each deliberately broken adapter must make at least the named check fail.
BROKEN = {
    "write_past_capacity": "compress_default.small_capacity",
    "short_return": "decompress_safe.exact_capacity",
    "ignore_capacity": "decompress_safe.capacity_one_short",
    "partial_overshoot": "decompress_safe_partial.targets",
    "bad_bound": "compress_bound.formula_and_limit",
}


@pytest.mark.parametrize("mode", sorted(BROKEN))
def test_broken_subject_fails(mode):
    # the part of the table the named check is in (the runner's --only)
    recs = run_contracts("broken:" + mode, "asan64", quiet=True, vectors=False,
                         only=BROKEN[mode].split(".")[0] + ".")
    failed = {r["check"] for r in recs if r["status"] == "FAIL"}
    assert BROKEN[mode] in failed, sorted(failed)


@pytest.mark.parametrize("mutant,check", [
    ("LITERALS_IN_OUTPUT", "decompress_safe.capacity_one_short"),
    ("MATCH_IN_OUTPUT", "decompress_safe.capacity_sweep"),
])
def test_ref_mutant_fails_contracts(mutant, check):
    recs = run_contracts("ref-mutant:" + mutant, "asan64", quiet=True, vectors=False,
                         only=check.split(".")[0] + ".")
    failed = {r["check"] for r in recs if r["status"] == "FAIL"}
    assert check in failed, sorted(failed)


def test_a_full_check_table_stops_the_runner_before_any_check():
    # contracts.c's table is bounded: with room for 8 checks, registering
    # the ninth stops the runner with one line (it used to write past it).
    out = build("ref", "asan64", [], True)
    program = link_runner(out, "asan64", runner_sources(*CONTRACT_SOURCES), "contracts-max8",
                          extra_flags=["-DMAX_CHECKS=8"])
    proc = subprocess.run(toolchain.run_argv("asan64", [program]), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          env=toolchain.sanitizer_env("runner"))
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "more than 8 checks registered" in proc.stderr
    assert proc.stdout == ""
