"""Facts about the reference codec that Python needs: its source files, the
names of its named checks (the X-macro lists of ref/checks.h and
ref/frame_checks.h, the one parser of them) and of its planted encoder bugs
(ref/mutant.h)."""
import os
import re

from harness import objcache, toolchain
from harness.paths import REF

CHECK_LISTS = (("checks.h", "#define REF_CHECK_LIST", "enum ref_check_id"),
               ("frame_checks.h", "#define REF_FRAME_CHECK_LIST", "enum ref_frame_check_id"))


def _names(header, start, end):
    with open(os.path.join(REF, header)) as f:
        text = f.read()
    return re.findall(r"X\((\w+),", text[text.index(start):text.index(end)])


def block_check_names():
    return _names(*CHECK_LISTS[0])


def frame_check_names():
    return _names(*CHECK_LISTS[1])


def check_names():
    """Every named check (block first, then frame): the valid MUTANT names."""
    return block_check_names() + frame_check_names()


def encoder_mutant_names():
    """The planted encoder bugs of ref/mutant.h (REF_MUTANT_ID_ENCODE_*):
    valid ref-mutant:NAME subjects too, but not checks (tests/mutants.py
    runs check_names() only)."""
    with open(os.path.join(REF, "mutant.h")) as f:
        return re.findall(r"(?m)^#define REF_MUTANT_ID_(ENCODE_\w+) \d+$", f.read())


def mutant_names():
    """Every valid ref-mutant:NAME: the named checks, then the encoder bugs."""
    return check_names() + encoder_mutant_names()


def sources():
    """ref/*.c, sorted."""
    return sorted(os.path.join(REF, f) for f in os.listdir(REF) if f.endswith(".c"))


def objects(cc, flags):
    """ref's objects for a compiler and a configuration's flags (cached).

    ref includes only its own headers, so every program that links the
    oracle (runners, fuzz targets, generators) shares these objects: the
    flags are the configuration's, lz4gate's warnings and -I ref, never a
    program's own include directories (which would make a new cache key,
    and a new compile, per program)."""
    ours = list(flags) + toolchain.OUR_WARNINGS + ["-I" + REF]
    return [objcache.compile_object(cc, ours, src) for src in sources()]


def headers():
    return sorted(os.path.join(REF, f) for f in os.listdir(REF) if f.endswith(".h"))
