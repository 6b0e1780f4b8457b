"""What LZ4 a project uses once a change removes its copy (issue 45): the
lines of its build files that name lz4 (a package lookup, a pkg-config
module, a linker flag, a dependency), read from the head commit (or the
working tree) through git, so that only the project's tracked files count.

    lines(top, head) -> ["CMakeLists.txt:12: find_package(LZ4 REQUIRED)", ...]
"""
import fnmatch
import os
import re

from harness.errors import BadInput
from harness.gate.export import git

# Build files by name (glob on the file name): the build systems of C and
# C++ projects and of the language bindings that vendor LZ4.
BUILD_FILES = ("CMakeLists.txt", "*.cmake", "Makefile", "Makefile.*", "GNUmakefile", "*.mk",
               "configure.ac", "configure.in", "meson.build", "meson_options.txt",
               "setup.py", "setup.cfg", "pyproject.toml", "*.pc.in", "BUILD", "BUILD.bazel",
               "WORKSPACE", "MODULE.bazel", "Cargo.toml", "build.rs", "vcpkg.json",
               "conanfile.txt", "conanfile.py", "SConstruct", "SConscript", "*.gyp",
               "build.gradle", "pom.xml", "*.vcxproj", "Kconfig", "Kbuild")
MENTION = re.compile(r"lz4", re.I)
MOST = 3            # lines shown
MAX_LINE = 100      # characters of each


def is_build_file(path):
    name = os.path.basename(path)
    return any(fnmatch.fnmatchcase(name, g) for g in BUILD_FILES)


def _text(top, head, path):
    try:
        data = git(top, "show", "%s:%s" % (head, path)) if head else \
            open(os.path.join(top, path), "rb").read()
    except (BadInput, OSError):
        return ""
    return data.decode("utf-8", "replace")


def lines(top, head, removed_path):
    """"path:N: text" of the build-file lines naming lz4 (the removed copy's
    own folder left out: its build lines went with it), at most MOST."""
    listing = git(top, "ls-tree", "-r", "--name-only", head) if head else \
        git(top, "ls-files")
    out = []
    for path in sorted(listing.decode("utf-8", "replace").splitlines()):
        if not is_build_file(path) or (removed_path not in (".", "") and
                                       path.startswith(removed_path.rstrip("/") + "/")):
            continue
        for n, line in enumerate(_text(top, head, path).splitlines(), 1):
            if MENTION.search(line):
                out.append("%s:%d: %s" % (path, n, line.strip()[:MAX_LINE]))
                if len(out) == MOST:
                    return out
    return out


def removal_line(copy, found):
    """The one line of a change that removes the copy."""
    where = "%s (%s, %s)" % (copy["path"], copy["kind"], copy["version"])
    now = "; the build files name this LZ4: %s" % " | ".join(found) if found else \
        "; no build file names lz4 any more"
    return "the change removes the LZ4 copy %s: nothing to gate%s" % (where, now)
