"""The findings of a campaign: every distinct failure, de-duplicated by its
signature (harness/report/failure.py signature(): class @ entry, and the top
frame in subject code when there is a stack), with a count, the smallest
reproducer and whether it is documented for the subject's tree.

Two sources:
  - the oracle's record directory (LZ4GATE_FUZZ_RECORD): in a campaign the
    targets count every oracle verdict instead of stopping at it, and keep a
    sample of up to 8 inputs of each CLASS@ENTRY (reservoir sampling, so a
    second bug with the same class and entry as a frequent one is sampled
    too; fuzz/oracle.c: ID.PID.SLOT.input, counts.PID);
  - crash files (sanitizer reports, timeouts, OOMs) that libFuzzer's fork
    mode or AFL++ saved: each is replayed once with the replay build to read
    its signature.
"""
import glob
import json
import os
import subprocess

from harness.report.failure import failure_of, report_of

MAX_TRIAGE = 64   # crash files replayed per campaign (smallest first)
MAX_SAMPLE = 8    # reproducers kept per finding


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


def from_crashes(files, replay_binary, env, timeout=120, prefix=()):
    """{signature: finding} from crash files, each replayed once (prefix: what
    runs the replay binary here, toolchain.run_argv)."""
    out = {}
    for path in sorted(files, key=os.path.getsize)[:MAX_TRIAGE]:
        proc = None
        try:
            proc = subprocess.run(list(prefix) + [replay_binary, path], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, universal_newlines=True,
                                  errors="replace", env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            f = {"signature": "timeout@-", "cls": "timeout", "entry": None,
                 "message": "no result after %d s" % timeout, "frames": [], "top": None}
        else:
            if proc.returncode == 0:
                f = {"signature": "flaky@-", "cls": "flaky", "entry": None, "top": None,
                     "message": "does not fail when replayed (a timeout, OOM or a state "
                                "the fork-mode job had built up)", "frames": []}
            else:
                f = failure_of(proc.stdout)
        if f["cls"] in ("timeout", "flaky"):
            proc = None
        prev = out.get(f["signature"])
        if prev:
            prev["count"] += 1
            if len(prev["inputs"]) < MAX_SAMPLE:
                prev["inputs"].append(path)
            continue
        out[f["signature"]] = {"signature": f["signature"], "cls": f.get("cls"),
                               "entry": f.get("entry"), "count": 1,
                               "message": f["message"], "input": path, "inputs": [path],
                               "source": "crash", "top": f.get("top"), "fault": f.get("fault"),
                               "frames": f.get("frames", [])[:8],
                               "report": report_of(proc.stdout) if proc else ""}
    return out


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


def classify(findings, docs, identity, ignored=()):
    """Mark each finding, in place: "known" (documented for the subject's
    tree: its finding id), "suppressed" (a CLASS or CLASS@ENTRY the user
    passed with --ignore: counted and listed, not a verdict) or "new"."""
    for f in findings.values():
        fid = docs.fuzz(identity, f["signature"]) if docs else None
        cls_entry = f["signature"].split(" in ")[0]
        if fid:
            f["status"], f["finding"] = "known", fid
        elif cls_entry in ignored or cls_entry.split("@")[0] in ignored:
            f["status"], f["finding"] = "suppressed", None
        else:
            f["status"], f["finding"] = "new", None
    return findings


def save(findings, path):
    with open(path, "w") as f:
        json.dump(sorted(findings.values(), key=lambda x: x["signature"]), f, indent=1)
