"""A SPEC to a Subject: what kind of implementation, where its LZ4 files are,
and an identity derived from their content.

  ref | system | upstream[:DIR] | kernel[:DIR] | auto:DIR
  project:DIR,adapter=FILE.c[,sources=A.c,...]   (a copy behind its project's API)
  ref-mutant:CHECK | broken:MODE | fixture:NAME   (for testing lz4gate itself)

DIR may be a project's top rather than the LZ4 folder itself: when it is
not an lz4 (or Linux) layout, the copy under it is found by scanning
(harness/subjects/find) and used when it is the only one of that kind;
auto:DIR takes either kind.
"""
import hashlib
import os
import re
import sys

from harness.errors import BadInput
from harness.paths import ADAPTERS, BUILD
from harness.subjects import fixtures, project, refcodec
from harness.subjects.find.copies import kind_label, scan
from harness.subjects.versions import kernel_version
from harness.toolchain import sha

# The default trees, fetched by `python3 -m harness fetch` (harness/subjects/fetch).
DEFAULT_TREES = {
    "upstream": os.path.join(BUILD, "subjects", "lz4-upstream"),
    "kernel": os.path.join(BUILD, "subjects", "linux-6.1"),
    "kernel-6.12": os.path.join(BUILD, "subjects", "linux-6.12"),
}
DEFAULT_KIND = {"upstream": "upstream", "kernel": "kernel", "kernel-6.12": "kernel"}

UPSTREAM_LAYOUTS = ("lib", ".")     # r125+ under lib/, older at the top
# Every .c/.h of the layout directory is staged (lz4hc.c includes lz4opt.h in
# v1.7.5-v1.8.1, other releases other private headers); only the library's
# units are compiled: the block codec, HC, the frame API (r124+) and the
# xxHash it checksums with. (lz4file.c, v1.9.4+, is a stdio layer.)
UPSTREAM_SOURCES = ("lz4.c", "lz4hc.c", "lz4frame.c", "xxhash.c")
KERNEL_FILES = ("lib/lz4/lz4_decompress.c", "lib/lz4/lz4_compress.c",
                "lib/lz4/lz4hc_compress.c", "lib/lz4/lz4defs.h",
                "include/linux/lz4.h", "lib/decompress_unlz4.c",
                "include/linux/decompress/unlz4.h", "include/linux/decompress/mm.h")

def broken_modes():
    """{mode: number} of the broken test subject: its MODE_ table
    (adapters/adapter_broken_modes.h, a line "#define MODE_NAME N" each)."""
    with open(os.path.join(ADAPTERS, "adapter_broken_modes.h")) as f:
        return {m: int(n) for m, n in re.findall(r"^#define MODE_(\w+) (\d+)$", f.read(), re.M)}


BROKEN_MODES = tuple(broken_modes())
TREE_KINDS = ("upstream", "kernel")
USAGE = ("use ref, system, upstream[:DIR], kernel[:DIR], auto:DIR, kernel-6.12, project:DIR "
         "with --adapter FILE.c (or, for testing lz4gate, ref-mutant:CHECK, broken:MODE, fixture:NAME)")
LOOKED_FOR = {"upstream": "lib/lz4.c and lz4.c with lz4.h beside them",
              "kernel": "include/linux/lz4.h and lib/lz4/*.c"}
_SCANS = {}          # a tree's copies, scanned once per process
_ANNOUNCED = set()   # the root SPECs whose choice was said on stderr


def upstream_layout(path):
    """An lz4 copy at path: lz4.c with lz4.h beside it (lib/ or the top), or
    path is the folder holding lz4.c itself (a copy keeping its header
    elsewhere, found through --include: u-boot's lib/). A project's lib/lz4.c
    without lz4.h is found by the scan instead (its lib/ holds the project's
    own files too)."""
    return os.path.isfile(os.path.join(path, "lz4.c")) or any(
        os.path.isfile(os.path.join(path, layout, "lz4.c")) and
        os.path.isfile(os.path.join(path, layout, "lz4.h")) for layout in UPSTREAM_LAYOUTS)


def kernel_layout(path):
    found = [f for f in KERNEL_FILES if os.path.isfile(os.path.join(path, f))]
    return "include/linux/lz4.h" in found and any(f.endswith(".c") for f in found)


def _family(copy):
    return "kernel" if copy["kind"] == "kernel" else "upstream"


def _listed(copies):
    return ", ".join("%s (%s)" % (c["path"], c["version"]) for c in copies)


def resolve_root(spec, kind, path):
    """(kind, directory) of the LZ4 copy a tree SPEC means: DIR itself when
    it has the layout of kind (upstream, kernel; auto: either), else the one
    copy of that kind a scan finds under it (said once on stderr)."""
    if kind in ("upstream", "auto") and upstream_layout(path):
        return "upstream", path
    if kind in ("kernel", "auto") and kernel_layout(path):
        return "kernel", path
    if path not in _SCANS:
        _SCANS[path] = scan(path)
    copies = _SCANS[path]
    usable = [c for c in copies if c["buildable"] and kind in ("auto", _family(c))]
    if len(usable) > 1:
        raise BadInput("%s holds %d LZ4 copies: %s; name one" % (spec, len(usable),
                                                                   _listed(usable)))
    if usable:
        c = usable[0]
        if spec not in _ANNOUNCED:
            _ANNOUNCED.add(spec)
            print("%s: using the LZ4 copy at %s (%s)" % (spec, c["path"], c["version"]),
                  file=sys.stderr)
        return _family(c), os.path.normpath(os.path.join(path, c["path"]))
    others = "; found only %s, none %s" % (
        ", ".join("%s (%s)" % (c["path"], c["kind"] if c["kind"] == "project API"
                                else kind_label(c)) for c in copies),
        "a Linux tree with both" if kind == "kernel" else "an lz4 copy lz4gate can build "
        "(lz4.c with its compressors and decoders, lz4.h beside it)") if copies else ""
    if kind == "kernel":
        raise BadInput("no kernel LZ4 sources in %s (looked for %s there and for a Linux "
                       "tree anywhere below it%s); pass the top of a Linux tree holding both"
                       % (path, LOOKED_FOR["kernel"], others))
    looked = LOOKED_FOR["upstream"] + (", " + LOOKED_FOR["kernel"] if kind == "auto" else "")
    pieces = [c for c in copies if c["kind"] in ("decoder-only", "compressor-only")]
    hint = ("; a copy in pieces builds named by its folder, upstream:%s, with --include DIR "
            "for a header kept elsewhere" % os.path.join(path, pieces[0]["path"])) \
        if pieces else ""
    apis = [c for c in copies if c["kind"] == "project API"]
    if apis and not hint:
        hint = ("; a copy behind its project's own API builds as project:%s with --adapter "
                "FILE.c (docs/subjects.md: Project APIs)" % os.path.join(path, apis[0]["path"]))
    raise BadInput("no LZ4 sources in %s (looked for %s there and for an LZ4 copy anywhere "
                   "below it%s); pass the top of an lz4 release tree or of a project that "
                   "holds one%s" % (path, looked, others, hint))


# --define NAME[=VALUE]: a configuration macro of the copy (LZ4_HEAPMODE,
# LZ4_MEMORY_USAGE, LZ4LIB_API, a renaming macro, ...); a function-like one
# too (LZ4_FREESTANDING's 'LZ4_memcpy(d,s,n)=__builtin_memcpy(d,s,n)').
DEFINE = re.compile(r"^[A-Za-z_]\w*(\([\w\s,.]*\))?(=.*)?$", re.S)


class Subject:
    """kind, path (a tree, or ""), variant, patches, includes (absolute
    directories searched for headers the copy does not hold: --include, a
    relative one resolved against the tree), defines (NAME or NAME=VALUE:
    --define), files (relative paths of the LZ4 files it is built from) and
    id (kind + a digest of all of these)."""

    def __init__(self, spec, patches=(), includes=(), defines=()):
        self.spec = spec
        self.patches = [os.path.abspath(p) for p in patches]
        self.includes, self.defines = list(includes), list(defines)
        self.variant = ""
        self.adapter, self.chosen_sources, self.sources = "", None, []
        kind, _, path = spec.partition(":")
        if kind == "project":
            path = project.setup(self, path)   # harness/subjects/project.py
        elif spec in ("ref", "system"):
            kind, path = spec, ""
        elif kind in ("ref-mutant", "broken"):
            # Test subjects: the reference with one named check compiled out
            # (ref/checks.h) or one planted encoder bug (ref/mutant.h
            # ENCODE_*), or a deliberately broken adapter.
            self.variant, path = path, ""
            valid = refcodec.mutant_names() if kind == "ref-mutant" else BROKEN_MODES
            if self.variant not in valid:
                raise BadInput("unknown %s '%s'; use one of: %s"
                               % (kind, self.variant, ", ".join(valid)))
        elif kind == "fixture":
            if path not in fixtures.FIXTURES:
                raise BadInput("unknown fixture '%s'; use one of: %s"
                               % (path, ", ".join(sorted(fixtures.FIXTURES))))
            kind, path = fixtures.materialize(path)
        elif spec in DEFAULT_TREES:
            kind, path = DEFAULT_KIND[spec], DEFAULT_TREES[spec]
            if not os.path.isdir(path):
                raise BadInput("default %s tree not fetched yet (%s); run: "
                               "python3 -m harness fetch" % (spec, path))
        elif kind not in TREE_KINDS + ("auto",) or not path:
            raise BadInput("unknown subject '%s'; %s" % (spec, USAGE))
        path = os.path.abspath(path) if path else ""
        if path and not os.path.isdir(path):
            raise BadInput("subject directory %s does not exist; pass the top of an "
                           "lz4 or Linux source tree%s" % (path, " (or the folder of an LZ4 "
                                                           "copy)" * (kind == "project")))
        if kind in TREE_KINDS + ("auto",) and spec not in DEFAULT_TREES:
            kind, path = resolve_root(spec, kind, path)
        self.kind = kind
        self.path = path
        if self.patches and not self.is_tree:
            raise BadInput("patches apply to a source tree; %s has none" % spec)
        for p in self.patches:
            if not os.path.isfile(p):
                raise BadInput("patch file %s does not exist" % p)
        self._check_options()
        self.files = self.locate()
        if kind == "project":
            self.sources = project.sources(self)
        self.id = "%s-%s" % (kind, self.content_digest())

    def content_digest(self):
        """What the subject is built from, wherever it lies: the variant,
        the patches' text, the LZ4 files (relative name and content) and,
        for a kernel, the version its top Makefile gives (recorded in the
        build), --define / --include (options_key) and, for a project copy, its
        adapter's content and sources. Never a path: the same copy under
        another project root or checkout shares its build (an --include directory outside the
        tree is named by its absolute path)."""
        parts = [self.variant]
        for p in self.patches + [os.path.join(self.path, f) for f in self.files]:
            with open(p, "rb") as f:
                parts.append(hashlib.sha256(f.read()).hexdigest())
        parts += self.files
        if self.kind == "kernel":
            parts.append(kernel_version(self.path))
        if self.kind == "project":       # what the adapter makes of the copy
            parts += project.identity_parts(self)
        return sha(*(parts + self.options_key()))

    def _check_options(self):
        """--include DIR (relative: to the tree) must be a directory, --define
        NAME[=VALUE] name a C identifier; both are for source trees only."""
        if (self.includes or self.defines) and not self.is_tree:
            raise BadInput("--include and --define apply to a source tree; %s has none"
                           % self.spec)
        for d in self.defines:
            if not DEFINE.match(d):
                raise BadInput("--define %s: use NAME, NAME=VALUE or NAME(ARGS)=VALUE, NAME a "
                               "C identifier" % d)
        given, self.includes = self.includes, []
        for d in given:
            full = os.path.normpath(os.path.join(self.path, d))
            if not os.path.isdir(full):
                raise BadInput("--include %s: no directory %s (a relative one is taken from "
                               "the tree %s)" % (d, full, self.path))
            self.includes.append(full)

    def options_key(self):
        """What --include/--define add to the subject's identity: the macros,
        and the include directories relative to the tree when inside it."""
        return ["D" + d for d in self.defines] + \
            ["I" + (os.path.relpath(d, self.path) if d.startswith(self.path + os.sep) or
                    d == self.path else d) for d in self.includes]

    @property
    def is_tree(self):
        return self.kind in TREE_KINDS or self.kind == "project"

    def locate(self):
        """Relative paths of the LZ4 files this subject is built from."""
        if not self.is_tree:
            return []
        if self.kind == "project":
            return project.files(self)
        if self.kind == "upstream":
            # A layout with lz4.c and lz4.h; else the folder holding lz4.c
            # alone (a copy keeping its header elsewhere: --include).
            with_c = [l for l in UPSTREAM_LAYOUTS
                      if os.path.isfile(os.path.join(self.path, l, "lz4.c")) and
                      (l == "." or os.path.isfile(os.path.join(self.path, l, "lz4.h")))]
            for layout in sorted(with_c, key=lambda l: not os.path.isfile(
                    os.path.join(self.path, l, "lz4.h")))[:1]:
                d = os.path.join(self.path, layout)
                return sorted(os.path.normpath(os.path.join(layout, f))
                              for f in os.listdir(d) if f.endswith((".c", ".h")) and
                              os.path.isfile(os.path.join(d, f)))
            raise BadInput("no LZ4 sources in %s (looked for lib/lz4.c and lz4.c); "
                           "pass the top of an lz4 release tree" % self.path)
        found = [f for f in KERNEL_FILES if os.path.isfile(os.path.join(self.path, f))]
        if "include/linux/lz4.h" not in found or not any(f.endswith(".c") for f in found):
            raise BadInput("no kernel LZ4 sources in %s (need include/linux/lz4.h and "
                           "lib/lz4/*.c); pass the top of a Linux tree" % self.path)
        return found
