"""The tree under test and the copies its mutants are built from.

The tree is an upstream lz4 tree (upstream:DIR, any release layout); it is
only read. A mutant's copy is build/mutate/<tree-id>/<mutant>/: the copy's
LZ4 files (the .c and .h files the subject is built from) at the same
relative paths, the mutated one changed; it builds as upstream:<copy>,
whose object cache recompiles only the units that read the changed file."""
import os
import re
import shutil
import subprocess

from harness import toolchain
from harness.errors import BadInput
from harness.toolchain import BuildError
from harness.mutate.clangparse import parse_flags
from harness.paths import BUILD
from harness.subjects.spec import UPSTREAM_SOURCES, Subject

DEFAULT_FILES = ("lib/lz4.c", "lib/lz4hc.c", "lib/lz4frame.c")


class Tree:
    """path (the LZ4 copy's top), subject (upstream:path), layout (the
    directory of lz4.c, relative), units (the compiled .c files, relative),
    id and out (build/mutate/<id>)."""

    def __init__(self, path, config):
        if not os.path.isdir(path):
            raise BadInput("--tree %s: no such directory; pass the top of an lz4 source "
                           "tree" % path)
        self.subject = Subject("upstream:" + path)
        self.path = self.subject.path
        self.config = config
        lz4_c = [f for f in self.subject.files if os.path.basename(f) == "lz4.c"]
        if not lz4_c:
            raise BadInput("--tree %s: no lz4.c in the copy; pass an lz4 source tree" % path)
        self.layout = os.path.dirname(lz4_c[0])
        self.units = [f for f in self.subject.files
                      if os.path.dirname(f) == self.layout and
                      os.path.basename(f) in UPSTREAM_SOURCES]
        self.id = self.subject.id
        self.out = os.path.join(BUILD, "mutate", self.id)
        self.flags = parse_flags(config, os.path.join(self.path, self.layout))
        self._base_pp = None

    def resolve_files(self, names):
        """FILES (relative to the tree's top, or a bare name in the copy's
        directory) as relative paths of the copy's .c units."""
        out = []
        for name in names:
            rel = os.path.normpath(name)
            if rel not in self.units:
                rel = os.path.normpath(os.path.join(self.layout, os.path.basename(name)))
            if rel not in self.units:
                raise BadInput("--files %s: not a compiled unit of the copy at %s (it has: %s)"
                               % (name, self.path, ", ".join(self.units)))
            if rel not in out:
                out.append(rel)
        return out

    def copy_dir(self, mutant):
        return os.path.join(self.out, re.sub(r"[^A-Za-z0-9._-]+", "_", mutant.id))

    def make_copy(self, mutant):
        """Write the mutant's copy; its directory."""
        top = self.copy_dir(mutant)
        shutil.rmtree(top, ignore_errors=True)
        for f in self.subject.files:
            dest = os.path.join(top, f)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            if f == mutant.file:
                with open(os.path.join(self.path, f), "rb") as src:
                    data = mutant.apply(src.read())
                with open(dest, "wb") as out:
                    out.write(data)
            else:
                shutil.copyfile(os.path.join(self.path, f), dest)
        return top

    def source(self, rel):
        with open(os.path.join(self.path, rel), "rb") as f:
            return f.read()

    def preprocessed(self, top):
        """{unit: its preprocessed text} of a copy at top (the tree itself or
        a mutant's), the copy's directory written @TREE@; BuildError when the
        preprocessor rejects a unit."""
        cc = toolchain.config(self.config)[0]
        flags = parse_flags(self.config, os.path.join(top, self.layout))
        out = {}
        for unit in self.units:
            proc = subprocess.run([cc, "-E", "-P"] + flags + [os.path.join(top, unit)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True, errors="replace")
            if proc.returncode != 0:
                raise BuildError("preprocessing %s" % unit, proc.stderr)
            text = proc.stdout
            for p in sorted({top, os.path.realpath(top)}, key=len, reverse=True):
                text = text.replace(p, "@TREE@")
            out[unit] = text
        return out

    def prepare(self):
        """The base's preprocessed text (before mutants run, in one thread)."""
        if self._base_pp is None:
            self._base_pp = self.preprocessed(self.path)

    def equivalent(self, copy):
        """Does every unit of the copy preprocess to the base's text?"""
        self.prepare()
        return self.preprocessed(copy) == self._base_pp
