"""The gate's verdict: the candidate's records and fuzz findings compared
with the base's, configuration by configuration.

For each check or case and each configuration the candidate failed in:
  - the base passed                     -> lost fix (case) / new failure (contract)
  - the base failed the same way        -> known: failing on both (fatal with --strict)
    (same verdict kind: FAIL, CRASH, TIMEOUT; a base failure in another
    configuration never counts)
  - the base failed another way         -> new failure ("fails differently")
  - the base has no such check (n/a, or not built in that configuration)
                                        -> known when documented for the
                                           candidate's own tree, else new
For each case the candidate passes where the base failed -> newly fixed.
"""
FAILING = ("FAIL", "known finding")
CATEGORIES = ("lost", "new", "known", "fixed")


def _key(r):
    return (r["stage"], r["check"], r["config"])


def compare(records):
    """{category: [item]} from the gate's records (role base/candidate). An
    item is one check/case with the configurations it is in that category."""
    base = {_key(r): r for r in records if r["role"] == "base"}
    items = {}

    def add(cat, r, why, base_rec):
        item = items.setdefault((cat, r["stage"], r["check"]), {
            "category": cat, "stage": r["stage"], "id": r["check"],
            "kind": "case" if r["stage"] == "regress" else "contract", "configs": [],
            "why": why, "record": r, "base": base_rec["status"] if base_rec else "n/a",
            "finding": r.get("finding")})
        item["configs"].append(r["config"])

    for r in records:
        if r["role"] != "candidate":
            continue
        b = base.get(_key(r))
        b_failing = b is not None and b["status"] in FAILING
        if r["status"] in FAILING:
            if b is not None and b["status"] == "pass":
                add("lost" if r["stage"] == "regress" else "new", r, "base passes", b)
            elif b_failing and b["verdict"] == r["verdict"]:
                add("known", r, "fails on both", b)
            elif b_failing:
                add("new", r, "fails differently: base %s, candidate %s"
                    % (b["verdict"], r["verdict"]), b)
            elif r["status"] == "known finding":
                add("known", r, "documented for the candidate's tree (%s); the base has "
                    "no such entry point" % r.get("finding"), b)
            else:
                add("new", r, "the base has no such entry point", b)
        elif r["status"] == "pass" and b_failing and r["stage"] == "regress":
            add("fixed", r, "base fails, candidate passes", b)
    out = {c: [] for c in CATEGORIES}
    for item in items.values():
        out[item["category"]].append(item)
    for c in out:
        out[c].sort(key=lambda i: (i["stage"], i["id"]))
    return out


def fuzz_items(findings):
    """Gate items from classified campaign findings (campaign.py)."""
    out = {c: [] for c in CATEGORIES}
    for f in findings:
        cat = "new" if f["status"] == "new" else "known"
        out[cat].append({"category": cat, "stage": "fuzz", "id": f["signature"],
                         "kind": "fuzz", "configs": [f["config"]], "why": f["why"],
                         "target": f["target"], "finding": f.get("finding"), "fuzz": f,
                         "record": None, "base": f.get("base", "n/a")})
    return out


def failed(categories, strict):
    return bool(categories["lost"] or categories["new"] or (strict and categories["known"]))
