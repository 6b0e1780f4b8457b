"""The gate's stages. Each either produces records/findings or raises
StageError: a stage the options ask for that cannot run stops the gate
(exit 2, one line naming the stage and the cause)."""
import json
import os
import subprocess
import sys
import time

from harness import atomic
from harness.errors import BadInput
from harness.fuzzing import campaign, findings
from harness.fuzzing.build import build as build_target, not_applicable
from harness.fuzzing.environment import target_env
from harness.fuzzing.targets import PAIR_TARGET
from harness.paths import BUILD, TOP
from harness.findings import documented
from harness.findings.documented import Documented
from harness.runners.compare.run import compare
from harness.runners.contracts.run import configs_for, run_contracts
from harness.runners.regress.cases import load_cases
from harness.runners.regress.run import run_subject
from harness.gate import confirm
from harness.subjects.build import MissingHeader, build, info, subject_identity
from harness.subjects.spec import Subject
from harness.toolchain import sha


class StageError(BadInput):
    def __init__(self, stage, cause):
        super().__init__("[%s] %s" % (stage, cause))
        self.stage = stage


def progress(msg):
    print("gate: " + msg, file=sys.stderr, flush=True)


class Stage:
    """with Stage(gate, name): times a stage; turns BadInput into StageError."""

    def __init__(self, gate, name):
        self.gate, self.name = gate, name

    def __enter__(self):
        self.t0 = time.time()
        progress("[%s] ..." % self.name)
        return self

    def __exit__(self, kind, exc, tb):
        dt = time.time() - self.t0
        self.gate.timings.append((self.name, dt))
        if exc is not None and isinstance(exc, BadInput) and not isinstance(exc, StageError):
            raise StageError(self.name, str(exc)) from exc
        if exc is None:
            progress("[%s] done in %.1f s" % (self.name, dt))
        return False


class Gate:
    def __init__(self, options):
        self.opts = options
        self.docs = Documented(options.known_findings)
        self.cases = documented.check_cases(load_cases(), self.docs)
        self.timings = []
        self.records = []
        self.fuzz_findings = []
        self.fuzz_records = []  # each finding's record and its replays (confirm.py)
        self.replay_count = 0   # replays of fuzz inputs made to confirm them
        self.compare = []
        self.coverage = None
        self.skipped = []       # stages skipped on purpose, with the option that did it
        self.notes = []
        self.fuzz_log = []
        self.seeds = []         # (target, libFuzzer -seed) of the fuzz stage
        self.seed_base = None   # --fuzz-seed, given or derived
        self.crash_triage = []  # (target, seed, crash_triage summary) per campaign
        self.waivers = []       # the waivers file's entries, after the verdict
        self.fuzz_na = []       # (target, why): the candidate has nothing it exercises

    def kw(self, role):
        """The side's --include/--define (options.py: both sides', then its own)."""
        return getattr(self.opts, role + "_opts", None) or {}

    def sides(self):
        """(role, spec, patches, --include/--define) of each side."""
        o = self.opts
        return (("base", o.base, [], self.kw("base")),
                ("candidate", o.candidate, o.patch, self.kw("candidate")))

    def identity(self, role):
        if role == "base":
            return subject_identity(self.opts.base, (), **self.kw("base"))
        return subject_identity(self.opts.candidate, self.opts.patch, **self.kw("candidate"))

    def base_info(self):
        """subject.json of the base's first configuration (built by now)."""
        o = self.opts
        return info(build(o.base, configs_for(o.base, o.configs)[0], quiet=True,
                          **self.kw("base")))

    # ---- stages ---------------------------------------------------------
    def build(self):
        for role, spec, patches, kw in self.sides():
            for config in configs_for(spec, self.opts.configs):
                progress("  building %s [%s]" % (spec, config))
                try:
                    build(spec, config, patches, True, **kw)
                except MissingHeader as e:     # named with this side's option
                    raise BadInput(e.message("--%s-include" % role)) from e

    def run_contracts(self):
        for role, spec, patches, kw in self.sides():
            for config in configs_for(spec, self.opts.configs):
                progress("  contracts %s (%s) [%s]" % (role, spec, config))
                for r in run_contracts(spec, config, patches, quiet=True, **kw):
                    r["role"], r["stage"] = role, "contracts"
                    self.records.append(documented.mark(r, self.docs))

    def run_regress(self):
        for role, spec, patches, kw in self.sides():
            progress("  regression cases on %s (%s)" % (role, spec))
            recs = run_subject(spec, self.cases, self.opts.configs, patches, quiet=True, **kw)
            for r in documented.mark_all(recs, self.docs, self.cases):
                r["role"], r["stage"] = role, "regress"
                self.records.append(r)

    def run_kunit(self):
        """The cases inside each side's own kernel (--kunit; kunit_stage.py)."""
        from harness.gate import kunit_stage
        for role, spec, patches, _ in self.sides():
            recs = kunit_stage.run_side(role, spec, patches, self.identity(role), self.docs,
                                        self.opts.jobs, progress)
            if recs is None:
                self.notes.append("kunit: the %s (%s) is not a whole kernel tree "
                                  "(kernel:DIR with tools/testing/kunit): no in-kernel run"
                                  % (role, spec))
                continue
            self.records += recs

    def run_compare(self):
        """Compressed size and speed, base vs candidate, -O2 builds, one process."""
        status, self.compare = compare(self.opts.base, self.opts.candidate, (), self.opts.patch,
                                       self.kw("base"), self.kw("candidate"))
        if status != 0 or not self.compare:
            raise BadInput("the size/speed comparison program exited %d with %d records"
                           % (status, len(self.compare)))

    # ---- fuzzing ----------------------------------------------------------
    def target_args(self, target, **kw):
        o = self.opts
        b, c = self.kw("base"), self.kw("candidate")
        if target == PAIR_TARGET:
            subj = dict(subject=o.base, subject_b=o.candidate, patch=[], patch_b=o.patch,
                        include=b.get("includes", []), define=b.get("defines", []),
                        include_b=c.get("includes", []), define_b=c.get("defines", []))
        else:
            subj = dict(subject=o.candidate, subject_b=None, patch=o.patch, patch_b=[],
                        include=c.get("includes", []), define=c.get("defines", []))
        subj.update(kw)
        return campaign.namespace(target=target, jobs=o.jobs, quiet=True, brief=True,
                                  known_findings=o.known_findings, **subj)

    def stage_roots(self):
        """{side: its staged tree} for placing a crash's frames."""
        out = {}
        for role, spec, patches, kw in self.sides():
            s = Subject(spec, patches, **kw)
            if s.files:
                out[role] = os.path.join(BUILD, "stage", s.id)
        return out

    def replay_files(self, target):
        """The seed corpus of a target, and the --replay-inputs named for it."""
        seeds = campaign.seed_dir(target)
        files = [os.path.join(seeds, f) for f in sorted(os.listdir(seeds))]
        extra = self.opts.replay_inputs
        if extra:
            files += [os.path.join(extra, f) for f in sorted(os.listdir(extra))
                      if f.startswith(target + "-")]
        return files

    def run_replay(self):
        """The seed corpora (and --replay-inputs), input by input, on the candidate."""
        for t in self.applicable_targets():
            a = self.target_args(t, engine="replay")
            binary = build_target(a)
            files = self.replay_files(t)
            env = target_env(a, "replay")
            # pass or fail only (its failures are triaged below, symbolized)
            proc = subprocess.run([binary] + files, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, universal_newlines=True,
                                  errors="replace", env=env)
            self.fuzz_log.append("replay %s: exit %d\n%s" % (t, proc.returncode,
                                                             proc.stdout[-2000:]))
            if proc.returncode == 0:
                continue
            if proc.returncode == 2 and "failing input" not in proc.stdout:
                raise BadInput("replay %s: %s" % (t, proc.stdout.strip().splitlines()[-1]))
            found = findings.from_crashes(files, binary, env)
            found = {s: f for s, f in found.items() if f["cls"] != "flaky"}
            self.add_fuzz(a, "asan64", found)

    def fuzz_seed(self, target):
        """libFuzzer's -seed for a target: --fuzz-seed, else derived from the
        inputs (both subjects' identities, the patches, the target), so that
        a rerun on the same inputs draws the same inputs."""
        base = self.opts.fuzz_seed
        if base is None:
            base = int(sha(self.identity("base"), self.identity("candidate"))[:7], 16)
        self.seed_base = base
        return (base + int(sha(target)[:6], 16)) % (2 ** 31 - 1) or 1

    def applicable_targets(self):
        """The fuzz targets with something to test on the candidate (and, for
        the pair target, on both); the others are n/a (self.fuzz_na), told
        once, never fuzzed for nothing."""
        out = []
        for t in self.opts.fuzz_targets:
            why = dict(self.fuzz_na).get(t) or not_applicable(self.target_args(t))
            if not why:
                out.append(t)
            elif t not in dict(self.fuzz_na):
                progress("  %s: n/a (%s)" % (t, why))
                self.fuzz_na.append((t, why))
        return out

    def run_fuzz(self):
        targets = self.applicable_targets()
        per = max(self.opts.fuzz_target_min, self.opts.fuzz_time // max(1, len(targets)))
        for t in targets:
            seed = self.fuzz_seed(t)
            self.seeds.append((t, seed))
            progress("  fuzz %s (%d s, %d job(s), -seed=%d)" % (t, per, self.opts.jobs, seed))
            # From the committed seed corpus every time (fresh): a campaign
            # depends on its inputs and its seed only, not on earlier runs.
            a = self.target_args(t, time=per, engine="libfuzzer", seed=seed, fresh=True)
            _, found = campaign.run(a, documented.FuzzKnown(self.docs))
            triage = getattr(found, "triage", None)
            if triage is not None:
                self.crash_triage.append((t, seed, triage))
            self.add_fuzz(a, "libfuzzer", found)

    def add_fuzz(self, a, config, found):
        """The evidence of every finding of a target (harness/gate/confirm.py:
        replayed on the candidate, ref and the base); the classifier
        (harness/findings/classify.py) judges it with the rest."""
        for f in sorted(found.values(), key=lambda f: f["signature"]):
            progress("    replaying %s (%s)" % (f["signature"], a.target))
            recs = confirm.evidence(self, a, f, config)
            self.fuzz_findings.append(f)
            self.fuzz_records += recs
            self.replay_count += sum(1 for r in recs if r.get("source") == "replay")

    # ---- coverage ---------------------------------------------------------
    def run_coverage(self):
        spec, patches, kw = self.opts.candidate, self.opts.patch, self.kw("candidate")
        if spec == "system":
            self.skipped.append(("coverage", "the system library is a black box"))
            return
        subject_dir = build(spec, "gcov", patches, True, **kw)
        # The counters (.gcda) accumulate in the subject's own directory: two
        # gates measuring one candidate at once would mix (and reset) them.
        with atomic.lock("gcov-" + subject_dir):
            self._measure_coverage(spec, patches, subject_dir, kw)

    def _measure_coverage(self, spec, patches, subject_dir, kw):
        for f in os.listdir(subject_dir):      # counts from earlier runs
            if f.endswith(".gcda"):
                os.remove(os.path.join(subject_dir, f))
        run_contracts(spec, "gcov", patches, quiet=True, **kw)
        run_subject(spec, self.cases, ["gcov"], patches, quiet=True, **kw)
        sinfo = info(subject_dir)
        root = os.path.join(BUILD, "stage", sinfo["id"]) if sinfo.get("files") else TOP
        cov = os.path.join(self.opts.out, "coverage")
        os.makedirs(cov, exist_ok=True)
        cmd = ["gcovr", "--root", root, "--object-directory", subject_dir,
               "--filter", root, "--exclude", ".*harness.*",
               "--html-details", os.path.join(cov, "index.html"),
               "--xml", os.path.join(cov, "cobertura.xml"),
               "--json-summary", os.path.join(cov, "summary.json"), subject_dir]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, cwd=subject_dir)
        if proc.returncode != 0:
            raise BadInput("gcovr failed: %s" % (proc.stdout.strip().splitlines() or ["?"])[-1])
        with open(os.path.join(cov, "summary.json")) as f:
            summary = json.load(f)
        self.coverage = {"line": summary.get("line_percent"),
                         "branch": summary.get("branch_percent"),
                         "files": [(x["filename"], x.get("line_percent"))
                                   for x in summary.get("files", [])]}
