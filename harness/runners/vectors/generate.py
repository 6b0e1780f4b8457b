"""The known-answer vectors (corpus/vectors/): building their generator
(harness/runners/vectors/make_vectors.c and its pieces) and running it.

`python3 -m harness vectors --write DIR`   regenerate the vectors into DIR
`python3 -m harness vectors --check DIR`   exit 1 when DIR differs from what
                                           the generator writes (the first
                                           difference is printed)

The generator is deterministic (fixed seeds, the same bytes on 32- and
64-bit hosts), so the committed corpus/vectors must regenerate byte for
byte; --check regenerates into a scratch directory and compares.
"""
import argparse
import filecmp
import os
import shutil
import sys
import tempfile

from harness import atomic, objcache, toolchain
from harness.errors import EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK, BadInput
from harness.paths import ADAPTERS, BUILD, COMMON_C, REF, RUNNERS, shown
from harness.subjects import refcodec

VECTORS_C = os.path.join(RUNNERS, "vectors")
# make_vectors.c and its pieces (catalogue.h), then the shared helpers.
GENERATOR_SOURCES = [os.path.join(VECTORS_C, f) for f in (
    "make_vectors.c", "vector_files.c", "vector_index.c", "vector_add.c", "defined_prefix.c",
    "block_writer.c", "block_builder.c", "catalogue.c", "catalogue_generated.c",
    "catalogue_edge.c", "catalogue_dict.c", "catalogue_invalid.c", "malformed_blocks.c")] + \
    [os.path.join(COMMON_C, f) for f in ("jsonl.c", "sha256.c")]
INCLUDES = ["-I" + REF, "-I" + ADAPTERS, "-I" + COMMON_C, "-I" + VECTORS_C]
# The generator uses jsonl.c's JSON string writer, not its record printer
# (which needs the runners' isolate.c): every function gets its own section
# and the linker drops the ones nothing calls.
SECTIONS = ["-ffunction-sections", "-fdata-sections"]
OUT = os.path.join(BUILD, "vectors")


def build_generator():
    """Path of the make_vectors binary (built through the object cache)."""
    flags = ["-O2"] + SECTIONS + toolchain.OUR_WARNINGS + INCLUDES
    objs = [objcache.compile_object("cc", flags, src) for src in GENERATOR_SOURCES] + \
        refcodec.objects("cc", ["-O2"])
    return objcache.link_program("cc", ["-O2", "-Wl,--gc-sections"], objs,
                                 os.path.join(OUT, "make_vectors"),
                                 "linking harness/runners/vectors/make_vectors.c")


def write(directory):
    """Regenerate the vectors into directory; the generator's summary line."""
    tool = build_generator()
    # Generated beside directory and moved in file by file (atomically): a
    # runner reading the vectors meanwhile sees whole files.
    scratch = atomic.scratch_dir(directory)
    try:
        out = toolchain.run_or_fail([tool, scratch], "generating the vectors into %s"
                                    % shown(directory))
        # (the generator removes what it did not write; so does the move)
        stale = [n for n in os.listdir(directory) if n.endswith((".lz4", ".dict"))] \
            if os.path.isdir(directory) else []
        atomic.replace_files(scratch, directory, stale)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return out.replace(scratch, directory).strip()


def first_difference(committed, fresh):
    """A line saying how committed differs from fresh, or None when equal."""
    old, new = sorted(os.listdir(committed)), sorted(os.listdir(fresh))
    if old != new:
        only_old = sorted(set(old) - set(new))
        only_new = sorted(set(new) - set(old))
        return "files differ: only in %s: %s; only in the generator's output: %s" % (
            shown(committed), ", ".join(only_old[:5]) or "-", ", ".join(only_new[:5]) or "-")
    _, mismatch, errors = filecmp.cmpfiles(committed, fresh, old, shallow=False)
    for name in errors + mismatch:
        return "%s differs from what the generator writes%s" % (
            shown(os.path.join(committed, name)), line_difference(
                os.path.join(committed, name), os.path.join(fresh, name)))
    return None


def line_difference(a, b):
    """': line N: ...' for the first differing line of two text files, else ''."""
    try:
        with open(a) as fa, open(b) as fb:
            for n, (la, lb) in enumerate(zip(fa, fb), 1):
                if la != lb:
                    return ": line %d: committed %r, generated %r" % (n, la.strip()[:120],
                                                                      lb.strip()[:120])
    except (OSError, UnicodeDecodeError):
        pass
    return ""


def check(directory):
    """EXIT_OK when directory holds exactly what the generator writes."""
    if not os.path.isdir(directory):
        raise BadInput("no directory %s" % directory)
    scratch = tempfile.mkdtemp(prefix="vectors-check-", dir=BUILD)
    try:
        write(scratch)
        diff = first_difference(directory, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if diff:
        print("harness vectors: %s; regenerate with: python3 -m harness vectors --write %s"
              % (diff, shown(directory)))
        return EXIT_FAIL
    print("harness vectors: %s matches the generator" % shown(directory))
    return EXIT_OK


def main(argv):
    ap = argparse.ArgumentParser(prog="harness vectors", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/contracts.md")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="DIR", help="regenerate the vectors into DIR")
    mode.add_argument("--check", metavar="DIR",
                      help="exit 1 when DIR differs from what the generator writes")
    args = ap.parse_args(argv)
    try:
        if args.write:
            print(write(os.path.abspath(args.write)))
            return EXIT_OK
        return check(os.path.abspath(args.check))
    except BadInput as e:
        print("harness vectors: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
