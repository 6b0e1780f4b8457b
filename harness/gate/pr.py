"""`python3 -m harness pr REPO`: gate the LZ4 copy a change of a project
touches, merge base against head, with no path written anywhere.

The project's repository is only read (git ls-tree, cat-file, diff); the
base commit's LZ4 files are written under build/pr/, the head is the
checkout itself (or --head REF, written there too).
"""
import argparse
import os
import shlex
import sys

from harness.errors import EXIT_BAD_INPUT, EXIT_OK, BadInput
from harness.gate.export import (add_files, export, export_commit, export_dir, git,
                                 outside_files, project_name)
from harness.gate import unbundled
from harness.subjects.find.copies import kind_label, scan

HELP = """\
NAME
    harness pr - gate the vendored LZ4 copy a change of a project touches

SYNOPSIS
    python3 -m harness pr REPO [--base-ref REF] [--head REF] [--dry-run]
                          [GATE OPTIONS...]
    make gate-pr REPO=DIR [BASE_REF=REF] [FUZZ_TIME=S] [GATE_ARGS="..."]

DESCRIPTION
    REPO is a git checkout of a project that vendors LZ4 (or a bare clone,
    with --head). The base is the merge base of REF and the head; the head
    is REPO's working tree as it is (or the commit --head names). `scan` (python3 -m harness scan)
    finds the LZ4 copies on both sides, and the files the change touches
    (git diff, plus untracked files of the working tree) say which copy
    changed: its folder may be renamed (lz4-1.8.3 -> lz4-1.9.1), and a
    project with several copies is gated on the one that changed. The
    gate (python3 -m harness gate --help) then runs on the pair, with
    --source-root REPO, so the report's paths and the waivers file
    (.lz4gate.toml) are the repository's own, and the report names each
    side as the project has it: "borg, src/borg/algorithms/lz4, lz4 1.8.3
    at af449cd" (--base-name, --candidate-name).

    A copy lz4gate cannot name by itself needs the gate's options, passed
    through: a decoder-only copy with its header elsewhere --include DIR
    (relative to the copy's folder: ../include), a copy behind the
    project's own API --adapter FILE.c (docs/subjects.md: Project APIs).

OPTIONS
    --base-ref REF   the branch the change goes into (default: in GitHub
                     Actions origin/$GITHUB_BASE_REF, in GitLab
                     $CI_MERGE_REQUEST_DIFF_BASE_SHA; elsewhere required)
    --head REF       gate this commit instead of the working tree
    --dry-run        say which copies (stderr) and print the gate's options
                     (stdout, quoted for a shell; nothing when no copy
                     changed), run nothing
    --export REV     write REV's LZ4 part under build/pr/ (as the base is)
                     and print its path: a report's command on a side that
                     is a commit runs on "$(python3 -m harness pr REPO
                     --export REV)"/FOLDER
    anything else    a gate option (--fuzz-time, --configs, --strict, --out,
                     --adapter, --include, ...); not --base, --candidate

EXIT STATUS
    The gate's (0 pass, 1 fail, 2 could not run); 0 with one line when the
    change touches no file of an LZ4 copy (a copy is its own files: those
    that define LZ4's functions, its header and what they include, not the
    rest of its folder), and 0 with one line when it removes the copy (the
    line quotes the build files that name lz4: what the project uses now);
    2 when the repository, the ref or the pairing is not clear (two copies
    changed, a copy added), with the copies listed.

EXAMPLES
    python3 -m harness pr ~/src/c-blosc --base-ref origin/main --dry-run
    make gate-pr REPO=~/src/c-blosc BASE_REF=origin/main FUZZ_TIME=300

Manual: docs/gate.md
"""

KERNEL_MEMBERS = ("lib/lz4/", "include/linux/lz4.h", "lib/decompress_unlz4.c",
                  "include/linux/decompress/unlz4.h")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput("%s; see python3 -m harness pr --help" % message)


def default_base_ref(env):
    """The CI's target branch, where a CI says it."""
    if env.get("CI_MERGE_REQUEST_DIFF_BASE_SHA"):
        return env["CI_MERGE_REQUEST_DIFF_BASE_SHA"]
    if env.get("GITHUB_BASE_REF"):
        return "origin/" + env["GITHUB_BASE_REF"]
    return None


def members(copy):
    """Does a changed path belong to copy? (kernel: its LZ4 files; any
    other: its own files, harness/subjects/find/copies.py own_files, not
    the rest of its folder)."""
    top = "" if copy["path"] == "." else copy["path"] + "/"
    if copy["kind"] == "kernel":
        own = tuple(top + m for m in KERNEL_MEMBERS)
        return lambda p: p.startswith(own)
    own = set(copy["own"])
    return lambda p: p in own


def touched(copies, changed):
    """The copies holding a changed path, with how many."""
    out = []
    for c in copies:
        n = sum(1 for p in changed if members(c)(p))
        if n:
            out.append((c, n))
    return out


def pair(base_touched, head_touched):
    """(base copy, head copy) of the one changed copy; BadInput otherwise."""
    def listed(side, items):
        return "%s: %s" % (side, ", ".join("%s (%s, %s)" % (c["path"], kind_label(c),
                                                             c["version"]) for c, _ in items)
                           or "none")
    where = "; ".join((listed("base", base_touched), listed("head", head_touched)))
    if len(base_touched) == 1 and len(head_touched) == 1:
        return base_touched[0][0], head_touched[0][0]
    if not base_touched:
        raise BadInput("the change adds an LZ4 copy the base does not have (%s): nothing to "
                       "compare it with; test it alone with `make regress SUBJECT=...`" % where)
    raise BadInput("the change touches several LZ4 copies (%s); gate each with `make gate "
                   "BASE=... CANDIDATE=...`" % where)


def spec_of(tree, copy, adapter=False):
    """The gate's SPEC for a copy found in tree (a kernel is named by its
    top, an upstream-layout copy by its release folder, a copy in pieces
    or behind a project API by the folder holding its sources). A side the
    user gives an adapter is a project: SPEC whatever its API, so one
    adapter compares both sides through the same calls (issue 24)."""
    if adapter and copy["kind"] != "kernel":
        return "project:" + os.path.normpath(os.path.join(tree, copy["library"]))
    if copy["kind"] == "kernel":
        return "kernel:" + os.path.normpath(os.path.join(tree, copy["path"]))
    if copy["kind"] == "upstream" and copy["buildable"]:
        return "upstream:" + os.path.normpath(os.path.join(tree, copy["path"]))
    family = "project" if copy["kind"] == "project API" else "upstream"
    return "%s:%s" % (family, os.path.normpath(os.path.join(tree, copy["library"])))


def changed_paths(repo, base, head):
    """Paths that differ between base and head (head None: the working
    tree, with its untracked files)."""
    if head:
        out = git(repo, "diff", "--name-only", "--no-renames", "-z", base, head)
    else:
        out = git(repo, "diff", "--name-only", "--no-renames", "-z", base) + \
            git(repo, "ls-files", "--others", "--exclude-standard", "-z")
    return sorted({p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p})


def side_name(top, copy, commit, worktree=False):
    """What the report calls a side: "borg, src/borg/algorithms/lz4, lz4
    1.8.3 at af449cd" (the project, the copy's folder, its version, the
    commit; the working tree's uncommitted changes said)."""
    what = "Linux %s" % copy["version"] if copy["kind"] == "kernel" else \
        "lz4 %s" % copy["version"] if copy["kind"] == "upstream" else \
        "lz4 %s, %s" % (copy["version"], kind_label(copy))
    dirty = worktree and git(top, "status", "--porcelain", "--", copy["path"]).strip()
    return "%s, %s, %s at %s%s" % (project_name(top), "the top" if copy["path"] == "." else
                                   copy["path"], what, commit[:7],
                                   " with uncommitted changes" if dirty else "")


def adapter_sides(gate_args):
    """(base, candidate): whether the gate options give that side an adapter."""
    given = {a.split("=", 1)[0] for a in gate_args}
    both = "--adapter" in given
    return both or "--base-adapter" in given, both or "--candidate-adapter" in given


def plan(repo, base_ref, head=None, adapters=(False, False)):
    """(gate argv, lines to say), or (None, lines) when nothing changed.
    adapters: whether base and candidate are reached through an adapter."""
    repo = os.path.abspath(repo)
    if not os.path.isdir(repo):
        raise BadInput("%s is not a directory; pass a git checkout of the project" % repo)
    bare = git(repo, "rev-parse", "--is-bare-repository").decode().strip() == "true"
    if bare and not head:
        raise BadInput("%s is a bare repository, with no working tree: name the head "
                       "with --head REF" % repo)
    top = repo if bare else git(repo, "rev-parse", "--show-toplevel").decode().strip()
    head_commit = git(top, "rev-parse", "--verify", (head or "HEAD") + "^{commit}").decode().strip()
    try:
        base_ref_commit = git(top, "rev-parse", "--verify", "-q",
                              base_ref + "^{commit}").decode().strip()
        base = git(top, "merge-base", base_ref_commit, head_commit).decode().strip()
    except BadInput:
        raise BadInput("the base ref %s is not a commit of %s with a merge base with %s (in "
                       "CI: check out the whole history and fetch the target branch)"
                       % (base_ref, top, head or "HEAD")) from None
    base_tree = export(top, base, export_dir(top, base))
    head_tree = export(top, head_commit, export_dir(top, head_commit)) if head else top
    say = ["base: %s, the merge base of %s and %s" % (base[:12], base_ref, head or "HEAD"),
           "head: %s" % ("%s (%s)" % (head, head_commit[:12]) if head
                         else "the working tree of %s" % top)]
    changed = changed_paths(top, base, head)
    base_copies, head_copies = scan(base_tree), scan(head_tree)
    b, h = touched(base_copies, changed), touched(head_copies, changed)
    if not b and not h:
        say.append("nothing to gate: the change (%d file(s)) touches no LZ4 copy (%s)" % (
            len(changed), ", ".join(c["path"] for c in head_copies) or "the head has none"))
        return None, say
    if len(b) == 1 and not h:       # unbundled: the project now links another LZ4
        copy = b[0][0]
        say.append(unbundled.removal_line(copy, unbundled.lines(
            top, head_commit if head else None, copy["path"])))
        return None, say
    base_copy, head_copy = pair(b, h)
    n = dict((c["path"], k) for c, k in h)[head_copy["path"]]
    say.append("the change touches the LZ4 copy at %s (%s, %s)%s: %d file(s)" % (
        head_copy["path"], kind_label(head_copy), head_copy["version"],
        "" if base_copy["path"] == head_copy["path"] else ", %s (%s) in the base" % (
            base_copy["path"], base_copy["version"]), n))
    argv = ["--base", spec_of(base_tree, base_copy, adapters[0]),
            "--candidate", spec_of(head_tree, head_copy, adapters[1]),
            "--source-root", head_tree,
            "--base-name", side_name(top, base_copy, base),
            "--candidate-name", side_name(top, head_copy, head_commit, worktree=not head)]
    # Headers a copy includes by a path out of its folder: written into the
    # exports, and each side's folder searched, so "../zstd/xxhash.h" is found
    # where the project keeps it.
    for role, tree, commit, copy in (("base", base_tree, base, base_copy),
                                     ("candidate", head_tree, head and head_commit, head_copy)):
        if copy["outside"]:
            if commit:
                add_files(top, commit, tree, outside_files(copy))
            folder = os.path.normpath(os.path.join(tree, copy["library"]))
            argv += ["--%s-include" % role, folder]
            say.append("the %s's copy includes from outside its folder (%s): --%s-include %s"
                       % (role, ", ".join(copy["outside"]), role, folder))
    return argv, say


def exported(repo, rev):
    """--export REV: REV's LZ4 part written under build/pr/ (as the gate
    gets a base), its path printed: a report's command on a side that is a
    commit (harness/subjects/origin.py) runs on it."""
    if not os.path.isdir(repo):
        raise BadInput("%s is not a directory; pass a git checkout of the project" % repo)
    top = os.path.abspath(repo)
    commit = git(top, "rev-parse", "--verify", rev + "^{commit}").decode().strip()
    return export_commit(top, commit)


def main(argv):
    if not argv or argv[0] == "help" or "-h" in argv or "--help" in argv:
        print(HELP)
        return EXIT_OK if argv else EXIT_BAD_INPUT
    ap = _Parser(prog="harness pr", add_help=False, allow_abbrev=False)
    ap.add_argument("repo")
    ap.add_argument("--base-ref", default=None)
    ap.add_argument("--head", default=None)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--export", default=None, metavar="REV")
    try:
        args, gate_args = ap.parse_known_args(argv)
        if args.export:
            print(exported(args.repo, args.export))
            return EXIT_OK
        for opt in ("--base", "--candidate", "--source-root"):
            if any(a == opt or a.startswith(opt + "=") for a in gate_args):
                raise BadInput("%s is chosen by pr itself; use `gate` to name both sides" % opt)
        base_ref = args.base_ref or default_base_ref(os.environ)
        if not base_ref:
            raise BadInput("no --base-ref: name the branch the change goes into "
                           "(e.g. --base-ref origin/main)")
        sides, say = plan(args.repo, base_ref, args.head, adapter_sides(gate_args))
    except BadInput as e:
        print("harness pr: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    for line in say:
        print("lz4gate pr: " + line, file=sys.stderr)
    if sides is None:
        return EXIT_OK
    cmd = sides + gate_args
    line = " ".join(shlex.quote(a) for a in cmd)
    if args.dry_run:        # the gate's options on stdout: a CI script's test
        print(line)
        return EXIT_OK
    print("lz4gate pr: gate %s" % line, file=sys.stderr)
    from harness.gate import cli
    return cli.main(cmd)
