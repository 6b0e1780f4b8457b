"""Building a fuzz target for an engine: fuzz/<T>.c + ref/ (the oracle) +
fuzz/oracle.c + the subject's subject.o (and subject_b.o for a pair target),
compiled through the object cache and linked for libFuzzer, AFL++ or the
plain replay main."""
import copy
import os
import re
import shutil
import subprocess

from harness import objcache, toolchain
from harness.errors import BadInput
from harness.paths import ADAPTERS, BUILD, COMMON_C, FUZZ, REF, RUNNERS, TOP
from harness.fuzzing.targets import PAIR_TARGET, TABLE, TARGETS
from harness.subjects import options, refcodec
from harness.subjects.recipes.upstream import check_system_bits
from harness.subjects.build import build as build_subject
from harness.subjects.build import info as subject_info

OUT = os.path.join(BUILD, "fuzz")
# env: OSS-Fuzz / ClusterFuzzLite, whose build sets $CC $CFLAGS and
# $LIB_FUZZING_ENGINE (ci/oss-fuzz/build.sh).
ENGINES = ("libfuzzer", "afl", "replay", "env")
AFL_DRIVER = "/usr/lib/afl/libAFLDriver.a"
# The oracle every target links (fuzz/oracle.h).
ORACLE_SOURCES = ("oracle.c", "oracle_record.c", "oracle_verdict.c", "oracle_call.c", "synth.c",
                  "oracle_needs.c")
# ... and the one verdict rule it shares with the runners (harness/runners/common/judge.h).
ORACLE_COMMON = ("judge.c", "fail_class.c")
INCLUDES = ["-I" + FUZZ, "-I" + REF, "-I" + ADAPTERS, "-I" + COMMON_C]


def tag_of(spec):
    tag = re.sub(r"[^A-Za-z0-9_.-]+", "_", spec).strip("_") or "subject"
    # A project spec names a tree and an adapter by absolute path: keep a
    # directory name (two for the pair target) well under 255 bytes.
    return tag if len(tag) <= 80 else "%s-%s" % (tag[:60], toolchain.sha(spec)[:12])


def check_target(args):
    if args.target not in TARGETS:
        raise BadInput("unknown target '%s'; use one of: %s" % (args.target, ", ".join(TARGETS)))
    if args.subject_b and args.target != PAIR_TARGET:
        raise BadInput("--subject-b is for %s only" % PAIR_TARGET)
    if args.target == PAIR_TARGET and not args.subject_b:
        args.subject_b = args.subject
        args.patch_b = args.patch_b or args.patch
        args.include_b = getattr(args, "include_b", None) or getattr(args, "include", [])
        args.define_b = getattr(args, "define_b", None) or getattr(args, "define", [])


def subject_config(args):
    """The subject configuration for this engine and word size."""
    bits = str(getattr(args, "bits", "64") or "64")
    if bits not in ("32", "64"):
        raise BadInput("--bits must be 32 or 64, not '%s'" % bits)
    if args.engine == "libfuzzer":
        if args.config:
            raise BadInput("--config is for the replay engine; libFuzzer uses libfuzzer/libfuzzer32")
        return "libfuzzer32" if bits == "32" else "libfuzzer"
    if args.engine == "env":
        if "env" not in toolchain.CONFIGS or not os.environ.get("LIB_FUZZING_ENGINE"):
            raise BadInput("--engine env needs $CC, $CFLAGS and $LIB_FUZZING_ENGINE "
                           "(set by OSS-Fuzz / ClusterFuzzLite)")
        return "env"
    if args.engine == "afl":
        if bits == "32":
            raise BadInput("the AFL++ build is 64-bit only here; use --engine libfuzzer --bits 32 "
                           "or --engine replay --bits 32")
        return "afl"
    if args.config:
        if args.config not in toolchain.RUNNER_CONFIGS:
            raise BadInput("unknown replay configuration '%s'; use one of: %s" % (
                args.config, ", ".join(toolchain.RUNNER_CONFIGS)))
        return args.config
    return "asan32" if bits == "32" else "asan64"


def describe(args):
    if args.target == PAIR_TARGET:
        return "%s -> %s" % (args.subject, args.subject_b)
    return args.subject


def subject_tag(spec, patches, kw=None):
    """A directory name for a subject: its spec, and a digest of its patches
    when it has any (a patched tree is another program: its binaries and
    campaigns must not share the unpatched tree's paths), and of its
    --include/--define (kw) when it has them."""
    tag = tag_of(spec)
    if patches:
        contents = []
        for p in patches:
            with open(p, "rb") as f:
                contents.append(f.read())
        tag += "+p" + toolchain.sha(*contents)[:10]
    if kw and (kw.get("includes") or kw.get("defines")):
        tag += "+o" + toolchain.sha(*(kw["includes"] + ["-D"] + kw["defines"]))[:10]
    return tag


def side_options(args, which="a"):
    """--include/--define of --subject (a) or --subject-b (b)."""
    return options.side(args, "" if which == "a" else "_b")


def run_dir(args):
    tag = subject_tag(args.subject, args.patch, side_options(args))
    if args.target == PAIR_TARGET:
        tag += "__" + subject_tag(args.subject_b, args.patch_b, side_options(args, "b"))
    return os.path.join(OUT, args.target, tag)


def _check_engine(engine):
    if engine not in ENGINES:
        raise BadInput("unknown engine '%s'; use one of: %s" % (engine, ", ".join(ENGINES)))
    if engine == "afl":
        for tool in ("afl-clang-fast", "afl-fuzz"):
            if shutil.which(tool) is None:
                raise BadInput("%s not found; run: make deps (Debian package afl++)" % tool)
        if not os.path.isfile(AFL_DRIVER):
            raise BadInput("%s not found; run: make deps (Debian package afl++)" % AFL_DRIVER)


def target_sources(target, engine):
    srcs = [os.path.join(FUZZ, f) for f in (target + ".c",) + ORACLE_SOURCES]
    srcs += [os.path.join(COMMON_C, f) for f in ORACLE_COMMON]
    # fuzz/targets.tsv: fuzz/X.c is a helper of the targets, any other
    # source a runner file under harness/runners/
    srcs += [os.path.join(TOP, s) if s.startswith("fuzz/") else os.path.join(RUNNERS, s)
             for s in TABLE[target].sources]
    if engine == "replay":
        srcs.append(os.path.join(FUZZ, "replay_main.c"))
    # (cap names for fuzz/oracle_needs.c's n/a line; ref's objects: build())
    return srcs + [os.path.join(ADAPTERS, "subject_names.c")]


def not_applicable(args):
    """None when the target has something to test on args' subject(s), else
    why not: the subject has none of the entry points the target exercises
    (a decoder-only copy and the compressor targets). The replay build
    answers (fuzz/oracle_needs.c), in asan64: what a subject has does not
    depend on the engine."""
    bits = toolchain.bits_of(subject_config(args))
    for spec in (args.subject, args.subject_b):
        check_system_bits(spec, bits)
    a = copy.copy(args)
    a.engine, a.bits, a.config = "replay", "64", None
    out = subprocess.run([build(a), "--applicable"], stdout=subprocess.PIPE,
                         universal_newlines=True, errors="replace",
                         env=toolchain.sanitizer_env("replay")).stdout.strip()
    return out[len("n/a: "):] if out.startswith("n/a: ") else None


def build(args):
    """Build the target binary for args.engine; return its path."""
    check_target(args)
    _check_engine(args.engine)
    config = subject_config(args)
    cc, flags, _ = toolchain.config(config)
    subject_dirs = [build_subject(args.subject, config, args.patch, quiet=True,
                                  **side_options(args))]
    objs = [os.path.join(subject_dirs[0], "subject.o")]
    if args.target == PAIR_TARGET:
        subject_dirs.append(build_subject(args.subject_b, config, args.patch_b, quiet=True,
                                          **side_options(args, "b")))
        objs.append(os.path.join(subject_dirs[1], "subject_b.o"))
    libs = []
    for d in subject_dirs:
        libs += [l for l in subject_info(d).get("link", []) if l not in libs]
    out_dir = os.path.join(run_dir(args), config)
    binary = os.path.join(out_dir, args.target + ("-replay" if args.engine == "replay" else ""))
    what = "building %s for %s [%s]" % (args.target, args.subject, config)
    compile_flags = list(flags) + toolchain.OUR_WARNINGS + INCLUDES
    # The reference codec and the oracle are the judge, not the subject:
    # without coverage instrumentation (libFuzzer's comparison tracing in
    # ref's per-byte loops was the biggest cost of an execution, issue 15)
    # libFuzzer is guided by the subject's and the target's own edges.
    uninstrumented = [f for f in flags if f != "-fsanitize=fuzzer-no-link"]
    quiet_flags = uninstrumented + toolchain.OUR_WARNINGS + INCLUDES
    judge = {os.path.join(FUZZ, f) for f in ORACLE_SOURCES} | \
        {os.path.join(ADAPTERS, "subject_names.c")} | \
        {os.path.join(COMMON_C, f) for f in ORACLE_COMMON}
    objs = [objcache.compile_object(cc, quiet_flags if src in judge else compile_flags, src,
                                    what)
            for src in target_sources(args.target, args.engine)] + \
        refcodec.objects(cc, uninstrumented) + objs
    link_flags = list(flags)
    if args.engine == "libfuzzer":
        link_flags = uninstrumented + ["-fsanitize=fuzzer"]
    if args.engine == "afl":
        libs = [AFL_DRIVER] + libs + ["-lstdc++"]   # the AFL++ driver is C++
    if args.engine == "env":
        libs = os.environ["LIB_FUZZING_ENGINE"].split() + libs
    return objcache.link_program(cc, link_flags, objs, binary, what, libs=libs)
