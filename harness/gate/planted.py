"""`python3 -m harness planted`: the verdict policy's planted scenarios.

One scenario per example of the policy table (harness/findings/policy.py;
README.md's "Verdict policy" table): a planted bug (a broken:MODE subject,
harness/subjects/adapters/adapter_broken*.c) gated against a base, the
stages it needs run as the gate runs them, and what the policy says of it.

  python3 -m harness planted [NAME...]          run them, classify, compare
  python3 -m harness planted --write [NAME...]  ... and write their evidence
  python3 -m harness planted --list

--write records each scenario's evidence (the records of both sides and of
each fuzz finding's replays, as the runners printed them) in
tests/data/planted/NAME.jsonl: tests/test_planted_scenarios.py classifies
those records, and renders the report, JUnit and SARIF of each, so that the
classifier is tested on what the runners really print, not on hand-typed
records. Run it again when a runner's output changes (the test says which
records are stale: it re-runs the planted checks of each scenario).

Exit status: 0 every scenario gets the policy's answer, 1 one does not,
2 a scenario could not run.
"""
import argparse
import json
import os
import sys
from collections import namedtuple

from harness import atomic
from harness.errors import EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK, BadInput
from harness.paths import BUILD, TOP

DATA = os.path.join(TOP, "tests", "data", "planted")
# The gate's options every scenario shares: one configuration, no coverage,
# no size/speed comparison (neither decides a verdict).
COMMON = ["--configs", "asan64", "--no-coverage", "--skip", "compare", "--jobs", "1"]
FUZZ_OFF = ["--fuzz-time", "0", "--skip", "replay"]
CONTRACTS = FUZZ_OFF + ["--skip", "regress"]
CASES = FUZZ_OFF + ["--skip", "contracts"]

# name, what it shows (the policy's words), base, candidate, gate options,
# expected: (section, item id or "*", fail_class or None) the decision must
# hold, and the verdict; catalogue: the base tree the scenario's catalogue
# places the base at (None: the gate's own); documented: (check, id) the
# scenario documents for the candidate's tree.
Scenario = namedtuple("Scenario", "name shows base candidate args expect verdict base_tree "
                                  "documented")


def scenario(name, shows, base, candidate, args, expect, verdict, base_tree=None,
             documented=()):
    return Scenario(name, shows, base, candidate, list(args), list(expect), verdict, base_tree,
                    list(documented))


SCENARIOS = (
    # ---- FAIL ---------------------------------------------------------------
    scenario("lost_fix", "a lost fix: the base passes a case the candidate fails",
             "ref", "broken:partial_overshoot", CASES,
             [("lost", "KLZ4-2018-SYNC183", "return_above_target")], "FAIL"),
    scenario("memory_error", "a memory-safety error of the candidate's",
             "ref", "broken:write_past_capacity", CONTRACTS,
             [("regression", "compress_default.into_bound", "OOB-WRITE")], "FAIL"),
    scenario("rejects_valid", "a rejection of input ref's strict profile accepts whole",
             "ref", "broken:rejects_one_valid", CONTRACTS,
             [("regression", "decompress_safe.exact_capacity", "rejects_valid")], "FAIL"),
    scenario("wrong_bytes", "wrong output on valid input (the right length, other bytes)",
             "ref", "broken:wrong_bytes_right_length", CONTRACTS,
             [("regression", "decompress_safe.exact_capacity", "wrong_output")], "FAIL"),
    scenario("fails_within_bound", "a compressor failing inside its bound",
             "ref", "broken:compress_fails_in_bound", CONTRACTS,
             [("regression", "compress_default.into_bound", "fails_within_bound")], "FAIL"),
    scenario("corrupt_blocks", "a compressor whose blocks do not decode to their input",
             "ref", "broken:compress_flip_last", CONTRACTS,
             [("regression", "compress_default.into_bound", "roundtrip")], "FAIL"),
    scenario("base_predates", "a catalogued bug the base predates",
             "ref", "broken:overread_and_overwrite", CASES,
             [("regression", "ULZ4-2019-681", None)], "FAIL",
             base_tree=("upstream", "1.8.3")),
    # ---- WARN ---------------------------------------------------------------
    scenario("latitude", "invalid input accepted (the format's latitude)",
             "ref", "broken:accepts_truncated", CONTRACTS,
             [("changed", "*", "accepts_invalid")], "PASS"),
    scenario("convention", "a changed return convention",
             "ref", "broken:compress_negative_size_minus_one", CONTRACTS,
             [("changed", "compress_default.negative_size", None)], "PASS"),
    scenario("undefined", "undefined behaviour without a memory error",
             "ref", "broken:ub_in_decoder", CONTRACTS,
             [("changed", "*", "ubsan")], "PASS"),
    scenario("resources", "a change in resources (memory not freed)",
             "ref", "broken:leak_on_error",
             ["--fuzz-time", "0", "--skip", "contracts", "--skip", "regress",
              "--fuzz-targets", "decode_differential"],
             [("changed", "*", "memory-leak")], "PASS"),
    # ---- INFO ---------------------------------------------------------------
    scenario("not_reproducible", "a fuzz finding that does not fail 3 replays of 3",
             "ref", "broken:fails_after_many_calls",
             ["--fuzz-time", "15", "--fuzz-target-min", "15", "--skip", "contracts",
              "--skip", "regress", "--skip", "replay", "--fuzz-targets", "decode_differential",
              "--fuzz-seed", "1"],
             [("unconfirmed", "*", None)], "PASS"),
    scenario("fails_on_both", "failing on both sides",
             "broken:rejects_one_valid", "broken:rejects_one_valid", CONTRACTS,
             [("known", "decompress_safe.exact_capacity", "rejects_valid")], "PASS"),
    scenario("documented_new_entry", "documented for the candidate's tree, an entry point "
             "the base lacks", "kernel", "broken:frame_reset_noop",
             CONTRACTS + ["--skip", "regress"],
             [("known", "frame_decompress.reset_after_error", None)], "PASS",
             # every check that shows the bug (reset does nothing) is
             # documented: one undocumented one would be the same root
             # cause, placed as the regression it is
             documented=[("frame_decompress.reset_after_error", "ULZ4-2023-1227"),
                         ("sweep.alloc.frame_decompress", "ULZ4-2023-1227")]),
    scenario("bases_own_bug", "the base's own bug (ref puts the fault on the base)",
             "broken:compress_flip_last", "ref",
             ["--fuzz-time", "10", "--fuzz-target-min", "10", "--skip", "contracts",
              "--skip", "regress", "--skip", "replay", "--fuzz-targets", "base_vs_candidate",
              "--fuzz-seed", "1"],
             [("known", "*", "cross_decode")], "PASS"),
    scenario("newly_fixed", "the base fails, the candidate passes",
             "broken:rejects_one_valid", "ref", CONTRACTS,
             [("fixed", "decompress_safe.exact_capacity", None)], "PASS"),
)
BY_NAME = {s.name: s for s in SCENARIOS}


def gate_argv(s, out):
    return ["--base", s.base, "--candidate", s.candidate, "--out", out] + COMMON + s.args


def run_scenario(s):
    """The evidence of one scenario: the gate's stages as the gate runs them."""
    from harness.gate import options
    from harness.gate.cli import run_stages
    from harness.gate.stages import Gate
    opts = options.parse(gate_argv(s, os.path.join(BUILD, "planted", s.name)))
    gate = Gate(opts)
    run_stages(gate)
    return gate


KEEP = ("stage", "check", "role", "config", "verdict", "fail_class", "entry", "evidence",
        "report", "ubsan", "identity", "target", "source", "replay", "fault", "input",
        "base_identity", "replay_signature", "observed_class", "case", "finding", "status",
        "bits")


def relative(value):
    """Paths inside this checkout as repository paths (the data is the same
    from any clone)."""
    if isinstance(value, str):
        return value.replace(TOP + os.sep, "")
    if isinstance(value, dict):
        return {k: relative(v) for k, v in value.items()}
    return value


def compact(records):
    """The records a verdict can depend on: every record of a unit that
    fails on some side, every fuzz record, and for each side and entry
    point one record (whether the side has it)."""
    failing = {(r["stage"], r["check"]) for r in records if r["verdict"] not in ("pass", "n/a")
               or r.get("ubsan")}
    out, seen = [], set()
    for r in records:
        key = (r["stage"], r["check"])
        entry = (r.get("role"), r.get("entry"), r["verdict"] == "n/a")
        if r["stage"] == "fuzz" or key in failing or entry not in seen:
            seen.add(entry)
            out.append({k: relative(v) for k, v in r.items() if k in KEEP and k != "fuzz"})
            if r.get("fuzz"):
                out[-1]["fuzz"] = {k: r["fuzz"][k] for k in ("signature", "entry", "message",
                                                             "count", "source", "cls")
                                   if k in r["fuzz"]}
    return out


def write(s, gate):
    os.makedirs(DATA, exist_ok=True)
    head = {"scenario": s.name, "base": s.base, "candidate": s.candidate,
            "base_info": {"version": gate.base_info().get("version")}}
    recs = compact(gate.records + gate.fuzz_records)
    atomic.write_file(os.path.join(DATA, s.name + ".jsonl"), "".join(
        json.dumps(r, sort_keys=True) + "\n" for r in [head] + recs))
    return len(recs)


def load(name):
    """(head, records) of a scenario's committed evidence."""
    path = os.path.join(DATA, name + ".jsonl")
    with open(path) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    recs = lines[1:]
    for r in recs:
        if r.get("stage") == "fuzz":
            r["fuzz"] = dict(r.get("fuzz") or {}, input=r.get("input"), target=r["target"],
                             config=r["config"])
    return lines[0], recs


def documented_for(s, records):
    """The documented findings of a scenario: the real ones, and the
    scenario's own for the candidate's tree (an in-memory table)."""
    from harness.findings.documented import Documented
    docs = Documented()
    ident = next((r["identity"] for r in records if r.get("role") == "candidate"
                  and r.get("identity")), None)
    if s.documented and ident:
        docs.trees = dict(docs.trees, planted={"identity": ident})
        docs.findings = list(docs.findings) + [
            {"id": fid, "trees": ["planted"], "configs": "all", "checks": [check]}
            for check, fid in s.documented]
    return docs


def catalogue_for(s, head):
    from harness.findings.catalogue import Catalogue, release_tags, tree_of
    from harness.findings.ranges import load_ranges
    from harness.runners.regress.cases import load_cases
    kind, version = s.base_tree or (s.base.split(":")[0], head["base_info"].get("version"))
    return Catalogue(load_cases(), tree_of(kind, version), load_ranges(), release_tags())


def decide(s, head, records):
    from harness.findings import classify
    return classify.classify(records, catalogue_for(s, head), documented_for(s, records))


def problems(s, decision):
    """What the decision gets wrong for the scenario ([] when it is right)."""
    out = []
    verdict = "FAIL" if decision.failed(strict=False) else "PASS"
    if verdict != s.verdict:
        out.append("verdict %s, the policy says %s" % (verdict, s.verdict))
    for section, item_id, cls in s.expect:
        items = [i for i in decision["categories"][section]
                 if item_id in ("*", i["id"]) and (cls is None or i.get("fail_class") == cls)]
        if not items:
            got = sorted("%s %s (%s)" % (c, i["id"], i.get("fail_class"))
                         for c, its in decision["categories"].items() for i in its)[:8]
            out.append("no %s item %s%s; got: %s" % (section, item_id,
                                                     " of class %s" % cls if cls else "", got))
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog="harness planted", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Manual: docs/gate.md")
    ap.add_argument("names", nargs="*", metavar="NAME")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in BY_NAME]
    if unknown:
        print("harness planted: no scenario %s (--list)" % ", ".join(unknown), file=sys.stderr)
        return EXIT_BAD_INPUT
    chosen = [BY_NAME[n] for n in args.names] or list(SCENARIOS)
    if args.list:
        for s in chosen:
            print("%-22s %-4s %s: %s -> %s" % (s.name, s.verdict, s.shows, s.base, s.candidate))
        return EXIT_OK
    status = EXIT_OK
    for s in chosen:
        try:
            gate = run_scenario(s)
        except BadInput as e:
            print("harness planted: %s could not run: %s" % (s.name, e), file=sys.stderr)
            return EXIT_BAD_INPUT
        recs = gate.records + gate.fuzz_records
        head = {"base_info": {"version": gate.base_info().get("version")}}
        bad = problems(s, decide(s, head, recs))
        kept = write(s, gate) if args.write else None
        print("%-22s %s%s" % (s.name, "ok" if not bad else "WRONG: " + "; ".join(bad),
                             "" if kept is None else " (%d records written)" % kept))
        status = max(status, EXIT_FAIL if bad else EXIT_OK)
    return status
