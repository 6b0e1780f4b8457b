"""The tree snapshots under regress/results/: the records of runs of the
regression cases and contract checks on real trees (every lz4 release:
releases.jsonl from `python3 -m harness releases`; kernel trees:
kernels.jsonl; record format in harness/runners/releases/run.py), read
and checked once for REGRESSIONS.md's table and the verdict's release
advice."""
import glob
import json
import os

from harness.errors import BadInput
from harness.paths import TOP

RESULTS_DIR = os.path.join(TOP, "regress", "results")
DEFAULT_SNAPSHOT = "default.jsonl"
RELEASES_SNAPSHOT = "releases.jsonl"
NEED = {"tree": ("tree", "tag", "commit", "version"),
        "case": ("tree", "case", "config", "verdict"),
        "contract": ("tree", "check", "config", "verdict")}


def load_snapshot(path):
    """The records of one tree snapshot, each checked for its kind's fields."""
    out = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BadInput("cannot read tree snapshot: %s" % e)
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError:
            raise BadInput("%s:%d: not a JSON record" % (path, n))
        missing = [k for k in NEED.get(r.get("kind"), ("kind",)) if k not in r]
        if missing:
            raise BadInput("%s:%d: %s record without '%s'" % (path, n, r.get("kind"), missing[0]))
        if r["kind"] != "tree" and r["verdict"] not in ("pass", "n/a", "FAIL", "CRASH",
                                                        "TIMEOUT"):
            raise BadInput("%s:%d: unknown verdict '%s'" % (path, n, r["verdict"]))
        out.append(r)
    return out


def snapshot_files(results_dir=RESULTS_DIR):
    return sorted(p for p in glob.glob(os.path.join(results_dir, "*.jsonl"))
                  if os.path.basename(p) != DEFAULT_SNAPSHOT)


def load_trees(results_dir=RESULTS_DIR):
    """(trees in column order, records) of every tree snapshot."""
    trees, recs = {}, []
    for path in snapshot_files(results_dir):
        for r in load_snapshot(path):
            if r["kind"] == "tree":
                if r["tree"] in trees:
                    raise BadInput("%s: tree %s is in two snapshots" % (path, r["tree"]))
                trees[r["tree"]] = dict(r, file=os.path.basename(path))
            else:
                recs.append(r)
    for r in recs:
        if r["tree"] not in trees:
            raise BadInput("a record of tree %s, which has no tree record" % r["tree"])
    # releases.jsonl's trees first, then each other file's (kernels.jsonl),
    # each file's trees by their "order", then name
    ordered = sorted(trees.values(), key=lambda t: (t["file"] != RELEASES_SNAPSHOT, t["file"],
                                                    t.get("order", 0), t["tree"]))
    return ordered, recs
