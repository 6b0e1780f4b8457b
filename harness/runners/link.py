"""Compiling and linking a runner (or any program) against a built subject.

Every source goes through the object cache, so ref/ and the common helpers
are compiled once per configuration for all runners and subjects, and a
program is relinked only when one of its inputs changed."""
import os

from harness import objcache, toolchain
from harness.errors import BadInput
from harness.paths import ADAPTERS, COMMON_C, REF, RUNNERS
from harness.subjects import refcodec
from harness.subjects.build import info as subject_info

# Include directories of lz4gate's own C (not subject code).
OUR_INCLUDES = ["-I" + REF, "-I" + ADAPTERS, "-I" + COMMON_C]


def runner_sources(*names):
    """Paths of runner sources named relative to harness/runners/ (or of
    adapters/ for subject_names.c)."""
    out = []
    for n in names:
        path = os.path.join(ADAPTERS if n == "subject_names.c" else RUNNERS, n)
        if not os.path.isfile(path):
            raise BadInput("no runner source %s" % path)
        out.append(path)
    return out


def config_flags(config):
    """A configuration's compile flags for our own C."""
    _, flags, _ = toolchain.config(config)
    if config == "gcov":
        # Coverage is measured on the subject's code, not ours (and cached
        # objects must not write counters into the cache).
        return [f for f in flags if f != "--coverage"] + ["-DLZ4GATE_GCOV"]
    return list(flags)


def compile_ours(config, sources, extra_flags=()):
    """Objects of our own C sources for a configuration (cached)."""
    cc = toolchain.config(config)[0]
    flags = config_flags(config) + toolchain.OUR_WARNINGS + OUR_INCLUDES + list(extra_flags)
    return [objcache.compile_object(cc, flags, src) for src in sources]


def link_runner(subject_dir, config, sources, name, extra_flags=()):
    """Link sources + ref (the oracle) + subject.o into subject_dir/name."""
    if config in toolchain.FUZZ_CONFIGS:
        raise BadInput("configuration %s is for fuzzers, not runners" % config)
    info = subject_info(subject_dir)
    cc, flags, _ = toolchain.config(config)
    dirs = {os.path.dirname(s) for s in sources}
    objs = compile_ours(config, list(sources),
                        list(extra_flags) + ["-I" + d for d in sorted(dirs)])
    objs += refcodec.objects(cc, config_flags(config))
    objs.append(os.path.join(subject_dir, "subject.o"))
    return objcache.link_program(cc, flags, objs, os.path.join(subject_dir, name),
                                 "linking the %s runner for %s" % (name, info["spec"]),
                                 libs=info.get("link", []))

