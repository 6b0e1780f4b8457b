"""project:DIR subjects: an LZ4 copy behind a project's own API (no LZ4_*
entry points), reached through an adapter the user writes
(harness/subjects/adapters/project_adapter.h, docs/subjects.md, "Project APIs").

The adapter and the choice of sources travel inside the SPEC, so that every
command, fuzz job and reproducer line names the same subject:

  project:DIR,adapter=FILE.c[,sources=A.c,B.c...]

(the command-line options --adapter FILE.c and --sources A.c,B.c write this
form). DIR is the copy's folder; every .c and .h under it is staged (and
part of the subject's identity), and compiled are the .c files the user
lists (paths relative to DIR) or, by default, the .c files at DIR's top
level except obvious non-library ones (tests, benchmarks, fuzzers,
examples, programs with a main()). DIR and DIR/include are on the include
path of the copy and of the adapter, so stub headers a copy needs
(sys/zfs_context.h, ...) may live in DIR.
"""
import hashlib
import os
import re

from harness.errors import BadInput

KEYS = ("adapter", "sources")
SPLIT = re.compile(r",(?=(?:%s)=)" % "|".join(KEYS))
MAX_FILES = 400
# Not library code: tests, benchmarks, fuzzers, examples, programs.
NON_LIBRARY_NAME = re.compile(r"(^|[_.-])(tests?|unittests?|bench(mark)?s?|fuzz(ers?)?|"
                              r"examples?|demos?|main)([_.-]|$)", re.I)
PROGRAM = re.compile(r"^\s*(?:int|void)\s+main\s*\(|\bLLVMFuzzerTestOneInput\b", re.M)
HOW = "give project:DIR with --adapter FILE.c (docs/subjects.md: Project APIs)"


def parse(rest):
    """(dir, adapter, sources) of the part after 'project:'; adapter "" and
    sources None when not given."""
    parts = SPLIT.split(rest)
    path, adapter, sources = parts[0], "", None
    for p in parts[1:]:
        key, _, value = p.partition("=")
        if key == "adapter":
            adapter = value
        else:
            sources = [s for s in value.split(",") if s]
    if not path:
        raise BadInput("project: needs a directory; %s" % HOW)
    return path, adapter, sources


def compose(path, adapter, sources=None):
    """The SPEC naming a project subject (absolute paths)."""
    spec = "project:%s,adapter=%s" % (os.path.abspath(path), os.path.abspath(adapter))
    if sources:
        spec += ",sources=" + ",".join(sources)
    return spec


def is_project(spec):
    return bool(spec) and spec.partition(":")[0] == "project"


def with_options(spec, adapter=None, sources=None):
    """spec with --adapter / --sources written into it (a project spec
    only; other specs are returned unchanged)."""
    if not is_project(spec) or not (adapter or sources):
        return spec
    path, have, chosen = parse(spec.partition(":")[2])
    if adapter and have and os.path.abspath(have) != os.path.abspath(adapter):
        raise BadInput("%s names adapter %s and --adapter %s; give one" % (spec, have, adapter))
    if sources and chosen is not None and chosen != sources:
        raise BadInput("%s names its sources and --sources does too; give one" % spec)
    return compose(path, adapter or have, sources if sources else chosen)


def split_list(value):
    return [s for s in (value or "").split(",") if s] or None


def add_arguments(ap, sides=("",)):
    """--adapter FILE.c / --sources A.c,B.c (and, for each side named in
    sides, --SIDE-adapter / --SIDE-sources)."""
    for side in sides:
        pre = "--%s-" % side if side else "--"
        dest = "%s_" % side if side else ""
        who = "the %s's" % side if side else "a"
        ap.add_argument(pre + "adapter", dest=dest + "adapter", metavar="FILE.c", default=None,
                        help="%s project:DIR subject's adapter (C, fills subject.h's table; "
                             "docs/subjects.md: Project APIs)" % who)
        ap.add_argument(pre + "sources", dest=dest + "sources", metavar="A.c,B.c",
                        default=None, help="%s project:DIR subject's .c files to compile "
                                           "(relative to DIR; default: the library .c files "
                                           "at DIR's top)" % who)


def apply_arguments(args, specs, side=""):
    """specs (one side's) with that side's options, falling back to the
    both-sides --adapter / --sources; BadInput when an option given for a
    side has no project spec to go to."""
    pre = "%s_" % side if side else ""
    adapter = getattr(args, pre + "adapter", None) or getattr(args, "adapter", None)
    sources = split_list(getattr(args, pre + "sources", None) or getattr(args, "sources", None))
    if side and (getattr(args, pre + "adapter", None) or getattr(args, pre + "sources", None)) \
            and not any(is_project(s) for s in specs):
        raise BadInput("--%s-adapter/--%s-sources apply to a project:DIR %s, not %s"
                       % (side, side, side, ", ".join(specs) or "none"))
    return [with_options(s, adapter, sources) for s in specs]


def check_used(args, specs):
    """BadInput when --adapter / --sources was given and no spec is a
    project subject (it would be silently ignored)."""
    if (getattr(args, "adapter", None) or getattr(args, "sources", None)) and \
            not any(is_project(s) for s in specs if s):
        raise BadInput("--adapter/--sources apply to project:DIR subjects; none of %s is one"
                       % ", ".join(s for s in specs if s))


def setup(subject, rest):
    """Fill a Subject of kind project from the part after 'project:'."""
    path, adapter, sources = parse(rest)
    if not adapter:
        raise BadInput("project:%s has no adapter; %s" % (path, HOW))
    subject.adapter = os.path.abspath(adapter)
    if not os.path.isfile(subject.adapter) or not subject.adapter.endswith(".c"):
        raise BadInput("adapter %s is not a C file (FILE.c)" % subject.adapter)
    subject.chosen_sources = sources
    return path


def files(subject):
    """Every .c and .h under the copy's folder (relative paths, sorted)."""
    out = []
    for root, dirs, names in os.walk(subject.path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out += [os.path.relpath(os.path.join(root, n), subject.path) for n in names
                if n.endswith((".c", ".h")) and not n.startswith(".")]
        if len(out) > MAX_FILES:
            raise BadInput("%s holds more than %d .c/.h files; point project:DIR at the "
                           "folder of the LZ4 copy" % (subject.path, MAX_FILES))
    return sorted(out)


def library_source(path):
    """Whether a top-level .c file looks like library code (not a test,
    benchmark, fuzzer, example or program)."""
    if NON_LIBRARY_NAME.search(os.path.basename(path)[:-2]):
        return False
    with open(path, encoding="utf-8", errors="replace") as f:
        return not PROGRAM.search(f.read())


def sources(subject):
    """The .c files (relative to DIR) compiled for the subject."""
    if subject.chosen_sources is not None:
        for s in subject.chosen_sources:
            if not s.endswith(".c") or s not in subject.files:
                raise BadInput("--sources names %s, which is not a .c file under %s"
                               % (s, subject.path))
        return list(subject.chosen_sources)
    out = [f for f in subject.files if "/" not in f and f.endswith(".c") and
           os.path.join(subject.path, f) != subject.adapter and     # (kept beside the copy)
           library_source(os.path.join(subject.path, f))]
    if not out:
        raise BadInput("no library .c file at the top of %s; name the copy's sources with "
                       "--sources A.c,B.c" % subject.path)
    return out


def identity_parts(subject):
    """What besides the copy's files makes the subject: the adapter's
    content and the sources compiled."""
    with open(subject.adapter, "rb") as f:
        return [hashlib.sha256(f.read()).hexdigest(), ",".join(subject.sources)]
