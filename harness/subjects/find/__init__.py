"""Finding the LZ4 copies in a project tree (issue 24).

  ctext.py          C text without a compiler: definitions, includes, fingerprint
  fingerprints.py   the lz4.c fingerprint of every upstream release (fingerprints.tsv)
  copies.py         walk a tree, group the defining files into copies, describe each
  cli.py            `python3 -m harness scan DIR [--json]`

harness/subjects/spec.py uses copies.scan when a tree SPEC names a project's
top rather than the LZ4 folder.
"""
