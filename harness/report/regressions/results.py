"""The results behind REGRESSIONS.md: a JSON-lines file of regression
records (the committed snapshot regress/results/default.jsonl, or a fresh
`harness regress --json` run), compacted and summed into cells."""
import json

from harness.errors import BadInput
from harness.evidence.failure import clip
from harness.evidence.records import STATUS_ORDER, config_key, stable, worse  # noqa: F401

KEEP = ("case", "spec", "config", "generation", "identity", "verdict", "status", "finding",
        "evidence")


def load_results(path):
    if path is None:
        return []
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BadInput("cannot read results file: %s" % e)
    recs = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            raise BadInput("%s:%d: not a JSON record" % (path, n))
        for key in ("case", "spec", "config", "status"):
            if key not in rec:
                raise BadInput("%s:%d: record without '%s'" % (path, n, key))
        if rec["status"] not in STATUS_ORDER:
            raise BadInput("%s:%d: unknown status '%s'" % (path, n, rec["status"]))
        recs.append(rec)
    return recs


def compact(recs):
    """The fields REGRESSIONS.md needs; evidence without pids and truncated."""
    out = []
    for r in recs:
        c = {k: r[k] for k in KEEP if k in r}
        ev = c.get("evidence", "")
        if ev.startswith("not exercised here"):
            ev = ""
        c["evidence"] = clip(stable(ev), 300)
        out.append(c)
    out.sort(key=lambda r: (r["case"], r["spec"], config_key(r["config"])))
    return out


def cells(recs):
    """(case, spec) -> {"status", "configs": {config: status}, "worst": record}."""
    out = {}
    for r in recs:
        cell = out.setdefault((r["case"], r["spec"]), {"configs": {}, "worst": None})
        cell["configs"][r["config"]] = r["status"]
        cell["worst"] = worse(cell["worst"], r)
    for cell in out.values():
        cell["status"] = cell["worst"]["status"]
    return out


def cell_text(case, cell):
    if not case.get("exercised"):
        return "not exercised"
    if cell is None:
        return "not run"
    st = cell["status"]
    if st in ("FAIL", "known finding"):
        bad = sorted((c for c, s in cell["configs"].items() if s == st), key=config_key)
        if len(bad) == len(cell["configs"]) and len(bad) > 3:
            return "%s (all %d configs)" % (st, len(bad))
        return "%s (%s)" % (st, ", ".join(bad))
    return st


def specs_in(recs):
    seen = []
    for r in recs:
        if r["spec"] not in seen:
            seen.append(r["spec"])
    return seen


def configs_in(recs, spec):
    return sorted({r["config"] for r in recs if r["spec"] == spec}, key=config_key)


def differences(snapshot, fresh):
    """(case, spec, config, snapshot status, fresh status) for every fresh
    record whose status the snapshot records differently (or not at all):
    a committed snapshot that no longer matches what the code does."""
    old = {(r["case"], r["spec"], r["config"]): r["status"] for r in snapshot}
    out = []
    for r in fresh:
        key = (r["case"], r["spec"], r["config"])
        if old.get(key) != r["status"]:
            out.append(key + (old.get(key, "missing"), r["status"]))
    return sorted(out)
