"""The findings of a campaign: every distinct failure, de-duplicated by its
signature (harness/evidence/failure.py signature(): class @ entry, and the top
frame in subject code when there is a stack), with a count, the smallest
reproducer and whether it is documented for the subject's tree.

Two sources:
  - the oracle's record directory (LZ4GATE_FUZZ_RECORD): in a campaign the
    targets count every oracle verdict instead of stopping at it, and keep a
    sample of up to 8 inputs of each CLASS@ENTRY (reservoir sampling, so a
    second bug with the same class and entry as a frequent one is sampled
    too; fuzz/oracle.c: ID.PID.SLOT.input, counts.PID);
  - crash files (sanitizer reports, timeouts, OOMs) that libFuzzer's fork
    mode or AFL++ saved: every one is replayed for its stack, and the
    smallest of each distinct stack with symbols for its signature
    (crash_triage.py; no cap per file).
"""
import glob
import json
import os

from harness.fuzzing.crash_triage import MAX_SAMPLE, CrashTriage


class Findings(dict):
    """{signature: finding} of a campaign, with its crash triage's summary
    (.triage: crash_triage.CrashTriage.summary(), or None)."""
    triage = None


def from_records(record_dir):
    """{signature: finding} from the oracle's record directory."""
    counts, inputs = {}, {}
    for path in glob.glob(os.path.join(record_dir, "counts.*")):
        with open(path, errors="replace") as f:
            for line in f:
                fid, _, n = line.strip().rpartition(" ")
                if fid and n.isdigit():
                    counts[fid] = counts.get(fid, 0) + int(n)
    for path in sorted(glob.glob(os.path.join(record_dir, "*.input"))):
        fid = os.path.basename(path).rsplit(".", 3)[0]       # ID.PID.SLOT.input
        inputs.setdefault(fid, []).append(path)
    out = {}
    for fid in sorted(set(counts) | set(inputs)):
        paths = sorted(inputs.get(fid, []), key=os.path.getsize)[:MAX_SAMPLE]
        message = ""
        if paths and os.path.exists(paths[0][:-len(".input")] + ".msg"):
            with open(paths[0][:-len(".input")] + ".msg", errors="replace") as f:
                message = f.read().strip()
        cls, _, entry = fid.partition("@")
        # The pair target's side at fault: a field of the record (fuzz/oracle.c).
        fault = next((l[len("fault: "):].strip() for l in message.splitlines()[1:]
                      if l.startswith("fault: ")), None)
        out[fid] = {"signature": fid, "cls": cls, "entry": entry or None, "fault": fault,
                    "count": max(counts.get(fid, 0), 1), "message": message.splitlines()[0]
                    if message else fid, "input": paths[0] if paths else None,
                    "inputs": paths, "source": "oracle"}
    return out


def from_crashes(files, replay_binary, env, timeout=120, prefix=(), jobs=1):
    """{signature: finding} from crash files: every file replayed once for
    its stack, the smallest of each distinct stack again with symbols
    (crash_triage.py); prefix: what runs the replay binary here,
    toolchain.run_argv. Files that could not be looked at are one finding,
    not_triaged@-."""
    return triage_crashes(files, replay_binary, env, timeout, prefix, jobs)[0]


def triage_crashes(files, replay_binary, env, timeout=120, prefix=(), jobs=1):
    """(findings, summary): from_crashes' findings and the counts a report
    gives (crash_triage.CrashTriage.summary(): files, replayed, stacks,
    triaged, signatures, not_looked_at, by_stack); crash_triage.summary_line
    prints them."""
    t = CrashTriage(replay_binary, env, timeout=timeout, prefix=prefix, jobs=jobs)
    t.add(list(files))
    return t.findings(), t.summary()


def merge(*sources):
    out = {}
    for src in sources:
        for sig, f in src.items():
            if sig in out:
                out[sig]["count"] += f["count"]
                out[sig]["inputs"] = (out[sig]["inputs"] + f["inputs"])[:MAX_SAMPLE]
            else:
                out[sig] = dict(f)
    return out


def mark(findings, known, identity, ignored=()):
    """Mark each finding, in place, for the campaign's own report: "known"
    (documented for the subject's tree: its finding id, as known.finding()
    says: harness/findings/documented.py FuzzKnown), "suppressed" (a CLASS
    or CLASS@ENTRY the user passed with --ignore: counted and listed, not a
    verdict) or "new". The gate does not read these: its classifier judges
    each finding's replays (harness/findings/classify.py)."""
    for f in findings.values():
        fid = known.finding(f["signature"], identity) if known else None
        cls_entry = f["signature"].split(" in ")[0]
        if fid:
            f["status"], f["finding"] = "known", fid
        elif cls_entry in ignored or cls_entry.split("@")[0] in ignored:
            f["status"], f["finding"] = "suppressed", None
        else:
            f["status"], f["finding"] = "new", None
    return findings


def save(findings, path, triage=None):
    """findings.json: {"crash_triage": the summary (files written,
    replayed, distinct stacks, triaged, not looked at), "findings": [...]}."""
    with open(path, "w") as f:
        json.dump({"crash_triage": triage, "findings": sorted(
            findings.values(), key=lambda x: x["signature"])}, f, indent=1)
