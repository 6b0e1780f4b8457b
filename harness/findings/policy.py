"""The gate's verdict policy: the one table that says which differences
between base and candidate fail the gate (FAIL), which are listed and fail
only under --strict (WARN), and which are good news or known (INFO).

README.md ("Verdict policy") and the report's header print POLICY as it is
here; harness/findings/classify.py applies it and nothing else decides.

A failure's KIND is its class's (harness/evidence/classes.py: the table
harness/runners/common/fail_class.h every runner and fuzz target reports
with), never read from a message's words.
"""
from harness.evidence.classes import (CONVENTION, CORRUPTION, FALSE_REJECT, HARNESS_KIND,
                                      LATITUDE, MEMORY, RESOURCES, UNDEFINED)

FAIL, WARN, INFO = "FAIL", "WARN", "INFO"
KINDS = (MEMORY, CORRUPTION, FALSE_REJECT, LATITUDE, CONVENTION, UNDEFINED, RESOURCES,
         HARNESS_KIND)

# Sections of the report, in order: (category, level, title, what it holds).
POLICY = (
    ("lost", FAIL, "Lost fixes",
     "a lost fix: the base carries the fix (passes its regression case), the candidate "
     "lacks it"),
    ("regression", FAIL, "Regressions",
     "a bug the candidate brings that the base never had: a memory-safety error "
     "(confirmed by replay), data corruption (wrong output on valid input, or a compressor "
     "whose blocks do not decode to their input), a rejection of input that ref's strict "
     "profile accepts as a whole, or a catalogued bug (a regression case) the base "
     "predates"),
    ("changed", WARN, "Behaviour changes",
     "a change inside the format's latitude (invalid input accepted or rejected "
     "differently, a partial decode of an invalid block), a changed return convention, "
     "undefined behaviour without a memory error, a change in speed, size or resources, "
     "or a check lz4gate could not complete on the candidate"),
    ("unconfirmed", INFO, "Not reproducible",
     "a fuzz finding whose reproducer did not fail 3 times of 3 when replayed, that ref "
     "fails too (a defect of lz4gate's oracle), or whose side cannot be told (the base "
     "fails it in some replays only)"),
    ("waived", INFO, "Waived",
     "a FAIL or WARN item that a waiver of the user's repository (.lz4gate.toml: id or "
     "signature, path, reason, expiry) matches, with the waiver's reason"),
    ("known", INFO, "Known findings",
     "one root cause on both sides (the same check, case or input failing on both, or a "
     "failure at the same place in the code, however it was reached), a documented "
     "finding of the candidate's tree in an entry point the base lacks, or the base's own "
     "bug"),
    ("fixed", INFO, "Newly fixed",
     "the base fails, the candidate passes (with the base's evidence)"),
)
CATEGORIES = tuple(p[0] for p in POLICY)
LEVEL = {p[0]: p[1] for p in POLICY}
TITLE = {p[0]: p[2] for p in POLICY}

# A candidate-only failure of these kinds is a regression (FAIL); of the
# others, a behaviour change (WARN): the format's latitude, a return
# convention, undefined behaviour without a memory error, resources, and a
# check lz4gate could not complete on the candidate (said as such, never
# hidden).
FAILING_KINDS = (MEMORY, CORRUPTION, FALSE_REJECT)


def category_of_new(kind):
    """Where a failure the base does not share goes: a regression (FAIL) or
    a behaviour change (WARN)."""
    return "regression" if kind in FAILING_KINDS else "changed"


def failed(categories, strict):
    """FAIL when a FAIL section has an item; under --strict a WARN one too."""
    return any(categories.get(c) for c in CATEGORIES
               if LEVEL[c] == FAIL or (strict and LEVEL[c] == WARN))


def markdown_table():
    """The policy as a Markdown table (README.md, the report's header)."""
    lines = ["| verdict | section | what |", "|---|---|---|"]
    for _, level, title, what in POLICY:
        lines.append("| %s | %s | %s |" % (
            level + (" (FAIL under --strict)" if level == WARN else ""), title, what))
    return lines
