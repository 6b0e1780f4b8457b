"""The block boundary sweeps (issue 25): the window sweep (sweep.window.*,
repeats at distances 65534..65537) and the end-of-block sweep (sweep.end.*)
pass on ref; their planted encoder bugs (ref/mutant.h ENCODE_*) are
subjects, not unit-test mutants."""
import re
import subprocess

from conftest import contract_records
from harness import toolchain
from harness.runners.contracts.run import CONTRACT_SOURCES
from harness.runners.link import link_runner, runner_sources
from harness.subjects import refcodec
from harness.subjects.build import build

# The planted encoder bugs of the two classes (harness/runners/contracts/
# planted.py runs them: tests/test_sweeps_planted.py).
MUTANTS = ("ENCODE_WINDOW_65536", "ENCODE_LAST_MATCH")


def sweep_ids():
    out = build("ref", "asan64", [], True)
    program = link_runner(out, "asan64", runner_sources(*CONTRACT_SOURCES), "contracts")
    proc = subprocess.run(toolchain.run_argv("asan64", [program, "--list", "--only", "sweep."]),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, env=toolchain.sanitizer_env("runner"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.split()


def test_sweep_ids_exist():
    ids = sweep_ids()
    for prefix in ("sweep.window", "sweep.end", "sweep.lengths"):
        for form in ("compress_default", "compress_fast[accel=1]", "compress_fast[accel=8]",
                     "compress_hc[level=1]", "compress_hc[level=2]", "compress_hc[level=12]",
                     "compress_dest_size", "compress_using_dict", "stream",
                     "stream_hc[level=9]", "stream_hc_dict[level=12]"):
            assert "%s.%s" % (prefix, form) in ids
    for dec in ("decompress_safe", "decompress_safe_partial", "decompress_fast",
                "decompress_safe_using_dict"):
        assert "sweep.end." + dec in ids
    assert len(ids) == len(set(ids))


def test_encoder_mutants_are_subjects_not_checks():
    # ref-mutant:ENCODE_* is a valid spec; tests/mutants.py (the decoder
    # checks' unit-test mutants) does not see them.
    assert set(MUTANTS) <= set(refcodec.encoder_mutant_names())
    assert not set(refcodec.encoder_mutant_names()) & set(refcodec.check_names())
    assert set(MUTANTS) <= set(refcodec.mutant_names())


def test_sweeps_pass_on_ref():
    recs = [r for r in contract_records("ref", "asan64")
            if r["check"].startswith(("sweep.window.", "sweep.end.", "sweep.lengths."))]
    failed = [r for r in recs if r["status"] == "FAIL"]
    assert not failed, "\n".join("%s: %s" % (r["check"], r["evidence"]) for r in failed)
    passed = {r["check"] for r in recs if r["status"] == "pass"}
    assert {"sweep.window.compress_default", "sweep.window.stream",
            "sweep.end.compress_default", "sweep.end.decompress_safe",
            "sweep.lengths.compress_default", "sweep.lengths.stream"} <= passed


def test_sweep_cost_prints_the_sweeps_share_of_each_contract_run(capsys):
    # the benchmark behind docs/contracts.md's figure (issue 25: at most 60 s)
    from harness.runners.contracts import sweep_cost
    assert sweep_cost.main(["ref"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^ref +asan64 +sweeps +[\d.]+ CPU s of +[\d.]+ \([\d.]+%\)$", out, re.M), out
    assert re.search(r"^sweeps: [\d.]+ CPU s of the [\d.]+ the contract checks take", out, re.M)
