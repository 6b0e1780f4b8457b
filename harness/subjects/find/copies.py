"""Every copy of LZ4 under a tree: where it is, what version, what API.

A COPY is where LZ4's library sources are: a directory holding a C file
that DEFINES an LZ4 codec function (LZ4_compress*, LZ4_decompress*,
LZ4_uncompress*, LZ4F_*, or the old kernel API's lz4_compress,
lz4hc_compress, lz4_decompress, lz4_decompress_unknownoutputsize), public
or static. A file that only CALLS them (a binding, a wrapper, a codec
derived from LZ4 under its own names) is not one. Its path is the
directory a SPEC takes: a kernel's lib/lz4 is reported at the kernel's top
(kernel:DIR), an lz4 release tree's lib/ at the release's top (the
directory above lib/ when it has programs/ or "lz4" in its name); nothing
else inside a release tree (tests/, examples/, contrib/, ossfuzz/,
programs/) is a copy.

Only C files (.c, .h) whose path relative to the top names lz4 (file or
directory, any case) are opened, and version-control directories are not
entered, so a whole kernel tree takes seconds.
"""
import os
import re

from harness.subjects.versions import generation
from harness.subjects.find import ctext, fingerprints
from harness.subjects.versions import kernel_version, upstream_version

SKIP_DIRS = {".git", ".hg", ".svn", ".repo"}
MAX_BYTES = 4 << 20
DECODER = re.compile(r"^(LZ4F?_decompress\w*|LZ4_uncompress\w*|"
                     r"lz4_decompress|lz4_decompress_unknownoutputsize)$")
COMPRESSOR = re.compile(r"^(LZ4F?_compress\w*|LZ4_compressHC\w*|lz4_compress|lz4hc_compress)$")
KERNEL_SOURCES = {"lz4_compress.c", "lz4_decompress.c", "lz4hc_compress.c"}
# The files whose presence the listing shows.
UPSTREAM_NAMES = ("lz4.c", "lz4.h", "lz4hc.c", "lz4hc.h", "lz4frame.c", "lz4frame.h",
                  "lz4frame_static.h", "lz4file.c", "lz4file.h", "xxhash.c", "xxhash.h")
KERNEL_NAMES = ("lib/lz4/lz4_compress.c", "lib/lz4/lz4_decompress.c",
                "lib/lz4/lz4hc_compress.c", "lib/lz4/lz4defs.h", "include/linux/lz4.h",
                "lib/decompress_unlz4.c")
# The sources an upstream build compiles (harness/subjects/spec.py UPSTREAM_SOURCES).
UPSTREAM_SOURCES = ("lz4.c", "lz4hc.c", "lz4frame.c", "xxhash.c")
KINDS = ("upstream", "kernel", "decoder-only", "compressor-only", "project API")


def is_codec(name):
    """Whether defining name makes a file part of a copy (LZ4_compress_generic
    and LZ4_decompress_generic are such names)."""
    if name.endswith("Bound"):
        return False        # LZ4_compressBound: a header's size formula
    return bool(DECODER.match(name) or COMPRESSOR.match(name)) or name.startswith("LZ4F_")


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read(MAX_BYTES).decode("utf-8", "surrogateescape")
    except OSError:
        return ""


def walk(top):
    """(dirs, files): every directory holding a file named for lz4 -> its
    file names, and {relative path: text} of the C files to open."""
    dirs, texts = {}, {}
    for root, subdirs, names in os.walk(top):
        subdirs[:] = sorted(d for d in subdirs if d not in SKIP_DIRS)
        rel = os.path.relpath(root, top)
        rel = "" if rel == "." else rel
        in_lz4_dir = "lz4" in rel.lower()
        wanted = [n for n in names if n.endswith((".c", ".h")) and
                  (in_lz4_dir or "lz4" in n.lower())]
        if wanted:
            dirs[rel] = set(names)
            for n in wanted:
                texts[os.path.join(rel, n)] = _read(os.path.join(root, n))
    return dirs, texts


def _parent(rel):
    return os.path.dirname(rel)


def _copy_root(top, d, names):
    """(root, library directory, whether a Linux tree) of a copy whose
    defining files are in d."""
    parts = d.split(os.sep) if d else []
    if parts[-2:] == ["lib", "lz4"] and names & KERNEL_SOURCES and "lz4.c" not in names:
        return os.sep.join(parts[:-2]), d, True
    if parts[-1:] == ["lib"] and {"lz4.c", "lz4.h"} <= names:
        up = _parent(d)
        if os.path.isdir(os.path.join(top, up, "programs")) or \
                "lz4" in os.path.basename(up).lower():
            return up, d, False                       # an lz4 release tree
    return d, d, False


def _is_release(top, root, lib):
    return lib != root or os.path.isdir(os.path.join(top, root, "programs"))


def _under(path, root):
    return root == "" or path == root or path.startswith(root + os.sep)


def _common(a, b):
    n = 0
    for x, y in zip(a.split(os.sep), b.split(os.sep)):
        if x != y:
            break
        n += 1
    return n


def find_header(lib, defining, texts):
    """The lz4 header a copy's sources include: beside them, or a scanned
    header whose path ends with the #include name."""
    names = []
    for f in defining:
        names += [n for n in ctext.includes(texts[f])
                  if "lz4" in os.path.basename(n).lower() and n.endswith(".h")]
    for n in names:
        here = os.path.normpath(os.path.join(lib, n))
        if here in texts:
            return here
        hits = [h for h in texts if h.endswith(".h") and
                (h == n or h.endswith(os.sep + n))]
        if hits:      # the nearest: most folders in common, then the shallowest
            return min(hits, key=lambda h: (-_common(h, lib), h.count(os.sep), h))
    return None


def outside_includes(top, lib, texts):
    """"lz4frame.c: ../hashes/xxhash.h": the #include "..." of the library's
    sources that are not in its folder (a build of the folder alone, as
    staging does it, cannot find them)."""
    out = []
    for name in UPSTREAM_SOURCES:
        rel = os.path.join(lib, name)
        for inc in ctext.includes(texts.get(rel, ""), quoted_only=True):
            here = os.path.normpath(os.path.join(lib, inc))
            if _parent(here) != lib or not os.path.isfile(os.path.join(top, here)):
                out.append("%s: %s" % (name, inc))
    return out


def own_files(top, lib, seeds, texts):
    """The files that are the copy (top-relative paths): seeds (its LZ4
    files and header) and what they include by a quoted path that exists,
    transitively, with the .c file beside each included header of the same
    name (a renamed companion: "rdxxhash.h" brings "rdxxhash.c"). Other
    files of the folder are the project's (issue 45: a change beside the
    copy is no change to it)."""
    own, todo = set(), list(seeds)
    while todo:
        rel = todo.pop()
        if rel in own or not os.path.isfile(os.path.join(top, rel)):
            continue
        own.add(rel)
        text = texts[rel] if rel in texts else _read(os.path.join(top, rel))
        for inc in ctext.includes(text, quoted_only=True):
            here = os.path.normpath(os.path.join(_parent(rel), inc))
            todo.append(here)
            if here.endswith(".h"):
                todo.append(here[:-2] + ".c")
    return sorted(own)


def _kind(public, defined, gen, kernel):
    if kernel:
        return "kernel"
    pub_dec = any(DECODER.match(n) for n in public)
    pub_comp = any(COMPRESSOR.match(n) for n in public)
    has_dec = any(DECODER.match(n) for n in defined)
    has_comp = any(COMPRESSOR.match(n) for n in defined)
    if pub_dec and pub_comp:
        return "upstream"
    if pub_dec and not has_comp:
        return "decoder-only"
    if pub_comp and not has_dec:
        return "compressor-only"
    return "project API"


def _version(top, copy, texts, table):
    """(version, where it came from) and the releases whose lz4.c it is."""
    lz4c = os.path.join(copy["library"], "lz4.c")
    releases = table.get(ctext.fingerprint(texts[lz4c]), []) if lz4c in texts else []
    if copy["kind"] == "kernel":
        v = kernel_version(os.path.join(top, copy["path"]))
        return ("linux " + v, "Makefile") if v else ("unknown (no kernel Makefile)", ""), []
    header = copy["header"]
    v = upstream_version(os.path.join(top, header)) if header else ""
    if v:
        return (v, header), releases
    if releases:
        return ("/".join(releases) + " (by fingerprint)", "fingerprint"), releases
    why = "%s has no version" % os.path.basename(header) if header else "no header"
    what = "not a released lz4.c" if lz4c in texts else "no lz4.c"
    return ("unknown (%s; %s)" % (why, what), ""), releases


def scan(top, table=None):
    """The copies under top, sorted by path: dicts with path, kind,
    generation, version, version_from, releases, files, header, buildable,
    public (LZ4 entry points defined) and project_api (other exported names
    with lz4 in them)."""
    table = fingerprints.load() if table is None else table
    dirs, texts = walk(top)
    defs = {f: ctext.definitions(t) for f, t in texts.items()}
    copy_dirs = sorted({os.path.dirname(f) for f, d in defs.items()
                        if any(is_codec(n) for n in d)})
    roots = {}
    for d in copy_dirs:
        root, lib, kernel = _copy_root(top, d, dirs.get(d, set()))
        roots.setdefault((root, lib, kernel), []).append(d)
    releases = [(r, lib) for r, lib, kernel in roots
                if not kernel and _is_release(top, r, lib)]
    kernels = {os.path.join(r, "include", "linux") for r, _, kernel in roots if kernel}
    copies = []
    for (root, lib, kernel), members in sorted(roots.items()):
        if any(_under(m, r) and m != rl for r, rl in releases
               if (r, rl) != (root, lib) for m in members):
            continue        # tests, examples, programs of a release tree
        if set(members) <= kernels:
            continue        # a Linux tree's include/linux: part of its copy
        copies.append(_describe(top, root, lib, kernel, members, dirs, texts, defs, table))
    return copies


def _describe(top, root, lib, kernel, members, dirs, texts, defs, table):
    defining = sorted(f for f in defs if os.path.dirname(f) in members and
                      any(is_codec(n) for n in defs[f]))
    public = sorted({n for f in defining for n, how in defs[f].items()
                     if how == "public" and (is_codec(n) or n.startswith("LZ4"))})
    defined = {n for f in defining for n in defs[f]}
    project = sorted({n for f in defining for n, how in defs[f].items()
                      if how == "public" and "lz4" in n.lower() and n not in public})
    gen = generation(os.path.join(top, root)) if kernel else ""
    if kernel:
        files = [f for f in KERNEL_NAMES if os.path.isfile(os.path.join(top, root, f))]
        header = os.path.join(root, "include/linux/lz4.h") if "include/linux/lz4.h" in files \
            else None
    else:
        names = dirs.get(lib, set())
        # xxHash counts when the copy's sources use it (lz4frame.c), not
        # when it merely lies in the same folder of a project.
        xxh = any("xxhash.h" in ctext.includes(texts[os.path.join(lib, n)])
                  for n in names if os.path.join(lib, n) in texts and "lz4" in n.lower())
        files = [f for f in UPSTREAM_NAMES if f in names and (xxh or not f.startswith("xxhash"))]
        files += sorted(os.path.basename(f) for f in defining
                        if os.path.basename(f) not in files)
        header = os.path.join(lib, "lz4.h") if "lz4.h" in names else \
            find_header(lib, defining, texts)
    copy = {"path": root or ".", "library": lib, "kind": _kind(public, defined, gen, kernel),
            "generation": gen, "files": files, "header": header,
            "public": public, "project_api": project}
    (copy["version"], copy["version_from"]), copy["releases"] = \
        _version(top, copy, texts, table)
    copy["outside"] = [] if kernel else outside_includes(top, lib, texts)
    copy["own"] = [os.path.join(root, f) for f in files] if kernel else \
        own_files(top, lib, [os.path.join(lib, f) for f in files] + ([header] if header else []),
                  texts)
    if kernel:
        copy["buildable"] = bool(gen) and any(f.endswith(".c") for f in files)
    else:
        copy["buildable"] = copy["kind"] == "upstream" and {"lz4.c", "lz4.h"} <= set(files) \
            and not copy["outside"]
    copy["library"] = lib or "."
    return copy


def kind_label(copy):
    """"upstream", "kernel G3", "project API (zfs_lz4_compress_buf, ...)"."""
    if copy["kind"] == "kernel":
        return "kernel " + copy["generation"] if copy["generation"] else \
            "kernel, no include/linux/lz4.h"
    if copy["kind"] == "project API":
        names = copy["project_api"][:3] + copy["public"][:2]
        more = len(copy["project_api"]) + len(copy["public"]) > len(names)
        return "project API (%s%s)" % (", ".join(names), ", ..." if more else "") \
            if names else "project API (no public LZ4 function)"
    return copy["kind"]
