"""The one evidence model: every piece of evidence lz4gate produces is a
record of the same shape, whatever made it: a contract check, a vector, a
sweep step, a regression case, a KUnit row, and each replay of a fuzz input
on the candidate, the base or ref.

A record is a dict:
  stage       "contracts" (checks, vectors, sweeps), "regress", "kunit", "fuzz"
  check       its id: a check id, a case id, a fuzz signature (CLASS@ENTRY in FUNC)
  entry       the API entry point (decompress_safe, frame_decompress, ...)
  config      the build configuration (asan64, O2-32, uml64, ...); "bits" its word size
  role        the side: "base", "candidate" or "ref" (a fuzz replay's)
  verdict     "pass", "FAIL", "CRASH", "TIMEOUT", "n/a"
  fail_class  a failure's class from the one table (harness/evidence/classes.py,
              harness/runners/common/fail_class.h): the runner's own for a FAIL,
              the sanitizer's report type for a CRASH, "timeout" for a TIMEOUT
  evidence    what happened, for people; "report" a crash's sanitizer report
  identity    the tree's identity (harness/subjects/build.py), spec, generation
and, after the documented findings are consulted
(harness/findings/documented.py), "status" (pass | FAIL | known finding |
n/a) with "finding" (the documented finding's id) for a known finding.
"""
import json
import re

from harness import toolchain
from harness.errors import BadInput
from harness.evidence import classes, failure

# Verdicts of a runner that mean the check did not hold.
FAILED_VERDICTS = ("FAIL", "CRASH", "TIMEOUT")
# Statuses, worst first: a cell that sums several records shows the worst.
STATUS_ORDER = {"FAIL": 0, "known finding": 1, "pass": 2, "n/a": 3}


def status_of(verdict):
    """The status a verdict has before known findings are considered."""
    if verdict == "n/a":
        return "n/a"
    return "FAIL" if verdict in FAILED_VERDICTS else "pass"


def with_status(record):
    """record["status"] from its verdict alone (before any documented
    finding is consulted); returns the record."""
    record["status"] = status_of(record["verdict"])
    return record


def worse(a, b):
    """The worse of two records (by status); a on a tie."""
    if a is None:
        return b
    return b if STATUS_ORDER[b["status"]] < STATUS_ORDER[a["status"]] else a


def worst_by(recs, key):
    """key(record) -> the worst record with that key."""
    cells = {}
    for r in recs:
        k = key(r)
        cells[k] = worse(cells.get(k), r)
    return cells


def read_jsonl(text, **extra):
    """The JSON records of a runner's output (lines starting with "{")."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            rec = json.loads(line)
            rec.update(extra)
            out.append(rec)
    return out


# The order configurations are shown in (a report's first example is asan64's).
CONFIG_ORDER = ["asan64", "asan32", "O0", "O2", "O0-32", "O2-32"]


def stable(text):
    """Evidence without what changes from run to run (pids, addresses)."""
    text = re.sub(r"==\d+==", "==PID==", text)
    text = re.sub(r"\b(pc|bp|sp) 0x[0-9a-f]+", r"\1 0x...", text)
    # Heap/stack addresses move with ASLR; small (wrapped) ones are the finding.
    text = re.sub(r"\baddress 0x([0-9a-f]+)",
                  lambda m: m.group(0) if int(m.group(1), 16) < 0x1000000 else "address 0x...",
                  text)
    return text


def config_key(c):
    return (CONFIG_ORDER.index(c) if c in CONFIG_ORDER else len(CONFIG_ORDER), c)


def entry_of_check(check):
    """The API entry of a check id: "decompress_safe_partial.targets" ->
    decompress_safe_partial, "vector.NAME.decompress_safe" -> decompress_safe,
    "compress_hc[9].x" -> compress_hc, "sweep.end.decompress_fast" ->
    decompress_fast."""
    if check.startswith("vector."):
        return check.rsplit(".", 1)[-1]
    if check.startswith("sweep."):
        return re.split(r"[.\[]", check.split(".", 2)[-1], 1)[0]
    return re.split(r"[.\[]", check, 1)[0]


def bits_of(config):
    """The word size of a configuration (64 for one lz4gate does not build:
    a kernel's own, uml64)."""
    try:
        return toolchain.bits_of(config)
    except KeyError:
        return 32 if config.endswith("32") else 64


def class_of(record):
    """The failure class of a failing record, None for one that did not
    fail: a FAIL's is the class its runner named (a FAIL without one is a
    runner out of step with the table, never guessed from its words); a
    CRASH's the sanitizer's report type; a TIMEOUT's "timeout"."""
    verdict = record.get("verdict")
    if verdict == "FAIL":
        name = record.get("fail_class")
        if not name:
            raise BadInput("a FAIL record of %s without a fail_class (a runner out of step "
                           "with harness/runners/common/fail_class.h)" % record.get("check"))
        return classes.get(name).name
    if verdict == "CRASH":
        if record.get("fail_class") and not record.get("report"):
            return classes.get(record["fail_class"]).name   # a runner that knows (KUnit)
        # the report (a sanitizer's, from its ERROR line) and the evidence
        # (the first report line: a UBSan report has no ERROR line)
        text = "%s\n%s" % (record.get("report") or "", record.get("evidence") or "")
        got = failure.failure_of(text)
        return failure.fail_class_of(failure.signature_class(got["kind"], text))
    if verdict == "TIMEOUT":
        return "timeout"
    return None


def normalize(record):
    """Fill what every consumer reads: "entry", "bits", and "fail_class" of a
    failing record (class_of); returns the record."""
    record.setdefault("entry", None)
    if not record["entry"] and record.get("check") and record.get("stage") != "fuzz":
        record["entry"] = entry_of_check(record["check"])
    if record.get("config"):
        record["bits"] = bits_of(record["config"])
    if record.get("verdict") in FAILED_VERDICTS:
        record["fail_class"] = class_of(record)
    return record
