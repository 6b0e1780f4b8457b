#!/usr/bin/env python3
"""lz4gate gate: may CANDIDATE replace BASE?

  ci/gate.py [--base SPEC] [--candidate SPEC] [--patch FILE]... [--fuzz-time S]
             [--jobs N] [--strict] [--out DIR] [--configs C,C...]

Stages (each prints a progress line and its own time):
  1. build     both subjects in every configuration the stages need
  2. contracts API contract tests on the candidate (and the base, for comparison)
  3. regress   every regression case on base and candidate
  4. compare   compressed size and speed, base vs candidate (-O2 builds)
  5. replay    the fuzz corpora on the candidate (when fuzz targets exist)
  6. fuzz      differential fuzzing for --fuzz-time seconds (when fuzz targets exist)
  7. coverage  gcovr over the candidate's sources, from contracts + regression runs

Verdict (exit status): 0 pass, 1 fail, 2 could not run.
The gate fails when the candidate
  - fails a regression case the base passes (a LOST FIX: what the gate is for),
  - fails a contract check the base passes, or fails one the base does not have
    (unless the failure is a documented finding, harness/known_findings.json or
    the case's known_findings: then it is reported as known),
  - crashes or disagrees under fuzzing.
A case or check failing on both is a known finding: reported, not fatal unless
--strict; so is a documented finding in an entry point only the candidate
has (the upstream frame API, for instance). Cases the candidate passes and
the base fails are reported as fixed.

Default scenario: BASE = the kernel's LZ4 from Debian's linux-source-6.1,
CANDIDATE = upstream lz4 from Debian's lz4 source package ("replace the
kernel's copy with upstream 1.9.4").

Outputs in --out (default build/gate): report.md (for a pull-request
comment), junit.xml, records.jsonl, coverage/ (gcovr HTML + Cobertura XML).
"""
import argparse
import json
import os
import subprocess
import sys
import time
from xml.sax.saxutils import escape, quoteattr

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "harness"))

import contracts  # noqa: E402
import records    # noqa: E402
import regress    # noqa: E402
import subjects   # noqa: E402

EXIT_PASS, EXIT_FAIL, EXIT_CANNOT_RUN = 0, 1, 2
FAILING = ("FAIL", "known finding")


def progress(msg):
    print("gate: " + msg, file=sys.stderr, flush=True)


class Stage:
    def __init__(self, gate, name):
        self.gate, self.name = gate, name

    def __enter__(self):
        self.t0 = time.time()
        progress("[%s] ..." % self.name)
        return self

    def __exit__(self, *exc):
        dt = time.time() - self.t0
        self.gate.timings.append((self.name, dt))
        progress("[%s] done in %.1f s" % (self.name, dt))


class Gate:
    def __init__(self, args):
        self.a = args
        self.timings = []
        self.records = []
        self.lost, self.new_failures, self.known, self.fixed = [], [], [], []
        self.contract_fail = []
        self.fuzz_findings = []
        self.coverage = None
        self.compare = []
        self.fuzz_log = []
        self.notes = []

    # ---- stages ---------------------------------------------------------
    def build(self):
        for spec, patches in ((self.a.base, []), (self.a.candidate, self.a.patch)):
            for config in self.a.configs:
                if spec == "system" and subjects.CONFIGS[config][2] != 64:
                    continue
                progress("  building %s [%s]" % (spec, config))
                subjects.build(spec, config, patches, quiet=True)

    def run_contracts(self):
        side = {}
        for role, spec, patches in (("base", self.a.base, []),
                                    ("candidate", self.a.candidate, self.a.patch)):
            for config in self.a.configs:
                if spec == "system" and subjects.CONFIGS[config][2] != 64:
                    continue
                progress("  contracts %s (%s) [%s]" % (role, spec, config))
                for r in contracts.run_contracts(spec, config, patches, quiet=True):
                    r["role"], r["stage"] = role, "contracts"
                    self.records.append(r)
                    side.setdefault((role, r["check"]), []).append(r)
        for (role, check), recs in side.items():
            if role != "candidate":
                continue
            cand_bad = [r for r in recs if r["status"] in FAILING]
            if not cand_bad:
                continue
            base_bad = [r for r in side.get(("base", check), []) if r["status"] in FAILING]
            base_has = any(r["status"] != "n/a" for r in side.get(("base", check), []))
            item = {"id": check, "kind": "contract", "config": cand_bad[0]["config"],
                    "evidence": cand_bad[0]["evidence"]}
            item["base"] = "pass" if base_has else "n/a"
            documented = all(r["status"] == "known finding" for r in cand_bad)
            if base_bad or (documented and not base_has):
                # failing on both, or a documented finding of an entry point
                # the base does not have (e.g. LZ4F in an upstream candidate)
                self.known.append(item)
            else:
                self.contract_fail.append(item)

    def run_regress(self):
        cases = regress.load_cases()
        by_role = {}
        for role, spec, patches in (("base", self.a.base, []),
                                    ("candidate", self.a.candidate, self.a.patch)):
            progress("  regression cases on %s (%s)" % (role, spec))
            recs = regress.run_subject(spec, cases, self.a.configs, patches, quiet=True)
            for r in recs:
                r["role"], r["stage"] = role, "regress"
            self.records += recs
            by_role[role] = regress.summarize(recs)
        for case in cases:
            b = by_role["base"].get((case["id"], self.a.base))
            c = by_role["candidate"].get((case["id"], self.a.candidate))
            if c is None:
                continue
            b_status = b["status"] if b else "n/a"
            item = {"id": case["id"], "kind": "case", "title": case["title"],
                    "config": c["config"], "evidence": c["evidence"],
                    "base": b_status, "candidate": c["status"]}
            if c["status"] in FAILING and b_status == "pass":
                self.lost.append(item)           # the fix is lost
            elif c["status"] == "FAIL" and b_status == "n/a":
                self.new_failures.append(item)
            elif c["status"] == "known finding" and b_status == "n/a":
                self.known.append(item)          # documented, in code the base lacks
            elif c["status"] in FAILING:
                self.known.append(item)
            elif b_status in FAILING and c["status"] == "pass":
                self.fixed.append(item)

    def run_compare(self):
        """Compressed size and speed, base vs candidate, -O2 builds, one process."""
        try:
            base = subjects.build(self.a.base, "O2", [], quiet=True)
            cand = subjects.build(self.a.candidate, "O2", self.a.patch, quiet=True)
        except subjects.BadInput as e:
            self.notes.append("size/speed comparison skipped: %s" % e)
            return
        prog = os.path.join(cand, "compare-vs-%s" % os.path.basename(os.path.dirname(base)))
        link = []
        for d in (base, cand):
            link += json.load(open(os.path.join(d, "subject.json"))).get("link", [])
        subjects.run_or_fail(
            ["clang", "-O2"] + subjects.OUR_WARNINGS + ["-I" + os.path.join(TOP, "harness"),
             os.path.join(TOP, "harness", "compare.c"), os.path.join(base, "subject.o"),
             os.path.join(cand, "subject_b.o"), "-o", prog] + sorted(set(link)),
            "linking the size/speed comparison")
        proc = subprocess.run([prog], stdout=subprocess.PIPE, universal_newlines=True,
                              timeout=600)
        self.compare = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")]

    def fuzz_subject_args(self, target):
        """base_vs_candidate takes the base as --subject and the candidate as
        --subject-b; the other targets test the candidate against ref."""
        if target == "base_vs_candidate":
            args = ["--subject", self.a.base, "--subject-b", self.a.candidate]
            for p in self.a.patch:
                args += ["--patch-b", p]
        else:
            args = ["--subject", self.a.candidate]
            for p in self.a.patch:
                args += ["--patch", p]
        return args

    def run_fuzz_stages(self):
        fuzz_py = os.path.join(TOP, "harness", "fuzz.py")
        if not os.path.exists(fuzz_py):
            self.notes.append("corpus replay and fuzzing: no fuzz targets in this checkout")
            return
        targets = sorted(f[:-2] for f in os.listdir(os.path.join(TOP, "fuzz"))
                         if f.endswith(".c") and os.path.isdir(os.path.join(TOP, "corpus", f[:-2])))
        if "system" in (self.a.base, self.a.candidate):
            self.notes.append("fuzzing: the system library is linked as a black box")
        with Stage(self, "replay"):
            for t in targets:
                self._fuzz_cmd([sys.executable, fuzz_py, "replay", "--target", t] +
                               self.fuzz_subject_args(t), "replay " + t)
        if self.a.fuzz_time <= 0:
            self.notes.append("fuzzing skipped (--fuzz-time 0)")
            return
        with Stage(self, "fuzz"):
            per = max(10, self.a.fuzz_time // max(1, len(targets)))
            for t in targets:
                # --known: findings already documented for the subject's
                # generation (harness/known_findings.json "fuzz") are counted,
                # not stopped on; they are reported as known findings above.
                self._fuzz_cmd([sys.executable, fuzz_py, "run", "--target", t, "--known",
                                "--time", str(per), "--jobs", str(self.a.jobs)] +
                               self.fuzz_subject_args(t), "fuzz %s (%d s)" % (t, per))

    def _fuzz_cmd(self, cmd, what):
        progress("  " + what)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, errors="replace")
        self.fuzz_log.append("%s: exit %d\n%s" % (what, proc.returncode, proc.stdout[-2000:]))
        if proc.returncode == 2:
            self.notes.append("%s could not run: %s" % (what, proc.stdout.strip()[-300:]))
        elif proc.returncode != 0:
            self.fuzz_findings.append({"id": what, "kind": "fuzz",
                                       "evidence": proc.stdout.strip()[-600:]})

    def run_coverage(self):
        spec, patches = self.a.candidate, self.a.patch
        if spec == "system":
            self.notes.append("coverage: the system library is a black box")
            return
        subject_dir = subjects.build(spec, "gcov", patches, quiet=True)
        for f in os.listdir(subject_dir):      # counts from earlier runs
            if f.endswith(".gcda"):
                os.remove(os.path.join(subject_dir, f))
        try:
            contracts.run_contracts(spec, "gcov", patches, quiet=True)
            regress.run_subject(spec, regress.load_cases(), ["gcov"], patches, quiet=True)
        except subjects.BadInput as e:
            self.notes.append("coverage could not run: %s" % e)
            return
        info = json.load(open(os.path.join(subject_dir, "subject.json")))
        root = os.path.join(TOP, "build", "stage", info["id"]) if info.get("files") else TOP
        cov = os.path.join(self.a.out, "coverage")
        os.makedirs(cov, exist_ok=True)
        cmd = ["gcovr", "--root", root, "--object-directory", subject_dir,
               "--filter", root, "--exclude", ".*harness.*",
               "--html-details", os.path.join(cov, "index.html"),
               "--xml", os.path.join(cov, "cobertura.xml"),
               "--json-summary", os.path.join(cov, "summary.json"), subject_dir]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, cwd=subject_dir)
        if proc.returncode != 0:
            self.notes.append("gcovr failed: %s" % proc.stdout.strip()[-300:])
            return
        with open(os.path.join(cov, "summary.json")) as f:
            summary = json.load(f)
        self.coverage = {"line": summary.get("line_percent"),
                         "branch": summary.get("branch_percent"),
                         "files": [(x["filename"], x.get("line_percent"))
                                   for x in summary.get("files", [])]}

    # ---- verdict and report ------------------------------------------------
    def failed(self):
        bad = self.lost or self.new_failures or self.contract_fail or self.fuzz_findings
        return bool(bad or (self.a.strict and self.known))

    def report(self):
        os.makedirs(self.a.out, exist_ok=True)
        with open(os.path.join(self.a.out, "records.jsonl"), "w") as f:
            for r in self.records:
                f.write(json.dumps(r) + "\n")
        md = self.markdown()
        with open(os.path.join(self.a.out, "report.md"), "w") as f:
            f.write(md)
        with open(os.path.join(self.a.out, "junit.xml"), "w") as f:
            f.write(self.junit())
        with open(os.path.join(self.a.out, "fuzz.log"), "w") as f:
            f.write("\n\n".join(self.fuzz_log))
        return md

    def markdown(self):
        a = self.a
        verdict = "FAIL" if self.failed() else "PASS"
        out = ["# lz4gate: %s" % verdict, "",
               "Base `%s`, candidate `%s`%s; configurations %s; fuzzing %d s%s." % (
                   a.base, a.candidate,
                   " + patches " + ", ".join("`%s`" % os.path.basename(p) for p in a.patch)
                   if a.patch else "", ", ".join(a.configs), a.fuzz_time,
                   ", strict" if a.strict else ""), ""]

        def section(title, items, empty):
            out.append("## %s" % title)
            out.append("")
            if not items:
                out.append(empty)
            for i in items:
                line = "- **%s** (%s)" % (i["id"], i["kind"])
                if i.get("title"):
                    line += " %s" % i["title"]
                if "base" in i:
                    line += ": base %s, candidate %s" % (i["base"], i.get("candidate", "FAIL"))
                if i.get("config"):
                    line += " [%s]" % i["config"]
                out.append(line)
                if i.get("evidence"):
                    out.append("  `%s`" % i["evidence"].replace("`", "'")[:300])
            out.append("")

        section("Lost fixes (the candidate fails what the base passes)", self.lost,
                "None: every fix the base has, the candidate has too.")
        section("New failures", self.new_failures + self.contract_fail + self.fuzz_findings,
                "None.")
        section("Known findings (failing on both, or documented in code only the candidate "
                "has; %s)" % (
            "fatal with --strict" if not a.strict else "fatal: --strict"), self.known, "None.")
        section("Newly fixed (good news)", self.fixed, "None.")
        out += ["## Regression matrix", "", "| case | base | candidate |", "|---|---|---|"]
        cells = regress.summarize([r for r in self.records if r.get("stage") == "regress"])
        for case in regress.load_cases():
            b = cells.get((case["id"], a.base))
            c = cells.get((case["id"], a.candidate))
            out.append("| %s | %s | %s |" % (case["id"], b["status"] if b else "-",
                                             c["status"] if c else "-"))
        out.append("")
        crec = [r for r in self.records if r.get("stage") == "contracts"]
        out += ["## Contracts", ""]
        for role in ("base", "candidate"):
            rs = [r for r in crec if r["role"] == role]
            out.append("- %s: %d checks, %d pass, %d FAIL, %d known findings, %d n/a" % (
                role, len(rs), sum(r["status"] == "pass" for r in rs),
                sum(r["status"] == "FAIL" for r in rs),
                sum(r["status"] == "known finding" for r in rs),
                sum(r["status"] == "n/a" for r in rs)))
        out.append("")
        out += ["## Size and speed, base vs candidate", ""]
        if self.compare:
            out += ["-O2 builds, compress_default / decompress_safe, best of 5, measured in one "
                    "process (speed is a ratio, not a budget).", "",
                    "| data | bytes | base size | candidate size | size ratio | HC9 base / cand |"
                    " compress speed ratio | decompress speed ratio |",
                    "|---|---|---|---|---|---|---|---|"]
            for c in self.compare:
                def ratio(x, y):
                    return "%.3f" % (float(y) / x) if x and x > 0 and y > 0 else "-"
                out.append("| %s | %d | %d | %d | %s | %s / %s | %s | %s |" % (
                    c["data"], c["bytes"], c["base_size"], c["candidate_size"],
                    ratio(c["base_size"], c["candidate_size"]),
                    c["base_hc9_size"] if c["base_hc9_size"] >= 0 else "-",
                    c["candidate_hc9_size"] if c["candidate_hc9_size"] >= 0 else "-",
                    ratio(c["base_compress_mbs"], c["candidate_compress_mbs"]),
                    ratio(c["base_decompress_mbs"], c["candidate_decompress_mbs"])))
        else:
            out.append("Not measured.")
        out += ["", "## Coverage of the candidate", ""]
        if self.coverage:
            out.append("Lines %.1f%%, branches %.1f%% (gcovr; HTML in `coverage/index.html`)." % (
                self.coverage["line"] or 0, self.coverage["branch"] or 0))
            for name, pct in self.coverage["files"]:
                out.append("- `%s`: %.1f%% of lines" % (name, pct or 0))
        else:
            out.append("Not measured.")
        out += ["", "## Stages", "", "| stage | seconds |", "|---|---|"]
        out += ["| %s | %.1f |" % (n, t) for n, t in self.timings]
        if self.notes:
            out += ["", "## Notes", ""] + ["- " + n for n in self.notes]
        return "\n".join(out) + "\n"

    def junit(self):
        cases = []
        for r in self.records:
            name = "%s.%s[%s]" % (r.get("stage"), r["check"], r["config"])
            body = ""
            if r["status"] == "FAIL" or (r["status"] == "known finding" and self.a.strict):
                body = "<failure message=%s/>" % quoteattr(r["evidence"][:500])
            elif r["status"] == "n/a":
                body = "<skipped/>"
            cases.append('  <testcase classname=%s name=%s>%s</testcase>' % (
                quoteattr("%s.%s" % (r.get("role"), r["spec"])), quoteattr(name), body))
        for i in self.lost:
            cases.append('  <testcase classname="gate" name=%s><failure message=%s/></testcase>'
                         % (quoteattr("lost fix " + i["id"]), quoteattr(escape(i["evidence"]))))
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="lz4gate" tests="%d">\n'
                '%s\n</testsuite>\n' % (len(cases), "\n".join(cases)))


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="gate.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="kernel")
    ap.add_argument("--candidate", default="upstream")
    ap.add_argument("--patch", action="append", default=[],
                    help="patch applied to a copy of the candidate tree (repeatable)")
    ap.add_argument("--fuzz-time", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--configs", default="asan64,asan32,O0,O2")
    ap.add_argument("--out", default=os.path.join(TOP, "build", "gate"))
    ap.add_argument("--no-coverage", action="store_true")
    a = ap.parse_args(argv[1:])
    a.configs = [c for c in a.configs.split(",") if c]
    a.patch = [os.path.abspath(p) for p in a.patch]
    a.out = os.path.abspath(a.out)
    return a


def main(argv):
    a = parse_args(argv)
    gate = Gate(a)
    t0 = time.time()
    try:
        for c in a.configs:
            if c not in subjects.CONFIGS:
                raise subjects.BadInput("unknown configuration '%s'" % c)
        with Stage(gate, "build"):
            gate.build()
        with Stage(gate, "contracts"):
            gate.run_contracts()
        with Stage(gate, "regress"):
            gate.run_regress()
        with Stage(gate, "compare"):
            gate.run_compare()
        gate.run_fuzz_stages()
        if not a.no_coverage:
            with Stage(gate, "coverage"):
                gate.run_coverage()
    except (subjects.BadInput, regress.CaseError) as e:
        print("gate: cannot run: %s" % e, file=sys.stderr)
        return EXIT_CANNOT_RUN
    gate.timings.append(("total", time.time() - t0))
    md = gate.report()
    print(md)
    progress("report: %s" % os.path.join(a.out, "report.md"))
    return EXIT_FAIL if gate.failed() else EXIT_PASS


if __name__ == "__main__":
    sys.exit(main(sys.argv))
