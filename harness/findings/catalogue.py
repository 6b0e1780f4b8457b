"""What the fix catalogue says about a regression case, for the verdict:

  - which cases are one fix (fix_groups): the same CVE, the same upstream
    commit, or the kernel and upstream views of one bug (KLZ4-X and ULZ4-X),
    so that the report shows one fix once, not as lost under one id and
    newly fixed under another;
  - whether the base's tree predates a bug (base_predates): then a candidate
    failing the case brings a bug the base never had (a regression), rather
    than losing a fix the base carries;
  - the first upstream release without the bug (fixed_in), for "fixed
    upstream in 1.9.1: update to that instead".

The ranges are harness/findings/release_ranges.json (the bug's
affected upstream releases and kernel versions, as REGRESSIONS.md's table
uses them)."""
import re

from harness.evidence import snapshots
from harness.findings import ranges as rt

HEX = re.compile(r"\b([0-9a-f]{7,40})\b")
ID_TAIL = re.compile(r"^[KU]LZ4-(.*)$")


def _upstream_commits(case):
    """Upstream commit prefixes (7 hex) a case names: an upstream case's own
    commits, a kernel case's "upstream ..." ones."""
    out = set()
    for c in case.get("commits") or []:
        if case["id"].startswith("ULZ4-") or c.lower().startswith("upstream"):
            out |= {m[:7] for m in HEX.findall(c.lower())}
    return out


def fix_groups(cases):
    """{case id: group label}: cases of one fix share a label (the CVE when
    there is one, else the ids joined)."""
    parent = {c["id"]: c["id"] for c in cases}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a, b):
        parent[find(a)] = find(b)
    by_key = {}
    for c in cases:
        keys = ["cve:" + v.strip() for v in (c.get("cve") or "").split(",") if v.strip()]
        keys += ["commit:" + h for h in _upstream_commits(c)]
        m = ID_TAIL.match(c["id"])
        if m:
            keys.append("tail:" + m.group(1))
        for k in keys:
            if k in by_key:
                union(c["id"], by_key[k])
            else:
                by_key[k] = c["id"]
    members = {}
    for c in cases:
        members.setdefault(find(c["id"]), []).append(c)
    labels = {}
    for group in members.values():
        cves = sorted({v.strip() for c in group for v in (c.get("cve") or "").split(",")
                       if v.strip()})
        label = ", ".join(cves) if cves else " / ".join(sorted(c["id"] for c in group))
        for c in group:
            labels[c["id"]] = label
    return labels


def tree_of(kind, version, generation=None):
    """A tree as releases_table places it on its axis, or None."""
    if kind == "upstream" and version:
        return {"spec": "upstream:", "tag": "v" + version.lstrip("v")}
    if kind == "kernel" and version:
        return {"spec": "kernel:", "version": version, "tag": version,
                "generation": generation}
    return None


def _lows(expr, axis):
    """The first position of each item of a range expression, None for an
    item that is not positional (a code generation, "all")."""
    out = []
    for item in [i.strip() for i in expr.split(",") if i.strip()]:
        if item == "none":
            continue
        if item == "all" or item in rt.CODE_GENERATIONS:
            out.append(None)
            continue
        lo = item.partition("..")[0]
        out.append(rt.tag_position(lo, axis) if lo else (0, 0))
    return out


def base_predates(rng, tree):
    """True when the base's tree is older than every release the bug
    affects (it never had the bug); False when it is inside or after the
    range's start; None when the catalogue cannot say."""
    key = rt.axis_key(tree) if tree else None
    if not rng or key is None or key[0] not in rng:
        return None
    axis, pos = key
    if rt.in_range(rng[axis], tree):
        return False
    items = [i.strip() for i in rng[axis].split(",") if i.strip() and i.strip() != "none"]
    gens = [i for i in items if i in rt.CODE_GENERATIONS]
    if gens:
        # A range of kernel API generations (the code, not the version:
        # G1 3.11-4.10, G2 the 4.11 update, G3 the 4.20 decoder): a base of
        # an earlier generation than every one named predates the bug.
        order = rt.CODE_GENERATIONS
        g = tree.get("generation")
        if g not in order or len(gens) != len(items):
            return None
        return all(order.index(g) < order.index(x) for x in gens)
    lows = _lows(rng[axis], axis)
    if not lows or any(lo is None for lo in lows):
        return None
    return all(pos < lo for lo in lows)


def fixed_in(rng, release_tags):
    """The first upstream release after the bug's last affected one, from
    the releases lz4gate knows (regress/results/releases.jsonl), or None."""
    if not rng or "upstream" not in rng:
        return None
    highs = []
    for item in [i.strip() for i in rng["upstream"].split(",") if i.strip()]:
        if item in ("none", "all"):
            return None
        lo, dots, hi = item.partition("..")
        if dots and not hi:
            return None             # still open at the development head
        highs.append(rt.tag_position(hi or lo))
    last = max(highs) if highs else None
    later = sorted((rt.tag_position(t), t) for t in release_tags
                   if rt.RELEASE_TAG.match(t))
    return next((t for p, t in later if last is not None and p > last), None)


def release_tags():
    """The upstream release tags of the releases snapshot."""
    try:
        trees, _ = snapshots.load_trees()
    except Exception:       # no snapshot: no advice, never a failure
        return []
    return [t["tag"] for t in trees if t.get("spec", "").startswith("upstream")]


class Catalogue:
    """What the verdict needs to know of the regression cases and the base's
    tree: which cases are one fix, whether the base predates a bug, where
    it was fixed upstream. cases: the loaded cases; base_tree: tree_of() of
    the base; ranges: release_ranges.json; tags: the upstream releases."""

    def __init__(self, cases=(), base_tree=None, ranges=None, tags=()):
        self.cases = {c["id"]: c for c in cases}
        self.groups = fix_groups(list(cases)) if cases else {}
        self.base_tree = base_tree
        self.ranges = ranges or {}
        self.tags = list(tags)

    def case(self, case_id):
        return self.cases.get(case_id)

    def group(self, case_id):
        return self.groups.get(case_id)

    def lost_or_regression(self, case_id):
        """The one answer to "lost fix or regression?" for a case the base
        passes and the candidate fails: ("lost", "") when the base carries
        the fix, or ("regression", advice) when the catalogue's ranges say
        the base's tree predates the bug (it never had it), with the first
        upstream release that fixed it when there is one."""
        if not base_predates(self.ranges.get(case_id), self.base_tree):
            return "lost", ""
        fixed = fixed_in(self.ranges.get(case_id), self.tags)
        return "regression", "; fixed upstream in %s: update to that instead" % fixed \
            if fixed else ""
