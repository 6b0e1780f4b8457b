"""Synthetic subject trees for testing lz4gate itself (tests/fixtures/).

No tree available on Debian 12 has the old kernel API (3.11-4.10) or the r1xx
upstream names, so the adapters' paths for them and the old-API contract
checks would otherwise never run. tests/fixtures/ holds trees in those
layouts whose code is ours, written on the reference codec
(tests/fixtures/README.md). materialize() writes one under
build/fixtures/NAME/: the reference sources are amalgamated into each .c file
at its @LZ4GATE_REF@ marker (so the normal kernel/upstream recipe builds it
with no extra include path), and the variant's #define is prepended.
"""
import os
import re

from harness import atomic
from harness.paths import BUILD, REF, TOP

FIXTURE_SRC = os.path.join(TOP, "tests", "fixtures")
FIXTURE_OUT = os.path.join(BUILD, "fixtures")
# "/* @LZ4GATE_REF:decode@ */" (or :encode, :all) marks where the reference
# sources go; a tree whose decoders and compressors live in separate files
# takes each half once, so the parts link together.
MARKER = re.compile(r"/\* @LZ4GATE_REF:(decode|encode|all)@ \*/")

# name: (template directory, subject kind, variant macro or None)
FIXTURES = {
    "kernel-g1": ("kernel-g1", "kernel", None),
    "kernel-g1-3.11": ("kernel-g1", "kernel", "G1_VARIANT_3_11"),
    "kernel-g1-compat": ("kernel-g1", "kernel", "G1_VARIANT_COMPAT"),
    "kernel-g1-srclen": ("kernel-g1", "kernel", "G1_VARIANT_SRCLEN"),
    "kernel-g1-dstlen": ("kernel-g1", "kernel", "G1_VARIANT_DSTLEN"),
    "upstream-r1xx": ("upstream-r1xx", "upstream", None),
}
# The block codec only (decoder, profile table, encoder), headers first.
REF_PARTS = {
    "decode": ["mutant.h", "checks.h", "lz4ref.h", "block_copy.h", "profile.c",
               "block_decode.c"],
    "encode": ["lz4ref.h", "block_encode.c"],
    "all": ["mutant.h", "checks.h", "lz4ref.h", "block_copy.h", "profile.c", "block_decode.c",
            "block_encode.c"],
}


STATIC_DEF = re.compile(r"(?m)^static\b[^;=(]*?\b(\w+)\s*\(")


def ref_amalgam(which):
    """The reference block codec as one text with our own includes removed.
    File-local (static) functions of the same name in two parts are renamed
    with a #define around the later part."""
    out = ["/* ---- lz4gate reference codec (amalgamated by harness/subjects/fixtures.py) ---- */"]
    seen = set()
    for part in REF_PARTS[which]:
        with open(os.path.join(REF, part)) as f:
            text = f.read()
        text = re.sub(r'(?m)^#include "[^"]+"\s*$', "", text)
        statics = set(STATIC_DEF.findall(text)) if part.endswith(".c") else set()
        clashes = sorted(statics & seen)
        seen |= statics
        tag = re.sub(r"\W", "_", part)
        out.append("/* ---- ref/%s ---- */" % part)
        out += ["#define %s %s__%s" % (n, n, tag) for n in clashes]
        out.append(text)
        out += ["#undef %s" % n for n in clashes]
    out.append("/* ---- end of the reference codec ---- */")
    return "\n".join(out) + "\n"


def materialize(name):
    """Write fixture NAME under build/fixtures/NAME; return (kind, path).
    Raises KeyError for an unknown name."""
    template, kind, variant = FIXTURES[name]
    src_top = os.path.join(FIXTURE_SRC, template)
    dst_top = os.path.join(FIXTURE_OUT, name)
    for root, _dirs, files in os.walk(src_top):
        for fname in files:
            src = os.path.join(root, fname)
            dst = os.path.join(dst_top, os.path.relpath(src, src_top))
            with open(src) as f:
                text = f.read()
            if fname.endswith((".c", ".h")) and variant:
                text = "#define %s 1\n" % variant + text
            text = MARKER.sub(lambda m: ref_amalgam(m.group(1)), text)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            old = None
            if os.path.exists(dst):
                with open(dst) as f:
                    old = f.read()
            if old != text:   # keep mtimes (and the build cache) when unchanged
                # (atomically: another process may be reading or staging it)
                atomic.write_file(dst, text)
    return kind, dst_top
