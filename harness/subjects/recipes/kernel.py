"""Recipe for kernel:DIR subjects (docs/kernel-build-notes.md).

The tree's own include/linux/lz4.h and linux/decompress/*.h are used as they
are; kernel infrastructure headers come from harness/subjects/kshim/
(written here). Partial trees build what they have and report what is
missing.
"""
import os

from harness.paths import ADAPTERS, KSHIM
from harness.subjects.versions import kernel_version
from harness.toolchain import OUR_WARNINGS, SUBJECT_WARNINGS

# The kernel's C dialect (top-level Makefile KBUILD_CFLAGS): without
# -fno-strict-aliasing the compressor's table punning would be UB here
# when it is not in the kernel. -fno-strict-overflow is -fwrapv in clang,
# which is also the kernel's semantics for signed overflow.
KERNEL_DIALECT = ["-std=gnu11", "-fno-strict-aliasing", "-fno-common",
                  "-fno-strict-overflow", "-fno-delete-null-pointer-checks"]
# A gap in the shim must stop the build, not become an implicit declaration.
SHIM_GUARDS = ["-Werror=implicit-function-declaration", "-Werror=implicit-int",
               "-Werror=int-conversion", "-Werror=incompatible-pointer-types"]
SOURCES = ["lib/lz4/lz4_decompress.c", "lib/lz4/lz4_compress.c",
           "lib/lz4/lz4hc_compress.c", "lib/decompress_unlz4.c"]
PROBES = [
    "LZ4_decompress_safe", "LZ4_decompress_safe_partial", "LZ4_decompress_fast",
    "LZ4_decompress_safe_usingDict", "LZ4_compress_default", "LZ4_compress_fast",
    "LZ4_compress_destSize", "LZ4_compress_HC", "LZ4_loadDict",
    "LZ4_compress_fast_continue", "lz4_compress", "lz4hc_compress", "lz4_decompress",
    "lz4_decompress_unknownoutputsize",
]
# The 2017 patch set declared LZ4_compress_fast(..., void *wrkmem, int acceleration);
# mainline has (..., int acceleration, void *wrkmem). Probe the mainline order.
FAST_ORDER_PROBE = """
int probe(const char *s, char *d) { return LZ4_compress_fast(s, d, 1, 1, 1, (void *)0); }
"""
# Which file defines an entry point: a declared entry point whose file a
# partial tree lacks is not linked (the old API's are taken as declared).
DEFINED_BY = {
    "unlz4": "lib/decompress_unlz4.c",
    "LZ4_compress_HC": "lib/lz4/lz4hc_compress.c",
    "LZ4_compress_default": "lib/lz4/lz4_compress.c",
    "LZ4_compress_fast": "lib/lz4/lz4_compress.c",
    "LZ4_compress_destSize": "lib/lz4/lz4_compress.c",
    "LZ4_loadDict": "lib/lz4/lz4_compress.c",
    "LZ4_compress_fast_continue": "lib/lz4/lz4_compress.c",
    "LZ4_decompress_safe": "lib/lz4/lz4_decompress.c",
    "LZ4_decompress_safe_partial": "lib/lz4/lz4_decompress.c",
    "LZ4_decompress_fast": "lib/lz4/lz4_decompress.c",
    "LZ4_decompress_safe_usingDict": "lib/lz4/lz4_decompress.c",
}


def build_kernel(b, stage):
    inc = ["-I" + KSHIM, "-I" + os.path.join(stage, "include")]
    flags = KERNEL_DIALECT + inc
    header = "#include <linux/lz4.h>\n"
    syms = b.probe(flags, header, PROBES)
    if os.path.isfile(os.path.join(stage, "include/linux/decompress/unlz4.h")) and \
            os.path.isfile(os.path.join(stage, "lib/decompress_unlz4.c")):
        syms += b.probe(flags, header + "#include <linux/decompress/unlz4.h>\n", ["unlz4"])
    present = [f for f in SOURCES if os.path.isfile(os.path.join(stage, f))]
    missing = [f for f in SOURCES if f not in present]
    usable = [s for s in syms if s not in DEFINED_BY or DEFINED_BY[s] in present]
    defines = ["-DHAVE_" + s.upper() for s in usable]
    if "LZ4_compress_fast" in usable and b.probe_source(flags, header + FAST_ORDER_PROBE):
        defines.append("-DHAVE_KERNEL_FAST_MAINLINE_ORDER")
    objs = [b.compile(os.path.join(stage, f), "k_" + os.path.basename(f)[:-2],
                      flags + SUBJECT_WARNINGS + SHIM_GUARDS + b.subject_ubsan())
            for f in present]
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_kernel.c"), "adapter",
                          OUR_WARNINGS + KERNEL_DIALECT[1:] + inc + defines +
                          ["-I" + ADAPTERS, '-DSUBJECT_NAME="%s"' % b.s.spec]))
    if missing:
        b.say("partial tree: missing " + ", ".join(missing))
    return objs, [], {"kind": "kernel", "entry_points": usable, "missing": missing,
                      "version": kernel_version(b.s.path)}
