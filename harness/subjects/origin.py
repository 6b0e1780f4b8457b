"""A side of a comparison as its user knows it: the name a report gives
it, and its files' paths in the user's own tree, never lz4gate's build/.

  o = origin(spec, name=None, source_root=None)
  o.name      what the header calls it: the path the user gave, "Debian lz4
              1.9.4 source (lz4-1.9.4/)", or the name `harness pr` gives
  o.path(f)   a file of the side's tree as the user's tree has it
              ("lz4-1.9.4/lib/lz4.c", "src/borg/algorithms/lz4/lz4.c")
  o.words(s)  text (a SPEC, a message) with the side's tree as the user
              can reach it: the commands a report prints run as written
"""
import json
import os
import re
import shlex
import subprocess

from harness.paths import BUILD, TOP
from harness.subjects.fetch.common import read_stamp
from harness.subjects.spec import DEFAULT_TREES, Subject

# The mark `harness pr` leaves at the top of a commit it exported under
# build/pr/ (harness/gate/export.py): the repository and the commit, so a
# report names the commit and a command exports it again.
EXPORT_MARK = ".lz4gate-export"
# Subjects without a tree, named by what they are.
NO_TREE = {"ref": "lz4gate's reference codec (ref)",
           "system": "the system liblz4 (system)"}


class Origin:
    """name, root (the directory the side's paths are relative to; "" for
    a subject without a tree), prefix (put before such a path: the top
    folder of a Debian source package) and root_as (how a command writes
    root, when lz4gate made it: a pr export)."""

    def __init__(self, name, root="", prefix="", root_as=None):
        self.name, self.root, self.prefix, self.root_as = name, root, prefix, root_as

    def holds(self, path):
        return bool(self.root) and os.path.abspath(path).startswith(self.root + os.sep)

    def path(self, path):
        """A file (or folder) of the tree in the user's words."""
        return self.prefix + os.path.relpath(os.path.abspath(path), self.root)

    def words(self, text):
        """text with a tree lz4gate made written as the user can reach it:
        an export as the command that makes it again, a default subject as
        its package's folder (the user's own trees are theirs already)."""
        if not (self.root_as or self.prefix):
            return text
        return replace_dir(text, self.root, self.root_as or self.prefix.rstrip("/"))


def replace_dir(text, old, new):
    """text with the folder old (not a longer name: linux-6.1 is not
    linux-6.12) written as new."""
    return re.sub(re.escape(old) + r"(?![\w.-])", lambda _: new, text)


def git_toplevel(path):
    """The top of the git work tree holding path, or None."""
    try:
        proc = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True)
    except OSError:
        return None
    top = proc.stdout.strip()
    return os.path.abspath(top) if proc.returncode == 0 and top else None


def export_of(path):
    """(export top, {"repo", "commit"}) of a tree `harness pr` exported,
    or None: the mark is looked for from path up to build/."""
    d = os.path.abspath(path)
    while d.startswith(BUILD + os.sep):
        try:
            with open(os.path.join(d, EXPORT_MARK)) as f:
                mark = json.load(f)
            return d, mark
        except (OSError, ValueError):
            d = os.path.dirname(d)
    return None


def default_tree(spec, path):
    """Origin of a default subject (python3 -m harness fetch): the Debian
    package it comes from, its paths as that package's tarball has them."""
    st = read_stamp(path) or {}
    if st.get("subject") == "upstream":
        version = str(st.get("version", "?")).split("-")[0]          # 1.9.4-1 -> 1.9.4
        top = st.get("top_dir") or "lz4-%s" % version
        return Origin("Debian lz4 %s source (%s/)" % (version, top), path, top + "/")
    if st.get("package"):
        # (the package's tarball, linux-source-6.1.tar.xz, holds linux-source-6.1/)
        top = st.get("top_dir") or st["package"]
        return Origin("Linux %s (Debian %s)" % (st.get("kernel_version", "?"), st["package"]),
                      path, top + "/")
    return Origin(spec, path)


def given_tree(spec):
    """The directory a tree SPEC names, as the user wrote it."""
    rest = spec.partition(":")[2]
    return rest.split(",")[0] if spec.startswith("project:") else rest


def origin(spec, name=None, source_root=None):
    """The Origin of a SPEC; name overrides the header's name, source_root
    the root of a tree's repository (--source-root)."""
    s = Subject(spec)
    if not s.path:
        return Origin(name or NO_TREE.get(spec, spec))
    if spec in DEFAULT_TREES:
        o = default_tree(spec, s.path)
        o.name = name or o.name
        return o
    exported = export_of(s.path)
    if exported:
        top, mark = exported
        again = '"$(python3 -m harness pr %s --export %s)"' % (shlex.quote(mark["repo"]),
                                                               mark["commit"][:12])
        return Origin(name or "%s at %s" % (os.path.basename(mark["repo"]), mark["commit"][:7]),
                      top, "", again)
    root = source_root and os.path.abspath(source_root)
    if not root:
        root = git_toplevel(s.path)
        # A tree lz4gate made (a fixture) lies in lz4gate's own work tree:
        # its paths are the tree's.
        if not root or (root == TOP and s.path.startswith(BUILD + os.sep)):
            root = s.path
    return Origin(name or given_tree(spec) or spec, root)
