"""decode_differential's modes for release bugs the fuzzers missed (issue 15
item 5): the partial early-end rule (ULZ4-2026-1753), in-place decoding
(ULZ4-2019-INPLACE), negative sizes (ULZ4-2021-3520) and decompress_fast on
blocks with an output-side defect (ULZ4-2022-FASTBOUND). Each crafted input
(fuzz/decode_differential.c's header, then the block) passes on ref and on
the default upstream subject, and fails on a real release with the bug
(build/releases/TAG, exported by `python3 -m harness releases` or the
detection bench; skipped when absent)."""
import os
import re
import struct

import pytest

from conftest import TOP, harness
from harness.subjects.spec import DEFAULT_TREES

IN_PLACE, FAST, NEGATIVE, NEG_CAPACITY = 4, 8, 0x70, 0x80


def header(flags, cap, target):
    """flags, no dictionary, capacity and target drawn as "anywhere" (sel 7)."""
    return (bytes([flags, 0]) + bytes(4) + bytes(8) + bytes([7]) + struct.pack("<I", cap) +
            bytes([7]) + struct.pack("<I", target))


def mixed_block():
    """A valid block whose last literal run (700 pseudo-random bytes) is longer
    than the in-place margin (the committed seed of the "mixed" sample)."""
    with open(os.path.join(TOP, "corpus", "decode_differential", "seed-009-mixed"), "rb") as f:
        return f.read()[24:]


# name -> (input, release with the bug, what its replay reports)
INPUTS = {
    # 1 literal, offset 1, a match-length chain to the end: ref rejects.
    "early-end": (header(0, 10000, 10000) + bytes.fromhex("1F610100FFFF"), "v1.8.2",
                  "accepts_invalid@decompress_safe_partial"),
    # 3 literals then 3 bytes, an offset before the start: too many to stop at.
    "early-end-3-left": (header(0, 100, 100) + bytes.fromhex("30616263050000"), "v1.8.2",
                         "accepts_invalid@decompress_safe_partial"),
    "in-place": (header(IN_PLACE, 2000, 2000) + mixed_block(), "v1.9.1",
                 "memcpy-param-overlap"),
    "negative-target": (header(NEGATIVE, 2000, 2000) + mixed_block(), "v1.9.3",
                        "negative-size-param"),
    "negative-capacity": (header(NEGATIVE | NEG_CAPACITY, 2000, 2000) + mixed_block(),
                          "v1.9.3", "negative-size-param"),
    # 4 literals, offset 0x1000 before the start (regression case KLZ4-FAST tcId 1).
    "fast-offset": (header(FAST, 20, 20) +
                    bytes.fromhex("40616263640010C0626262626262626262626262"), "v1.9.3",
                    "use-after-poison"),
}

# Where a partial decoder may stop before its target (the input runs out):
# upstream and the kernel return the literals, and must pass.
ALLOWED_EARLY_ENDS = {
    "1-byte-left": "3061626305",
    "2-bytes-left-bad-offset": "306162630500",
    "2-bytes-left-match": "306162630100",
    "truncated-literals": "506162",
}


def replay(spec, path):
    return harness("fuzz", "replay", "-q", "--target", "decode_differential", "--subject",
                   spec, path, timeout=300)


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


@pytest.mark.parametrize("spec", ["ref", "upstream"])
def test_inputs_pass_on_fixed_subjects(spec, tmp_path):
    if spec in DEFAULT_TREES and not os.path.isdir(DEFAULT_TREES[spec]):
        pytest.skip("default %s tree not fetched (make subjects)" % spec)
    paths = [write(tmp_path, k, v[0]) for k, v in INPUTS.items()]
    paths += [write(tmp_path, k, header(0, 100, 100) + bytes.fromhex(v))
              for k, v in ALLOWED_EARLY_ENDS.items()]
    for p in paths:
        proc = replay(spec, p)
        assert proc.returncode == 0, (p, proc.stdout + proc.stderr)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_input_finds_the_release_bug(name, tmp_path):
    data, tag, evidence = INPUTS[name]
    tree = os.path.join(TOP, "build", "releases", tag)
    if not os.path.isdir(tree):
        pytest.skip("%s not exported (python3 -m harness releases --lz4-git CLONE)" % tag)
    proc = replay("upstream:" + tree, write(tmp_path, name, data))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert re.search(re.escape(evidence), out), out
