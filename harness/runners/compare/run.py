"""Size and speed, base vs candidate: runners/compare/size_speed.c links
both subjects (-O2) into one program and measures them side by side."""
import json
import os
import subprocess

from harness.runners.link import compile_ours, runner_sources
from harness.subjects.build import build, info
from harness import objcache, toolchain


def compare(base, candidate, base_patches=(), candidate_patches=(), base_kw=None,
            candidate_kw=None):
    """One record per data set: sizes, HC sizes and MB/s of both subjects
    (base_kw, candidate_kw: each side's --include/--define)."""
    b = build(base, "O2", base_patches, True, **(base_kw or {}))
    c = build(candidate, "O2", candidate_patches, True, **(candidate_kw or {}))
    cc, flags, _ = toolchain.config("O2")
    objs = compile_ours("O2", runner_sources("compare/size_speed.c"))
    objs += [os.path.join(b, "subject.o"), os.path.join(c, "subject_b.o")]
    libs = sorted(set(info(b).get("link", []) + info(c).get("link", [])))
    prog = objcache.link_program(cc, flags, objs,
                                 os.path.join(c, "compare-vs-%s" % os.path.basename(
                                     os.path.dirname(b))),
                                 "linking the size/speed comparison", libs=libs)
    proc = subprocess.run([prog], stdout=subprocess.PIPE, universal_newlines=True, timeout=600)
    return proc.returncode, [json.loads(l) for l in proc.stdout.splitlines()
                             if l.startswith("{")]
