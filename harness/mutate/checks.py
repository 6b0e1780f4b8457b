"""The gate's checks without fuzzing, in asan64 only, as stages a mutant
goes through in order until one kills it:

  vectors    the known-answer vectors (corpus/vectors): 0.3 s on the tree
  contracts  the API contract runner (harness/runners/contracts): 4 s
  regress    the regression cases' tests, one batch (harness/runners/regress): 10 s

(the cheapest first: a mutant the vectors kill costs no contract run.)

A stage's result is {check: {"verdict", "evidence", "ubsan"}}, a check
being a contract or vector id, or CASE/TEST for a regression test. The
base tree runs each stage once, to its end; a mutant is killed by the
first check that passes on the base and does not on the mutant (FAIL,
CRASH, TIMEOUT; the runner stopping before it, or the stage's deadline
passing, count too). A check that does not pass on the base (a known
finding, n/a) kills nothing."""
import json
import os
import time

from harness import atomic, toolchain
from harness.errors import BadInput, CaseError
from harness.mutate.stream import run_lines
from harness.runners.contracts.run import CONTRACT_SOURCES, VECTOR_DIR, VECTOR_SOURCES
from harness.runners.link import link_runner, runner_sources
from harness.runners.regress import run as regress
from harness.runners.regress.cases import load_cases

CONFIG = "asan64"          # the default; --config asan32 runs the gate's 32-bit checks
CONFIGS = ("asan64", "asan32")
STAGES = ("vectors", "contracts", "regress")
# A mutant's stage may take this many times the base's, and at least
# DEADLINE_MIN seconds, before it counts as a timeout.
DEADLINE_FACTOR, DEADLINE_MIN = 5, 60


def _record_feed():
    """A feed for runners printing one JSON record per check."""
    def feed(line):
        if not line.startswith("{"):
            return []
        try:
            rec = json.loads(line)
        except ValueError:      # (not a record: a line the runner cut short)
            return []
        return [(rec["check"], rec["verdict"], rec.get("evidence", ""), rec.get("ubsan", ""))]
    return feed


class RunnerStage:
    """contracts or vectors: one program, its records streamed."""

    def __init__(self, config, name, sources, args=()):
        self.config, self.name, self.sources, self.args = config, name, sources, list(args)

    def argv(self, subject_dir):
        program = link_runner(subject_dir, self.config, runner_sources(*self.sources), self.name)
        return toolchain.run_argv(self.config, [program] + self.args), program

    def stdin(self):
        return None

    def inputs(self):
        """What the runner reads besides its program (for the base memo)."""
        if not self.args:
            return ""
        parts = []
        for name in sorted(os.listdir(VECTOR_DIR)):
            st = os.stat(os.path.join(VECTOR_DIR, name))
            parts.append("%s %d %d" % (name, st.st_size, st.st_mtime_ns))
        return "\n".join(parts)

    def feed(self):
        return _record_feed()


class RegressStage:
    """The regression cases' tests that apply to asan64, in one batch
    (regress_batch.c); a closing line ends each test."""
    name = "regress"

    def __init__(self, config):
        self.config, self.jobs = config, []
        for case in load_cases():
            if case["exercised"] and config in regress.configs_for(case, [config]):
                self.jobs += [(regress.test_key(case, t), case, t) for t in case["tests"]
                              if not regress.is_fuzz_test(t)]
        self.timeouts = {k: regress.timeout_of(c, t) for k, c, t in self.jobs}

    def argv(self, subject_dir):
        program = link_runner(subject_dir, self.config,
                              runner_sources(*regress.RUNNER_SOURCES), "regress")
        return toolchain.run_argv(self.config, [program, "--batch"]), program

    def stdin(self):
        lines, current = [], None
        for key, case, test in self.jobs:
            if regress.timeout_of(case, test) != current:
                current = regress.timeout_of(case, test)
                lines.append("timeout=%d" % current)
            lines.append(regress.batch_line(key, test))
        return "\n".join(lines) + "\n"

    def inputs(self):
        return ""

    def feed(self):
        printed = []

        def feed(line):
            if not line.startswith('{"batch":'):
                printed.append(line)
                return []
            try:
                closing = json.loads(line)
            except ValueError:
                return []
            key = closing["batch"]
            try:
                r = regress.test_result(list(printed), closing, self.timeouts[key])
            except CaseError as e:
                r = {"verdict": "ERROR", "evidence": str(e)}
            del printed[:]
            return [(key, r["verdict"], r.get("evidence", ""), r.get("ubsan", ""))]
        return feed


def stages(names, config=CONFIG):
    made = {"contracts": lambda: RunnerStage(config, "contracts", CONTRACT_SOURCES),
            "vectors": lambda: RunnerStage(config, "vectors", VECTOR_SOURCES,
                                           ["--dir", VECTOR_DIR]),
            "regress": lambda: RegressStage(config)}
    return [made[n]() for n in names]


def run_stage(stage, subject_dir, base=None, deadline=3600):
    """(results, kill, seconds): the stage on a built subject. With base
    (the base's results), stop at the first kill: kill = {stage, check,
    verdict, evidence}, else None; ubsan lines the base has not are kept
    in results."""
    argv, _ = stage.argv(subject_dir)
    results, kill = {}, []
    feed = stage.feed()

    def on_line(line):
        for check, verdict, evidence, ubsan in feed(line):
            results[check] = {"verdict": verdict, "evidence": evidence, "ubsan": ubsan}
            if base is not None and base.get(check, {}).get("verdict") == "pass" and \
                    verdict != "pass":
                kill.append({"stage": stage.name, "check": check, "verdict": verdict,
                             "evidence": evidence})
                return True
        return False

    t0 = time.time()
    out = run_lines(argv, toolchain.sanitizer_env("runner"), on_line, deadline, stage.stdin())
    seconds = time.time() - t0
    if kill:
        return results, kill[0], seconds
    last = list(results)[-1] if results else "none"
    if base is None:
        if out.expired or out.status != 0:
            raise BadInput("the %s runner on the base tree %s (last check: %s): %s" % (
                stage.name, "gave no result in %d s" % deadline if out.expired else
                "stopped with exit status %s" % out.status, last, out.stderr_tail or "-"))
        return results, None, seconds
    if out.expired:
        return results, {"stage": stage.name, "check": "(after %s)" % last,
                         "verdict": "TIMEOUT",
                         "evidence": "the stage gave no result in %d s" % deadline}, seconds
    missing = [c for c, r in base.items() if r["verdict"] == "pass" and c not in results]
    if out.status != 0 or missing:
        return results, {"stage": stage.name, "check": missing[0] if missing else last,
                         "verdict": "CRASH",
                         "evidence": "the %s runner stopped (exit status %s)%s: %s" % (
                             stage.name, out.status, " before this check" if missing else "",
                             out.stderr_tail or "no message")}, seconds
    return results, None, seconds


def kept_json(path, key, compute):
    """(value, reused): the dict kept in path while its "key" is key, else
    compute()'s, kept there with key (the base tree's results, computed
    once per tree and program, also by a later run)."""
    try:
        with open(path) as f:
            kept = json.load(f)
    except (OSError, ValueError):
        kept = {}
    if kept.get("key") == key:
        return kept, True
    kept = dict(compute(), key=key)
    atomic.write_file(path, json.dumps(kept, indent=0))
    return kept, False


class Base:
    """The base tree's result of each stage, run once (and kept in
    build/mutate/<tree-id>/base-<stage>.json, keyed on the runner program's
    bytes and its input: a later run on the same tree reuses it)."""

    def __init__(self, out_dir, subject_dir, config=CONFIG):
        self.out_dir, self.subject_dir = out_dir, subject_dir
        # (asan64 keeps the names of the first runs: base-STAGE.json)
        self.prefix = "base-" if config == CONFIG else "base-%s-" % config
        self.done = {}

    def _key(self, stage):
        _, program = stage.argv(self.subject_dir)
        with open(program, "rb") as f:
            return toolchain.sha(stage.name, f.read(), stage.stdin() or "", stage.inputs())

    def result(self, stage):
        """{"results", "seconds", "deadline", "reused"} of a stage (lock: the
        caller's)."""
        if stage.name in self.done:
            return self.done[stage.name]
        def compute():
            results, _, seconds = run_stage(stage, self.subject_dir)
            return {"results": results, "seconds": round(seconds, 2)}
        kept, reused = kept_json(os.path.join(self.out_dir, "%s%s.json" % (self.prefix, stage.name)),
                                 self._key(stage), compute)
        kept["reused"] = reused
        kept["deadline"] = max(DEADLINE_MIN, int(DEADLINE_FACTOR * kept["seconds"]))
        self.done[stage.name] = kept
        return kept
