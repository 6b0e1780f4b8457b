"""--include DIR and --define NAME[=VALUE]: a subject's headers kept outside
its copy and its configuration macros (LZ4_HEAPMODE, LZ4_MEMORY_USAGE,
LZ4_FREESTANDING, LZ4_DISTANCE_MAX, LZ4LIB_API, renaming macros). They are
part of the Subject (harness/subjects/spec.py: identity and every cache
key); this is the one place commands add them to their command line, so
that every command spells them alike:

    add_arguments(ap)                           # --include, --define
    add_arguments(ap, GATE_SIDES)               # also --base-*, --candidate-*
    kw = side(args)                             # {"includes": [...], "defines": [...]}
    build(spec, config, patches, **kw)

A relative DIR is taken from the side's tree (Subject resolves it).
"""
import shlex

# (option prefix, attribute prefix, whose) of each side a command names.
ONE = (("", "", "the subject (every SPEC)"),)
GATE_SIDES = (("", "", "both sides"), ("base-", "base_", "the base"),
              ("candidate-", "candidate_", "the candidate"))
FUZZ_SIDES = (("", "", "--subject"), ("-b", "_b", "--subject-b"))

HELP_INCLUDE = ("search DIR for headers the copy includes and does not hold (a relative "
                "DIR is taken from the tree); repeatable")
HELP_DEFINE = ("define a configuration macro (LZ4_HEAPMODE, LZ4_MEMORY_USAGE, LZ4LIB_API, a "
               "renaming macro, ...) for the copy, its probes and its adapter; repeatable")


def _names(prefix):
    """(include option, define option): --PREFIXinclude, or --include-b."""
    if prefix.startswith("-"):
        return "--include" + prefix, "--define" + prefix
    return "--%sinclude" % prefix, "--%sdefine" % prefix


def add_arguments(ap, sides=ONE):
    for prefix, attr, whose in sides:
        inc, dfn = _names(prefix)
        ap.add_argument(inc, dest="%sinclude" % attr if not prefix.startswith("-")
                        else "include" + attr, action="append", default=[], metavar="DIR",
                        help="for %s: %s" % (whose, HELP_INCLUDE))
        ap.add_argument(dfn, dest="%sdefine" % attr if not prefix.startswith("-")
                        else "define" + attr, action="append", default=[],
                        metavar="NAME[=VALUE]", help="for %s: %s" % (whose, HELP_DEFINE))


def side(args, *attrs):
    """{"includes", "defines"} of the sides named by attribute prefixes
    ("" and "candidate_": both-sides options first, then the side's own)."""
    attrs = attrs or ("",)
    out = {"includes": [], "defines": []}
    for a in attrs:
        for key, name in (("includes", "include"), ("defines", "define")):
            dest = a + name if not a.startswith("_") else name + a
            out[key] += list(getattr(args, dest, None) or [])
    return out


def command_line(kw, suffix=""):
    """The options of kw as a command line tail (" --include DIR ...")."""
    return "".join(" --include%s %s" % (suffix, shlex.quote(d))
                   for d in kw.get("includes", [])) + \
        "".join(" --define%s %s" % (suffix, shlex.quote(d)) for d in kw.get("defines", []))
