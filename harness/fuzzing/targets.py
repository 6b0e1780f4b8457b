"""The fuzz targets, read from fuzz/targets.tsv (the one list of them)."""
import collections
import os

from harness.paths import FUZZ

TARGETS_FILE = os.path.join(FUZZ, "targets.tsv")
Target = collections.namedtuple("Target", "name pair defaults sources")


def _load():
    out = collections.OrderedDict()
    with open(TARGETS_FILE) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, arity, defaults, sources = line.split()
            out[name] = Target(name, arity == "pair", tuple(defaults.split(",")),
                               () if sources == "-" else tuple(sources.split(",")))
    return out


TABLE = _load()
TARGETS = tuple(TABLE)
PAIR_TARGETS = tuple(t for t in TARGETS if TABLE[t].pair)
PAIR_TARGET = PAIR_TARGETS[0]
