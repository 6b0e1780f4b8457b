"""Upstream's own fuzzers (ossfuzz/ of an lz4 release tree), compiled at
run time from the tree: the peers our targets are measured against. Nothing
of upstream is copied into lz4gate."""
import glob
import os
import shutil

from harness import atomic
from harness.errors import BadInput
from harness.bench.common import OUT, fuzzer_flags, say
from harness.subjects.spec import DEFAULT_TREES
from harness.toolchain import SUBJECT_UBSAN, file_digest, run_or_fail, sha

# Upstream's own fuzzers our targets are measured against (block and frame
# format) and what they link: each fuzzer, its two helpers, and liblz4's
# sources (as their Makefile's liblz4.a).
UPSTREAM_FUZZERS = ("decompress_fuzzer", "round_trip_fuzzer", "decompress_frame_fuzzer",
                    "round_trip_frame_fuzzer", "round_trip_hc_fuzzer",
                    "round_trip_stream_fuzzer")

UPSTREAM_HELPERS = ("ossfuzz/lz4_helpers.c", "ossfuzz/fuzz_data_producer.c")

UPSTREAM_LIB = ("lib/lz4.c", "lib/lz4hc.c", "lib/lz4frame.c", "lib/xxhash.c")
# Peers linked with a liblz4 whose UBSan checks report and go on, as our
# subjects' are (toolchain.SUBJECT_UBSAN): round_trip_stream_fuzzer
# otherwise stops at its first input on lz4hc.c's pointer arithmetic. Only
# those: the recoverable checks cost a little, and the other peers keep the
# fastest build.
UB_RECOVER = ("round_trip_stream_fuzzer",)
# The preprocessor flags of upstream's ossfuzz/Makefile (LZ4_CPPFLAGS).
UPSTREAM_CPPFLAGS = ["-DXXH_NAMESPACE=LZ4_", "-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"]


def build_upstream(args, wanted=lambda name: True):
    """Compile upstream's fuzzers from the tree (those `wanted`: --only);
    return ({name: binary}, flags). The block fuzzers must be there; a
    frame fuzzer the tree lacks (older releases) is left out, and its
    targets' ratios read n/a."""
    tree = args.upstream_tree or DEFAULT_TREES["upstream"]
    if not os.path.isdir(tree):
        raise BadInput("no lz4 tree at %s; run: make subjects (or pass --upstream-tree DIR)"
                       % tree)
    names = [n for n in UPSTREAM_FUZZERS if wanted(n) and (
        n in UPSTREAM_FUZZERS[:2] or os.path.isfile(os.path.join(tree, "ossfuzz", n + ".c")))]
    needed = [os.path.join(tree, f) for f in UPSTREAM_HELPERS + UPSTREAM_LIB] + \
        [os.path.join(tree, "ossfuzz", n + ".c") for n in names]
    missing = [p for p in needed if not os.path.isfile(p)]
    if missing:
        raise BadInput("%s is not an lz4 tree with ossfuzz/ fuzzers: %s is missing"
                       % (tree, os.path.relpath(missing[0], tree)))
    cc, flags = fuzzer_flags()
    flags = flags + ["-DLZ4_DEBUG=%d" % args.upstream_debuglevel, "-w",
                     "-I" + os.path.join(tree, "lib")] + UPSTREAM_CPPFLAGS
    if not names:
        return {}, flags
    key = sha(cc, flags, SUBJECT_UBSAN, UB_RECOVER, names, file_digest(
        needed + glob.glob(os.path.join(tree, "ossfuzz", "*.h")) +
        glob.glob(os.path.join(tree, "lib", "*.h"))))
    out = os.path.join(OUT, "upstream", key)
    bins = {n: os.path.join(out, n) for n in names}
    if all(os.path.isfile(b) for b in bins.values()):
        return bins, flags
    say(args, "building upstream's %s from %s" % (", ".join(names), tree))
    tmp = atomic.scratch_dir(out)    # renamed into place when complete
    nolink = [f if f != "-fsanitize=fuzzer" else "-fsanitize=fuzzer-no-link" for f in flags]
    objs = {}
    # liblz4 once per variant the fuzzers built here link
    for extra in [v for v in ([], SUBJECT_UBSAN) if any((n in UB_RECOVER) == bool(v)
                                                        for n in names)]:
        objs[bool(extra)] = []
        for src in [os.path.join(tree, f) for f in UPSTREAM_HELPERS + UPSTREAM_LIB]:
            obj = os.path.join(tmp, os.path.basename(src)[:-2] + (".r.o" if extra else ".o"))
            # liblz4 for the peers below as our subjects are built: UBSan
            # reports and goes on in library code (toolchain.SUBJECT_UBSAN)
            lib = extra if src.endswith(UPSTREAM_LIB) else []
            run_or_fail([cc] + nolink + lib + ["-c", src, "-o", obj],
                        "compiling upstream's " + src)
            objs[bool(extra)].append(obj)
    for name in names:
        run_or_fail([cc] + flags + ["-o", os.path.join(tmp, name),
                                    os.path.join(tree, "ossfuzz", name + ".c")] +
                    objs[name in UB_RECOVER], "building upstream's " + name)
    atomic.publish_dir(tmp, out)
    return bins, flags
