"""The functions on the API's paths: a call graph of a tree's C units built
from the AST (CALL_EXPR cursors, and DECL_REF_EXPRs naming a function: a
function whose address is taken, as the frame API's block compressors
are, is called through the pointer), walked from the public entry points.

A function is keyed by its name when it has external linkage and by
(file, name) when it is static, so that two units' static helpers of one
name stay apart; lz4hc.c includes lz4.c for the common helpers, which are
then keyed by lz4.c, where they are written."""
import functools
import os

from harness.mutate.clangparse import cindex

# The public entry points: LZ4_* (LZ4_compress_HC* too) and LZ4F_*, with
# external linkage.
API_PREFIXES = ("LZ4_", "LZ4F_")


realpath = functools.lru_cache(maxsize=None)(os.path.realpath)


def file_of(cursor):
    loc = cursor.location
    return realpath(loc.file.name) if loc.file else ""


def function_key(cursor):
    """The node of a FUNCTION_DECL cursor (a declaration or a definition)."""
    ci = cindex()
    if cursor.linkage == ci.LinkageKind.INTERNAL:
        d = cursor.get_definition() or cursor
        return (file_of(d), cursor.spelling)
    return ("", cursor.spelling)


def definitions(tu, inside):
    """The function definitions of tu written in a file under the directory
    `inside` (not system headers)."""
    ci = cindex()
    top = os.path.realpath(inside) + os.sep
    for c in tu.cursor.get_children():
        if c.kind == ci.CursorKind.FUNCTION_DECL and c.is_definition() and \
                file_of(c).startswith(top):
            yield c


def callees(fn):
    """The keys of the functions fn's body calls or takes the address of."""
    ci = cindex()
    out = set()
    for c in fn.walk_preorder():
        if c.kind in (ci.CursorKind.CALL_EXPR, ci.CursorKind.DECL_REF_EXPR):
            ref = c.referenced
            if ref is not None and ref.kind == ci.CursorKind.FUNCTION_DECL:
                out.add(function_key(ref))
    out.discard(function_key(fn))
    return out


class CallGraph:
    """Nodes are function keys; edges[key] the keys it reaches directly."""

    def __init__(self):
        self.edges = {}

    def add_unit(self, tu, inside):
        for fn in definitions(tu, inside):
            self.edges.setdefault(function_key(fn), set()).update(callees(fn))

    def roots(self):
        return sorted(k for k in self.edges if not k[0] and k[1].startswith(API_PREFIXES))

    def reachable(self):
        """Every defined function reached from a root (the roots too)."""
        seen, todo = set(), list(self.roots())
        while todo:
            k = todo.pop()
            if k in seen or k not in self.edges:
                continue
            seen.add(k)
            todo.extend(self.edges[k] - seen)
        return seen
