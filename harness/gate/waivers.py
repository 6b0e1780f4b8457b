"""Waivers the user's repository keeps: a reviewed deviation that should not
fail the gate, written where the vendored copy lives (`.lz4gate.toml` at the
repository root, or --waivers FILE), read with Python's tomllib:

    [[waiver]]
    id = "ULZ4-PARTIAL-OFFSET0"          # a case id, check id or fuzz signature;
                                         # or signature = "..." (a report group's)
    path = "third_party/lz4/lz4.c"       # optional: where the item is, relative
                                         # to the repository root ('*' wildcard)
    reason = "reviewed in #1234: our callers never decode partially"
    expires = 2027-06-30                 # optional

'*' is the only wildcard in id, signature and path. A waiver needs a reason.
A matching item moves to the report's "Waived" section (INFO) with the
waiver's reason; an expired waiver waives nothing and is listed as expired;
a waiver that matches nothing is listed as stale. Nothing is waived
silently: the report lists every waiver and what it matched.
"""
import datetime
import os
import re

try:
    import tomllib
except ImportError:         # Python < 3.11: waivers need 3.11 (Debian 12 has it)
    tomllib = None

from harness.errors import BadInput
from harness.findings import policy

FILE_NAME = ".lz4gate.toml"
KEYS = {"id", "signature", "path", "reason", "expires"}


def star(pattern, text):
    rx = "^" + ".*".join(re.escape(p) for p in pattern.split("*")) + "$"
    return text is not None and re.match(rx, text) is not None


def load(path):
    """[waiver dict] of a waivers file (BadInput for a malformed one)."""
    if tomllib is None:
        raise BadInput("reading %s needs Python 3.11 (tomllib)" % path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise BadInput("cannot read waivers %s: %s" % (path, e))
    out = []
    for n, w in enumerate(data.get("waiver", []), 1):
        where = "%s: waiver %d" % (path, n)
        unknown = set(w) - KEYS
        if unknown:
            raise BadInput("%s has unknown key(s) %s (use %s)" % (
                where, ", ".join(sorted(unknown)), ", ".join(sorted(KEYS))))
        if not (w.get("id") or w.get("signature")):
            raise BadInput("%s names no id or signature" % where)
        if not str(w.get("reason", "")).strip():
            raise BadInput("%s has no reason: a waiver says why it is right" % where)
        exp = w.get("expires")
        if exp is not None and not isinstance(exp, datetime.date):
            raise BadInput("%s: expires must be a date (expires = 2027-06-30)" % where)
        out.append(dict(w, n=n, file=path, matched=[]))
    return out


def find(source_root, given=None):
    """The waivers file: --waivers, else .lz4gate.toml at the repository root."""
    if given:
        if not os.path.isfile(given):
            raise BadInput("--waivers %s does not exist" % given)
        return given
    path = os.path.join(source_root, FILE_NAME) if source_root else None
    return path if path and os.path.isfile(path) else None


def matches(w, item, group_signature, location):
    if w.get("id") and not star(w["id"], item["id"]):
        return False
    if w.get("signature") and not star(w["signature"], group_signature):
        return False
    return not w.get("path") or star(w["path"], location)


def apply(categories, waivers, signature_of, location_of, today=None):
    """Move every FAIL or WARN item a live waiver matches into "waived".
    signature_of(item) and location_of(item) give its report group's
    signature and its repository-relative source path (or None)."""
    today = today or datetime.date.today()
    for w in waivers:
        w["expired"] = bool(w.get("expires") and w["expires"] < today)
    for cat in policy.CATEGORIES:
        if policy.LEVEL[cat] == policy.INFO:
            continue
        kept = []
        for item in categories[cat]:
            sig, loc = signature_of(item), location_of(item)
            hits = [w for w in waivers if matches(w, item, sig, loc)]
            live = [w for w in hits if not w["expired"]]
            for w in hits:
                w["matched"].append(item["id"])
            if live:
                w = live[0]
                # its own placement too: the classifier groups the items
                # again, and a waiver of one id never hides another id of
                # the same root cause (harness/findings/rootcause.py)
                item.update(category="waived", relation="waived", waived_from=cat,
                            why="%s; waived (%s, waiver %d): %s" % (
                                item["why"], os.path.basename(w["file"]), w["n"],
                                w["reason"]))
                categories["waived"].append(item)
            else:
                kept.append(item)
        categories[cat] = kept
    return waivers


def report_lines(waivers):
    """The report's list of every waiver: applied, expired, stale."""
    if not waivers:
        return []
    out = ["## Waivers (%s)" % waivers[0]["file"], "",
           "| # | id / signature | path | reason | expires | matched |", "|---|---|---|---|---|---|"]
    for w in waivers:
        state = ("**expired**, waives nothing: " if w["expired"] else "") + (
            ", ".join("`%s`" % m for m in w["matched"]) if w["matched"]
            else "**stale**: matches nothing")
        out.append("| %d | `%s` | %s | %s | %s | %s |" % (
            w["n"], w.get("id") or w.get("signature"), "`%s`" % w["path"] if w.get("path")
            else "-", " ".join(str(w["reason"]).split()).replace("|", "\\|"),
            w.get("expires") or "-", state))
    return out + [""]
