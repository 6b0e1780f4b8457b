"""The lz4.c of every upstream release, by fingerprint (ctext.fingerprint:
comments and white space removed, sha256), so that a copy without a
versioned header still says which release it is.

The table, fingerprints.tsv beside this file, holds only digests and tag
names. It is made at development time from a clone of lz4:

    python3 -m harness.subjects.find.fingerprints --write LZ4_GIT

(lib/lz4.c, or lz4.c for r1xx, of every tag of the clone.) --check LZ4_GIT
recomputes it and exits 1 when the committed table differs.
"""
import argparse
import os
import subprocess
import sys

from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.subjects.find import ctext

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fingerprints.tsv")
NOTE = ("# lz4.c fingerprints (comments and white space removed, sha256, 16 hex digits) "
        "of every release tag of lz4; made by python3 -m harness.subjects.find.fingerprints "
        "--write LZ4_GIT")


def load(path=None):
    """{digest: [tag, ...]} of a table file (default: the committed one)."""
    path = path or TABLE
    table = {}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                fields = line.split()
                if len(fields) < 2:
                    raise BadInput("%s:%d: want a digest and its tags" % (path, n))
                table.setdefault(fields[0], []).extend(fields[1:])
    except OSError as e:
        raise BadInput("cannot read the fingerprint table %s: %s" % (path, e.strerror))
    return table


def _git(repo, *args):
    proc = subprocess.run(["git", "-C", repo] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL)
    return proc.stdout if proc.returncode == 0 else None


def _tag_key(tag):
    return [(0, int(x), "") if x.isdigit() else (1, 0, x)
            for x in tag.replace("-", ".").split(".")]


def make(repo):
    """The table's text from an lz4 clone's release tags."""
    tags = _git(repo, "tag", "--list")
    if tags is None:
        raise BadInput("%s is not a git clone of lz4" % repo)
    rows = {}
    for tag in sorted(tags.decode().split(), key=_tag_key):
        for path in ("lib/lz4.c", "lz4.c"):
            blob = _git(repo, "show", "%s:%s" % (tag, path))
            if blob is not None:
                digest = ctext.fingerprint(blob.decode("utf-8", "surrogateescape"))
                rows.setdefault(digest, []).append(tag)
                break
    if not rows:
        raise BadInput("no tag of %s has lib/lz4.c or lz4.c" % repo)
    return "\n".join([NOTE] + ["%s\t%s" % (d, " ".join(t)) for d, t in rows.items()]) + "\n"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(message)


def main(argv):
    ap = _Parser(prog="python3 -m harness.subjects.find.fingerprints", description=__doc__,
                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", metavar="LZ4_GIT", help="write the table from this clone")
    ap.add_argument("--check", metavar="LZ4_GIT", help="compare the table with this clone")
    try:
        args = ap.parse_args(argv)
        if bool(args.write) == bool(args.check):
            raise BadInput("give --write LZ4_GIT or --check LZ4_GIT")
        text = make(args.write or args.check)
    except BadInput as e:
        print("fingerprints: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.write:
        with open(TABLE, "w") as f:
            f.write(text)
        return 0
    with open(TABLE) as f:
        same = f.read() == text
    print("fingerprints: %s" % ("the table matches" if same else "the table differs; --write"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
