"""The difference probe: what a surviving mutant changed, told without a
human (harness/runners/probe/probe.h is the program).

The probe calls every entry point of a subject on a fixed input set and
prints one digest per call. Run on the tree (once, kept in
build/mutate/<tree-id>/base-probe.json) and on a survivor, the records
sort the survivor into:

  latitude       only compressed bytes changed, and every output still
                 decodes (ref, strict profile) to its input, or a
                 compressor now fails below compressBound: a choice the
                 format leaves to the encoder (block format: "there can
                 be multiple ways to compress"). No check of the gate may
                 fail it: real updates make such changes (a new match
                 finder), and the gate must pass them.
  observable     a decoder's output or verdict, a bound, a header field or
                 a compressed output's validity changed, or the probe
                 crashed: the format or the API fixes that behaviour, and
                 the checks missed it (the first such calls are listed).
  no difference  every call gave the tree's result: an equivalent mutant
                 or a miss on an input the probe lacks (a human decides).

The probe never kills: the score counts the gate's checks only."""
import json
import os

from harness import toolchain
from harness.errors import BadInput
from harness.mutate.checks import kept_json
from harness.mutate.stream import run_lines
from harness.runners.link import link_runner, runner_sources

PROBE_SOURCES = ("probe/probe.c", "probe/probe_compress.c", "probe/probe_decode.c",
                 "common/testdata.c", "common/sha256.c", "common/frame_make.c")
CLASSES = ("latitude", "observable", "no difference")
END = "(end)"
SHOWN = 5       # differing calls kept per survivor


def program(subject_dir, config):
    return link_runner(subject_dir, config, runner_sources(*PROBE_SOURCES), "probe")


def run(subject_dir, config, deadline):
    """({call: (kind, valid, digest)}, complete, stderr tail) of the probe
    on a built subject."""
    records = {}

    def on_line(line):
        try:
            rec = json.loads(line)
        except ValueError:
            return False
        records[rec["probe"]] = (rec["kind"], rec.get("valid", -1), rec["digest"])
        return False

    argv = toolchain.run_argv(config, [program(subject_dir, config)])
    out = run_lines(argv, toolchain.sanitizer_env("runner"), on_line, deadline)
    complete = END in records and out.status == 0 and not out.expired
    records.pop(END, None)
    return records, complete, out.stderr_tail or ("no result in %d s" % deadline
                                                  if out.expired else "")


class Base:
    """The tree's probe records, computed once per tree and probe program."""

    def __init__(self, out_dir, config):
        self.path = os.path.join(out_dir, "base-probe%s.json" % (
            "" if config == "asan64" else "-" + config))
        self.records = None

    def get(self, subject_dir, config):
        if self.records is not None:
            return self.records
        def compute():
            records, complete, tail = run(subject_dir, config, 600)
            if not complete:
                raise BadInput("the difference probe on the tree itself stopped: %s" % tail)
            return {"records": records}
        with open(program(subject_dir, config), "rb") as f:
            key = toolchain.sha("probe", f.read())
        kept, _ = kept_json(self.path, key, compute)
        self.records = {c: tuple(v) for c, v in kept["records"].items()}
        return self.records


def classify(base, mutant, complete, tail):
    """{"class", "differs": [call, ...], "evidence"} of a survivor."""
    invalid, other, latitude = [], [], []
    for call, (kind, valid, digest) in base.items():
        got = mutant.get(call)
        if got is None:
            continue
        if kind == "compress" and got[1] == 0 and valid == 1:
            invalid.append(call)
        elif got[2] != digest:
            (latitude if kind == "compress" else other).append(call)
    if not complete:
        last = list(mutant)[-1] if mutant else "none"
        return {"class": "observable", "differs": (invalid + other)[:SHOWN],
                "evidence": "the probe stopped after %s: %s" % (last, tail[-300:])}
    if invalid or other:
        what = []
        if invalid:
            what.append("%d compressed outputs ref rejects" % len(invalid))
        if other:
            what.append("%d decoder or API results differ" % len(other))
        return {"class": "observable", "differs": (invalid + other)[:SHOWN],
                "evidence": ", ".join(what)}
    if latitude:
        return {"class": "latitude", "differs": latitude[:SHOWN],
                "evidence": "%d compressor outputs differ, all valid" % len(latitude)}
    return {"class": "no difference", "differs": [],
            "evidence": "%d calls, all as on the tree" % len(base)}
