"""Recipes for upstream lz4 trees (upstream:DIR, every release layout) and
the system liblz4 (its headers, linked with -llz4). Which entry points a
tree has is decided by compile probes on its headers, never by version."""
import os
import re

from harness.errors import BadInput
from harness.paths import ADAPTERS
from harness.subjects import streaming as stream
from harness.subjects.find import ctext
from harness.subjects.spec import UPSTREAM_SOURCES
from harness.subjects.versions import upstream_version
from harness.toolchain import OUR_WARNINGS, SUBJECT_WARNINGS

UPSTREAM_PROBES = [
    "LZ4_compressBound", "LZ4_decompress_safe", "LZ4_decompress_safe_partial",
    "LZ4_decompress_fast", "LZ4_decompress_safe_usingDict", "LZ4_compress_default",
    "LZ4_compress_fast", "LZ4_compress_destSize", "LZ4_compress_limitedOutput",
    "LZ4_uncompress", "LZ4_uncompress_unknownOutputSize", "LZ4_loadDict",
    "LZ4_compress_fast_continue", "LZ4_decompress_fast_usingDict",
]
UPSTREAM_HC_PROBES = ["LZ4_compress_HC", "LZ4_compressHC2_limitedOutput",
                      "LZ4_compress_HC_extStateHC", "LZ4_sizeofStateHC",
                      "LZ4_compress_HC_destSize"]
FRAME_PROBES = ["LZ4F_decompress", "LZ4F_resetDecompressionContext", "LZ4F_decompress_usingDict",
                "LZ4F_compressFrame", "LZ4F_compressBegin", "LZ4F_compressBegin_usingCDict",
                "LZ4F_getFrameInfo", "LZ4F_flush"]
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
    # frameInfo.frameType (r129, with the prefixed enums)
    "LZ4F_FRAMEINFO_FRAMETYPE": "int probe(LZ4F_frameInfo_t *f) "
                                "{ return f->frameType == LZ4F_skippableFrame; }\n",
    # preferences.favorDecSpeed (1.8.2)
    "LZ4F_PREFS_FAVORDECSPEED": "void probe(LZ4F_preferences_t *p) { p->favorDecSpeed = 1; }\n",
}


def _flags(incdir):
    # Deprecated entry points are tested on purpose: their warning is turned
    # off here, not with the headers' own LZ4_DISABLE_DEPRECATE_WARNINGS,
    # which some 2016 dev snapshots (reporting 1.7.2) define as a macro
    # without its parameter, so that lz4.h no longer compiles when it is set.
    return ["-std=gnu11", "-I" + incdir, "-Wno-deprecated-declarations"]


# How lz4.c names its header: "lz4.h", or a path ending in it (u-boot's
# <u-boot/lz4.h>, kept outside the copy's directory).
LZ4_H_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])((?:[^>"]*/)?lz4\.h)[>"]', re.M)


def header_dir(b, lz4_c, dirs):
    """The directory of the lz4.h that the copy's lz4.c includes, found as
    the compiler finds it (its own directory first for a quoted name, then
    the tree's and the --include directories); the adapter and the probes
    include that "lz4.h"."""
    with open(lz4_c, encoding="utf-8", errors="replace") as f:
        m = LZ4_H_INCLUDE.search(f.read())
    name = m.group(2) if m else "lz4.h"
    search = ([os.path.dirname(lz4_c)] if not m or m.group(1) == '"' else []) + dirs
    for d in search:
        if os.path.isfile(os.path.join(d, name)):
            return os.path.dirname(os.path.normpath(os.path.join(d, name)))
    raise BadInput("%s: %s includes no lz4.h, and neither the copy nor an --include "
                   "directory has one: nothing declares its entry points"
                   % (b.s.spec, _shown(b, lz4_c)))


def _build_upstream_like(b, incdir, sources, name):
    flags = _flags(incdir) + b.api_flags        # (probes and adapters)
    objs, hdirs = [], [incdir] + b.s.includes
    if sources:
        # The copy's own files first: a header they include that is missing
        # is named by the compiler, and the probes below then count only
        # the entry points these objects define (a copy may keep a whole
        # lz4.h beside a decoder-only lz4.c).
        objs = [b.compile(src, os.path.basename(src)[:-2], _flags(incdir) + b.user_flags +
                          SUBJECT_WARNINGS + b.subject_ubsan() + stream.ALLOC_HOOK)
                for src in sources]
        b.copy_defines(objs)
        lz4_c = [src for src in sources if os.path.basename(src) == "lz4.c"]
        hdir = header_dir(b, lz4_c[0], hdirs) if lz4_c else incdir
        if hdir != incdir:
            flags, hdirs = ["-I" + hdir] + flags, [hdir] + hdirs

    def has(header):
        return any(os.path.isfile(os.path.join(d, header)) for d in hdirs)

    # (<stddef.h> first: a header kept outside the copy may use size_t
    # without including it, its users always include something before it.)
    header = '#include <stddef.h>\n#define LZ4_HC_STATIC_LINKING_ONLY 1\n#include "lz4.h"\n'
    syms = b.probe(flags, header, UPSTREAM_PROBES)
    if has("lz4hc.h"):
        syms += b.probe(flags, header + '#include "lz4hc.h"\n', UPSTREAM_HC_PROBES)
    frame_syms, frame_features = [], []
    if has("lz4frame.h") and \
            (not sources or any(src.endswith("lz4frame.c") for src in sources)):
        # lz4frame_static.h (r126+) includes lz4frame.h and, up to v1.8.1,
        # declares the static-linking-only entry points (the CDict ones).
        # The macro is defined empty, as lz4frame_static.h (1.8.2+) defines
        # it: another value is a redefinition warning, and probes use -Werror.
        static = has("lz4frame_static.h")
        if static:
            frame_features.append("LZ4FRAME_STATIC_H")
        header = '#define LZ4F_STATIC_LINKING_ONLY\n#include "%s"\n' % (
            "lz4frame_static.h" if static else "lz4frame.h")
        frame_syms = b.probe(flags, header, FRAME_PROBES)
        found = b.probe_sources(flags, header, list(FRAME_SOURCE_PROBES.values()))
        frame_features += [name for name, ok in zip(FRAME_SOURCE_PROBES, found) if ok]
    if not syms + frame_syms:
        raise BadInput("%s: no LZ4 entry point: %s declares none%s; is this an lz4 copy?" % (
            b.s.spec, _shown(b, os.path.join(hdirs[0], "lz4.h")),
            " that the copy's files define" if sources else ""))
    defines = ["-DHAVE_" + s.upper() for s in syms + frame_syms] + \
        ["-DHAVE_" + f for f in frame_features]
    if "LZ4F_decompress" in frame_syms or "LZ4F_compressFrame" in frame_syms:
        defines.append("-DHAVE_LZ4FRAME")
    adapter_flags = OUR_WARNINGS + flags + defines + ["-I" + ADAPTERS,
                                                      '-DSUBJECT_NAME="%s"' % name]
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_upstream.c"), "adapter",
                          adapter_flags))
    if "-DHAVE_LZ4FRAME" in defines:
        objs.append(b.compile(os.path.join(ADAPTERS, "adapter_upstream_frame.c"),
                              "adapter_frame", adapter_flags))
    objs += stream.upstream_objects(b, flags, hdirs, adapter_flags, bool(sources),
                                    [] if sources else ["-llz4"])[0]
    return objs, {"kind": b.s.kind, "entry_points": syms + frame_syms,
                  "features": frame_features,
                  "version": upstream_version(os.path.join(hdirs[0], "lz4.h"))}


def _shown(b, path):
    """A path of the copy or its tree as the user knows it."""
    for top in (b.stage, b.s.path):
        if top and path.startswith(top + os.sep):
            return os.path.relpath(path, top)
    return path


def companions(folder, names):
    """The LZ4 sources of a folder and the .c file of each header of the
    folder they include (transitively): xxhash.c for lz4frame.c's
    "xxhash.h", and a renamed companion too (librdkafka's lz4frame.c
    includes "rdxxhash.h": rdxxhash.c; issue 45). A .c file no LZ4 source
    reaches is the project's own (u-boot's lib/ holds lz4.c and xxhash.c,
    and no lz4frame.c)."""
    todo = [n for n in UPSTREAM_SOURCES if n in names and n != "xxhash.c"]
    done = []
    while todo:
        name = todo.pop(0)
        if name in done:
            continue
        done.append(name)
        with open(os.path.join(folder, name), errors="replace") as f:
            text = f.read()
        for inc in ctext.includes(text, quoted_only=True):
            stem, ext = os.path.splitext(inc)
            if ext == ".h" and "/" not in inc and stem + ".c" in names:
                todo.append(stem + ".c")
    return done


def build_upstream(b, stage):
    layout = os.path.dirname(b.s.files[0])
    incdir = os.path.join(stage, layout)
    names = {os.path.basename(f) for f in b.s.files if os.path.dirname(f) == layout}
    sources = [os.path.join(incdir, n) for n in companions(incdir, names)]
    objs, info = _build_upstream_like(b, incdir, sources, b.s.spec)
    return objs, [], info


def check_system_bits(spec, bits):
    """Refuse 'system' in a 32-bit configuration (callers ask before they
    build anything else: the refusal should not wait for other builds)."""
    if spec == "system" and int(bits) != 64:
        raise BadInput("the system liblz4 exists for the native 64-bit ABI only; "
                       "use a 64-bit configuration for 'system'")


def build_system(b, _stage):
    check_system_bits("system", b.bits)
    if not os.path.isfile("/usr/include/lz4.h"):
        raise BadInput("the system liblz4 headers are missing; run: make deps")
    objs, info = _build_upstream_like(b, "/usr/include", [], "system")
    return objs, ["-llz4"], info
