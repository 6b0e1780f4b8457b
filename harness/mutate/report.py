"""The result of a mutation run: a summary for the reader and the JSON file.

score = killed / (killed + survived): mutants that do not compile and those
equivalent by construction are counted apart and are not in it, nor are
errors (lz4gate could not run the mutant). Each survivor is listed with
its place, the token before and after and its function, to be classified
by a human: an equivalent mutant (no input can tell it apart), or a miss
of the checks (a check to add). The difference probe sorts survivors
first (harness/mutate/probe.py): a "latitude" survivor only changed which
valid encoding a compressor picks, which the format leaves open and no
check of the gate may fail; the format score leaves those out:
killed / (killed + survived - latitude)."""
import json
import statistics

from harness import atomic
from harness.paths import shown
from harness.mutate.probe import CLASSES
from harness.mutate.run import RESULTS


def score_of(counts):
    judged = counts["killed"] + counts["survived"]
    return round(counts["killed"] / judged, 4) if judged else None


def probe_counts(recs):
    """{class: count} of the probed survivors (None: none was probed)."""
    probed = [r["probe"]["class"] for r in recs if r["result"] == "survived" and "probe" in r]
    return {c: probed.count(c) for c in CLASSES} if probed else None


def format_score(counts, probed):
    """killed / (killed + survived - latitude): the score over the mutants
    whose behaviour the format or the API fixes."""
    if probed is None:
        return None
    return score_of(dict(counts, survived=counts["survived"] - probed["latitude"]))


def rescore(res):
    """res with its probe counts and format score made again from its records."""
    res["probe"] = probe_counts(res["mutants"])
    res["format_score"] = format_score(res["counts"], res["probe"])
    return res


def result(tree, files, args, facts, recs, stage_names):
    counts = {r: sum(rec["result"] == r for rec in recs) for r in RESULTS}
    secs = [rec["seconds"] for rec in recs]
    return rescore({
        "tree": tree.path, "tree_id": tree.id, "files": files, "config": tree.config,
        "checks": stage_names, "seed": args.seed, "n": args.n,
        "chosen": "named" if args.mutant or args.only else "sampled",
        "facts": facts, "counts": counts,
        "killed_by_timeout": sum(rec["result"] == "killed" and
                                 rec["killed_by"]["verdict"] == "TIMEOUT" for rec in recs),
        "score": score_of(counts),
        "seconds": {"median": statistics.median(secs) if secs else 0,
                    "max": max(secs) if secs else 0, "total": round(sum(secs), 1)},
        "survivors": [rec["id"] for rec in recs if rec["result"] == "survived"],
        "mutants": recs,
    })


def write(res, path):
    atomic.write_file(path, json.dumps(res, indent=1) + "\n")


def summary(res, path):
    c, f = res["counts"], res["facts"]
    cats = ", ".join("%s %d" % kv for kv in f["by_category"].items())
    lines = [
        "mutation run on %s (%s), %s, checks: %s" % (res["tree"], res["tree_id"],
                                                     ", ".join(res["files"]),
                                                     " > ".join(res["checks"])),
        "  %d candidate mutants (%s) in %s functions on the API's paths; %d %s" % (
            f["candidates"], cats, sum(f["functions_mutated"].values()), len(res["mutants"]),
            "named" if res["chosen"] == "named" else "sampled with seed %s" % res["seed"]),
        "  killed            %3d%s" % (c["killed"], "  (%d by a timeout)" %
                                       res["killed_by_timeout"] if res["killed_by_timeout"]
                                       else ""),
        "  survived          %3d" % c["survived"],
        "  does not compile  %3d" % c["does not compile"],
        "  equivalent        %3d  (by construction: the preprocessed text is the base's)"
        % c["equivalent"],
    ]
    if c["error"]:
        lines.append("  error             %3d  (lz4gate could not run them: see the JSON)"
                     % c["error"])
    score = res["score"]
    lines.append("  mutation score    %s  (killed / (killed + survived))" % (
        "n/a" if score is None else "%.1f%% = %d / %d" % (
            100 * score, c["killed"], c["killed"] + c["survived"])))
    if res.get("probe"):
        p = res["probe"]
        lines.append("  survivors by the difference probe: latitude %d, observable %d, "
                     "no difference %d" % (p["latitude"], p["observable"], p["no difference"]))
        fs = res["format_score"]
        lines.append("  format score      %s  (killed / (killed + survived - latitude))" % (
            "n/a" if fs is None else "%.1f%% = %d / %d" % (
                100 * fs, c["killed"], c["killed"] + c["survived"] - p["latitude"])))
    lines.append("  seconds per mutant: median %.1f, max %.1f (total %.0f)" % (
        res["seconds"]["median"], res["seconds"]["max"], res["seconds"]["total"]))
    survivors = [m for m in res["mutants"] if m["result"] == "survived"]
    if survivors:
        lines.append("survivors (each an equivalent mutant, or a behaviour no check "
                     "looks at):")
        for m in survivors:
            lines.append("  %s:%d:%d in %s(): `%s` -> `%s` (%s)" % (
                m["file"], m["line"], m["col"], m["function"], m["original"], m["mutated"],
                m["category"]))
            if "probe" in m:
                lines.append("      probe: %s: %s%s" % (m["probe"]["class"], m["probe"]["evidence"],
                                                     "; " + ", ".join(m["probe"]["differs"][:2])
                                                     if m["probe"]["differs"] else ""))
            lines.append("      - %s" % m["before"][:110])
            lines.append("      + %s" % m["after"][:110])
            if m.get("ubsan"):
                lines.append("      (UBSan on the mutant: %s)" % m["ubsan"][:100])
    lines.append("result: %s" % shown(path))
    return "\n".join(lines)
