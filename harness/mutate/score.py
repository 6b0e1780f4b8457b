"""`python3 -m harness mutate-score`: the committed mutation scores
(docs/mutation-score.md), made from data only.

  regress/results/mutation/TREE.json   a `make mutate` result, compacted by
                                       --import (no paths, no source lines)
  regress/results/mutation/survivors.json
                                       the hand classification of each
                                       survivor the probe could not sort:
                                       {TREE: {mutant id: {class, reason}}}

Classes of a survivor, and whether it stays in the classified score's
denominator:
  latitude            (the probe) only valid compressed bytes differ: out
  observable          (the probe) a fixed behaviour differs: in, a miss
  equivalent          (a human) no input tells it apart: out
  latitude            (a human, for inputs the probe lacks) the same as the
                      probe's latitude, argued from the code: out
  not reached here    (a human) code no x86-64 path of the API reaches: a
                      big-endian or 32-bit branch the asan32 run does not
                      kill, a hidden debug function: out
  killed in asan32    (--asan32: a run of the survivors with --config asan32)
                      the gate's 32-bit configuration kills it: a kill
  miss                (a human) an input would tell it apart; no check
                      feeds it: in
An unclassified "no difference" survivor counts as a miss.

  classified score = (killed + killed in asan32) /
                     (killed + every survivor but latitude, equivalent,
                      not reached here)

Usage:
  python3 -m harness mutate-score                 write docs/mutation-score.md
  python3 -m harness mutate-score --check         exit 1 when it is not what the data make
  python3 -m harness mutate-score --import RESULT.json --name TREE [--asan32 RESULT32.json]
                                                  compact a result (and the asan32 run of
                                                  its survivors) into the data
"""
import argparse
import json
import os
import subprocess
import sys

from harness import atomic
from harness.errors import EXIT_BAD_INPUT, BadInput
from harness.paths import TOP

DATA = os.path.join(TOP, "regress", "results", "mutation")
SURVIVORS = os.path.join(DATA, "survivors.json")
DOC = os.path.join(TOP, "docs", "mutation-score.md")
HAND = ("equivalent", "latitude", "not reached here", "miss")
OUT_OF_SCORE = ("latitude", "equivalent", "not reached here")
KEEP = ("id", "file", "line", "function", "category", "op", "original", "mutated", "result",
        "seconds")


def killer(m):
    k = m["killed_by"]
    return "%s %s (%s)" % (k["stage"], k["check"], k["verdict"])


def head_commit():
    """lz4gate's commit, which the checks of a run just made belong to."""
    try:
        out = subprocess.run(["git", "-C", TOP, "rev-parse", "--short=12", "HEAD"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out


def compact(res, name, res32=None, made_at="unknown"):
    """The data kept of a make mutate result: counts, facts, and per mutant
    its place, change, result, killer and probe class; with res32 (the
    survivors run again with --config asan32), the asan32 killer of each
    survivor it kills."""
    killed32 = {m["id"]: killer(m) for m in (res32 or {}).get("mutants", [])
                if m["result"] == "killed"}
    mutants = []
    for m in res["mutants"]:
        rec = {k: m[k] for k in KEEP if k in m}
        if m.get("killed_by"):
            rec["killed_by"] = killer(m)
        if m["result"] == "survived" and m["id"] in killed32:
            rec["asan32_killed_by"] = killed32[m["id"]]
        if m.get("probe"):
            rec["probe"] = m["probe"]["class"]
            rec["probe_evidence"] = m["probe"]["evidence"][:200]
        mutants.append(rec)
    return {"tree": name, "tree_id": res["tree_id"], "files": res["files"], "lz4gate": made_at,
            "seed": res["seed"], "n": res["n"], "checks": res["checks"],
            "config": res["config"], "facts": {k: res["facts"][k] for k in
                                               ("candidates", "by_category")},
            "seconds_total": res["seconds"]["total"], "mutants": mutants}


def class_of(m, hand):
    """A survivor's class: an asan32 kill, the probe's, or a human's for
    "no difference"."""
    if m.get("asan32_killed_by"):
        return "killed in asan32", "asan32: " + m["asan32_killed_by"]
    if m.get("probe") in ("latitude", "observable"):
        return m["probe"], ""
    h = hand.get(m["id"])
    return (h["class"], h["reason"]) if h else ("unclassified", "")


def tally(data, hand):
    """{result: n} plus the survivors' classes and the classified score."""
    t = {}
    for m in data["mutants"]:
        key = m["result"] if m["result"] != "survived" else "survived: " + class_of(m, hand)[0]
        t[key] = t.get(key, 0) + 1
    killed = t.get("killed", 0) + t.get("survived: killed in asan32", 0)
    judged = t.get("killed", 0) + sum(n for k, n in t.items() if k.startswith("survived: ") and
                                      k[len("survived: "):] not in OUT_OF_SCORE)
    return t, killed, judged


def problems(data, hand):
    """What is wrong with the hand classification of one tree."""
    out = []
    survivors = {m["id"]: m for m in data["mutants"] if m["result"] == "survived"}
    for mid, h in hand.items():
        if mid not in survivors:
            out.append("%s: %s is not a survivor of the committed run" % (data["tree"], mid))
        elif survivors[mid].get("asan32_killed_by"):
            out.append("%s: %s: asan32 already kills it" % (data["tree"], mid))
        elif survivors[mid].get("probe") != "no difference":
            out.append("%s: %s: the probe already says %s" % (data["tree"], mid,
                                                              survivors[mid].get("probe")))
        elif h.get("class") not in HAND or not h.get("reason"):
            out.append("%s: %s: class must be one of %s, with a reason" % (
                data["tree"], mid, ", ".join(HAND)))
    return out


def render(trees, hand):
    lines = ["# Mutation scores of lz4gate's checks", "",
             "Generated by `python3 -m harness mutate-score` from `regress/results/mutation/`"
             " (do not edit; docs/mutation.md explains the run and the classes).", ""]
    for data in trees:
        h = hand.get(data["tree"], {})
        t, killed, judged = tally(data, h)
        raw = t.get("killed", 0) + sum(n for k, n in t.items() if k.startswith("survived"))
        lines += ["## %s" % data["tree"], "",
                  "`make mutate TREE=<%s> N=%d SEED=%d` over %s, with lz4gate %s; checks %s in "
                  "%s; %d candidate mutants; the run took %.0f machine-seconds." % (
                      data["tree"], data["n"], data["seed"], ", ".join(data["files"]),
                      data.get("lz4gate", "unknown"),
                      " > ".join(data["checks"]), data["config"], data["facts"]["candidates"],
                      data["seconds_total"]), "",
                  "| result | mutants |", "|---|---|"]
        lines += ["| %s | %d |" % kv for kv in sorted(t.items())]
        lines += ["", "- mutation score: %d / %d killed" % (t.get("killed", 0), raw),
                  "- classified score: **%s** (%d / %d)" % (
                      "%.1f%%" % (100.0 * killed / judged) if judged else "n/a", killed, judged),
                  "", "| survivor | function | change | class | why |", "|---|---|---|---|---|"]
        for m in data["mutants"]:
            if m["result"] != "survived":
                continue
            cls, reason = class_of(m, h)
            why = reason or m.get("probe_evidence", "")
            lines.append("| `%s` | %s | `%s` → `%s` | %s | %s |" % (
                m["id"], m["function"], m["original"].replace("|", "\\|"),
                m["mutated"].replace("|", "\\|"), cls, why.replace("|", "\\|")))
        lines.append("")
    return "\n".join(lines)


def load():
    trees = []
    for name in sorted(os.listdir(DATA)) if os.path.isdir(DATA) else []:
        if name.endswith(".json") and name != os.path.basename(SURVIVORS):
            with open(os.path.join(DATA, name)) as f:
                trees.append(json.load(f))
    hand = {}
    if os.path.isfile(SURVIVORS):
        with open(SURVIVORS) as f:
            hand = json.load(f)
    return trees, hand


def main(argv):
    ap = argparse.ArgumentParser(prog="harness mutate-score", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/mutation.md")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--import", dest="result", metavar="RESULT.json")
    ap.add_argument("--name", metavar="TREE", help="the tree's name for --import (lz4-1.10.0)")
    ap.add_argument("--made-at", metavar="COMMIT",
                    help="with --import: lz4gate's commit the run was made with (default: HEAD)")
    ap.add_argument("--asan32", metavar="RESULT32.json",
                    help="with --import: the survivors' run with --config asan32")
    args = ap.parse_args(argv)
    try:
        if args.result:
            if not args.name:
                raise BadInput("--import needs --name TREE")
            with open(args.result) as f:
                res = json.load(f)
            res32 = None
            if args.asan32:
                with open(args.asan32) as f:
                    res32 = json.load(f)
                if res32.get("tree_id") != res["tree_id"] or res32.get("config") != "asan32":
                    raise BadInput("--asan32 %s: not an asan32 run of the same tree" %
                                   args.asan32)
            os.makedirs(DATA, exist_ok=True)
            atomic.write_file(os.path.join(DATA, args.name + ".json"),
                              json.dumps(compact(res, args.name, res32, args.made_at or head_commit()),
                                         indent=0) + "\n")
        trees, hand = load()
    except (OSError, ValueError, BadInput) as e:
        print("harness mutate-score: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    bad = [p for data in trees for p in problems(data, hand.get(data["tree"], {}))]
    bad += ["survivors.json names %s, which has no committed run" % t for t in hand
            if t not in {d["tree"] for d in trees}]
    text = render(trees, hand) if trees else None    # (no committed run: no document)
    if args.check:
        try:
            with open(DOC) as f:
                same = f.read() == text
        except OSError:
            same = text is None
        if not same:
            bad.append("docs/mutation-score.md is not what the data make: run "
                       "python3 -m harness mutate-score")
    elif text is not None:
        atomic.write_file(DOC, text)
    for p in bad:
        print("mutate-score: %s" % p, file=sys.stderr)
    return 1 if bad else 0
