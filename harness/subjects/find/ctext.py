"""Reading C text without compiling it: comments out, the functions a file
DEFINES (a name, its parenthesised parameters, then a body), what it
includes, and the normalised text the lz4.c fingerprints digest.

A call is never a definition: `f(x) {` with a body right after the
parameter list is only ever a definition in C, `f(x);`, `if (f(x)) {` and
`return f(x);` are not."""
import hashlib
import re

# Comments, string and character literals, earliest first, so that a "//"
# inside a string or a quote inside a comment is taken for what it is.
_LEXEMES = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_IDENT_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
# A preprocessor line and its continuation lines.
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n\\]|\\.)*", re.M | re.S)
# Words before a definition that make it local to its file.
_LOCAL = re.compile(r"\bstatic\b|\b\w*INLINE\w*\b|\binline\b")
_NOT_FUNCTIONS = {"if", "for", "while", "switch", "return", "sizeof", "defined"}


def strip_comments(text, keep_strings=True):
    """text with every comment replaced by one space; string and character
    literals kept (keep_strings) or emptied."""
    def repl(m):
        s = m.group(0)
        if s.startswith("/"):
            return " "
        return s if keep_strings else s[0] * 2
    return _LEXEMES.sub(repl, text)


def code_only(text):
    """Comments, literals and preprocessor lines removed: what the
    compiler proper sees, near enough to find definitions."""
    return _DIRECTIVE.sub(" ", strip_comments(text, keep_strings=False))


def includes(text, quoted_only=False):
    """The names a file #includes, in order ("lz4.h", "u-boot/lz4.h");
    quoted_only: only the #include "..." ones, which the compiler looks
    for beside the file first."""
    found = _INCLUDE.findall(strip_comments(text))
    return [name for quote, name in found if quote == '"' or not quoted_only]


def _matching_parens(code):
    pairs, stack = {}, []
    for m in re.finditer(r"[()]", code):
        if m.group(0) == "(":
            stack.append(m.start())
        elif stack:
            pairs[stack.pop()] = m.start()
    return pairs


def definitions(text):
    """{name: "public" | "local"} of the functions text defines."""
    code = code_only(text)
    pairs = _matching_parens(code)
    found = {}
    for m in _IDENT_CALL.finditer(code):
        name, open_at = m.group(1), m.end() - 1
        close = pairs.get(open_at)
        if name in _NOT_FUNCTIONS or close is None:
            continue
        after = code[close + 1:close + 200].lstrip()
        if not after.startswith("{"):
            continue
        # What stands before the name since the last statement or block:
        # the return type and the storage class.
        start = max(code.rfind(c, 0, m.start()) for c in ";{}")
        before = code[start + 1:m.start()]
        local = bool(_LOCAL.search(before))
        if found.get(name) != "public":
            found[name] = "local" if local else "public"
    return found


def fingerprint(text):
    """The digest of a C file with comments and all white space removed (16
    hex digits): two copies of lz4.c that differ only in those match."""
    flat = re.sub(r"\s+", "", strip_comments(text))
    return hashlib.sha256(flat.encode("utf-8", "surrogateescape")).hexdigest()[:16]
