"""lz4gate's harness: one importable package for everything that is not C.

The flow, one line:

    SPEC -> subjects (stage, probe, build) -> runners and fuzzing (records of
    evidence) -> findings (one classifier) -> gate (orchestrates) -> report

The packages are layers, each importing only the ones before it (LAYERS;
tests/test_architecture.py enforces it):

  harness.*          foundation: paths, toolchain, caches, errors (top-level modules)
  harness.subjects   a SPEC to a built subject.o (recipes per kind, kshim, adapters)
  harness.evidence   the record every runner produces, the failure class table
                     (harness/runners/common/fail_class.h), reading sanitizer reports
  harness.fuzzing    the fuzz driver: build, run, replay, corpus-min, triage
  harness.runners    the C runners and their Python drivers: contracts + vectors, regress
  harness.findings   what evidence means: the classifier, the verdict policy, the
                     documented findings and the fix catalogue it reads
  harness.kunit      the regression cases inside a kernel
  harness.gate       the gate's stages (entry point: ci/gate.py)
  harness.mutate, harness.bench   mutation scores, fuzz benchmarks
  harness.report     renders: the gate's report, JUnit, SARIF, REGRESSIONS.md
  commands           every module `python3 -m harness` runs (harness/__main__.py
                     COMMANDS): a command may import any layer

Run commands with `python3 -m harness COMMAND` (python3 -m harness --help).
"""

# The layers, bottom first: a module may import modules of its own layer
# or of one before it, never of one after it. A module is in the layer of
# the longest prefix that names it; the command modules (harness/__main__.py
# COMMANDS) are above every layer.
LAYERS = (
    ("foundation", ("harness",)),
    ("subjects", ("harness.subjects",)),
    ("evidence", ("harness.evidence",)),
    ("fuzzing", ("harness.fuzzing",)),
    ("runners", ("harness.runners",)),
    ("findings", ("harness.findings",)),
    ("kunit", ("harness.kunit",)),
    ("gate", ("harness.gate",)),
    ("tools", ("harness.mutate", "harness.bench")),
    ("report", ("harness.report",)),
)
