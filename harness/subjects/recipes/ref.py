"""Recipes for the reference codec behind the subject ABI: ref, ref with one
named check compiled out (ref-mutant:CHECK), and a deliberately broken
adapter in front of ref (broken:MODE)."""
import os

from harness.paths import ADAPTERS, REF
from harness.subjects import refcodec
from harness.subjects import streaming as stream
from harness.toolchain import OUR_WARNINGS

REF_FLAGS = OUR_WARNINGS + ["-I" + REF]


def build_ref(b, _stage, mutant="", entry="lz4gate_subject"):
    flags = REF_FLAGS + (["-DREF_MUTANT=" + mutant] if mutant else [])
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
    return build_ref(b, stage, mutant=b.s.variant)


def build_broken(b, stage):
    objs, link, info = build_ref(b, stage, entry="lz4gate_ref_subject")
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_broken.c"), "broken",
                          REF_FLAGS + ["-I" + ADAPTERS, "-DBROKEN=" + b.s.variant]))
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_broken_profile.c"), "broken_profile",
                          REF_FLAGS + ["-I" + ADAPTERS]))
    return objs, link, info
