"""The streaming and allocation-failure part of every recipe: compile probes
for the streaming block API (LZ4_stream_t, LZ4_streamHC_t,
LZ4_streamDecode_t) and LZ4F's custom memory manager, the stream adapter of
each kind (adapters/adapter_stream_{upstream,kernel,ref}.c), and the
allocation hook (adapters/alloc_hook.h, alloc_hook.c) that lets the N-th
allocation of a subject's library code fail (subject.h alloc_fail_at).

Each recipe calls one function here; what a tree has is decided by compile
probes, never by its version.
"""
import os
import subprocess
import tempfile

from harness.paths import ADAPTERS
from harness.toolchain import OUR_WARNINGS

# Force-included into library sources whose allocations are counted.
ALLOC_HOOK = ["-include", os.path.join(ADAPTERS, "alloc_hook.h")]

STREAM_PROBES = [
    "LZ4_createStream", "LZ4_freeStream", "LZ4_resetStream", "LZ4_resetStream_fast",
    "LZ4_loadDict", "LZ4_saveDict", "LZ4_compress_fast_continue", "LZ4_attach_dictionary",
    "LZ4_createStreamDecode", "LZ4_freeStreamDecode", "LZ4_setStreamDecode",
    "LZ4_decompress_safe_continue",
]
STREAM_HC_PROBES = [
    "LZ4_createStreamHC", "LZ4_freeStreamHC", "LZ4_resetStreamHC", "LZ4_resetStreamHC_fast",
    "LZ4_loadDictHC", "LZ4_saveDictHC", "LZ4_compress_HC_continue", "LZ4_attach_HC_dictionary",
]
FRAME_MEM_PROBES = [
    "LZ4F_createCompressionContext_advanced", "LZ4F_createDecompressionContext_advanced",
    "LZ4F_createCDict_advanced", "LZ4F_compressBegin_usingCDict",
]
# Trees before LZ4_compress_fast_continue / LZ4_compress_HC_continue
# (r118-r128, r124-r128) compress a stream with *_limitedOutput_continue,
# which in r117 took a void * state: probe the stream-typed signature.
OLD_CONTINUE_PROBES = {
    "HAVE_STREAM_LIMITEDOUTPUT_CONTINUE":
        "int probe(LZ4_stream_t *s, const char *a, char *b)\n"
        "{ return LZ4_compress_limitedOutput_continue(s, a, b, 1, 1); }\n",
    "HAVE_STREAMHC_LIMITEDOUTPUT_CONTINUE":
        "int probe(LZ4_streamHC_t *s, const char *a, char *b)\n"
        "{ return LZ4_compressHC_limitedOutput_continue(s, a, b, 1, 1); }\n",
}
# The kernel's calls, probed with the adapter's own argument lists (patch
# sets have reordered arguments before: recipes/kernel.py FAST_ORDER_PROBE).
KERNEL_STREAM_PROBES = {
    "LZ4_resetStream": "void probe(LZ4_stream_t *s) { LZ4_resetStream(s); }",
    "LZ4_loadDict": "int probe(LZ4_stream_t *s, const char *d) { return LZ4_loadDict(s, d, 1); }",
    "LZ4_saveDict": "int probe(LZ4_stream_t *s, char *d) { return LZ4_saveDict(s, d, 1); }",
    "LZ4_compress_fast_continue": "int probe(LZ4_stream_t *s, const char *a, char *b)\n"
                                  "{ return LZ4_compress_fast_continue(s, a, b, 1, 1, 1); }",
    "LZ4_setStreamDecode": "int probe(LZ4_streamDecode_t *s, const char *d)\n"
                           "{ return LZ4_setStreamDecode(s, d, 1); }",
    "LZ4_decompress_safe_continue": "int probe(LZ4_streamDecode_t *s, const char *a, char *b)\n"
                                    "{ return LZ4_decompress_safe_continue(s, a, b, 1, 1); }",
    "LZ4_resetStreamHC": "void probe(LZ4_streamHC_t *s) { LZ4_resetStreamHC(s, 9); }",
    "LZ4_loadDictHC": "int probe(LZ4_streamHC_t *s, const char *d)\n"
                      "{ return LZ4_loadDictHC(s, d, 1); }",
    "LZ4_saveDictHC": "int probe(LZ4_streamHC_t *s, char *d) { return LZ4_saveDictHC(s, d, 1); }",
    "LZ4_compress_HC_continue": "int probe(LZ4_streamHC_t *s, const char *a, char *b)\n"
                                "{ return LZ4_compress_HC_continue(s, a, b, 1, 1); }",
}
# Which file of a (possibly partial) kernel tree defines each entry point.
KERNEL_DEFINED_BY = {"HC": "lib/lz4/lz4hc_compress.c", "Decode": "lib/lz4/lz4_decompress.c",
                     "": "lib/lz4/lz4_compress.c"}


def _exported(b, flags, header, syms, libs):
    """The symbols of syms a program linked with libs can call: a shared
    library may leave static-linking-only entry points unexported (Debian's
    liblz4 1.9.4 has no LZ4_attach_dictionary), which a compile probe
    cannot see."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for sym in syms:
            src = os.path.join(tmp, "probe.c")
            with open(src, "w") as f:
                f.write("%s\nint main(void) { return (int)(long)(void *)&%s; }\n" % (header, sym))
            proc = subprocess.run([b.cc] + b.flags + flags + [src, "-o", os.path.join(tmp, "p")] +
                                  libs, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if proc.returncode == 0:
                out.append(sym)
    return out


def _defines(syms):
    return ["-D" + ("HAVE_" + s.upper() if not s.startswith("HAVE_") else s) for s in syms]


def upstream_objects(b, flags, header_dirs, adapter_flags, hooked, libs=()):
    """The stream adapter of an upstream tree or the system library, and the
    allocation counter. flags: the tree's compile flags; header_dirs: where
    its headers are (the copy's, then --include's); adapter_flags: the
    frame adapter's (with the tree's HAVE_ macros); hooked: the library
    sources were built with ALLOC_HOOK; libs: a library the subject links
    (the system liblz4), whose exports decide, not its headers."""
    header = ('#include <stddef.h>\n#define LZ4_STATIC_LINKING_ONLY\n'
              '#define LZ4_HC_STATIC_LINKING_ONLY\n#include "lz4.h"\n')
    syms = b.probe(flags, header, STREAM_PROBES)
    extra = []
    have_hc = any(os.path.isfile(os.path.join(d, "lz4hc.h")) for d in header_dirs)
    if have_hc:
        header += '#include "lz4hc.h"\n'
        syms += b.probe(flags, header, STREAM_HC_PROBES)
        extra.append("HAVE_LZ4HC_H")
    if libs:
        syms = _exported(b, flags, header, syms, list(libs))
    old = [(macro, body) for macro, body in sorted(OLD_CONTINUE_PROBES.items())
           if have_hc or "HC" not in macro]
    found = b.probe_sources(flags, header, [body for _, body in old])
    extra += [macro for (macro, _), ok in zip(old, found) if ok]
    if "-DHAVE_LZ4FRAME" in adapter_flags:
        frame_header = '#define LZ4F_STATIC_LINKING_ONLY\n#include "lz4frame.h"\n'
        frame = b.probe(flags, frame_header, FRAME_MEM_PROBES)
        syms += _exported(b, flags, frame_header, frame, list(libs)) if libs else frame
        extra.append("HAVE_LZ4FRAME_H")
    if hooked:
        extra.append("HAVE_ALLOC_HOOK")
    objs = [b.compile(os.path.join(ADAPTERS, "adapter_stream_upstream.c"), "adapter_stream",
                      adapter_flags + _defines(syms + extra)),
            alloc_hook_object(b)]
    return objs, syms + extra


def alloc_hook_object(b):
    """The allocation counter: lz4gate's own C, which includes nothing of
    the subject's, so one object serves every subject of a configuration
    (compiled with a subject's flags it was compiled 65 times in make test)."""
    return b.compile(os.path.join(ADAPTERS, "alloc_hook.c"), "alloc_hook",
                     OUR_WARNINGS + ["-I" + ADAPTERS])


def kernel_objects(b, flags, adapter_flags, present):
    """The stream adapter of a Linux tree (4.11+): flags probe the tree's
    linux/lz4.h; present: the tree's source files (a partial tree does not
    link what it lacks)."""
    probes = sorted(KERNEL_STREAM_PROBES.items())
    found = b.probe_sources(flags, "#include <linux/lz4.h>\n", [body for _, body in probes])
    syms = [name for (name, _), ok in zip(probes, found) if ok]
    usable = []
    for s in syms:
        kind = "HC" if "HC" in s else "Decode" if "Decode" in s or "decompress" in s else ""
        if KERNEL_DEFINED_BY[kind] in present:
            usable.append(s)
    obj = b.compile(os.path.join(ADAPTERS, "adapter_stream_kernel.c"), "adapter_stream",
                    adapter_flags + _defines(usable))
    return [obj], usable


def ref_objects(b, flags):
    """ref's stream adapter and the allocation counter (ref's own sources
    and frame adapter are built with ALLOC_HOOK by recipes/ref.py)."""
    inc = ["-I" + ADAPTERS]
    # broken:MODE (adapter_broken_modes.h's MODE_ table) copies ref's table: the
    # planted bugs of the stream and allocation slots are ref's own
    # (adapter_stream_ref.c, BROKEN_<mode>).
    if b.s.kind == "broken":
        # -DBROKEN_<mode> only for the modes the file has: the others share
        # one object (make test compiled it 46 times, 23 CPU s, before).
        with open(os.path.join(ADAPTERS, "adapter_stream_ref.c")) as f:
            mine = "BROKEN_%s)" % b.s.variant in f.read()
        inc += ["-DBROKEN_ANY"] + (["-DBROKEN_" + b.s.variant] if mine else [])
    return [b.compile(os.path.join(ADAPTERS, "adapter_stream_ref.c"), "adapter_stream",
                      flags + inc),
            alloc_hook_object(b)]
