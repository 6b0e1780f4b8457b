"""libclang for the mutation tool: the Python bindings of Debian's
python3-clang-14 (`clang.cindex`), and parsing a tree's C files with the
flags the subject build compiles them with, so that the AST (which
function is defined, what it calls) is that of the code the checks run."""
import os

from harness import toolchain
from harness.errors import BadInput
from harness.paths import ADAPTERS

INSTALL = "apt-get install -y python3-clang-14 (or: make deps, as root)"
# Where Debian puts libclang, newest first (the bindings look for a plain
# "libclang.so", which only the -dev package provides).
LIBCLANG = ["/usr/lib/llvm-%d/lib/libclang-%d.so.1" % (v, v) for v in (16, 15, 14)] + \
    ["/usr/lib/llvm-%d/lib/libclang.so.1" % v for v in (16, 15, 14)] + \
    ["/usr/lib/x86_64-linux-gnu/libclang-14.so.1"]

_CINDEX = []


class MissingClang(BadInput):
    """python3-clang or libclang is not installed: one line naming the fix."""


def cindex():
    """The clang.cindex module, its library loaded; MissingClang if not
    installed."""
    if _CINDEX:
        return _CINDEX[0]
    try:
        import clang.cindex as ci
    except ImportError:
        raise MissingClang("the mutation tool needs python3-clang (clang.cindex), which is "
                           "not installed: " + INSTALL)
    try:
        ci.conf.lib
    except ci.LibclangError:
        found = [p for p in LIBCLANG if os.path.isfile(p)]
        if not found:
            raise MissingClang("clang.cindex cannot find libclang's shared library "
                               "(looked in %s): %s" % (", ".join(LIBCLANG[:3]), INSTALL))
        ci.Config.set_library_file(found[0])
        try:
            ci.conf.lib
        except ci.LibclangError as e:
            raise MissingClang("libclang (%s) does not load: %s" % (found[0], e))
    _CINDEX.append(ci)
    return ci


def parse_flags(config, layout_dir):
    """The flags a copy's own units are compiled with in `config` (the macros
    matter: they decide which branches are live), for libclang and for the
    preprocessor comparison (harness/subjects/recipes/upstream.py)."""
    _, flags, _ = toolchain.config(config)
    return list(flags) + ["-std=gnu11", "-I" + layout_dir] + toolchain.SUBJECT_WARNINGS + \
        ["-include", os.path.join(ADAPTERS, "alloc_hook.h")]


def parse(path, flags):
    """The translation unit of one C file; BadInput when libclang cannot
    parse it (a fatal error: a header not found)."""
    ci = cindex()
    index = ci.Index.create()
    try:
        tu = index.parse(path, args=["-x", "c"] + list(flags))
    except ci.TranslationUnitLoadError as e:
        raise BadInput("libclang cannot parse %s: %s" % (path, e))
    fatal = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Fatal]
    if fatal:
        raise BadInput("libclang cannot parse %s: %s" % (path, fatal[0]))
    return tu
