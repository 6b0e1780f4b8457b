"""Subjects: the LZ4 implementations under test.

  spec.py      SPEC -> Subject (kind, tree, LZ4 files, --include/--define, content id)
  options.py   --include/--define on every command line (one helper)
  project.py   project:DIR SPECs: a copy behind its project's API + the user's adapter
  stage.py     copy + patch into build/stage/ (never the user's tree)
  recipes/     one build recipe per kind (ref, upstream, system, kernel, project)
  streaming.py the streaming and allocation-failure part every recipe adds
  build.py     run the recipe, isolate symbols, cache the result
  fetch/       fetch the default trees from Debian's archive
  fixtures.py  synthetic trees (tests/fixtures) for testing lz4gate itself
  adapters/    C: the subject ABI (subject.h), one adapter per kind, and
               project_adapter.h for the adapters users write
  kshim/       C: the kernel headers the kernel's LZ4 files need, written here
"""
