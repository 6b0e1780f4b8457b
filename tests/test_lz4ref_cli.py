"""The lz4ref command-line tool against the real lz4 tool (/usr/bin/lz4).

Round trips both ways (lz4 compresses, lz4ref decompresses, and the
reverse) for the frame format with several option sets and for the legacy
format, on data of several kinds and sizes; concatenations; dictionaries;
corrupt input (exit 1 and one line naming the check and the byte offset);
bad usage (exit 2); --help. Builds build/lz4ref with `make lz4ref`.
"""
import os
import random
import re
import shutil
import struct
import subprocess

import pytest

from conftest import TOP, make

LZ4 = shutil.which("lz4") or "/usr/bin/lz4"
LZ4REF = os.path.join(TOP, "build", "lz4ref")
MiB = 1 << 20


@pytest.fixture(scope="module", autouse=True)
def built():
    assert os.path.exists(LZ4), "the lz4 tool is needed (make deps installs it)"
    make("lz4ref")


def run(cmd, data=None, cwd=None):
    return subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=120, cwd=cwd)


def lz4ref(*args, data=None, cwd=None):
    return run([LZ4REF] + list(args), data, cwd)


def lz4(*args, data=None, cwd=None):
    return run([LZ4, "-q"] + list(args), data, cwd)


def ok(proc):
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc.stdout


# ---- test data -----------------------------------------------------------

def make_data(kind, size, seed=1):
    rnd = random.Random("%s-%d-%d" % (kind, size, seed))
    if kind == "random":
        return rnd.randbytes(size)
    if kind == "zeros":
        return bytes(size)
    if kind == "text":   # compressible: words in varying order
        words = [rnd.randbytes(rnd.randint(2, 9)).hex().encode() for _ in range(300)]
        out = bytearray()
        while len(out) < size:
            out += rnd.choice(words) + b" "
        return bytes(out[:size])
    if kind == "mixed":  # runs of text and of random bytes
        out = bytearray()
        while len(out) < size:
            n = rnd.randint(1, 70000)
            out += make_data("text", n, len(out)) if rnd.random() < 0.6 else rnd.randbytes(n)
        return bytes(out[:size])
    raise ValueError(kind)


# Sizes at the edges of the 64 KiB block (and window) size.
DATA = [("text", 0), ("text", 1), ("text", 65535), ("text", 65536), ("text", 65537),
        ("random", 65537), ("zeros", 65536), ("mixed", 300000), ("random", 300000)]

# Option sets for both tools (levels: lz4 only; lz4ref accepts and ignores them).
FRAME_OPTIONS = [[], ["-B4"], ["-B5"], ["-B6"], ["-B7"], ["-B4", "-BD"], ["-BX"],
                 ["--no-frame-crc"], ["--content-size"],
                 ["-B4", "-BD", "-BX", "--content-size", "--no-frame-crc"],
                 ["-l"]]
LZ4_ONLY_OPTIONS = [["-9"], ["-12", "-B4", "-BD", "-BX"], ["--fast=5"], ["-l", "-9"]]


def data_id(d):
    return "%s%d" % d


def opt_id(o):
    return "".join(o) or "default"


@pytest.fixture(scope="module")
def datafiles(tmp_path_factory):
    d = tmp_path_factory.mktemp("data")
    paths = {}
    for kind, size in DATA:
        p = d / ("%s%d" % (kind, size))
        p.write_bytes(make_data(kind, size))
        paths[(kind, size)] = str(p)
    return paths


def lz4_b4_bug(options, size, proc):
    """lz4 1.9.4 with -B4 fails on inputs of 65533..65535 bytes whenever it
    writes a checksum (exit 41, ERROR_dstMaxSize_tooSmall): see
    test_lz4_194_b4_size_bug. Only that exact failure is tolerated."""
    return ("-B4" in options and 65533 <= size <= 65535 and proc.returncode == 41 and
            b"dstMaxSize_tooSmall" in proc.stderr)


@pytest.mark.parametrize("options", FRAME_OPTIONS + LZ4_ONLY_OPTIONS, ids=opt_id)
def test_lz4_compresses_lz4ref_decompresses(options, datafiles):
    for key, path in datafiles.items():
        with open(path, "rb") as f:
            data = f.read()
        proc = lz4("-c", *options, path)
        if lz4_b4_bug(options, len(data), proc):
            continue
        frame = ok(proc)
        assert ok(lz4ref("-d", data=frame)) == data, (key, options)


def test_lz4_194_b4_size_bug():
    """Found here: lz4 1.9.4 cannot compress 65533..65535 bytes with -B4
    when a checksum is on; lz4ref can, and lz4 decodes what lz4ref writes."""
    version = subprocess.run([LZ4, "-V"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for size in range(65531, 65538):
        data = make_data("random", size)
        theirs = lz4("-c", "-B4", data=data)
        if b"v1.9.4" in version.stdout:
            assert (theirs.returncode == 41) == (65533 <= size <= 65535), size
        ours = ok(lz4ref("-c", "-B4", data=data))
        assert ok(lz4("-d", "-c", data=ours)) == data, size
        assert ok(lz4("-c", "-B4", "--no-frame-crc", data=data)) != b""


@pytest.mark.parametrize("options", FRAME_OPTIONS + [["--fast=5", "-B4", "-BD"]], ids=opt_id)
def test_lz4ref_compresses_lz4_decompresses(options, datafiles):
    for key, path in datafiles.items():
        with open(path, "rb") as f:
            data = f.read()
        frame = ok(lz4ref("-c", *options, path))
        assert ok(lz4("-d", "-c", data=frame)) == data, (key, options)
        assert ok(lz4ref("-d", data=frame)) == data, (key, options)


def header_flags(frame):
    magic, flg, bd = struct.unpack_from("<IBB", frame)
    return magic, flg, bd


def test_lz4ref_header_follows_the_options(datafiles):
    path = datafiles[("text", 65537)]
    frame = ok(lz4ref("-c", "-B5", "-BD", "-BX", "--content-size", "--no-frame-crc", path))
    magic, flg, bd = header_flags(frame)
    assert magic == 0x184D2204
    # version 01, linked (bit 5 clear), block checksum, content size, no content checksum
    assert flg == 0x40 | 0x10 | 0x08 and bd == 0x50
    assert struct.unpack_from("<Q", frame, 6)[0] == 65537
    legacy = ok(lz4ref("-c", "-l", path))
    assert legacy[:4] == b"\x02\x21\x4c\x18"


def test_content_size_from_a_pipe_is_dropped_like_lz4():
    data = make_data("text", 5000)
    ours = lz4ref("-c", "--content-size", data=data)
    theirs = lz4("-c", "--content-size", data=data)
    assert ours.returncode == 0 and b"content size not written" in ours.stderr
    assert header_flags(ours.stdout)[1] & 0x08 == 0
    assert header_flags(ok(theirs))[1] & 0x08 == 0


def test_large_legacy_and_multi_block_frames(tmp_path):
    data = make_data("mixed", 9 * MiB + 12345, 7)       # two legacy chunks
    path = tmp_path / "big"
    path.write_bytes(data)
    for opts in (["-l"], ["-l", "-9"]):
        assert ok(lz4ref("-d", data=ok(lz4("-c", *opts, str(path))))) == data, opts
    ours = ok(lz4ref("-c", "-l", str(path)))
    assert ok(lz4("-d", "-c", data=ours)) == data
    # 8 MiB + 4 chunk header: the first chunk's size field follows the magic.
    assert struct.unpack_from("<I", ours, 4)[0] < 8 * MiB + 40000
    for opts in (["-B7", "-BD", "-BX", "--content-size"], ["-B6"]):
        ours = ok(lz4ref("-c", *opts, str(path)))
        assert ok(lz4("-d", "-c", data=ours)) == data, opts
        theirs = ok(lz4("-c", *opts, str(path)))
        assert ok(lz4ref("-d", data=theirs)) == data, opts


def skippable(payload, nibble=0):
    return struct.pack("<II", 0x184D2A50 + nibble, len(payload)) + payload


def test_concatenated_frames(tmp_path):
    parts, pieces = [], []
    for i, (tool, opts) in enumerate([(lz4, ["-B4", "-BD"]), (lz4ref, ["-BX"]), (lz4, ["-l"]),
                                      (lz4ref, ["-l"]), (lz4, ["--content-size"]),
                                      (lz4ref, ["-B5", "--no-frame-crc"]), (lz4, [])]):
        data = make_data("mixed" if i % 2 else "text", 70000 + 1000 * i, i)
        p = tmp_path / ("part%d" % i)
        p.write_bytes(data)
        parts.append(data)
        pieces.append(ok(tool("-c", *opts, str(p))))
    joined = b"".join(pieces)
    assert ok(lz4ref("-d", data=joined)) == b"".join(parts)
    assert ok(lz4("-d", "-c", data=joined)) == b"".join(parts)
    # Skippable frames anywhere between them (and first).
    with_skips = skippable(b"meta") + b"".join(p + skippable(b"x" * 9, 15) for p in pieces)
    assert ok(lz4ref("-d", data=with_skips)) == b"".join(parts)
    assert ok(lz4("-d", "-c", data=with_skips)) == b"".join(parts)
    # Files: lz4ref INPUT OUTPUT.
    src = tmp_path / "all.lz4"
    src.write_bytes(with_skips)
    assert ok(lz4ref("-d", str(src))) == b""
    assert (tmp_path / "all").read_bytes() == b"".join(parts)


def test_dictionary_both_ways(tmp_path):
    dictionary = make_data("random", 100000, 3)
    data = dictionary[50000:90000] + make_data("text", 20000)
    (tmp_path / "dict").write_bytes(dictionary)
    (tmp_path / "data").write_bytes(data)
    d = str(tmp_path / "dict")
    theirs = ok(lz4("-c", "-D", d, str(tmp_path / "data")))
    assert len(theirs) < len(data) // 2
    assert ok(lz4ref("-d", "-D", d, data=theirs)) == data
    ours = ok(lz4ref("-c", "-D", d, "-B4", "-BD", str(tmp_path / "data")))
    assert len(ours) < len(data) // 2
    assert ok(lz4("-d", "-c", "-D", d, data=ours)) == data
    with_id = ok(lz4ref("-c", "-D", d, "--dict-id=77", str(tmp_path / "data")))
    assert header_flags(with_id)[1] & 0x01
    assert ok(lz4("-d", "-c", "-D", d, data=with_id)) == data
    missing = lz4ref("-d", data=with_id)
    assert missing.returncode == 1
    assert b"corrupt input at byte 6: FRAME_DICT_AVAILABLE" in missing.stderr


# ---- corrupt input: exit 1, one line naming the check and the offset ------

def corrupt_cases():
    text = make_data("text", 100000)
    frame = subprocess.run([LZ4, "-q", "-c", "-BX", "-B4"], input=text,
                           stdout=subprocess.PIPE, check=True).stdout
    plain = subprocess.run([LZ4, "-q", "-c"], input=text, stdout=subprocess.PIPE,
                           check=True).stdout
    legacy = subprocess.run([LZ4, "-q", "-c", "-l"], input=text, stdout=subprocess.PIPE,
                            check=True).stdout

    def flip(b, i, mask=0x01):
        b = bytearray(b)
        b[i] ^= mask
        return bytes(b)

    block1 = struct.unpack_from("<I", frame, 7)[0] & 0x7FFFFFFF
    return [
        ("header checksum", flip(frame, 6), 6, "FRAME_HEADER_CHECKSUM"),
        ("unknown magic", flip(frame, 0), 0, "FRAME_MAGIC_KNOWN"),
        ("version", flip(plain, 4, 0x80), 4, "FRAME_VERSION"),
        ("block checksum", flip(frame, 11 + 5), 11 + block1, "BLOCK_CHECKSUM"),
        ("content checksum", flip(plain, len(plain) - 1), len(plain) - 4, "CONTENT_CHECKSUM"),
        ("truncated block", frame[:30], 11, "BLOCK_DATA_IN_INPUT"),
        ("truncated footer", plain[:-2], len(plain) - 4, "FRAME_FIELD_IN_INPUT"),
        ("trailing garbage", plain + b"garbage!", len(plain), "FRAME_MAGIC_KNOWN"),
        ("legacy chunk cut", legacy[:100], 8, "LEGACY_CHUNK_IN_INPUT"),
        ("legacy chunk size", legacy[:4] + struct.pack("<I", 9 * MiB) + legacy[8:], 4,
         "LEGACY_CHUNK_WITHIN_MAX"),
        ("skippable cut", skippable(b"12345")[:-1], 8, "SKIPPABLE_DATA_IN_INPUT"),
    ]


@pytest.mark.parametrize("case", corrupt_cases(), ids=lambda c: c[0])
def test_corrupt_input_exit_1(case, tmp_path):
    what, data, offset, check = case
    proc = lz4ref("-d", data=data)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert re.match(r"lz4ref: stdin: corrupt input at byte %d: %s \(" % (offset, check),
                    lines[0]), lines[0]
    # -t (test) says the same; a created output file is removed.
    assert lz4ref("-t", data=data).returncode == 1
    src = tmp_path / "in.lz4"
    src.write_bytes(data)
    assert lz4ref("-d", str(src)).returncode == 1
    assert not (tmp_path / "in").exists()
    # lz4 1.9.4 rejects these too, except a truncated skippable frame,
    # which it accepts silently (exit 0): a documented difference.
    if what != "skippable cut":
        assert lz4("-d", "-c", data=data).returncode != 0, what


def test_zero_padding_between_legacy_members():
    a, b = make_data("text", 5000, 1), make_data("text", 7000, 2)
    la = ok(lz4("-c", "-l", data=a))
    lb = ok(lz4("-c", "-l", data=b))
    padded = la + bytes(4) + lb + bytes(3)
    assert lz4("-d", "-c", data=la + bytes(4) + lb).returncode != 0   # lz4 1.9.4 rejects
    proc = lz4ref("-d", data=padded)
    assert proc.returncode == 1 and b"corrupt input" in proc.stderr
    assert ok(lz4ref("-d", "--zero-padding", data=padded)) == a + b


def test_strict_profile_rejects_short_legacy_chunks():
    a = make_data("text", 3000)
    la = ok(lz4("-c", "-l", data=a))
    twice = la + la[4:]     # a short chunk, then another chunk
    assert ok(lz4("-d", "-c", data=twice)) == a + a          # lz4 1.9.4 accepts
    assert ok(lz4ref("-d", data=twice)) == a + a             # compatible (default)
    proc = lz4ref("-d", "--strict", data=twice)
    assert proc.returncode == 1 and b"LEGACY_CHUNK_FULL" in proc.stderr


# ---- usage and files: exit 2 ----------------------------------------------

@pytest.mark.parametrize("args", [["-x"], ["--bogus"], ["-B8"], ["-B"], ["-13"],
                                  ["--fast=0"], ["a", "b", "c"], ["-t", "a", "b"],
                                  ["--dict-id=5"], ["-D"]], ids=" ".join)
def test_bad_usage_exit_2(args):
    proc = lz4ref(*args, data=b"")
    assert proc.returncode == 2
    assert proc.stderr.startswith(b"lz4ref: ") and b"--help" in proc.stderr


def test_files_and_overwrite(tmp_path):
    data = make_data("text", 20000)
    src = tmp_path / "f"
    src.write_bytes(data)
    assert ok(lz4ref(str(src))) == b""
    assert (tmp_path / "f.lz4").exists()
    # An existing output is never overwritten without -f.
    (tmp_path / "f.lz4").write_bytes(b"keep me")
    proc = lz4ref(str(src))
    assert proc.returncode == 2 and b"use -f" in proc.stderr
    assert (tmp_path / "f.lz4").read_bytes() == b"keep me"
    ok(lz4ref("-f", str(src)))
    src.rename(tmp_path / "orig")
    ok(lz4ref("-d", str(tmp_path / "f.lz4")))
    assert (tmp_path / "f").read_bytes() == data
    assert lz4ref("-d", str(tmp_path / "f.lz4")).returncode == 2      # f exists
    ok(lz4ref("-d", "-f", str(tmp_path / "f.lz4"), str(tmp_path / "g")))
    assert (tmp_path / "g").read_bytes() == data
    assert ok(lz4ref("-dc", str(tmp_path / "f.lz4"))) == data
    assert ok(lz4ref("-d", str(tmp_path / "f.lz4"), "-")) == data
    # Errors on files: missing input, no .lz4 suffix to strip.
    proc = lz4ref(str(tmp_path / "missing"))
    assert proc.returncode == 2 and b"No such file" in proc.stderr
    assert lz4ref("-d", str(tmp_path / "orig")).returncode == 2
    # lz4 reads what lz4ref wrote to a file, and the reverse.
    ok(lz4("-d", "-f", str(tmp_path / "f.lz4"), str(tmp_path / "h")))
    assert (tmp_path / "h").read_bytes() == data


def test_help():
    proc = lz4ref("--help")
    assert proc.returncode == 0
    text = proc.stdout.decode()
    for section in ("NAME", "SYNOPSIS", "OPTIONS", "EXIT STATUS"):
        assert re.search(r"^%s$" % section, text, re.M), section
    for option in ("-d", "-l", "-B4", "-BD", "-BX", "--content-size", "--no-frame-crc",
                   "-c", "-f", "-q", "--zero-padding"):
        assert option in text, option
    assert ok(lz4ref("-h")) == proc.stdout
