"""The verdict policy's planted scenarios (harness/gate/planted.py): one
planted bug per example of the policy table, classified from the records
the runners really printed (tests/data/planted/, written by
`python3 -m harness planted --write`), each with the section and verdict
the README's policy gives it; the report, JUnit and SARIF of each agree on
every item; and the committed records are what the runners print today."""
import json
import os
import re
import xml.etree.ElementTree as ET

import pytest

from harness.findings import policy
from harness.gate import options, planted, waivers
from harness.gate.stages import Gate
from harness.report import gate_report

SCENARIOS = [s.name for s in planted.SCENARIOS]


def decision_of(name):
    s = planted.BY_NAME[name]
    head, recs = planted.load(name)
    return s, head, recs, planted.decide(s, head, recs)


@pytest.mark.check
def test_every_policy_row_has_a_planted_scenario():
    # Each section of the policy, and each kind a section names, is shown.
    shown = {(e[0]) for s in planted.SCENARIOS for e in s.expect}
    assert shown >= set(policy.CATEGORIES) - {"waived"}     # waived: below
    kinds = {policy.FAILING_KINDS[0], policy.FAILING_KINDS[1], policy.FAILING_KINDS[2]}
    seen = set()
    for name in SCENARIOS:
        _, _, _, d = decision_of(name)
        seen |= {i["failure_kind"] for c in ("regression", "changed") for i in
                 d["categories"][c]}
    from harness.evidence.classes import LATITUDE, CONVENTION, UNDEFINED, RESOURCES
    assert seen >= kinds | {LATITUDE, CONVENTION, UNDEFINED, RESOURCES}, seen


@pytest.mark.check
@pytest.mark.parametrize("name", SCENARIOS)
def test_the_planted_bug_gets_the_policys_answer(name):
    s, _, _, d = decision_of(name)
    assert not planted.problems(s, d), planted.problems(s, d)


@pytest.mark.check
def test_a_waiver_moves_a_root_cause_to_waived_only_whole():
    from harness.findings import classify

    def waive(name, pattern):
        _, _, _, d = decision_of(name)
        items = [i for c in d["categories"].values() for i in c]
        w = [{"id": pattern, "reason": "reviewed", "n": 1, "file": ".lz4gate.toml",
              "matched": []}]
        waivers.apply(d["categories"], w, lambda i: i["id"], lambda i: None)
        return classify.decide(items)
    # every id of the root cause waived: the gate passes, the items listed
    d = waive("rejects_valid", "*")
    assert d["categories"]["waived"] and not d.failed(strict=False)
    # one id waived: the same bug through another check still fails, the
    # waived item shown in its root cause with its own placement
    d = waive("memory_error", "compress_default.into_bound")
    assert d.failed(strict=False)
    rel = {i["id"]: i["relation"] for i in d["categories"]["regression"]}
    assert rel["compress_default.into_bound"] == "waived" and len(rel) > 1


def render(tmp_path, name):
    """The report, JUnit and SARIF of a scenario's decision, as the gate
    writes them."""
    s, head, recs, d = decision_of(name)
    out = str(tmp_path / name)
    gate = Gate(options.parse(planted.gate_argv(s, out)))
    gate.records = [r for r in recs if r.get("stage") != "fuzz"]
    gate.fuzz_records = [r for r in recs if r.get("stage") == "fuzz"]
    gate.fuzz_findings = [r["fuzz"] for r in gate.fuzz_records if r.get("source") == "finding"]
    d["failed"] = d.failed(gate.opts.strict)
    files = gate_report.write_all(gate, d, out)
    return d, {k: open(p).read() for k, p in files.items()}


SARIF_LEVEL = {policy.FAIL: "error", policy.WARN: "warning", policy.INFO: "note"}


@pytest.mark.parametrize("name", ["rejects_valid", "latitude", "newly_fixed", "lost_fix",
                                  "not_reproducible", "documented_new_entry"])
def test_the_report_junit_and_sarif_agree_on_every_item(tmp_path, name):
    d, text = render(tmp_path, name)
    # the report's sections, with the ids listed under each
    sections = {}
    current = None
    for line in text["full"].splitlines():
        m = re.match(r"## (FAIL|WARN|INFO): (.+) \(\d+\)$", line)
        if m:
            current = next(c for c in policy.CATEGORIES if policy.TITLE[c] == m.group(2))
        elif current and line.startswith("- `"):
            sections.setdefault(current, set()).add(line[3:line.index("`", 3)])
    junit = {tc.get("name"): (tc.get("classname"), tc.find("failure") is not None)
             for tc in ET.fromstring(text["junit"]).iter("testcase")}
    sarif = {}
    for res in json.loads(text["sarif"])["runs"][0]["results"]:
        sarif.setdefault(res["properties"]["category"], []).append(res["level"])
    for cat, items in d["categories"].items():
        for i in items:
            assert i["id"] in sections.get(cat, ()), (cat, i["id"])
            name_ = "%s %s [%s]" % (i["stage"], i["id"], ", ".join(i["configs"]))
            classname, failed = junit[name_]
            assert classname == "%s.%s" % (policy.LEVEL[cat], cat)
            assert failed == (policy.LEVEL[cat] == policy.FAIL), (cat, i["id"])
        assert sarif.get(cat, []) == [SARIF_LEVEL[policy.LEVEL[cat]]] * len(items), cat
    assert text["report"].startswith("# lz4gate: %s" % planted.BY_NAME[name].verdict)


def test_the_committed_records_are_what_the_runners_print_today():
    # The planted checks of each scenario, run again on its candidate: the
    # same verdict and class as the committed records (stale data would
    # test the classifier on output the runners no longer print).
    from harness.runners.contracts.run import run_contracts
    from harness.runners.regress.cases import load_cases
    from harness.runners.regress.run import run_subject
    for s in planted.SCENARIOS:
        _, recs = planted.load(s.name)
        for section, item_id, _ in s.expect:
            if item_id == "*" or section == "fixed":
                continue
            want = {(r["config"], r["verdict"], r.get("fail_class")) for r in recs
                    if r["check"] == item_id and r["role"] == "candidate"}
            if item_id.startswith(("KLZ4-", "ULZ4-")):
                got = run_subject(s.candidate, load_cases(only=[item_id]), ["asan64"],
                                  quiet=True)
            else:
                got = [r for r in run_contracts(s.candidate, "asan64", quiet=True,
                                                vectors=False, only=item_id)
                       if r["check"] == item_id]
            have = {(r["config"], r["verdict"], r.get("fail_class")) for r in got}
            assert have == want, (s.name, item_id, have, want)
    assert os.path.isdir(planted.DATA)
