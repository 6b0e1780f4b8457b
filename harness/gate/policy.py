"""The gate's verdict policy: the one table that says which differences
between base and candidate fail the gate (FAIL), which are listed and fail
only under --strict (WARN), and which are good news or known (INFO), and
the one function that says what kind of failure a result is.

README.md ("Verdict policy") and the report's header print POLICY as it is
here; harness/gate/verdict.py applies it and nothing else decides.

A failure's KIND comes from what the runner or fuzz target recorded: the
oracle's class (fuzz/oracle.h), the sanitizer's report type, the runner's
verdict (CRASH, TIMEOUT) and, for a contract or vector record, the "kind"
the runner wrote (or, for records of runners that write none, the words
its messages start with: MESSAGE_KINDS).
"""
import re

FAIL, WARN, INFO = "FAIL", "WARN", "INFO"

# Kinds of failure.
MEMORY = "memory safety"
CORRUPTION = "data corruption"
FALSE_REJECT = "false reject"
LATITUDE = "latitude"
CONVENTION = "return convention"
UNDEFINED = "undefined behaviour"
RESOURCES = "speed, size or resources"

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
     "undefined behaviour without a memory error, a change in speed, size or resources"),
    ("unconfirmed", INFO, "Not reproducible",
     "a fuzz finding whose reproducer did not fail 3 times of 3 when replayed"),
    ("waived", INFO, "Waived",
     "a FAIL or WARN item that a waiver of the user's repository (.lz4gate.toml: id or "
     "signature, path, reason, expiry) matches, with the waiver's reason"),
    ("known", INFO, "Known findings",
     "failing on both sides, documented for the candidate's tree, or the base's own bug"),
    ("fixed", INFO, "Newly fixed",
     "the base fails, the candidate passes (with the base's evidence)"),
)
CATEGORIES = tuple(p[0] for p in POLICY)
LEVEL = {p[0]: p[1] for p in POLICY}
TITLE = {p[0]: p[2] for p in POLICY}

# A candidate-only failure of these kinds is a regression (FAIL); of the
# others, a behaviour change (WARN).
FAILING_KINDS = (MEMORY, CORRUPTION, FALSE_REJECT)

# The fuzz oracle's classes (fuzz/oracle.h and the targets) and the stream
# and frame drivers' problem names -> kind. A class missing here is a
# defect of this table: kind_of_class() says so instead of guessing.
ORACLE_KINDS = {
    # wrong bytes for valid input, output that depends on memory it must
    # not read (an information leak), a compressor's output that does not
    # decode to its input or breaks the format
    "wrong_output": CORRUPTION, "valid_block": CORRUPTION, "roundtrip": CORRUPTION,
    "cross_decode": CORRUPTION, "nonconformant_block": CORRUPTION, "bad_block": CORRUPTION,
    "bad_frame": CORRUPTION, "bad_stream": CORRUPTION, "stale_output": CORRUPTION,
    "offset0_output": CORRUPTION, "invalid_block_size_id_frame": CORRUPTION,
    # a return value past the buffer: callers read or copy that much
    "return_above_capacity": CORRUPTION, "return_above_target": CORRUPTION,
    # memory errors the oracle sees itself (guard bytes, a freed state)
    "wrote_before_dst": MEMORY, "null_state_reuse": MEMORY, "save_dict": MEMORY,
    "output_full": MEMORY, "contract": MEMORY,
    # refusing what the API must accept
    "rejects_valid": FALSE_REJECT, "fails_within_bound": FALSE_REJECT,
    "compress_fails": FALSE_REJECT, "frame_error": FALSE_REJECT,
    "stream_error": FALSE_REJECT, "create_failed": FALSE_REJECT, "stalled": FALSE_REJECT,
    # invalid input: the format leaves the answer to the decoder
    "accepts_invalid": LATITUDE, "malformed_wrong_output": LATITUDE,
    # how a result is reported
    "negative_return": CONVENTION, "bad_consumed": CONVENTION,
    "dest_size_short": CONVENTION, "nondeterministic": CONVENTION,
}

# Sanitizer report types and runner outcomes -> kind.
SANITIZER_KINDS = {
    "OOB-READ": MEMORY, "OOB-WRITE": MEMORY, "NULL-READ": MEMORY, "NULL-WRITE": MEMORY,
    "SEGV": MEMORY, "negative-size-param": MEMORY,
    "heap-use-after-free": MEMORY, "double-free": MEMORY, "bad-free": MEMORY,
    "stack-overflow": MEMORY, "memcpy-param-overlap": MEMORY, "alloc-dealloc-mismatch": MEMORY,
    "unknown-crash": MEMORY, "attempting": MEMORY, "crash": MEMORY, "failed": MEMORY,
    "memory-leak": RESOURCES, "timeout": RESOURCES, "out-of-memory": RESOURCES,
    "flaky": RESOURCES,
}

# Contract and vector messages of runners that write no "kind" (the
# vector runner, harness/runners/vectors/vectors.c; the contract checks):
# the words a message starts with or contains, first match wins.
MESSAGE_KINDS = (
    (re.compile(r"depends on the output buffer's previous content|stale"), CORRUPTION),
    (re.compile(r"more than the capacity|above the capacity|past the (end|capacity)|"
                r"before the (start|destination)|guard"), MEMORY),
    # Input ref's strict profile rejects is invalid (block format: offset 0,
    # the end-of-block rules): accepting it, with whatever output, is the
    # format's latitude (issue 23: "an acceptance is a failure only where
    # ref's compatible profile rejects it"; compatible's own output for such
    # a block is lz4's history, not the format). Output that depends on the
    # buffer's previous content is caught above, as a leak.
    (re.compile(r"^malformed block accepted|^accepted: .*expected strict: invalid"), LATITUDE),
    (re.compile(r"^accepted: "), CORRUPTION),
    (re.compile(r"^rejected|false reject|fails within|returned 0 for|returned an error"),
     FALSE_REJECT),
    (re.compile(r"does not (decode|round-trip)|decodes to|different bytes|wrong output"),
     CORRUPTION),
    (re.compile(r"return|convention"), CONVENTION),
)


# A regression case's "class" (regress/README.md) -> kind, first match wins.
# A case's evidence: "test N (what the test does): what happened".
TEST_PREFIX = re.compile(r"^test \d+ \(.*?\): ")
CORRUPT_OUTPUT = re.compile(r"does not (decode|round-trip)|decodes to|different bytes")

CASE_CLASS_KINDS = (
    (re.compile(r"valid data rejected|false reject", re.I), FALSE_REJECT),
    (re.compile(r"OOB|overflow|NULL|dereference|negative|size memmove|use.after|UAF|"
                r"race|underflow|pointer", re.I), MEMORY),
    (re.compile(r"leak|corruption|invalid output|wrong output|stale|overlapping", re.I),
     CORRUPTION),
    (re.compile(r"return value|error|EOF|API contract", re.I), CONVENTION),
    (re.compile(r"performance|code size", re.I), RESOURCES),
)


def kind_of_class(cls):
    """The kind of an oracle class or sanitizer report type (the part of a
    signature before '@'), or None when no table has it."""
    cls = cls.split("@")[0]
    if cls in ORACLE_KINDS:
        return ORACLE_KINDS[cls]
    if cls in SANITIZER_KINDS:
        return SANITIZER_KINDS[cls]
    if cls.startswith("ubsan"):
        return UNDEFINED
    return None


def kind_of_fuzz(finding):
    """The kind of a campaign finding (harness/fuzzing/findings.py)."""
    return kind_of_class(finding["signature"]) or MEMORY


def kind_of_record(record):
    """The kind of a failing runner record (contracts, vectors, regress)."""
    if record.get("kind"):
        return record["kind"]
    text = "%s\n%s" % (record.get("report") or "", record.get("evidence") or "")
    if record.get("verdict") == "TIMEOUT":
        return RESOURCES
    if record.get("verdict") == "CRASH" or "ERROR: AddressSanitizer" in text:
        return MEMORY
    if "runtime error:" in text and "ERROR: " not in text:
        return UNDEFINED
    evidence = (record.get("evidence") or "").strip()
    if record.get("stage") in ("regress", "kunit") and record.get("class"):
        if CORRUPT_OUTPUT.search(TEST_PREFIX.sub("", evidence, 1)):
            # No memory error in this run (above), and what it showed is
            # output that does not decode to the input: data corruption,
            # whatever bug the case was written for (a planted compressor
            # corruption fails the over-read case ULZ4-SVN-r20 this way).
            return CORRUPTION
        for rx, kind in CASE_CLASS_KINDS:
            if rx.search(record["class"]):
                return kind
    for rx, kind in MESSAGE_KINDS:
        if rx.search(evidence):
            return kind
    # A contract deviation the tables do not name: the strict reading.
    return CORRUPTION


def observed_memory_error(record):
    """Did the run itself show a memory error (a crash or a sanitizer
    report)? A regression case's class names the bug it is about; what the
    run showed is its verdict."""
    text = "%s\n%s" % (record.get("report") or "", record.get("evidence") or "")
    return record.get("verdict") == "CRASH" or "ERROR: AddressSanitizer" in text


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
