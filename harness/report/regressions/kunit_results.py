"""The in-kernel column of REGRESSIONS.md: the records of `python3 -m harness
kunit` runs committed as data (regress/results/kunit/TREE.jsonl, one JSON
object a line: case, tcId, status PASS/FAIL/SKIP, message, config uml64 or
uml32), a cell per case."""
import glob
import json
import os

from harness.paths import TOP

KUNIT_DIR = os.path.join(TOP, "regress", "results", "kunit")


def load(kunit_dir=KUNIT_DIR):
    """{tree name: [record...]} of every committed in-kernel run."""
    out = {}
    for path in sorted(glob.glob(os.path.join(kunit_dir, "*.jsonl"))):
        with open(path) as f:
            out[os.path.basename(path)[:-len(".jsonl")]] = [json.loads(l) for l in f if l.strip()]
    return out


def cell(records, case_id, documented=False):
    """pass / FAIL (tc ...) / known finding (tc ...) / skipped / - (not in
    the suite), for one case; documented: the case documents its finding
    for this tree (its known_findings name the run's tree)."""
    mine = [r for r in records if r["case"] == case_id]
    if not mine:
        return "-"
    failed = []
    for r in mine:
        if r["status"] == "FAIL":
            tc = str(r["tcId"]) if r["tcId"] is not None else "crash"
            failed.append(tc if r.get("config", "uml64") == "uml64" else
                          "%s [%s]" % (tc, r["config"]))
    ran = [r for r in mine if r["status"] != "SKIP"]
    if failed:
        return "%s (tc %s)" % ("known finding" if documented else "FAIL", ", ".join(failed))
    if not ran:
        return "skipped"
    return "pass (%d of %d rows)" % (len(ran), len(mine)) if len(ran) < len(mine) else "pass"


def header(runs):
    return "".join(" in-kernel: %s (KUnit, UML x86-64 + i386) |" % tree for tree in sorted(runs))


def cells(runs, case):
    trees = {k.get("tree") for k in case.get("known_findings", [])}
    return "".join(" %s |" % cell(runs[tree], case["id"], tree in trees) for tree in sorted(runs))
