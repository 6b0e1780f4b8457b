"""`python3 -m harness subjects`: build subjects and show what they have."""
import argparse
import os
import sys

from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.subjects import options, project
from harness.subjects.build import build
from harness.subjects.spec import DEFAULT_TREES
from harness.toolchain import CONFIGS

HELP = """\
NAME
    python3 -m harness subjects - build LZ4 implementations under test

SYNOPSIS
    python3 -m harness subjects build SPEC [--patch FILE]... [--include DIR]...
                                      [--define NAME[=VALUE]]... [--config CONFIG]...
                                      [--adapter FILE.c [--sources A.c,B.c]]
    python3 -m harness subjects info SPEC [same options]
    python3 -m harness subjects list

DESCRIPTION
    build   stage, probe and compile SPEC for each CONFIG (default asan64) and
            print the output directory (subject.o, subject_b.o, subject.json).
    info    build, then print the subject's entry points as JSON.
    list    print the default subjects and the build configurations.

SPEC
    ref | system | upstream | kernel | kernel-6.12 | upstream:DIR | kernel:DIR |
    auto:DIR
    | project:DIR (with --adapter: an LZ4 copy behind its project's own API)
    (upstream, kernel and kernel-6.12 alone mean the trees fetched by
    `python3 -m harness fetch` under build/subjects/).
    DIR is the top of an lz4 tree (lib/lz4.c or lz4.c, with lz4.h beside
    it) or of a Linux tree (include/linux/lz4.h, lib/lz4/*.c), or the top
    of a project holding one: then the copy under it is found as
    `python3 -m harness scan DIR` lists them, used when it is the only one
    of that kind that lz4gate can build, and named in one line on stderr
    ("upstream:DIR: using the LZ4 copy at internal-complibs/lz4-1.9.1
    (1.9.1)"); several is an error that lists them. auto:DIR takes either
    kind, so a job whose project path is fixed keeps working when the
    vendored folder's name changes with its version. The subject is the
    copy's files: the same copy under another root is the same subject
    (one build, one identity). Patches (--patch) apply to the copy, -p1
    from its top.
    For testing lz4gate itself: ref-mutant:CHECK (ref with one named check
    switched off), broken:MODE (a deliberately broken adapter) and
    fixture:NAME (a synthetic tree of tests/fixtures: kernel-g1,
    kernel-g1-3.11, kernel-g1-compat, kernel-g1-srclen, kernel-g1-dstlen,
    upstream-r1xx).

OPTIONS
    --patch FILE    apply FILE (a git-style patch, -p1) to a copy of the tree in
                    build/stage/; repeatable, applied in order. The tree given
                    in SPEC is never modified.
    --include DIR   search DIR for headers the copy includes and does not hold
                    (a relative DIR is taken from the tree); repeatable
    --define NAME[=VALUE]
                    a configuration macro for the copy, its probes and its
                    adapter (LZ4_HEAPMODE, LZ4_MEMORY_USAGE, LZ4LIB_API, a
                    renaming macro, ...; NAME(ARGS)=VALUE for a function-like
                    one); repeatable. --include and --define are part of the
                    subject: its identity and every cache key.
    --config NAME   %s
    --adapter FILE.c  the adapter of a project:DIR subject: C that fills
                    subject.h's table from the project's functions (docs/subjects.md,
                    "Project APIs"; helpers in
                    harness/subjects/adapters/project_adapter.h)
    --sources A.c,B.c the .c files of DIR to compile (default: the .c files at
                    DIR's top but tests, benchmarks, fuzzers, examples and
                    programs)
    -q, --quiet     no progress lines

EXIT STATUS
    0 success; 2 bad input (unknown SPEC, missing tree, no LZ4 sources,
    a project with several copies, patch that does not apply, subject that
    does not compile), with one line on stderr saying what and how to fix
    it.

Manual: docs/subjects.md
""" % ", ".join(CONFIGS)


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(HELP)
        return 0 if argv else EXIT_BAD_INPUT
    ap = argparse.ArgumentParser(prog="harness subjects", add_help=False)
    ap.add_argument("command", choices=("build", "info", "list"))
    ap.add_argument("spec", nargs="?")
    ap.add_argument("--patch", action="append", default=[])
    ap.add_argument("--config", action="append", default=[])
    options.add_arguments(ap)
    ap.add_argument("-q", "--quiet", action="store_true")
    project.add_arguments(ap)
    try:
        args = ap.parse_intermixed_args(argv)
    except SystemExit:
        return EXIT_BAD_INPUT
    if args.command == "list":
        for name, path in sorted(DEFAULT_TREES.items()):
            print("%-11s %s%s" % (name, path, "" if os.path.isdir(path) else "  (not fetched)"))
        print("ref         the reference codec\nsystem      /usr/lib liblz4")
        print("configs:    " + " ".join(CONFIGS))
        return 0
    if not args.spec:
        print("harness subjects: %s needs a SPEC; see --help" % args.command, file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        project.check_used(args, [args.spec])
        args.spec = project.apply_arguments(args, [args.spec])[0]
        for config in args.config or ["asan64"]:
            out = build(args.spec, config, args.patch, args.quiet, **options.side(args))
            if args.command == "build":
                print(out)
            else:
                with open(os.path.join(out, "subject.json")) as f:
                    print(f.read())
    except BadInput as e:
        print("harness subjects: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0
