"""Where a failure is: the one key that says two failures are one root
cause, whatever stage or input showed them.

A failure with a stack (a sanitizer's report, a UBSan report with frames)
is at (its class's family, the three innermost functions of the subject's
own code): one out-of-bounds write is an OOB-WRITE under ASan, a SEGV at a
guard page and a negative-size-param in another build, and one defect is
reached through several entry points (ULZ4-LZ4F-ALLOCFAIL-REUSE through
the plain and the custom-memory LZ4F contexts). A failure without a stack
(a wrong result the check or the oracle saw) is at (its class's family, its
API entry): the offset-0 leak of partial decoding is stale_output to a
vector, offset0_output to the pair fuzz target and the regression case
ULZ4-PARTIAL-OFFSET0's failure alike, one leak@decompress_safe_partial.
Both carry the word size: a 32-bit failure is never the same root cause as
a 64-bit one."""
from collections import namedtuple

from harness.evidence import classes, failure

# kind: "stack" (frames = the innermost subject functions) or "entry"
# (frames = (the API entry,)); where: the failure class's family.
Site = namedtuple("Site", "kind bits where frames")
FRAMES = 3


def frames_of(record):
    """The innermost subject functions of a record's stack, innermost first
    (empty without a stack)."""
    text = record.get("report") or ""
    if "ERROR: " not in text and "runtime error:" not in text:
        return ()
    got = failure.failure_of(text)
    return tuple(f["func"] for f in failure.subject_frames(got["frames"])[:FRAMES])


def site_of(record):
    """The Site of a failing record (harness/evidence/records.py normalize()
    has set its fail_class, entry and bits)."""
    cls = record["fail_class"]
    frames = frames_of(record)
    if frames:
        return Site("stack", record.get("bits", 64), classes.family_of(cls), frames)
    return Site("entry", record.get("bits", 64), classes.family_of(cls),
                (record.get("entry") or "-",))


def shown(site):
    """A site as a reader reads it: "memory error in LZ4_decompress_generic
    <- LZ4_decompress_safe" or "leak at decompress_safe_partial"."""
    if site.kind == "stack":
        return "%s error in %s" % (site.where, " <- ".join(site.frames))
    return "%s at %s" % (site.where, site.frames[0])
