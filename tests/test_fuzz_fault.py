"""base_vs_candidate names the side at fault as a field, decided by ref
(issue 23): a block ref strict rejects, or decodes to other bytes than the
input, is its encoder's fault; a valid block decoded wrongly is its
decoder's. The replay prints it ("lz4gate-fuzz-fault: SIDE", read by
harness/evidence/failure.py) and a campaign records it ("fault: SIDE" in the
record, read by harness/fuzzing/findings.py)."""
import argparse
import os
import struct
import subprocess

import pytest

from conftest import harness
from harness import toolchain
from harness.fuzzing import findings
from harness.fuzzing.build import build
from harness.evidence.failure import failure_of
from harness.subjects.spec import DEFAULT_TREES


def pair_input(flags, payload, param):
    """fuzz/base_vs_candidate.c's header: flags, no dictionary, exact
    capacity and target, the acceleration or level; then the payload."""
    exact = bytes([0]) + struct.pack("<I", 0)
    return bytes([flags, 0]) + bytes(12) + exact + exact + struct.pack("<i", param) + payload


# flags 0x20: only decompress_safe_using_dict compared (bits 3-5 = 4), the
# cross decode with compress_default; 0x22: with compress_fast.
# Linux 6.1's LZ4_compress_fast at acceleration 2^28 emits offset-0 matches
# (KLZ4-ACCEL-WRAP): lz4 1.9.4 decodes them as zeros, other bytes.
ACCEL_WRAP = pair_input(0x22, b"abc" * 9 + b"ab", 1 << 28)
DATA = pair_input(0x20, b"0123456789abcdef" * 4, 1)

# (base, candidate, input, finding, side at fault)
CASES = [
    ("kernel", "upstream", ACCEL_WRAP, "cross_decode@compress_fast", "base"),
    # a compressor that flips the last literal: a valid block of other data
    ("ref", "broken:compress_flip_last", DATA, "cross_decode@compress_default", "candidate"),
    ("broken:compress_flip_last", "ref", DATA, "cross_decode@compress_default", "base"),
    # a decoder that returns one byte less: ref's valid block decoded wrongly
    ("ref", "broken:short_return", DATA, "cross_decode@compress_default", "candidate"),
    ("broken:short_return", "ref", DATA, "cross_decode@compress_default", "base"),
]
IDS = ["%s-%s" % (c[0], c[1]) for c in CASES]


def need(*specs):
    for s in specs:
        if s in DEFAULT_TREES and not os.path.isdir(DEFAULT_TREES[s]):
            pytest.skip("default %s tree not fetched (make subjects)" % s)


@pytest.mark.parametrize("base,candidate,data,finding,side", CASES, ids=IDS)
def test_the_replay_names_the_side_at_fault(base, candidate, data, finding, side, tmp_path):
    need(base, candidate)
    path = tmp_path / "input"
    path.write_bytes(data)
    proc = harness("fuzz", "replay", "-q", "--target", "base_vs_candidate", "--subject", base,
                   "--subject-b", candidate, str(path), timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    got = failure_of(proc.stdout)
    assert got["kind"] == finding, proc.stdout
    assert got["fault"] == side, proc.stdout


@pytest.mark.parametrize("base,candidate,data,finding,side", [CASES[0], CASES[1]],
                         ids=IDS[:2])
def test_a_campaign_records_the_side_at_fault(base, candidate, data, finding, side, tmp_path):
    need(base, candidate)
    args = argparse.Namespace(target="base_vs_candidate", subject=base, subject_b=candidate,
                              patch=[], patch_b=[], engine="replay", config=None, bits="64")
    binary = build(args)
    path = tmp_path / "input"
    path.write_bytes(data)
    record = tmp_path / "record"
    record.mkdir()
    env = dict(toolchain.sanitizer_env("replay"), LZ4GATE_FUZZ_RECORD=str(record))
    proc = subprocess.run([binary, str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout    # recorded, not stopped at
    found = findings.from_records(str(record))
    assert found[finding]["fault"] == side, found
    assert "fault:" not in found[finding]["message"], found    # a field, not prose
