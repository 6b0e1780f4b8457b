"""A SPEC to a Subject: what kind of implementation, where its LZ4 files are,
and an identity derived from their content.

  ref | system | upstream[:DIR] | kernel[:DIR]
  ref-mutant:CHECK | broken:MODE | fixture:NAME   (for testing lz4gate itself)
"""
import hashlib
import os
import re

from harness.errors import BadInput
from harness.paths import ADAPTERS, BUILD
from harness.subjects import fixtures, refcodec
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

def _broken_modes():
    """The modes of the broken test subject: its MODE_ table."""
    with open(os.path.join(ADAPTERS, "adapter_broken.c")) as f:
        return tuple(re.findall(r"^#define MODE_(\w+) \d+$", f.read(), re.M))


BROKEN_MODES = _broken_modes()
TREE_KINDS = ("upstream", "kernel")
USAGE = ("use ref, system, upstream[:DIR], kernel[:DIR], kernel-6.12 (or, for testing "
         "lz4gate, ref-mutant:CHECK, broken:MODE, fixture:NAME)")


class Subject:
    """kind, path (a tree, or ""), variant, patches, files (relative paths of
    the LZ4 files it is built from) and id (kind + content digest)."""

    def __init__(self, spec, patches=()):
        self.spec = spec
        self.patches = [os.path.abspath(p) for p in patches]
        self.variant = ""
        kind, _, path = spec.partition(":")
        if spec in ("ref", "system"):
            kind, path = spec, ""
        elif kind in ("ref-mutant", "broken"):
            # Test subjects: the reference with one named check compiled out
            # (ref/checks.h), or a deliberately broken adapter.
            self.variant, path = path, ""
            valid = refcodec.check_names() if kind == "ref-mutant" else BROKEN_MODES
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
        elif kind not in TREE_KINDS or not path:
            raise BadInput("unknown subject '%s'; %s" % (spec, USAGE))
        self.kind = kind
        self.path = os.path.abspath(path) if path else ""
        if self.path and not os.path.isdir(self.path):
            raise BadInput("subject directory %s does not exist; pass the top of an "
                           "lz4 or Linux source tree" % self.path)
        if self.patches and kind not in TREE_KINDS:
            raise BadInput("patches apply to a source tree; %s has none" % spec)
        for p in self.patches:
            if not os.path.isfile(p):
                raise BadInput("patch file %s does not exist" % p)
        self.files = self.locate()
        self.id = "%s-%s" % (kind, self.content_digest())

    def content_digest(self):
        """What the subject is built from, wherever it lies: the variant,
        the patches' text, the LZ4 files (relative name and content) and,
        for a kernel, the version its top Makefile gives (recorded in the
        build). Never a path: the same copy under another project root or
        checkout shares its build."""
        parts = [self.variant]
        for p in self.patches + [os.path.join(self.path, f) for f in self.files]:
            with open(p, "rb") as f:
                parts.append(hashlib.sha256(f.read()).hexdigest())
        parts += self.files
        if self.kind == "kernel":
            parts.append(kernel_version(self.path))
        return sha(*parts)

    @property
    def is_tree(self):
        return self.kind in TREE_KINDS

    def locate(self):
        """Relative paths of the LZ4 files this subject is built from."""
        if not self.is_tree:
            return []
        if self.kind == "upstream":
            for layout in UPSTREAM_LAYOUTS:
                d = os.path.join(self.path, layout)
                if os.path.isfile(os.path.join(d, "lz4.c")) and \
                        os.path.isfile(os.path.join(d, "lz4.h")):
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
