"""lz4gate's one verdict on a decoder (harness/runners/common/judge.h, issue
23): a rejection is a failure only where ref's strict profile accepts the
whole input, an acceptance only where ref's compatible profile rejects it
or decodes other bytes.

Every fuzz target that judges a decoder gets inputs only the strict profile
rejects (a last sequence with 3 literals: End of block conditions, rule 2;
an offset-0 match) and must find nothing in a subject that rejects them
(ref's block decoders, lz4 1.9.4's LZ4F for the first, Linux 6.1's unlz4
for the second, broken:strict_decoders for all) nor in one that accepts
them with ref's compatible output (broken:compatible_decoders, ref's LZ4F
and unlz4), while a decoder that accepts them with other bytes, and the
planted bugs, are still found. The targets that decode only what ref made
(valid, strict, by construction) replay their corpora on both conformant
subjects."""
import os
import struct

import pytest

from conftest import harness
from harness.subjects.spec import DEFAULT_TREES

# 8 literals, a match of 16 at offset 8, then 3 final literals: 27 bytes.
EOB3 = bytes([0x8C]) + b"abcdefgh" + bytes([8, 0, 0x30]) + b"xyz"
# 8 literals, a match of 4 at offset 0, 12 final literals (compatible: zeros).
OFF0 = bytes([0x80]) + b"abcdefgh" + bytes([0, 0, 0xC0]) + b"ijklmnopqrst"
# A valid block: 8 literals, a match of 16 at offset 8, 5 final literals.
VALID = bytes([0x8C]) + b"abcdefgh" + bytes([8, 0, 0x50]) + b"vwxyz"
STRICT_ONLY = {"eob3": EOB3, "off0": OFF0}


def xxh32(data, seed=0):
    """xxHash-32 (the frame header checksum), from its specification."""
    p1, p2, p3, p4, p5, m = 2654435761, 2246822519, 3266489917, 668265263, 374761393, 0xFFFFFFFF
    rotl = lambda x, r: ((x << r) | (x >> (32 - r))) & m
    n, i = len(data), 0
    if n >= 16:
        v = [(seed + p1 + p2) & m, (seed + p2) & m, seed & m, (seed - p1) & m]
        while i + 16 <= n:
            for k in range(4):
                v[k] = rotl((v[k] + struct.unpack_from("<I", data, i)[0] * p2) & m, 13) * p1 & m
                i += 4
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & m
    else:
        h = (seed + p5) & m
    h = (h + n) & m
    while i + 4 <= n:
        h = rotl((h + struct.unpack_from("<I", data, i)[0] * p3) & m, 17) * p4 & m
        i += 4
    while i < n:
        h = rotl((h + data[i] * p5) & m, 11) * p1 & m
        i += 1
    h = ((h ^ (h >> 15)) * p2) & m
    h = ((h ^ (h >> 13)) * p3) & m
    return h ^ (h >> 16)


def frame(block, block_checksum=None):
    """One LZ4 frame holding one compressed block (64 KiB blocks,
    independent; with a block checksum when given)."""
    flg = 0x60 | (0x10 if block_checksum is not None else 0)
    desc = bytes([flg, 0x40])
    out = struct.pack("<I", 0x184D2204) + desc + bytes([(xxh32(desc) >> 8) & 0xFF])
    out += struct.pack("<I", len(block)) + block
    if block_checksum is not None:
        out += struct.pack("<I", block_checksum)
    return out + bytes(4)


def legacy(block):
    return struct.pack("<I", 0x184C2102) + struct.pack("<I", len(block)) + block


def near(exact_sel, value=0):
    """An fp_size_near draw (fuzz/params.h): selector and value."""
    return bytes([exact_sel]) + struct.pack("<I", value)


def target_input(target, block, flags=0, anywhere=None):
    """The target's input decoding `block` (capacity and target: the exact
    decoded size, or `anywhere` bytes)."""
    size = near(0) if anywhere is None else near(7, anywhere)
    if target == "decode_differential":     # flags, dict class + size + seed, cap, target
        return bytes([flags, 0]) + bytes(12) + size + size + block
    if target == "decode_large":            # split, run byte, no run (v >> 30 == 3), cap, flags
        return bytes([0, 0]) + struct.pack("<I", 0xC0000000) + size + bytes([0]) + block
    if target == "base_vs_candidate":       # the three decoders, compress_default
        return bytes([flags, 0]) + bytes(12) + size + size + struct.pack("<i", 1) + block
    if target == "frame_decode":            # whole input, room for all: one frame
        return bytes(32) + frame(block)
    if target == "legacy_decode":           # fill and buffer mode: one legacy frame
        return bytes(8) + legacy(block)
    raise ValueError(target)


def need(*specs):
    for s in specs:
        s = s.split(":")[0]
        if s in DEFAULT_TREES and not os.path.isdir(DEFAULT_TREES[s]):
            pytest.skip("default %s tree not fetched (make subjects)" % s)


def replay(target, subject, paths, subject_b=None):
    argv = ["fuzz", "replay", "-q", "--target", target, "--subject", subject]
    argv += ["--subject-b", subject_b] if subject_b else []
    return harness(*(argv + [str(p) for p in paths]), timeout=600)


def inputs(tmp_path, target, blocks=STRICT_ONLY):
    paths = []
    for name, block in sorted(blocks.items()):
        for anywhere in (None, 100):
            p = tmp_path / ("%s-%s-%s" % (target, name, anywhere or "exact"))
            p.write_bytes(target_input(target, block, anywhere=anywhere))
            paths.append(p)
    return paths


# (target, subject, subject_b): each rejects or accepts (with ref's
# compatible output) both strict-only inputs; none is a finding.
CONFORMANT = [
    ("decode_differential", "ref", None),                 # strict: rejects
    ("decode_differential", "broken:compatible_decoders", None),
    ("decode_differential", "broken:strict_decoders", None),
    ("decode_large", "ref", None),
    ("decode_large", "broken:compatible_decoders", None),
    ("base_vs_candidate", "ref", "broken:compatible_decoders"),
    ("base_vs_candidate", "broken:compatible_decoders", "ref"),
    ("base_vs_candidate", "broken:strict_decoders", "broken:compatible_decoders"),
    ("frame_decode", "upstream", None),                   # rejects eob3, offset 0 as zeros
    ("frame_decode", "ref", None),                        # compatible: accepts
    ("frame_decode", "broken:strict_decoders", None),     # rejects both
    ("legacy_decode", "kernel", None),                    # rejects offset 0
    ("legacy_decode", "ref", None),                       # compatible: accepts
    ("legacy_decode", "broken:strict_decoders", None),    # rejects both
]


@pytest.mark.parametrize("target,subject,subject_b", CONFORMANT,
                         ids=["%s-%s" % (t, b or s) for t, s, b in CONFORMANT])
def test_strict_only_input_is_no_finding(target, subject, subject_b, tmp_path):
    need(subject)
    proc = replay(target, subject, inputs(tmp_path, target), subject_b)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# (target, subject, input, what the replay must report): a decoder that
# accepts a strict-only input with other bytes than ref compatible's, and
# the planted bugs, are still found on the same kind of input.
FOUND = [
    # Linux 6.1's partial decode copies dst onto itself for offset 0
    # (KLZ4-PARTIAL-OFFSET0): neither ref's compatible output nor a rejection.
    ("decode_differential", "kernel", "off0", "@decompress_safe_partial"),
    ("decode_differential", "broken:short_return", "valid", "wrong_output@decompress_safe"),
    # a valid block cut by the target (10 of 29 bytes) is no excuse to reject
    ("decode_differential", "broken:partial_rejects_cut", "valid-cut",
     "rejects_valid@decompress_safe_partial"),
    ("decode_large", "broken:short_return", "valid", "wrong_output@decompress_safe"),
    ("frame_decode", "ref-mutant:BLOCK_CHECKSUM", "bad-checksum",
     "accepts_invalid@frame_decompress"),
    ("legacy_decode", "broken:unlz4_short_flush", "valid", "wrong_output@unlz4"),
    # a block ref strict rejects (end-of-block rule) and ref compatible
    # decodes: other bytes than ref compatible's are the accepted-invalid
    # class, as the block oracle names them (fuzz/oracle_verdict.c)
    ("legacy_decode", "broken:unlz4_short_flush", "eob3", "accepts_invalid@unlz4"),
]


@pytest.mark.parametrize("target,subject,which,evidence", FOUND,
                         ids=["%s-%s-%s" % (t, s, w) for t, s, w, _ in FOUND])
def test_wrong_results_are_still_found(target, subject, which, evidence, tmp_path):
    need(subject)
    if which == "bad-checksum":
        data = bytes(32) + frame(EOB3, block_checksum=xxh32(EOB3) ^ 1)
    elif which == "valid-cut":
        data = target_input(target, VALID, anywhere=10)
    else:
        data = target_input(target, {"valid": VALID, "eob3": EOB3, "off0": OFF0}[which])
    p = tmp_path / "input"
    p.write_bytes(data)
    proc = replay(target, subject, [p])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert evidence in proc.stdout, proc.stdout


# Targets that decode only what ref made (valid under the strict profile):
# their seeds, on both sides of the profile table, give no finding.
REF_MADE = ["ref_to_subject", "frame_roundtrip", "stream_roundtrip", "alloc_fail"]


@pytest.mark.parametrize("target", REF_MADE)
@pytest.mark.parametrize("subject", ["broken:strict_decoders", "broken:compatible_decoders"])
def test_targets_on_ref_made_input_accept_both_profiles(target, subject):
    proc = replay(target, subject, [])
    assert proc.returncode == 0, proc.stdout + proc.stderr
