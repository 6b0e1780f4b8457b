"""The "What differs" section of the gate report: how the base's LZ4 code
and the candidate's differ (versions, API generation, entry points, files,
the functions whose text changed), so that a reader sees the code changes
beside the results that changed with them.

  lines = section(base_spec, candidate_spec, candidate_patches, config)

Both subjects are staged (their patches applied, never in the user's tree)
and built for `config` (cached: the gate has built them already); only
tree subjects (upstream:, kernel:) have files to compare. The comparison is
textual: a function is "changed" when its definition's text differs after
whitespace is normalised, nothing more is inferred.
"""
import difflib
import os
import re

from harness.errors import BadInput
from harness.subjects.versions import GENERATIONS, generation
from harness.subjects.build import build, info
from harness.subjects.spec import Subject
from harness.subjects.stage import stage
from harness.subjects.versions import kernel_version

TITLE = "## What differs between base and candidate (LZ4 code)"
MAX_NAMES = 40        # functions listed per file; the rest are counted
SHOW_LINES = 4        # a file with this few changed lines shows them
# A function body opens with '{' in column 0 (kernel style) or at the end of
# the line closing the parameter list (bodies are skipped whole, so at top
# level such a line is a signature's); its header runs back to the
# previous blank line, ';', '}', preprocessor line or comment end, and its
# name is the first identifier there followed by '('.
NAME = re.compile(r"([A-Za-z_]\w*)\s*\(")


def _opens_body(line):
    return line.startswith("{") or (line.rstrip().endswith("{") and ")" in line and
                                    "=" not in line and not line.lstrip().startswith("#"))


def functions(text):
    """{name: normalised text} of the top-level functions of a C file: from
    its header to the next '}' in column 0."""
    out, lines = {}, text.splitlines()
    i = 0
    while i < len(lines):
        if not _opens_body(lines[i]):
            i += 1
            continue
        k = i if not lines[i].startswith("{") else i - 1
        # back to the header's first line
        while k > 0 and lines[k - 1].strip() and not lines[k - 1].rstrip().endswith(
                (";", "*/")) and lines[k - 1][:1] not in "}#":
            k -= 1
        m = NAME.search(" ".join(lines[k:i + 1]))
        j = i + 1
        while j < len(lines) and not lines[j].startswith("}"):
            j += 1
        if m and m.group(1) not in ("if", "for", "while", "switch", "sizeof"):
            out[m.group(1)] = " ".join(" ".join(lines[k:j + 1]).split())
        i = j + 1
    return out


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def file_rows(base_dir, base_files, cand_dir, cand_files):
    """(file, what, functions added/removed/changed) per LZ4 file that is
    not identical in both."""
    rows = []
    for f in sorted(set(base_files) | set(cand_files)):
        a = _read(os.path.join(base_dir, f)) if f in base_files else None
        b = _read(os.path.join(cand_dir, f)) if f in cand_files else None
        if a == b:
            continue
        if a is None or b is None:
            rows.append((f, "only in the %s" % ("candidate" if a is None else "base"), ""))
            continue
        changed = [line for line in difflib.unified_diff(a.splitlines(), b.splitlines(),
                                                         lineterm="", n=0)
                   if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        plus = sum(1 for line in changed if line.startswith("+"))
        minus = len(changed) - plus
        fa, fb = functions(a), functions(b)
        names = (["+" + n for n in sorted(set(fb) - set(fa))] +
                 ["-" + n for n in sorted(set(fa) - set(fb))] +
                 ["~" + n for n in sorted(set(fa) & set(fb)) if fa[n] != fb[n]])
        more = len(names) - MAX_NAMES
        shown = ", ".join("`%s`" % n for n in names[:MAX_NAMES]) + (
            " and %d more" % more if more > 0 else "")
        if len(changed) <= SHOW_LINES:
            shown = "; ".join(filter(None, [shown] + ["`%s`" % " ".join(line.split()).replace(
                "`", "'").replace("|", "\\|") for line in changed]))
        rows.append((f, "+%d -%d lines" % (plus, minus), shown))
    return rows


def _describe(subject, built, staged):
    gen, version = "", built.get("version", "")
    if subject.kind == "kernel":
        g = generation(staged)      # after the patches: a series may change it
        gen = "%s, %s" % (g, GENERATIONS[g]) if g in GENERATIONS else ""
        version = version or kernel_version(subject.path)
    return version or "-", gen or "-"


def _entry_points(names):
    """The entry points a copy has (its compile probes: declared by its
    headers and defined by its files): all of them, a partial copy's few
    as much as a release's many."""
    return "%d: %s" % (len(names), ", ".join("`%s`" % e for e in sorted(names))) \
        if names else "none"


def section(base, candidate, patches=(), config="asan64", base_kw=None, candidate_kw=None):
    """Markdown lines of the section (a heading, a table, per-file rows);
    [] when either subject is not a source tree. Bad input (a tree that
    does not stage or build) is one line in the section, never an
    exception: the gate's verdict comes from its stages, not from here.
    base_kw, candidate_kw: each side's --include/--define."""
    base_kw, candidate_kw = base_kw or {}, candidate_kw or {}
    try:
        sb, sc = Subject(base, (), **base_kw), Subject(candidate, patches, **candidate_kw)
        if not (sb.is_tree and sc.is_tree):
            return []
        ib, ic = info(build(base, config, (), True, **base_kw)), \
            info(build(candidate, config, patches, True, **candidate_kw))
        db, dc = stage(sb), stage(sc)
    except BadInput as e:
        return [TITLE, "", "Not compared: %s" % e, ""]
    (vb, gb), (vc, gc) = _describe(sb, ib, db), _describe(sc, ic, dc)
    eb, ec = set(ib.get("entry_points", [])), set(ic.get("entry_points", []))
    lines = [TITLE, "",
             "| | base | candidate |", "|---|---|---|",
             "| kind | %s | %s |" % (sb.kind, sc.kind),
             "| version | %s | %s |" % (vb, vc),
             "| generation | %s | %s |" % (gb, gc),
             "| entry points | %s | %s |" % (_entry_points(eb), _entry_points(ec)),
             "| entry points only here | %s | %s |" % (
                 ", ".join("`%s`" % e for e in sorted(eb - ec)) or "-",
                 ", ".join("`%s`" % e for e in sorted(ec - eb)) or "-"),
             "| files missing | %s | %s |" % (", ".join(ib.get("missing", [])) or "-",
                                               ", ".join(ic.get("missing", [])) or "-"), ""]
    rows = file_rows(db, sb.files, dc, sc.files)
    if not rows:
        return lines + ["The LZ4 files are identical.", ""]
    lines += ["Files that differ (functions: `+` only in the candidate, `-` only in the "
              "base, `~` changed):", "", "| file | lines | functions |", "|---|---|---|"]
    lines += ["| `%s` | %s | %s |" % r for r in rows]
    return lines + [""]
