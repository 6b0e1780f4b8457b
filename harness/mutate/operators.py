"""The mutants of one C file: one-token changes found with clang's
tokenizer and AST (never by searching the text), in the bodies of the
functions on the API's paths.

  relational  <  <=, <= <, >  >=, >= >           (op lt2le, le2lt, gt2ge, ge2gt)
  arithmetic  +  -, -  +                          (add2sub, sub2add)
  not         a dropped !                         (dropnot)
  constant    an integer literal +1 / -1          (inc, dec)
  bounds      the right operand of a comparison   (rhsinc, rhsdec: a < b  a < b+1)

Tokens come from the file as written, so a body's inactive preprocessor
branches are mutated too (the run finds those equivalent by construction:
the preprocessed text does not change); string and character literals and
comments are single tokens, never operators."""
import bisect
import os

from harness.mutate.callgraph import definitions, file_of, function_key, realpath
from harness.mutate.clangparse import cindex

SWAPS = {"<": ("<=", "lt2le"), "<=": ("<", "le2lt"), ">": (">=", "gt2ge"),
         ">=": (">", "ge2gt"), "+": ("-", "add2sub"), "-": ("+", "sub2add"),
         "!": ("", "dropnot")}
RELATIONAL = ("<", "<=", ">", ">=")
CATEGORY = {"lt2le": "relational", "le2lt": "relational", "gt2ge": "relational",
            "ge2gt": "relational", "add2sub": "arithmetic", "sub2add": "arithmetic",
            "dropnot": "not", "inc": "constant", "dec": "constant",
            "rhsinc": "bounds", "rhsdec": "bounds"}
CATEGORIES = ("relational", "bounds", "constant", "arithmetic", "not")


class Mutant:
    """One mutant: edits [(start, end, text)] of `file` (bytes offsets; the
    path relative to the tree), shown as original -> mutated at line:col of
    `function`. Its id, FILE:LINE:COL:OP, is stable across runs."""

    def __init__(self, file, line, col, op, function, original, mutated, edits):
        self.file, self.line, self.col, self.op = file, line, col, op
        self.function, self.original, self.mutated = function, original, mutated
        self.edits = sorted(edits)
        self.id = "%s:%d:%d:%s" % (file, line, col, op)
        self.category = CATEGORY[op]

    def apply(self, data):
        """The mutated bytes of the file's original bytes."""
        for start, end, text in reversed(self.edits):
            data = data[:start] + text.encode() + data[end:]
        return data

    def context(self, data):
        """(the source line(s) the mutant changes, the same after it)."""
        first, last = self.edits[0][0], self.edits[-1][1]
        a = data.rfind(b"\n", 0, first) + 1
        b = data.find(b"\n", last)
        b = len(data) if b < 0 else b
        shift = sum(len(t.encode()) - (e - s) for s, e, t in self.edits)
        after = self.apply(data)[a:b + shift]
        return (data[a:b].decode("utf-8", "replace").strip(),
                after.decode("utf-8", "replace").strip())

    def as_dict(self):
        return {"id": self.id, "file": self.file, "line": self.line, "col": self.col,
                "op": self.op, "category": self.category, "function": self.function,
                "original": self.original, "mutated": self.mutated}


def int_literal(spelling):
    """(value, a function spelling another value in the same base and with
    the same suffix) of an integer literal token, or None (floats)."""
    i = len(spelling)
    while i and spelling[i - 1] in "uUlL":
        i -= 1
    digits, suffix = spelling[:i], spelling[i:]
    if not digits or not digits[0].isdigit():
        return None
    prefix, body = digits[:2], digits[2:]
    try:
        if prefix in ("0x", "0X"):
            upper = body == body.upper()
            return int(body, 16), lambda v: prefix + format(v, "X" if upper else "x") + suffix
        if prefix in ("0b", "0B"):
            return int(body, 2), lambda v: prefix + format(v, "b") + suffix
        if len(digits) > 1 and digits[0] == "0":
            return int(digits[1:], 8), lambda v: "0" + format(v, "o") + suffix
        return int(digits, 10), lambda v: str(v) + suffix
    except ValueError:
        return None


class _Body:
    """The tokens of one function body: (start, end, spelling, kind, line, col)."""

    def __init__(self, tu, fn, body):
        self.fn = fn
        self.start, self.end = body.extent.start.offset, body.extent.end.offset
        self.tokens = []
        for t in tu.get_tokens(extent=body.extent):
            s, e = t.extent.start.offset, t.extent.end.offset
            if self.start <= s and e <= self.end:
                self.tokens.append((s, e, t.spelling, t.kind.name, t.location.line,
                                    t.location.column))
        self.starts = [t[0] for t in self.tokens]

    def within(self, a, b):
        """The tokens lying in [a, b)."""
        i = bisect.bisect_left(self.starts, a)
        out = []
        while i < len(self.tokens) and self.tokens[i][1] <= b:
            out.append(self.tokens[i])
            i += 1
        return out


def token_mutants(rel, body):
    out = []
    for s, e, text, kind, line, col in body.tokens:
        name = body.fn.spelling
        if kind == "PUNCTUATION" and text in SWAPS:
            new, op = SWAPS[text]
            out.append(Mutant(rel, line, col, op, name, text, new, [(s, e, new)]))
        elif kind == "LITERAL":
            lit = int_literal(text)
            if lit is None:
                continue
            value, spell = lit
            out.append(Mutant(rel, line, col, "inc", name, text, spell(value + 1),
                              [(s, e, spell(value + 1))]))
            if value > 0:
                out.append(Mutant(rel, line, col, "dec", name, text, spell(value - 1),
                                  [(s, e, spell(value - 1))]))
    return out


# An operand longer than this is not a bound (and the tokens of a cursor
# reached through a macro's definition can span thousands).
MAX_OPERAND_TOKENS = 40


def _spelled(cursor, path):
    """(start, end, location) of the tokens a cursor is written with, or
    None when they are not in the file at path. (For an expression written
    in a macro's argument, as in `unlikely(ip > iend)`, the cursor's extent
    reports the macro's place, but its tokens are those written.)"""
    toks = list(cursor.get_tokens())
    if not toks or len(toks) > MAX_OPERAND_TOKENS:
        return None
    for t in (toks[0], toks[-1]):
        if not t.location.file or realpath(t.location.file.name) != path:
            return None
    return toks[0].extent.start.offset, toks[-1].extent.end.offset, toks[0].location


def bounds_mutants(rel, path, body, data):
    """a < b  ->  a < b+1 and a < b-1 (b parenthesised when it is more than
    one token), for every comparison written in this body as its operands,
    exactly one relational token between them, and its right operand (a
    comparison written inside a macro's definition is left out)."""
    ci = cindex()
    out = []
    for c in body.fn.walk_preorder():
        if c.kind != ci.CursorKind.BINARY_OPERATOR:
            continue
        kids = list(c.get_children())
        if len(kids) != 2:
            continue
        lhs, rhs = _spelled(kids[0], path), _spelled(kids[1], path)
        if not lhs or not rhs:
            continue
        a, b, where = rhs
        if not (body.start <= lhs[0] and lhs[1] <= a < b <= body.end):
            continue
        between, inside = body.within(lhs[1], a), body.within(a, b)
        if len(between) != 1 or between[0][2] not in RELATIONAL or not inside:
            continue
        text = data[a:b].decode("utf-8", "replace")
        operand = text if len(inside) == 1 else "(%s)" % text
        for op, sign in (("rhsinc", "+1"), ("rhsdec", "-1")):
            new = operand + sign
            out.append(Mutant(rel, where.line, where.column, op, body.fn.spelling,
                              text, new, [(a, b, new)]))
    return out


def file_mutants(tu, path, rel, reachable, inside):
    """Every mutant of the file at path (rel: its name in the tree) in the
    bodies of the functions of `reachable` (callgraph keys) it defines."""
    ci = cindex()
    path = realpath(path)
    with open(path, "rb") as f:
        data = f.read()
    out = []
    for fn in definitions(tu, inside):
        if file_of(fn) != path or function_key(fn) not in reachable:
            continue
        bodies = [k for k in fn.get_children() if k.kind == ci.CursorKind.COMPOUND_STMT]
        if not bodies:
            continue
        body = _Body(tu, fn, bodies[0])
        out += token_mutants(rel, body) + bounds_mutants(rel, path, body, data)
    return out
