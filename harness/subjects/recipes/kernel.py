"""Recipe for kernel:DIR subjects (docs/kernel-build-notes.md).

The tree's own include/linux/lz4.h and linux/decompress/*.h are used as they
are; kernel infrastructure headers come from harness/subjects/kshim/
(written here). Partial trees build what they have and report what is
missing.
"""
import os
import re

from harness.errors import BadInput
from harness.paths import ADAPTERS, KSHIM
from harness.subjects import streaming as stream
from harness.subjects.versions import kernel_version
from harness.toolchain import OUR_WARNINGS, SUBJECT_WARNINGS

# The kernel's C dialect (top-level Makefile KBUILD_CFLAGS): without
# -fno-strict-aliasing the compressor's table punning would be UB here
# when it is not in the kernel. -fno-strict-overflow is -fwrapv in clang,
# which is also the kernel's semantics for signed overflow.
KERNEL_DIALECT = ["-std=gnu11", "-fno-strict-aliasing", "-fno-common",
                  "-fno-strict-overflow", "-fno-delete-null-pointer-checks"]
# A gap in the shim must stop the build, not become an implicit declaration.
# SUBJECT_WARNINGS' -w would silence these too (gcc and clang drop every
# diagnostic, -Werror= ones included), so kernel sources are compiled
# without it: their other warnings are printed to the captured compiler
# output and ignored.
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
# lib/decompress_unlz4.c took int sizes until 3.19 made them long: which
# one the tree's unlz4.h declares decides whether the adapter converts.
UNLZ4_INT_PROBE = """
int (*probe)(unsigned char *, int, int (*)(void *, unsigned int),
             int (*)(void *, unsigned int), unsigned char *, int *,
             void (*)(char *)) = unlz4;
"""
# (macro, probe, the entry point it is about): the argument shapes of a tree.
SHAPE_PROBES = (("HAVE_KERNEL_FAST_MAINLINE_ORDER", FAST_ORDER_PROBE, "LZ4_compress_fast"),
                ("HAVE_KERNEL_UNLZ4_INT", UNLZ4_INT_PROBE, "unlz4"))
# Which file defines an entry point: a declared entry point whose file a
# partial tree lacks is not linked. The old API's names are defined in the
# same files in 3.11-4.10 and by the 2017 update's wrappers.
DEFINED_BY = {
    "lz4_compress": "lib/lz4/lz4_compress.c",
    "lz4hc_compress": "lib/lz4/lz4hc_compress.c",
    "lz4_decompress": "lib/lz4/lz4_decompress.c",
    "lz4_decompress_unknownoutputsize": "lib/lz4/lz4_decompress.c",
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


# Files whose includes are checked before anything is compiled, and the
# tree headers an angle include may name (the rest come from the shim).
CHECKED = SOURCES + ["lib/lz4/lz4defs.h", "include/linux/lz4.h"]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
TREE_HEADER = re.compile(r"^linux/(lz4\.h|decompress/\w+\.h)$")
# Branches never compiled here: decompress_unlz4.c includes
# "lz4/lz4_decompress.c" only under STATIC (the boot decompressor's build).
NEVER_DEFINED = ("STATIC", "PREBOOT")
COND = re.compile(r"^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(.*)$")
# An LZ4 file of the 4.11+ API names one of these; a 3.11-4.10 file names
# none (a 4.11+ tree may keep the old names as wrappers, so the old names
# prove nothing). decompress_unlz4.c calls whichever API is declared and is
# left out. docs/fix-history.md#old-kernel-api-g1.
NEW_API = re.compile(r"\bLZ4_(decompress_safe|compress_fast|compress_default|compress_HC|"
                     r"read32|read_ARCH|compressBound)\b")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)   # names in comments prove nothing
API_FILES = ["include/linux/lz4.h", "lib/lz4/lz4defs.h", "lib/lz4/lz4_compress.c",
             "lib/lz4/lz4_decompress.c", "lib/lz4/lz4hc_compress.c"]


def _active_includes(text):
    """(kind, name) of the #includes outside #ifdef STATIC/PREBOOT branches."""
    out, stack = [], []          # stack: is this level's branch skipped?
    for line in text.splitlines():
        m = COND.match(line)
        if m:
            d, arg = m.group(1), m.group(2)
            never = any(re.search(r"\b%s\b" % n, arg) for n in NEVER_DEFINED)
            if d in ("ifdef", "if"):
                stack.append(never and "!" not in arg)
            elif d == "ifndef":
                stack.append(False)
            elif d == "else" and stack:
                stack[-1] = False
            elif d == "endif" and stack:
                stack.pop()
            continue
        if any(stack):
            continue
        m = INCLUDE.match(line)
        if m:
            out.append(m.groups())
    return out


def missing_headers(stage, include_dirs=()):
    """(missing file, file that includes it) for each tree file a present
    LZ4 file includes and neither the tree nor an --include directory has."""
    out = []
    for f in CHECKED:
        try:
            with open(os.path.join(stage, f), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        for kind, name in _active_includes(text):
            if kind == '"':
                rel = os.path.normpath(os.path.join(os.path.dirname(f), name))
            elif TREE_HEADER.match(name) and not os.path.isfile(os.path.join(KSHIM, name)):
                rel = os.path.join("include", name)
            else:
                continue
            elsewhere = name if kind == '"' else rel[len("include/"):]
            if not os.path.isfile(os.path.join(stage, rel)) and not any(
                    os.path.isfile(os.path.join(d, elsewhere)) for d in include_dirs):
                out.append((rel, f))
    return out


def api_of_files(stage):
    """{file: "old" | "new"} for the LZ4 files the tree has."""
    out = {}
    for f in API_FILES:
        try:
            with open(os.path.join(stage, f), encoding="utf-8", errors="replace") as fh:
                code = COMMENT.sub(" ", fh.read())
            out[f] = "new" if NEW_API.search(code) else "old"
        except OSError:
            pass
    return out


def refuse_odd_tree(spec, stage, include_dirs=()):
    """BadInput naming the problem when the tree cannot make one subject: a
    header its files include is missing, or its files come from both API
    generations (3.11-4.10 and 4.11+)."""
    gaps = missing_headers(stage, include_dirs)
    if gaps:
        raise BadInput("%s: missing %s" % (spec, "; ".join(
            "%s (included by %s)" % g for g in gaps)))
    apis = api_of_files(stage)
    if len(set(apis.values())) > 1:
        old = [f for f in apis if apis[f] == "old"]
        new = [f for f in apis if apis[f] == "new"]
        raise BadInput("%s mixes LZ4 API generations: %s of the old API (3.11-4.10), %s of "
                       "the 4.11+ API; give the files of one tree" % (
                           spec, ", ".join(old), ", ".join(new)))


def build_kernel(b, stage):
    refuse_odd_tree(b.s.spec, stage, b.s.includes)
    # (--include directories after the tree's own, --define macros too)
    inc = ["-I" + KSHIM, "-I" + os.path.join(stage, "include")] + b.user_flags
    flags = KERNEL_DIALECT + inc
    # G1's linux/lz4.h includes nothing and uses size_t: its users (kernel
    # .c files) always have <linux/types.h> first.
    header = "#include <linux/types.h>\n#include <linux/lz4.h>\n"
    syms = b.probe(flags, header, PROBES)
    if os.path.isfile(os.path.join(stage, "include/linux/decompress/unlz4.h")) and \
            os.path.isfile(os.path.join(stage, "lib/decompress_unlz4.c")):
        syms += b.probe(flags, header + "#include <linux/decompress/unlz4.h>\n", ["unlz4"])
    present = [f for f in SOURCES if os.path.isfile(os.path.join(stage, f))]
    missing = [f for f in SOURCES if f not in present]
    usable = [s for s in syms if s not in DEFINED_BY or DEFINED_BY[s] in present]
    defines = ["-DHAVE_" + s.upper() for s in usable]
    # (one compile for both: the unlz4 header changes nothing of the first)
    shapes = [(macro, body) for macro, body, entry in SHAPE_PROBES if entry in usable]
    if "unlz4" in usable:
        header += "#include <linux/decompress/unlz4.h>\n"
    found = b.probe_sources(flags, header, [body for _, body in shapes])
    defines += ["-D" + macro for (macro, _), ok in zip(shapes, found) if ok]
    subject_flags = [f for f in SUBJECT_WARNINGS if f != "-w"] + SHIM_GUARDS
    objs = [b.compile(os.path.join(stage, f), "k_" + os.path.basename(f)[:-2],
                      flags + subject_flags + b.subject_ubsan())
            for f in present]
    objs.append(b.compile(os.path.join(ADAPTERS, "adapter_kernel.c"), "adapter",
                          OUR_WARNINGS + KERNEL_DIALECT[1:] + inc + defines +
                          ["-I" + ADAPTERS, '-DSUBJECT_NAME="%s"' % b.s.spec]))
    objs += stream.kernel_objects(b, flags, OUR_WARNINGS + KERNEL_DIALECT[1:] + inc + defines +
                                  ["-I" + ADAPTERS], present)[0]
    if missing:
        b.say("partial tree: missing " + ", ".join(missing))
    return objs, [], {"kind": "kernel", "entry_points": usable, "missing": missing,
                      "version": kernel_version(b.s.path)}
