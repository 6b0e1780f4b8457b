"""Documented findings: failures lz4gate has confirmed as real bugs of one
tree, recorded in harness/findings/known_findings.json (contracts, vectors,
fuzzing) and in a case's own "known_findings" (regression cases).

A documented finding is matched on all three of
  - the subject: the tree's identity (kind + a digest of its LZ4 files, or
    the library version for the system liblz4; subjects/build.py identity()),
    through the table "trees", never on an API generation alone;
  - the configuration it was seen in ("configs": a list, or "all");
  - the signature: a check-id pattern ("checks", '*' the only wildcard) or a
    fuzz signature ("fuzz": CLASS@ENTRY, optionally "CLASS@ENTRY in FUNC",
    the top frame in subject code).
A failure that matches is reported as a known finding with the id, never
hidden; anything else is a failure.
"""
import json
import os
import re

from harness.errors import BadInput
from harness.paths import HARNESS
from harness.evidence.records import FAILED_VERDICTS, status_of

KNOWN_FINDINGS = os.path.join(HARNESS, "findings", "known_findings.json")


def star_match(pattern, text):
    """Match with '*' as the only wildcard (check ids contain brackets)."""
    rx = "^" + ".*".join(re.escape(p) for p in pattern.split("*")) + "$"
    return re.match(rx, text) is not None


def fuzz_match(pattern, sig):
    """A fuzz pattern CLASS@ENTRY matches a signature with any top frame;
    CLASS@ENTRY in FUNC only that frame."""
    return sig == pattern or (" in " not in pattern and sig.split(" in ")[0] == pattern)


class Documented:
    """The documented findings of one file, and the trees they are about."""

    def __init__(self, path=None):
        self.path = path or KNOWN_FINDINGS
        try:
            with open(self.path) as f:
                data = json.load(f)
            self.trees = data["trees"]
            self.findings = data["findings"]
        except (OSError, ValueError, KeyError) as e:
            raise BadInput("cannot read the documented findings %s: %s" % (self.path, e))
        for f in self.findings:
            for t in f.get("trees", []):
                if t not in self.trees:
                    raise BadInput("%s: finding %s names tree '%s', which is not in \"trees\""
                                   % (self.path, f["id"], t))

    def identities(self, tree_names):
        return {self.trees[t]["identity"] for t in tree_names if t in self.trees}

    def tree_of(self, identity):
        """The name of the tree with this identity, or None."""
        return next((n for n, t in self.trees.items() if t["identity"] == identity), None)

    @staticmethod
    def config_matches(entry, config):
        configs = entry.get("configs", "all")
        return configs == "all" or config in configs

    def applies(self, f, identity, config):
        return identity in self.identities(f.get("trees", [])) and \
            self.config_matches(f, config)

    def check(self, identity, config, check):
        """The id of the finding documenting a failing check, or None."""
        for f in self.findings:
            if self.applies(f, identity, config) and \
                    any(star_match(p, check) for p in f.get("checks", [])):
                return f["id"]
        return None

    def fuzz(self, identity, sig, config="fuzz"):
        """The id of the finding documenting a fuzz signature, or None."""
        for f in self.findings:
            if self.applies(f, identity, config) and \
                    any(fuzz_match(p, sig) for p in f.get("fuzz", [])):
                return f["id"]
        return None

    def fuzz_ids(self, identity):
        """CLASS@ENTRY of every fuzz finding documented for a tree."""
        out = []
        for f in self.findings:
            if identity in self.identities(f.get("trees", [])):
                out += [p.split(" in ")[0] for p in f.get("fuzz", []) if p not in out]
        return out

    def case(self, case, identity, config):
        """The case id when a case documents its failure for this tree and
        configuration (the case's own "known_findings"), else None."""
        for k in case.get("known_findings", []):
            if identity in self.identities([k.get("tree")]) and self.config_matches(k, config):
                return case["id"]
        return None


CASE_STAGES = ("regress", "kunit")


def check_cases(cases, docs):
    """Every tree a case's "known_findings" names is one of the documented
    trees (a misspelt tree would never match: BadInput, before any run)."""
    for case in cases:
        for k in case.get("known_findings", []):
            if k.get("tree") not in docs.trees:
                raise BadInput("regress/cases/%s.json: known finding names tree %r; use one "
                               "of the trees of %s: %s" % (case["id"], k.get("tree"),
                                                           docs.path, ", ".join(sorted(docs.trees))))
    return cases


def finding_of(record, docs, case=None):
    """The one answer to "is this failure documented?": the id of the
    documented finding a failing record is for its own tree (its identity)
    and configuration, or None. A regression case documents its own failures
    (its "known_findings"; case: the case, for a record of stage regress or
    kunit), a contract check or vector is matched on its id, a fuzz record
    on its signature (harness/findings/known_findings.json)."""
    if record.get("verdict") not in FAILED_VERDICTS:
        return None
    identity, config = record.get("identity"), record.get("config")
    if record.get("stage") in CASE_STAGES:
        return docs.case(case, identity, config) if case else None
    if record.get("stage") == "fuzz":
        return docs.fuzz(identity, record["check"])
    return docs.check(identity, config, record["check"])


def mark(record, docs, case=None):
    """Set record["status"] (pass | FAIL | known finding | n/a), and
    "finding" for a known finding; returns the record."""
    record["status"] = status_of(record["verdict"])
    fid = finding_of(record, docs, case) if record["status"] == "FAIL" else None
    if fid:
        record["status"], record["finding"] = "known finding", fid
    return record


class Marker:
    """mark_all() with these documented findings, as a function of (records,
    cases) that a process pool can hand to its workers (the releases and
    kernels runs: harness/runners/releases/run.py)."""

    def __init__(self, docs):
        self.docs = docs

    def __call__(self, records, cases=()):
        return mark_all(records, self.docs, cases)


class FuzzKnown:
    """What the fuzzing layer asks of the documented findings, handed to it
    (harness/fuzzing does not read them itself: it lies below this layer):
    finding(signature, identity), the finding_of() answer for a campaign's
    finding, and ids(identity), the CLASS@ENTRY of every fuzz finding
    documented for a tree (what a run that stops at its first finding
    counts instead)."""

    def __init__(self, docs):
        self.docs = docs

    def finding(self, signature, identity):
        return finding_of({"stage": "fuzz", "check": signature, "identity": identity,
                           "verdict": "FAIL"}, self.docs)

    def ids(self, identity):
        return self.docs.fuzz_ids(identity)


def mark_all(records, docs, cases=()):
    """mark() every record; cases: the regression cases the records of
    stage regress and kunit are of."""
    by_id = {c["id"]: c for c in cases}
    for r in records:
        mark(r, docs, by_id.get(r.get("check")))
    return records
