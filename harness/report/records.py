"""The one results model: every runner emits records of the same shape.

A record is a dict: spec, config, generation, check, verdict ("pass",
"FAIL", "CRASH", "TIMEOUT", "n/a"), evidence, ubsan; and after
classification, "status" (pass | FAIL | known finding | n/a) with
"finding" (the documented finding's id) for a known finding.
"""
import json

# Verdicts of a runner that mean the check did not hold.
FAILED_VERDICTS = ("FAIL", "CRASH", "TIMEOUT")
# Statuses, worst first: a cell that sums several records shows the worst.
STATUS_ORDER = {"FAIL": 0, "known finding": 1, "pass": 2, "n/a": 3}


def status_of(verdict):
    """The status a verdict has before known findings are considered."""
    if verdict == "n/a":
        return "n/a"
    return "FAIL" if verdict in FAILED_VERDICTS else "pass"


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
