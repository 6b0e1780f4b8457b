"""The one results model: every runner emits records of the same shape.

A record is a dict: subject, config, generation, check, verdict
("pass", "FAIL", "CRASH", "TIMEOUT", "n/a"), evidence, ubsan, and after
classify(): "status" = pass | FAIL | n/a | known finding, "finding" = id.
"""
import json
import os
import re

HARNESS = os.path.dirname(os.path.abspath(__file__))
FAILING = ("FAIL", "CRASH", "TIMEOUT")


def star_match(pattern, text):
    """Match with '*' as the only wildcard (check ids contain brackets)."""
    rx = "^" + ".*".join(re.escape(p) for p in pattern.split("*")) + "$"
    return re.match(rx, text) is not None


def load_known_findings(path=None):
    with open(path or os.path.join(HARNESS, "known_findings.json")) as f:
        return json.load(f)["findings"]


def classify(record, findings):
    """Set record["status"] (and "finding" when a known finding matches)."""
    verdict = record["verdict"]
    if verdict == "n/a":
        record["status"] = "n/a"
    elif verdict not in FAILING:
        record["status"] = "pass"
    else:
        record["status"] = "FAIL"
        for f in findings:
            if f.get("generation") not in (None, record.get("generation")):
                continue
            if any(star_match(pat, record["check"]) for pat in f["checks"]):
                record["status"] = "known finding"
                record["finding"] = f["id"]
                break
    return record


def read_jsonl(text, **extra):
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            rec = json.loads(line)
            rec.update(extra)
            out.append(rec)
    return out
