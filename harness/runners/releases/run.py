"""Running the regression list and the contract checks on release trees,
and the snapshot they go to (regress/results/releases.jsonl).

The snapshot is data, one JSON object a line, in three kinds:
  {"kind": "tree", "tree", "order", "tag", "commit", "version", "spec", "identity",
   "contracts": {config: {status: count}}, ["aliases"]}
  {"kind": "case", "tree", "case", "config", "verdict", "status", ["finding"], "evidence"}
  {"kind": "contract", "tree", "check", "config", "verdict", "status", ["finding"], ["evidence"]}
one "tree" record per tree, one "case" record per (case, tree, configuration)
and one "contract" record per (contract check or vector, tree,
configuration) that did not pass (compact(): the passes are counted in the
tree record). Other snapshots of trees (e.g. kernels.jsonl) use the same
format; REGRESSIONS.md's "fixes by release" table reads them all
(harness/report/regressions/releases_table.py).
"""
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from harness import atomic
from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.paths import TOP, shown
from harness.evidence.failure import clip
from harness.evidence.snapshots import load_snapshot
from harness.evidence.records import stable
from harness.runners.contracts.run import run_contracts
from harness.runners.regress.run import run_subject
from harness.subjects.versions import upstream_version

EVIDENCE = 240   # characters of evidence kept per failing record
KIND_ORDER = {"tree": 0, "case": 1, "contract": 2}


def tree_record(name, order, tag, commit, path):
    lib = os.path.join(path, "lib", "lz4.h")
    version = upstream_version(lib if os.path.isfile(lib) else os.path.join(path, "lz4.h"))
    return {"kind": "tree", "tree": name, "order": order, "tag": tag, "commit": commit,
            "version": version, "spec": "upstream:" + shown(path), "identity": ""}


def _slim(kind, key, name, r):
    out = {"kind": kind, "tree": name, key: r[key if kind == "case" else "check"],
           "config": r["config"], "verdict": r["verdict"], "status": r["status"]}
    if r.get("finding"):
        out["finding"] = r["finding"]
    ev = r.get("evidence", "")
    if r["status"] != "pass" and ev and not ev.startswith("not exercised here"):
        out["evidence"] = clip(stable(ev), EVIDENCE)
    return out


def run_tree(tree, cases, configs, contracts=True, mark=None):
    """(records, problems) of one tree: every case and, unless contracts is
    false, every contract check, in each configuration. A configuration that
    cannot build or run is a problem (one line), not a record. mark(records,
    cases): sets each record's status from the documented findings (the
    command hands it in: harness/findings/documented.py mark_all); without
    it, the status is the verdict's."""
    recs, problems = [tree], []
    mark = mark or (lambda rs, cs: rs)
    for config in configs:
        try:
            for r in mark(run_subject(tree["spec"], cases, [config], quiet=True), cases):
                tree["identity"] = r["identity"]
                recs.append(_slim("case", "case", tree["tree"], r))
            if contracts:
                for r in mark(run_contracts(tree["spec"], config, quiet=True), ()):
                    tree["identity"] = r["identity"]
                    recs.append(_slim("contract", "check", tree["tree"], r))
        except BadInput as e:
            problems.append("%s [%s]: %s" % (tree["tree"], config, e))
    return recs, problems


def progress(n, total, tree, recs, seconds):
    parts = []
    for kind in ("case", "contract"):
        by = Counter((r["config"], r["status"]) for r in recs if r["kind"] == kind)
        for config in sorted({c for c, _ in by}):
            counts = ", ".join("%d %s" % (by[(config, s)], s)
                               for s in ("pass", "FAIL", "known finding", "n/a")
                               if by[(config, s)])
            parts.append("%ss [%s] %s" % (kind, config, counts))
    print("releases: [%d/%d] %s (%s, %s, %s): %s (%d s)" % (
        n, total, tree["tree"], tree["tag"], tree["commit"][:12], tree["version"] or "no version",
        "; ".join(parts) or "nothing ran", seconds), file=sys.stderr, flush=True)


def sort_key(r):
    return (r.get("order", 0) if r["kind"] == "tree" else 0, r["tree"], KIND_ORDER[r["kind"]],
            r.get("case") or r.get("check") or "", r.get("config", ""))


def compact(recs):
    """The snapshot keeps every case record but, of the contract checks,
    only those that did not pass: the passes of each (tree, configuration)
    become a count in the tree record ("contracts": {config: {status: n}}),
    which keeps the committed file small (600+ checks a tree). Idempotent."""
    trees = {r["tree"]: r for r in recs if r["kind"] == "tree"}
    passed = {r["tree"] for r in recs if r["kind"] == "contract" and r["status"] == "pass"}
    for name, t in trees.items():
        if name in passed or "contracts" not in t:
            counts = {}
            for r in recs:
                if r["kind"] == "contract" and r["tree"] == name:
                    by = counts.setdefault(r["config"], {})
                    by[r["status"]] = by.get(r["status"], 0) + 1
            t["contracts"] = counts
    return [r for r in recs if not (r["kind"] == "contract" and r["status"] == "pass")]


def merge(old, recs):
    """old updated with the records of this run: a case record replaces the
    same (tree, case, configuration); the contract records of a (tree,
    configuration) this run checked replace all of its old ones (passes are
    only counted); a tree record replaces the old one, keeping the contract
    counts of configurations not checked now. So a run of some tags, cases
    or configurations updates those cells only."""
    new_trees = {r["tree"]: dict(r) for r in recs if r["kind"] == "tree"}
    cased = {(r["tree"], r["case"], r["config"]) for r in recs if r["kind"] == "case"}
    # (compacted: the configurations checked are those the tree record counts)
    checked = {(name, cfg) for name, t in new_trees.items() for cfg in t.get("contracts", {})}
    out = []
    for r in old:
        if r["kind"] == "tree" and r["tree"] in new_trees:
            t = new_trees[r["tree"]]
            counts = dict(r.get("contracts", {}))
            counts.update(t.get("contracts", {}))
            t["contracts"] = counts
            if r.get("aliases") and not t.get("aliases"):
                t["aliases"] = r["aliases"]     # a --tags run does not see the aliases
        elif not (r["kind"] == "case" and (r["tree"], r["case"], r["config"]) in cased or
                  r["kind"] == "contract" and (r["tree"], r["config"]) in checked):
            out.append(r)
    return out + list(new_trees.values()) + [dict(r) for r in recs if r["kind"] != "tree"]


def write_snapshot(path, recs, replace_trees=None):
    """Write path: its records merged with this run's (merge()). (The third
    argument, the trees run, is implied by recs; kept for callers such as
    harness/runners/kernels.) A read-merge-write, so under a lock: two
    commands writing one snapshot both keep their records."""
    with atomic.lock("snapshot-" + os.path.abspath(path)):
        old = load_snapshot(path) if os.path.isfile(path) else []
        kept = merge(old, compact([dict(r) for r in recs]))
        order = {r["tree"]: r["order"] for r in kept if r["kind"] == "tree"}
        out = sorted(kept, key=lambda r: (order.get(r["tree"], 0),) + sort_key(r))
        atomic.write_file(path, "".join(json.dumps(r, sort_keys=True) + "\n" for r in out))
    return len(out)


def timed_run(tree, cases, configs, contracts, mark=None):
    t = time.time()
    recs, problems = run_tree(tree, cases, configs, contracts, mark)
    return recs, problems, time.time() - t


def run_all(prog, trees, cases, configs, contracts, jobs, out, show, mark=None):
    """Run every tree (jobs at a time), printing show(n, total, tree, recs,
    seconds) as each ends and growing the snapshot `out` tree by tree (an
    interrupted run keeps what it did); mark: as run_tree's (picklable).
    Exit status: 0, or 2 when some tree/configuration could not run (each
    named)."""
    print("%s: %d trees x %s; cases%s -> %s" % (
        prog, len(trees), "/".join(configs), " and contracts" if contracts else "",
        os.path.relpath(os.path.abspath(out), TOP)), file=sys.stderr, flush=True)
    recs, problems = [], []
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(timed_run, t, cases, configs, contracts, mark) for t in trees]
        for n, fut in enumerate(futures, 1):
            got, bad, seconds = fut.result()
            show(n, len(trees), got[0], got, seconds)
            for p in bad:
                print("%s: could not run %s" % (prog, p), file=sys.stderr, flush=True)
            recs += got
            problems += bad
            write_snapshot(out, recs)
    print("%s: %d records of %d trees -> %s" % (prog, len(recs), len(trees), out))
    if problems:
        print("harness %s: %d tree/configuration(s) could not run (see above)"
              % (prog, len(problems)), file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0

