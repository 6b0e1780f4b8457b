"""The gate's command line (entry point: ci/gate.py, or `python3 -m harness gate`)."""
import json
import os
import sys
import time

from harness import atomic
from harness.errors import EXIT_BAD_INPUT, EXIT_FAIL, EXIT_OK, BadInput
from harness.findings import classify
from harness.findings.catalogue import Catalogue, release_tags, tree_of
from harness.gate import options
from harness.gate.stages import Gate, Stage, progress
from harness.report import gate_report


def run_stages(gate):
    """Every stage in order; a stage skipped on purpose is recorded (the
    report lists it at the top), one that cannot run raises StageError."""
    o = gate.opts
    stages = [("build", gate.build, None), ("contracts", gate.run_contracts, None),
              ("regress", gate.run_regress, None)] + \
        ([("kunit", gate.run_kunit, None)] if o.kunit else []) + \
        [("compare", gate.run_compare, None),
              ("replay", gate.run_replay, None),
              ("fuzz", gate.run_fuzz, "--fuzz-time 0" if o.fuzz_time <= 0 else None),
              ("coverage", gate.run_coverage, None)]
    for name, run, off in stages:
        if name in o.skip:
            off = "--no-coverage" if name == "coverage" and o.no_coverage else "--skip " + name
        if off:
            gate.skipped.append((name, off))
            continue
        with Stage(gate, name):
            run()


def catalogue(gate):
    """What the verdict needs of the fix catalogue and the base's tree."""
    from harness.findings.ranges import load_ranges
    from harness.subjects.spec import Subject
    from harness.subjects.stage import stage
    from harness.subjects.versions import generation, kernel_version
    s = Subject(gate.opts.base)
    version = gate.base_info().get("version")
    gen = None
    if s.kind == "kernel":
        version = version or kernel_version(s.path)
        gen = generation(stage(s))
    return Catalogue(gate.cases, tree_of(s.kind, version, gen), load_ranges(), release_tags())


def decide(gate):
    """The verdict (harness/findings/classify.py): every record of both
    sides and every fuzz finding's replays, classified once; then the
    user's waivers (a waived item moves, and its root cause is placed
    again)."""
    decision = classify.classify(gate.records + gate.fuzz_records, catalogue(gate), gate.docs)
    gate.waivers = apply_waivers(gate, decision["categories"])
    if gate.waivers:
        decision = classify.decide([i for items in decision["categories"].values()
                                    for i in items])
    decision["failed"] = decision.failed(gate.opts.strict)
    return decision


def check_waivers(gate):
    from harness.gate import waivers
    from harness.report import gate_report
    path = waivers.find(gate_report.repository_root(gate.opts), gate.opts.waivers)
    if path:
        waivers.load(path)


def apply_waivers(gate, cats):
    """The waivers of the candidate's repository (harness/gate/waivers.py),
    applied; [] when there is no waivers file."""
    from harness.gate import waivers
    from harness.report import gate_report
    o = gate.opts
    path = waivers.find(gate_report.repository_root(o), o.waivers)
    if not path:
        return []
    signature_of, location_of = gate_report.locator(o)
    return waivers.apply(cats, waivers.load(path), signature_of, location_of)


def write_reports(gate, decision):
    """The report files, each written whole; under a lock on --out, so two
    gates given one directory leave one gate's complete report, not a mix."""
    out = gate.opts.out
    os.makedirs(out, exist_ok=True)
    with atomic.lock("gate-" + os.path.abspath(out)):
        # every record the verdict read: the runners' and each fuzz
        # finding's with its replays (harness/gate/confirm.py)
        atomic.write_file(os.path.join(out, "records.jsonl"), "".join(
            json.dumps({k: v for k, v in r.items() if k != "fuzz"}, sort_keys=True) + "\n"
            for r in gate.records + gate.fuzz_records))
        files = gate_report.write_all(gate, decision, out)
        atomic.write_file(os.path.join(out, "fuzz.log"), "\n\n".join(gate.fuzz_log))
    return files


def main(argv):
    t0 = time.time()
    try:
        opts = options.parse(argv)
        gate = Gate(opts)
        check_waivers(gate)          # a malformed waivers file stops the gate first
        run_stages(gate)
        gate.timings.append(("total", time.time() - t0))
        decision = decide(gate)
    except BadInput as e:            # StageError included: "[stage] cause"
        print("gate: cannot run: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    files = write_reports(gate, decision)
    with open(files["report"]) as f:
        print(f.read())
    progress("report: %s" % files["report"])
    return EXIT_FAIL if decision["failed"] else EXIT_OK
