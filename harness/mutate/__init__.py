"""Mutation testing of lz4gate's checks on an lz4 tree (`python3 -m harness
mutate`, docs/mutation.md).

  clangparse  loads libclang (python3-clang-14) and parses a tree's C files
  callgraph   the functions reachable from the public entry points
  operators   the one-token mutants of one file's reachable function bodies
  generate    every mutant of the chosen files; sampling and selection
  tree        the tree, a mutant's copy, the preprocessor comparison
  stream      running a runner program, record by record, with a deadline
  checks      the gate's checks without fuzzing (asan64), base vs mutant
  run         one mutant from copy to verdict; the whole run
  report      the summary and the JSON result
  cli         the command line
"""
