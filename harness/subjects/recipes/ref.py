"""Recipes for the reference codec behind the subject ABI: ref, ref with one
named check compiled out (ref-mutant:CHECK), and a deliberately broken
adapter in front of ref (broken:MODE)."""
import os

from harness.errors import BadInput
from harness.paths import ADAPTERS, REF
from harness.subjects import refcodec
from harness.subjects.spec import broken_modes
from harness.subjects import streaming as stream
from harness.toolchain import OUR_WARNINGS

REF_FLAGS = OUR_WARNINGS + ["-I" + REF]


LINKED = "(linked)"


def broken_mode_number(mode):
    """A broken mode's number in the MODE_ table."""
    if mode not in broken_modes():
        raise BadInput("unknown broken mode %s" % mode)
    return broken_modes()[mode]


def build_ref(b, _stage, mutant="", entry="lz4gate_subject"):
    flags = REF_FLAGS + (["-DREF_MUTANT_LINKED"] if mutant == LINKED else
                         ["-DREF_MUTANT=" + mutant] if mutant else [])
    # ref's allocations (its frame stream, the frame adapter) are counted and
    # can be made to fail, like a subject's (subjects/streaming.py).
    objs = [b.compile(src, "ref_" + os.path.basename(src)[:-2], flags + stream.ALLOC_HOOK)
            for src in refcodec.sources()]
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_ref.c"), "adapter",
                          flags + ["-I" + ADAPTERS, "-DSUBJECT_ENTRY=" + entry]))
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_ref_frame.c"), "adapter_frame",
                          flags + ["-I" + ADAPTERS] + stream.ALLOC_HOOK))
    objs += stream.ref_objects(b, flags)
    return objs, [], {"kind": b.s.kind, "variant": b.s.variant}


def build_mutant(b, stage):
    """ref with check NAME switched off: ref's objects built once for every
    mutant (-DREF_MUTANT_LINKED), and a one-line object that selects NAME
    (ref/mutant.h); an unknown NAME does not compile."""
    objs, link, info = build_ref(b, stage, mutant=LINKED)
    os.makedirs(b.out, exist_ok=True)
    select = os.path.join(b.out, "mutant_selected.c")
    with open(select, "w") as f:
        f.write('#include "mutant.h"\nint ref_mutant_selected = REF_MUTANT_ID(%s);\n'
                % b.s.variant)
    objs.append(b.compile(select, "mutant_selected", REF_FLAGS + ["-DREF_MUTANT_LINKED"]))
    return objs, link, info


def build_broken(b, stage):
    """ref behind adapter_broken.c, whose mode is a variable a one-line
    object sets (its number in the MODE_ table): every mode shares the
    adapter's object (make test built it 35 times, 15 CPU s, when the mode
    was a -D)."""
    objs, link, info = build_ref(b, stage, entry="lz4gate_ref_subject")
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_broken.c"), "broken",
                          REF_FLAGS + ["-I" + ADAPTERS]))
    os.makedirs(b.out, exist_ok=True)
    select = os.path.join(b.out, "broken_selected.c")
    with open(select, "w") as f:
        f.write("const int lz4gate_broken_mode = %d;\n" % broken_mode_number(b.s.variant))
    objs.append(b.compile(select, "broken_selected", REF_FLAGS))
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_broken_profile.c"), "broken_profile",
                          REF_FLAGS + ["-I" + ADAPTERS]))
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_broken_sweep.c"), "broken_sweep",
                          REF_FLAGS + ["-I" + ADAPTERS]))
    # The policy's planted bugs stand for a subject's own code: its UBSan
    # reports and goes on, as a real subject's does (toolchain.SUBJECT_UBSAN).
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_broken_policy.c"), "broken_policy",
                          REF_FLAGS + ["-I" + ADAPTERS] + b.subject_ubsan()))
    return objs, link, info
