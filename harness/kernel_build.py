"""Build recipe for kernel:DIR subjects (see harness/kernel_build_notes.md).

The tree's own include/linux/lz4.h and linux/decompress/*.h are used as they
are; kernel infrastructure headers come from harness/kshim/ (written here).
Partial trees build what they have and report what is missing.
"""
import os

import subjects

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


def kernel_objects(builder, stage):
    kshim = os.path.join(subjects.HARNESS, "kshim")
    inc = ["-I" + kshim, "-I" + os.path.join(stage, "include")]
    flags = KERNEL_DIALECT + inc
    header = "#include <linux/lz4.h>\n"
    syms = builder._probe(flags, header, subjects.KERNEL_PROBES)
    if os.path.isfile(os.path.join(stage, "include/linux/decompress/unlz4.h")) and \
            os.path.isfile(os.path.join(stage, "lib/decompress_unlz4.c")):
        syms += builder._probe(flags, header + "#include <linux/decompress/unlz4.h>\n",
                               ["unlz4"])
    defines = ["-DHAVE_" + s.upper() for s in syms]
    if "LZ4_compress_fast" in syms:
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            if subjects.compile_ok(builder.cc, flags, header + subjects.KERNEL_FAST_ORDER_PROBE,
                                   tmp):
                defines.append("-DHAVE_KERNEL_FAST_MAINLINE_ORDER")
    present = [f for f in SOURCES if os.path.isfile(os.path.join(stage, f))]
    missing = [f for f in SOURCES if f not in present]
    objs = []
    for f in present:
        name = "k_" + os.path.basename(f)[:-2]
        objs.append(builder.compile(os.path.join(stage, f), builder.obj(name),
                                    flags + subjects.SUBJECT_WARNINGS + SHIM_GUARDS +
                                    builder.subject_ubsan()))
    # Entry points declared but not defined (a partial tree) must not be
    # linked: keep only declarations whose defining file is present.
    defined_by = {"unlz4": "lib/decompress_unlz4.c"}
    for s in ("LZ4_compress_HC",):
        defined_by[s] = "lib/lz4/lz4hc_compress.c"
    for s in ("LZ4_compress_default", "LZ4_compress_fast", "LZ4_compress_destSize",
              "LZ4_loadDict", "LZ4_compress_fast_continue"):
        defined_by[s] = "lib/lz4/lz4_compress.c"
    for s in ("LZ4_decompress_safe", "LZ4_decompress_safe_partial", "LZ4_decompress_fast",
              "LZ4_decompress_safe_usingDict"):
        defined_by[s] = "lib/lz4/lz4_decompress.c"
    usable = [s for s in syms if defined_by.get(s, SOURCES[0]) in present or s not in defined_by]
    defines = [d for d in defines if not d.startswith("-DHAVE_") or
               d[7:].lower() in [u.lower() for u in usable] or "MAINLINE_ORDER" in d]
    objs.append(builder.compile(os.path.join(subjects.HARNESS, "adapter_kernel.c"),
                                builder.obj("adapter"),
                                subjects.OUR_WARNINGS + KERNEL_DIALECT[1:] + inc + defines +
                                ["-I" + subjects.HARNESS,
                                 '-DSUBJECT_NAME="%s"' % builder.s.spec]))
    if missing:
        builder.say("partial tree: missing " + ", ".join(missing))
    return objs, [], {"kind": "kernel", "entry_points": usable, "missing": missing,
                      "version": kernel_version(builder.s.path)}


def kernel_version(tree):
    try:
        with open(os.path.join(tree, "Makefile")) as f:
            vals = dict(l.split("=", 1) for l in f.read().splitlines()[:8] if "=" in l)
        return ".".join(vals[k].strip() for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL"))
    except (OSError, KeyError, ValueError):
        return ""
