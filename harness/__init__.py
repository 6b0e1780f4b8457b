"""lz4gate's harness: one importable package for everything that is not C.

The flow, one line:

    SPEC -> subjects (stage, probe, build) -> runners (contracts, vectors,
    regress, fuzzing) -> records -> report (gate, REGRESSIONS.md)

  harness.subjects   a SPEC to a built subject.o (recipes per kind, kshim, adapters)
  harness.runners    the C runners and their Python drivers: contracts + vectors, regress
  harness.fuzzing    the fuzz driver: build, run, replay, corpus-min, triage, bench
  harness.report     records, known findings, Markdown/JUnit, REGRESSIONS.md
  harness.gate       the gate's stages and verdict (entry point: ci/gate.py)

Run commands with `python3 -m harness COMMAND` (python3 -m harness --help).
"""
