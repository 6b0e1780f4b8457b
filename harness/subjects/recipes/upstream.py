"""Recipes for upstream lz4 trees (upstream:DIR, every release layout) and
the system liblz4 (its headers, linked with -llz4). Which entry points a
tree has is decided by compile probes on its headers, never by version."""
import os

from harness.errors import BadInput
from harness.paths import ADAPTERS
from harness.subjects import streaming as stream
from harness.subjects.spec import UPSTREAM_SOURCES
from harness.subjects.versions import upstream_version
from harness.toolchain import OUR_WARNINGS, SUBJECT_WARNINGS

UPSTREAM_PROBES = [
    "LZ4_compressBound", "LZ4_decompress_safe", "LZ4_decompress_safe_partial",
    "LZ4_decompress_fast", "LZ4_decompress_safe_usingDict", "LZ4_compress_default",
    "LZ4_compress_fast", "LZ4_compress_destSize", "LZ4_compress_limitedOutput",
    "LZ4_uncompress", "LZ4_uncompress_unknownOutputSize", "LZ4_loadDict",
    "LZ4_compress_fast_continue",
]
UPSTREAM_HC_PROBES = ["LZ4_compress_HC", "LZ4_compressHC2_limitedOutput",
                      "LZ4_compress_HC_extStateHC", "LZ4_sizeofStateHC"]
FRAME_PROBES = ["LZ4F_decompress", "LZ4F_resetDecompressionContext", "LZ4F_decompress_usingDict",
                "LZ4F_compressFrame", "LZ4F_compressBegin", "LZ4F_compressBegin_usingCDict"]
# How the frame API's versions differ (adapter_upstream_frame.c): each probe
# program compiles only where the tree has the feature; HAVE_<NAME> if so.
FRAME_SOURCE_PROBES = {
    # r129 renamed the enums LZ4F_blockIndependent, ... (r123-r128: blockIndependent)
    "LZ4F_PREFIXED_ENUMS": "int probe(void) { LZ4F_blockSizeID_t b = LZ4F_max64KB; "
                           "return (int)b + LZ4F_blockIndependent + "
                           "LZ4F_contentChecksumEnabled; }\n",
    # frameInfo members: contentSize (r128), dictID and blockChecksumFlag (1.8.0)
    "LZ4F_FRAMEINFO_CONTENTSIZE": "unsigned long long probe(LZ4F_frameInfo_t *f) "
                                  "{ return f->contentSize; }\n",
    "LZ4F_FRAMEINFO_DICTID": "unsigned probe(LZ4F_frameInfo_t *f) { return f->dictID; }\n",
    "LZ4F_FRAMEINFO_BLOCKCHECKSUMFLAG": "void probe(LZ4F_frameInfo_t *f) "
                                        "{ f->blockChecksumFlag = LZ4F_blockChecksumEnabled; }\n",
}


def _flags(incdir):
    # Deprecated entry points are tested on purpose: their warning is turned
    # off here, not with the headers' own LZ4_DISABLE_DEPRECATE_WARNINGS,
    # which some 2016 dev snapshots (reporting 1.7.2) define as a macro
    # without its parameter, so that lz4.h no longer compiles when it is set.
    return ["-std=gnu11", "-I" + incdir, "-Wno-deprecated-declarations"]


def _build_upstream_like(b, incdir, sources, name):
    flags = _flags(incdir)
    header = '#define LZ4_HC_STATIC_LINKING_ONLY 1\n#include "lz4.h"\n'
    syms = b.probe(flags, header, UPSTREAM_PROBES)
    if os.path.isfile(os.path.join(incdir, "lz4hc.h")):
        syms += b.probe(flags, header + '#include "lz4hc.h"\n', UPSTREAM_HC_PROBES)
    if "LZ4_decompress_safe" not in syms and "LZ4_uncompress_unknownOutputSize" not in syms:
        raise BadInput("%s declares no LZ4 decoder in %s/lz4.h; is this an lz4 tree?"
                       % (b.s.spec, incdir))
    frame_syms, frame_features = [], []
    if os.path.isfile(os.path.join(incdir, "lz4frame.h")) and \
            (not sources or any(src.endswith("lz4frame.c") for src in sources)):
        # lz4frame_static.h (r126+) includes lz4frame.h and, up to v1.8.1,
        # declares the static-linking-only entry points (the CDict ones).
        # The macro is defined empty, as lz4frame_static.h (1.8.2+) defines
        # it: another value is a redefinition warning, and probes use -Werror.
        static = os.path.isfile(os.path.join(incdir, "lz4frame_static.h"))
        if static:
            frame_features.append("LZ4FRAME_STATIC_H")
        header = '#define LZ4F_STATIC_LINKING_ONLY\n#include "%s"\n' % (
            "lz4frame_static.h" if static else "lz4frame.h")
        frame_syms = b.probe(flags, header, FRAME_PROBES)
        frame_features += [name for name, body in FRAME_SOURCE_PROBES.items()
                           if b.probe_source(flags, header + body)]
    defines = ["-DHAVE_" + s.upper() for s in syms + frame_syms] + \
        ["-DHAVE_" + f for f in frame_features]
    if "LZ4F_decompress" in frame_syms or "LZ4F_compressFrame" in frame_syms:
        defines.append("-DHAVE_LZ4FRAME")
    objs = [b.compile(src, os.path.basename(src)[:-2],
                      flags + SUBJECT_WARNINGS + b.subject_ubsan() + stream.ALLOC_HOOK)
            for src in sources]
    adapter_flags = OUR_WARNINGS + flags + defines + ["-I" + ADAPTERS,
                                                      '-DSUBJECT_NAME="%s"' % name]
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_upstream.c"), "adapter",
                          adapter_flags))
    if "-DHAVE_LZ4FRAME" in defines:
        objs.append(b.compile(os.path.join(ADAPTERS, "adapter_upstream_frame.c"),
                              "adapter_frame", adapter_flags))
    objs += stream.upstream_objects(b, flags, incdir, adapter_flags, bool(sources),
                                    [] if sources else ["-llz4"])[0]
    return objs, {"kind": b.s.kind, "entry_points": syms + frame_syms,
                  "features": frame_features,
                  "version": upstream_version(os.path.join(incdir, "lz4.h"))}


def build_upstream(b, stage):
    layout = os.path.dirname(b.s.files[0])
    incdir = os.path.join(stage, layout)
    sources = [os.path.join(stage, f) for f in b.s.files
               if os.path.basename(f) in UPSTREAM_SOURCES]
    objs, info = _build_upstream_like(b, incdir, sources, b.s.spec)
    return objs, [], info


def build_system(b, _stage):
    if b.bits != 64:
        raise BadInput("the system liblz4 exists for the native 64-bit ABI only; "
                       "use a 64-bit configuration for 'system'")
    if not os.path.isfile("/usr/include/lz4.h"):
        raise BadInput("the system liblz4 headers are missing; run: make deps")
    objs, info = _build_upstream_like(b, "/usr/include", [], "system")
    return objs, ["-llz4"], info
