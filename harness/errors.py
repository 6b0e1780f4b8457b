"""The one exception for input lz4gate cannot work with.

Every command prints it as one line on stderr and exits 2: an unknown SPEC,
a missing tree, a patch that does not apply, a subject that does not build,
a malformed case file, a bad option value.
"""

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2


class BadInput(Exception):
    """One clear line: what is wrong and how to fix it."""


class CaseError(BadInput):
    """A regression case file that is not valid (regress/README.md)."""
