"""The journal of a mutation run: each mutant's record appended as it
finishes (RESULT.journal.jsonl next to the result), so that a run cut short
keeps its work and `--resume` runs only the mutants it lacks.

Its first line names what the records depend on: the tree, the stages,
the sanitizer build, whether survivors were probed, and a digest of lz4gate's checks (the
runners, ref, the adapters, the vectors and the regression cases). A
journal whose first line differs is started again: a record made by other
checks is not reused."""
import json
import os

from harness.paths import ADAPTERS, CASES_DIR, CORPUS, REF, RUNNERS
from harness.toolchain import file_digest


def _files(top):
    out = []
    for root, _, names in os.walk(top):
        out += [os.path.join(root, n) for n in names if n.endswith((".c", ".h", ".json"))]
    return out


def checks_digest():
    return file_digest(_files(RUNNERS) + _files(REF) + _files(ADAPTERS) + _files(CASES_DIR) +
                       _files(os.path.join(CORPUS, "vectors")))


def path_of(out):
    return (out[:-5] if out.endswith(".json") else out) + ".journal.jsonl"


class Journal:
    def __init__(self, out, tree_id, stages, probed, resume, config="asan64"):
        self.path = path_of(out)
        self.head = {"tree_id": tree_id, "checks": list(stages), "probed": probed,
                     "checks_digest": checks_digest(), "config": config}
        self.kept = {}
        if resume:
            self.kept = self._read()
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        with open(self.path, "w") as f:
            f.write(json.dumps(self.head) + "\n")
            for rec in self.kept.values():
                f.write(json.dumps(rec) + "\n")

    def _read(self):
        try:
            with open(self.path) as f:
                lines = f.read().splitlines()
        except OSError:
            return {}
        if not lines:
            return {}
        head = json.loads(lines[0])
        head.setdefault("config", "asan64")     # (journals from before --config)
        if head != self.head:
            return {}
        kept = {}
        for line in lines[1:]:
            try:
                rec = json.loads(line)
            except ValueError:          # (a line cut short when the run was stopped)
                continue
            kept[rec["id"]] = rec
        return kept

    def add(self, rec):
        with open(self.path, "a") as f:
            f.write(json.dumps(rec) + "\n")
