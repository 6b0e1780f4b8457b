"""The reference codec's own C unit tests (tests/c/test_*.c): built in six
configurations through the object cache, so a mutant build (one named check
switched off) recompiles only the files that read that check.

`python3 -m harness ref-tests [--config C]... [--mutant CHECK] [--run]`
"""
import argparse
import os
import subprocess
import sys

from harness import objcache, toolchain
from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.paths import BUILD, COMMON_C, REF, TOP
from harness.subjects import refcodec

TESTS_C = os.path.join(TOP, "tests", "c")
WARN = ["-std=c11", "-Wall", "-Wextra", "-Werror"]
SAN = toolchain.SAN
# name: (compiler, flags, bits)
UNIT_CONFIGS = {
    "asan64": ("clang", ["-O1", toolchain.DEBUG] + SAN, 64),
    "asan32": ("clang", ["-m32", "-O1", toolchain.DEBUG] + SAN, 32),
    "gcc-O0": ("gcc", ["-O0", "-g"], 64),
    "gcc-O2": ("gcc", ["-O2", "-g"], 64),
    "gcc-O2-m32": ("gcc", ["-m32", "-O2", "-g"], 32),
    "clang-O2": ("clang", ["-O2", toolchain.DEBUG], 64),
}
# Debian ships liblz4 for the native ABI only.
NATIVE_ONLY = {"test_interop": ["-llz4"]}
# Sources some unit tests share with the harness (the malformed-block
# catalogue, the vector generator's pieces).
SHARED_SOURCES = [os.path.join(TESTS_C, f) for f in (
    "check.c", "sample_data.c", "block_walk.c", "frame_build.c", "frame_split.c",
    "frame_input.c", "frame_error_cases.c")] + \
    [os.path.join(os.path.dirname(COMMON_C), "vectors", f)
     for f in ("malformed_blocks.c", "block_writer.c")]


def programs():
    return sorted(f[:-2] for f in os.listdir(TESTS_C) if f.startswith("test_") and f.endswith(".c"))


def programs_for(config):
    bits = UNIT_CONFIGS[config][2]
    return [p for p in programs() if not (p in NATIVE_ONLY and bits == 32)]


# The mutant build that reads which check to switch off from the environment
# (ref/mutant.h REF_MUTANT_FROM_ENV: one build, every mutant a run).
ANY_MUTANT = "ANY"


def build(config, mutant="", only=()):
    """{program: binary} of the unit tests for a configuration (and mutant:
    a check name, or ANY_MUTANT for the build that takes LZ4REF_MUTANT_ID)."""
    if config not in UNIT_CONFIGS:
        raise BadInput("unknown unit-test configuration '%s'; use one of: %s"
                       % (config, ", ".join(UNIT_CONFIGS)))
    if mutant and mutant != ANY_MUTANT and mutant not in refcodec.check_names():
        raise BadInput("unknown check '%s'" % mutant)
    cc, flags, _ = UNIT_CONFIGS[config]
    cflags = WARN + flags + ["-I" + REF, "-I" + TESTS_C, "-I" + COMMON_C,
                             "-I" + os.path.join(os.path.dirname(COMMON_C), "vectors")] + \
        (["-DREF_MUTANT_FROM_ENV"] if mutant == ANY_MUTANT else
         ["-DREF_MUTANT=" + mutant] if mutant else [])
    common = [objcache.compile_object(cc, cflags, s) for s in refcodec.sources() + SHARED_SOURCES]
    out_dir = os.path.join(BUILD, "mutants", mutant, config) if mutant else \
        os.path.join(BUILD, "ref", config)
    out = {}
    for prog in only or programs_for(config):
        obj = objcache.compile_object(cc, cflags, os.path.join(TESTS_C, prog + ".c"))
        out[prog] = objcache.link_program(cc, flags, [obj] + common, os.path.join(out_dir, prog),
                                          "linking %s [%s]" % (prog, config),
                                          libs=NATIVE_ONLY.get(prog, []))
    return out


def runnable(config):
    """Can this machine run the unit tests of a configuration? (32-bit
    sanitizer builds need a kernel with IA-32 emulation; toolchain.py)"""
    _, flags, bits = UNIT_CONFIGS[config]
    return toolchain.exec_prefix(bits, flags) is not None


def run(binary, timeout=900, purpose="unit", config="asan64", **env):
    """(exit status, output) of one unit-test program (env: extra variables)."""
    _, flags, bits = UNIT_CONFIGS[config]
    prefix = toolchain.exec_prefix(bits, flags)
    if prefix is None:
        raise BadInput("cannot run %s unit tests here: %s" % (config, toolchain.NO_I386))
    proc = subprocess.run(prefix + [binary], cwd=TOP, env=toolchain.sanitizer_env(purpose, **env),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", timeout=timeout)
    return proc.returncode, proc.stdout


def main(argv):
    ap = argparse.ArgumentParser(prog="harness ref-tests", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/reference-codec.md")
    ap.add_argument("--config", action="append", default=[])
    ap.add_argument("--mutant", default="")
    ap.add_argument("--run", action="store_true", help="run every program after building")
    args = ap.parse_args(argv)
    failed = 0
    try:
        for config in args.config or ["asan64"]:
            for prog, binary in build(config, args.mutant).items():
                if not args.run:
                    print(binary)
                    continue
                status, text = run(binary, config=config)
                print("%-10s %-20s %s" % (config, prog, text.strip().splitlines()[-1]
                                          if status == 0 else "FAILED"))
                if status != 0:
                    failed += 1
                    print(text[-3000:])
    except BadInput as e:
        print("harness ref-tests: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    return 1 if failed else 0
