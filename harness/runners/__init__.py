"""Runners: C programs linked with a subject's subject.o (and ref as the
oracle), driven from Python. Each prints one JSON record per check.

  common/     C helpers every runner shares (isolation, guard pages, records,
              test data, the frame driver)
  contracts/  API contract checks (block, old kernel API, frame)
  vectors/    known-answer vectors: the generator and the runner
  regress/    regression cases (regress/cases/*.json)
  compare/    size and speed, base vs candidate (the gate)
  link.py     compile (object cache) and link a runner for a subject
"""
