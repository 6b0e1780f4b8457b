"""The regression cases as a KUnit suite for a kernel tree (issue 26):
generation (model.py, emit.py, suite_runtime.c), the KTAP reader
(ktap.py), the command (cli.py)."""
