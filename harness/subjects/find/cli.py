"""`python3 -m harness scan DIR [--json]`: every LZ4 copy under a tree."""
import argparse
import json
import os
import sys
import time

from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.subjects.find import fingerprints
from harness.subjects.find.copies import kind_label, scan

HELP = """\
NAME
    python3 -m harness scan - list every copy of LZ4 under a project tree

SYNOPSIS
    python3 -m harness scan DIR [--json] [--fingerprints FILE]
    make scan DIR=...

DESCRIPTION
    Walks DIR (never into .git, .hg, .svn, .repo), opens only the C files
    (.c, .h) whose path below DIR names lz4 in any case, file or directory
    (a kernel's lib/lz4 among them), and prints one row per LZ4 copy.

    A copy is where LZ4's library sources are: a directory with a C file
    that DEFINES an LZ4 codec function, public or static (LZ4_compress*,
    LZ4_decompress*, LZ4_uncompress*, LZ4F_*, LZ4_decompress_generic-style
    internals, or the old kernel API lz4_compress, lz4hc_compress,
    lz4_decompress, lz4_decompress_unknownoutputsize). A file that only
    CALLS LZ4 (a language binding, a wrapper, a codec derived from LZ4
    under its own names) is not a copy. Inside an lz4 release tree only
    the library is: its tests/, examples/, contrib/, ossfuzz/ and
    programs/ are not listed.

COLUMNS
    path      relative to DIR, as a SPEC takes it: a Linux tree's top for
              its lib/lz4, an lz4 release tree's top for its lib/ (the
              directory above lib/ when it has programs/ or lz4 in its
              name), else the directory of the sources.
    kind      upstream (defines the public LZ4_* compressors and
              decoders); kernel G1, G2 or G3 (lib/lz4 of a Linux tree; G1
              the 3.11-4.10 API, G2 the 2017 update, G3 the 5.x-6.x code);
              decoder-only (decoders, no compressor at all);
              compressor-only; project API (no public LZ4 entry point
              for both directions: the project's own names, shown, such as
              lz4_compress_zfs; it is tested as project:DIR/PATH through
              an adapter you write, docs/subjects.md, "Project APIs").
    version   from lz4.h's LZ4_VERSION_MAJOR/MINOR/RELEASE (the header
              beside lz4.c, or the one its sources include); a kernel's from
              its top Makefile; otherwise the release whose lz4.c has the
              same fingerprint (comments and white space removed), or
              "unknown (no header; not a released lz4.c)".
    lz4.c     the release tags whose lz4.c the copy's lz4.c is (by
              fingerprint), "not released" when none, "-" without lz4.c.
    files     which of lz4.c, lz4.h, lz4hc.c, lz4hc.h, lz4frame.c,
              lz4frame.h, lz4frame_static.h, lz4file.c/h and xxhash.c/h
              (when the copy's sources include xxhash.h) are there, or the
              kernel's lib/lz4 files, include/linux/lz4.h and
              lib/decompress_unlz4.c; then any other file of the copy that
              defines LZ4 functions (lz4_zfs.c); a header found elsewhere is
              named ("header include/u-boot/lz4.h"), or "no header"; and
              the #include "..." of lz4.c, lz4hc.c, lz4frame.c or xxhash.c
              that reach outside the folder ("includes from outside it:
              lz4frame.c: ../hashes/xxhash.h").
    A * after the kind marks a copy a SPEC can build: upstream with lz4.c
    and lz4.h side by side and nothing included from outside its folder,
    or a Linux tree with include/linux/lz4.h and lib/lz4/*.c. Name it as
    upstream:DIR/PATH or kernel:DIR/PATH, or give DIR itself
    (upstream:DIR, kernel:DIR, auto:DIR) when it is the only one.

OPTIONS
    --json               one JSON object: {"root", "seconds", "copies": [{path,
                         library, kind, generation, version, version_from,
                         releases, files, header, outside, buildable, spec,
                         public, project_api}]}; public: the LZ4 entry points
                         the copy defines, project_api: its other exported
                         names with lz4 in them
    --fingerprints FILE  the lz4.c fingerprint table to use (default: the
                         committed harness/subjects/find/fingerprints.tsv;
                         lines "DIGEST TAG...", # comments)

EXAMPLES
    python3 -m harness scan ~/src/c-blosc
        one row: internal-complibs/lz4-1.9.1, upstream *, 1.9.1
    python3 -m harness subjects build auto:$HOME/src/c-blosc
        builds that copy, saying on stderr which it used
    python3 -m harness scan /usr/src/linux --json
        the kernel's copy at ".", its generation and version, as JSON

EXIT STATUS
    0 the listing was printed (also when it is empty); 2 DIR is not a
    directory, or a bad option or table, with one line on stderr.

Manual: docs/subjects.md
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput("%s; see python3 -m harness scan --help" % message)


def _spec(root, copy):
    if not copy["buildable"]:
        return ""
    family = "kernel" if copy["kind"] == "kernel" else "upstream"
    return "%s:%s" % (family, os.path.normpath(os.path.join(root, copy["path"])))


def _files(copy):
    out = ", ".join(os.path.basename(f) if copy["kind"] != "kernel" else f
                    for f in copy["files"]) or "-"
    if copy["kind"] != "kernel" and "lz4.h" not in copy["files"]:
        out += "; " + ("header " + copy["header"] if copy["header"] else "no header")
    if copy["outside"]:
        out += "; includes from outside it: " + ", ".join(copy["outside"])
    return out


def table(copies):
    """The aligned text listing."""
    rows = [("PATH", "KIND", "VERSION", "LZ4.C", "FILES")]
    for c in copies:
        lz4c = " ".join(c["releases"]) or \
            ("not released" if "lz4.c" in c["files"] else "-")
        rows.append((c["path"], kind_label(c) + (" *" if c["buildable"] else ""),
                     c["version"], lz4c, _files(c)))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(r[i].ljust(widths[i]) for i in range(4)) + "  " + r[4]
                     for r in rows)


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(HELP)
        return 0 if argv else EXIT_BAD_INPUT
    ap = _Parser(prog="harness scan", add_help=False)
    ap.add_argument("dir")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--fingerprints", metavar="FILE")
    try:
        args = ap.parse_args(argv)
        if not os.path.isdir(args.dir):
            raise BadInput("%s is not a directory; pass the top of a project tree" % args.dir)
        fp = fingerprints.load(args.fingerprints)
        t0 = time.time()
        copies = scan(args.dir, fp)
        seconds = round(time.time() - t0, 2)
    except BadInput as e:
        print("harness scan: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    for c in copies:
        c["spec"] = _spec(args.dir, c)
    if args.json:
        print(json.dumps({"root": args.dir, "seconds": seconds, "copies": copies}, indent=1))
    elif copies:
        print(table(copies))
        print("%d LZ4 cop%s under %s, %d a SPEC can build (*); %.1f s"
              % (len(copies), "y" if len(copies) == 1 else "ies", args.dir,
                 sum(c["buildable"] for c in copies), seconds))
    else:
        print("no LZ4 copy under %s (no C file there defines an LZ4 codec function)" % args.dir)
    return 0
