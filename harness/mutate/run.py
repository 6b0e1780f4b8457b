"""A mutation run: each mutant from its copy to its result, one progress
line each, J at a time.

Results: killed (a check that passes on the base does not on the mutant;
a timeout is one), survived (every check passed), does not compile (the
compiler, or the preprocessor, rejects the copy), equivalent (by
construction: every unit of the copy preprocesses to the base's text, so
the compiler sees the same program: a token in an inactive #if branch or in
a macro nothing expands), error (lz4gate could not run it). The base
tree's checks run once, when a mutant first needs a stage."""
import concurrent.futures
import shutil
import sys
import threading
import time

from harness.errors import BadInput
from harness.mutate import checks, probe
from harness.subjects.build import build
from harness.toolchain import BuildError

RESULTS = ("killed", "survived", "does not compile", "equivalent", "error")
PROBE_DEADLINE = 600    # the probe takes 10 to 25 s on a tree


class BaseFailed(BadInput):
    """The tree under test does not build, or a runner fails on it."""


class Run:
    def __init__(self, tree, stage_names, out=sys.stderr, keep=False, with_probe=True,
                 journal=None):
        self.tree, self.keep, self.with_probe = tree, keep, with_probe
        self.journal = journal
        self.config = tree.config
        self.probe_base = probe.Base(tree.out, self.config)
        self.stages = checks.stages(stage_names, self.config)
        self.out = out
        self.lock = threading.Lock()        # the base's stages; progress lines
        self.base = None
        self.done = 0

    def _base(self):
        """The base tree's build and stage results (lock: the caller's)."""
        if self.base is None:
            subject_dir = build(self.tree.subject.spec, self.config, quiet=True)
            self.base = checks.Base(self.tree.out, subject_dir, self.config)
        return self.base

    def base_of(self, stage):
        """The base's result of a stage (built and run once); BaseFailed
        when the tree itself does not build or run: the run stops."""
        with self.lock:
            try:
                fresh = stage.name not in self._base().done
                r = self.base.result(stage)
            except BadInput as e:
                raise BaseFailed("the tree %s itself: %s" % (self.tree.path, e))
            if fresh:
                print("mutate: base %s: %d checks pass of %d (%.1f s; a mutant's deadline "
                      "%d s)%s" % (stage.name, sum(v["verdict"] == "pass" for v in
                                                   r["results"].values()),
                                   len(r["results"]), r["seconds"], r["deadline"],
                                   ", kept from an earlier run" if r["reused"] else ""),
                      file=self.out, flush=True)
            return r

    def check(self, rec, subject_dir):
        """Run the stages on a built mutant until one kills it."""
        rec["stages"] = {}
        for stage in self.stages:
            base = self.base_of(stage)
            results, kill, secs = checks.run_stage(stage, subject_dir, base["results"],
                                                   base["deadline"])
            rec["stages"][stage.name] = round(secs, 1)
            if kill:
                rec.update(result="killed", killed_by=kill)
                return
            new = [r["ubsan"] for c, r in results.items() if r["ubsan"] and
                   not base["results"].get(c, {}).get("ubsan")]
            if new and "ubsan" not in rec:
                rec["ubsan"] = new[0]
        rec["result"] = "survived"
        if self.with_probe:
            rec["probe"] = self.probe(subject_dir)

    def probe(self, subject_dir):
        """The difference probe's class of a survivor (harness/mutate/probe.py)."""
        with self.lock:
            try:
                base = self.probe_base.get(self._base().subject_dir, self.config)
            except BadInput as e:
                raise BaseFailed("the tree %s itself: %s" % (self.tree.path, e))
        records, complete, tail = probe.run(subject_dir, self.config, PROBE_DEADLINE)
        return probe.classify(base, records, complete, tail)

    def reprobe(self, rec):
        """Probe a survivor of an earlier run again from its copy (its
        checks are not run again)."""
        t0 = time.time()
        subject_dir = build("upstream:" + rec["copy"], self.config, quiet=True)
        try:
            rec["probe"] = self.probe(subject_dir)
        finally:
            if not self.keep:
                shutil.rmtree(subject_dir, ignore_errors=True)
        rec["probe_seconds"] = round(time.time() - t0, 1)
        return rec

    def mutant(self, m):
        """The record of one mutant (result, evidence, seconds, ...)."""
        t0 = time.time()
        rec = m.as_dict()
        rec["before"], rec["after"] = m.context(self.tree.source(m.file))
        try:
            copy = self.tree.make_copy(m)
            rec["copy"] = copy
            if self.tree.equivalent(copy):
                rec.update(result="equivalent", evidence="every unit preprocesses to the "
                           "base's text")
            else:
                t1 = time.time()
                subject_dir = build("upstream:" + copy, self.config, quiet=True)
                rec["build_seconds"] = round(time.time() - t1, 1)
                try:
                    self.check(rec, subject_dir)
                finally:
                    if not self.keep:       # its objects and runners: some 17 MB
                        shutil.rmtree(subject_dir, ignore_errors=True)
        except BaseFailed:
            raise
        except BuildError as e:
            rec.update(result="does not compile", evidence=e.line)
        except BadInput as e:
            rec.update(result="error", evidence=str(e))
        rec["seconds"] = round(time.time() - t0, 1)
        return rec

    def progress(self, total, rec):
        with self.lock:
            self.done += 1
            if self.journal:
                self.journal.add(rec)
            what = rec["result"]
            if what == "killed":
                k = rec["killed_by"]
                what = "killed by %s %s (%s)" % (k["stage"], k["check"], k["verdict"])
            elif what == "survived" and "probe" in rec:
                what += " (probe: %s)" % rec["probe"]["class"]
            elif what in ("does not compile", "error"):
                what += ": " + rec["evidence"][:100]
            print("mutate: [%*d/%d] %s:%d %s `%s` -> `%s` in %s: %s  %.1f s" % (
                len(str(total)), self.done, total, rec["file"], rec["line"], rec["op"],
                rec["original"], rec["mutated"], rec["function"], what, rec["seconds"]),
                file=self.out, flush=True)

    def run(self, mutants, jobs=1, work=None):
        """The records of mutants, in their order (work: None, or "reprobe"
        for the survivors' records of an earlier run). Mutants the journal
        kept (--resume) are not run again."""
        if work == "reprobe":
            return self._run(mutants, jobs, self.reprobe)
        kept = self.journal.kept if self.journal else {}
        if kept:
            print("mutate: %d of the %d mutants kept from the journal %s" % (
                sum(m.id in kept for m in mutants), len(mutants), self.journal.path),
                file=self.out, flush=True)
        todo = [m for m in mutants if m.id not in kept]
        done = dict(zip([m.id for m in todo], self._run(
            todo, jobs, self.mutant)))
        return [kept.get(m.id) or done[m.id] for m in mutants]

    def _run(self, items, jobs, work):
        self.tree.prepare()         # the base's preprocessed text, once
        if jobs <= 1:
            recs = []
            for m in items:
                recs.append(work(m))
                self.progress(len(items), recs[-1])
            return recs
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(work, m): i for i, m in enumerate(items)}
            recs = [None] * len(items)
            for f in concurrent.futures.as_completed(futures):
                recs[futures[f]] = f.result()
                self.progress(len(items), recs[futures[f]])
        return recs
