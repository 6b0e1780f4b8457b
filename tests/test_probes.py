"""Compile probes (harness/toolchain.py): the bodies a subject recipe probes
are compiled together (probe_sources), and must give exactly what one
compile per body gives, on the default trees, with bodies that compile and
bodies that do not."""
import os

import pytest

from conftest import TOP
from harness import toolchain
from harness.subjects import streaming
from harness.subjects.recipes import kernel, upstream

SUBJECTS = os.path.join(TOP, "build", "subjects")
# Bodies no tree compiles: an unknown function (an implicit declaration, an
# error under -Werror), a wrong member, and a syntax error.
BROKEN = ["int probe(void) { return lz4gate_no_such_function(1); }\n",
          "int probe(LZ4_stream_t *s) { return s->lz4gate_no_member; }\n",
          "int probe(void) { return 1 +; }\n"]


def one_by_one(flags, header, bodies):
    return [toolchain.probe_source("clang", flags, header + b) for b in bodies]


def tree(name):
    path = os.path.join(SUBJECTS, name)
    if not os.path.isdir(path):
        pytest.skip("default trees not fetched (make subjects)")
    return path


def kernel_case():
    stage = tree("linux-6.1")
    flags = kernel.KERNEL_DIALECT + ["-I" + os.path.join(TOP, "harness", "subjects", "kshim"),
                                     "-I" + os.path.join(stage, "include")]
    header = "#include <linux/types.h>\n#include <linux/lz4.h>\n"
    bodies = list(streaming.KERNEL_STREAM_PROBES.values()) + [kernel.FAST_ORDER_PROBE]
    return flags, header, bodies


def upstream_case():
    lib = os.path.join(tree("lz4-upstream"), "lib")
    header = ('#include <stddef.h>\n#define LZ4_STATIC_LINKING_ONLY\n'
              '#define LZ4_HC_STATIC_LINKING_ONLY\n#include "lz4.h"\n#include "lz4hc.h"\n'
              '#define LZ4F_STATIC_LINKING_ONLY\n#include "lz4frame.h"\n')
    bodies = list(streaming.OLD_CONTINUE_PROBES.values()) + \
        list(upstream.FRAME_SOURCE_PROBES.values())
    return ["-std=gnu11", "-I" + lib, "-Wno-deprecated-declarations"], header, bodies


def counted(monkeypatch):
    """The compiles probe_sources runs, counted."""
    calls = []
    real = toolchain._compile_probe

    def compile_probe(*args):
        calls.append(1)
        return real(*args)
    monkeypatch.setattr(toolchain, "_compile_probe", compile_probe)
    return calls


@pytest.mark.parametrize("case", [kernel_case, upstream_case], ids=["linux-6.1", "lz4-1.9.4"])
def test_probes_compiled_together_answer_as_one_by_one(case, monkeypatch):
    flags, header, bodies = case()
    # the good ones first, then the broken ones, then the good ones again:
    # an error names its body wherever it is
    bodies = bodies + BROKEN + bodies
    want = one_by_one(flags, header, bodies)
    assert want.count(False) >= len(BROKEN)      # the broken bodies do fail
    assert any(want), "no body compiles: the probe set tests nothing"
    calls = counted(monkeypatch)
    assert toolchain.probe_sources("clang", flags, header, bodies) == want
    # each error was told to its body: the failing bodies are dropped in
    # one round, and the rest compile together in the next
    assert len(calls) == 2, len(calls)
    calls.clear()
    good = [b for b, ok in zip(bodies, want) if ok]
    assert toolchain.probe_sources("clang", flags, header, good) == [True] * len(good)
    assert len(calls) == 1


def test_a_header_error_is_probed_one_by_one():
    # An error outside every body (here, in the header) names no body:
    # every body is then compiled alone, and all fail as they do alone.
    bodies = ["int probe(void) { return 1; }\n", "int probe(void) { return 2; }\n"]
    header = "#include \"lz4gate_no_such_header.h\"\n"
    assert toolchain.probe_sources("clang", [], header, bodies) == [False, False]
    assert toolchain.probe_sources("clang", [], "", bodies) == [True, True]
