"""Where a tree stands among the releases, and the catalogue's ranges of
each bug (release_ranges.json: the affected upstream releases and kernel
versions of each regression case, from its "affected" and
docs/fix-history.md "First release with each fix"). The verdict reads them
(lost fix or regression: harness/findings/catalogue.py) and REGRESSIONS.md's
release table shows them."""
import json
import os
import re

from harness.errors import BadInput

RANGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "release_ranges.json")
RELEASE_TAG = re.compile(r"^(?:r|lz4-r|rc)(\d+)(?:v\d+)?$|^v(\d+(?:\.\d+)+)$")
KERNEL_VERSION = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?")


def kernel_position(text):
    m = KERNEL_VERSION.match(text or "")
    return None if not m else (1, int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


def axis_key(tree):
    """(axis, position) of a tree on its axis: an upstream tree by its tag
    (r117 < r131 < v1.7.3 < v1.10.0), a development head after every
    release; a kernel tree by its version (3.11 < 4.4.111 < 6.1); other
    kinds, and kernel trees of no version, are not placed (None)."""
    axis = tree.get("spec", "upstream:").split(":")[0]
    if axis == "kernel":
        pos = kernel_position(tree.get("version")) or kernel_position(tree.get("tag"))
        return None if pos is None else (axis, pos)
    if axis != "upstream":
        return None
    m = RELEASE_TAG.match(tree["tag"])
    if not m:
        return (axis, (2,))
    if m.group(2):
        return (axis, (1,) + tuple(int(x) for x in m.group(2).split(".")))
    return (axis, (0, int(m.group(1))))


# Kernel API generations as range items (harness/subjects/versions.py).
CODE_GENERATIONS = ("G1", "G2", "G3")


def in_range(expr, tree):
    """Is the tree in a range expression of its axis: "none", "all", or
    items "TAG", "A..B", "..B", "A.." (upstream: release tags, "dev" = the
    development head; kernel: versions vX.Y[.Z])?"""
    key = axis_key(tree)
    if key is None:
        return None
    axis, pos = key
    for item in [i.strip() for i in expr.split(",") if i.strip()]:
        if item == "all":
            return True
        if item == "none":
            continue
        if axis == "kernel" and item in CODE_GENERATIONS:
            # A vendor tree's LZ4 may be newer than its kernel version (an
            # Android 4.4 tree with the 4.11 or 4.20 code): the generation
            # lz4gate reads from the code (harness/subjects/versions.py) decides.
            if tree.get("generation") == item:
                return True
            continue
        lo, dots, hi = item.partition("..")
        lo_k = tag_position(lo, axis) if lo else (0, 0)
        hi_k = tag_position(hi, axis) if hi else (3,)
        if not dots:
            hi_k = lo_k
        if axis == "kernel" and not dots:   # v4.4 is every 4.4.y
            hi_k = hi_k[:3] + (10 ** 6,)
        elif axis == "kernel" and hi and hi.count(".") < 2:
            hi_k = hi_k[:3] + (10 ** 6,)     # ..v4.19 includes 4.19.y
        if lo_k <= pos <= hi_k:
            return True
    return False


def tag_position(tag, axis="upstream"):
    if axis == "kernel":
        pos = kernel_position(tag)
        if pos is None or not tag.startswith("v"):
            raise BadInput("release_ranges.json: '%s' is not a kernel version (vX.Y[.Z])" % tag)
        return pos
    if tag == "dev":
        return (2,)
    m = RELEASE_TAG.match(tag)
    if not m:
        raise BadInput("release_ranges.json: '%s' is not a release tag" % tag)
    return axis_key({"tag": tag, "spec": "upstream:"})[1]


def load_ranges(path=RANGES):
    try:
        with open(path) as f:
            data = json.load(f)["ranges"]
    except (OSError, ValueError, KeyError) as e:
        raise BadInput("cannot read %s: %s" % (path, e))
    for cid, r in data.items():     # syntax
        for key in ("upstream", "unknown"):
            if key in r:
                in_range(r[key], {"tag": "v1.0", "spec": "upstream:"})
        for key in ("kernel", "kernel_unknown"):
            if key in r:
                in_range(r[key], {"tag": "v1.0", "version": "1.0", "spec": "kernel:"})
    return data


def expected(rng, tree):
    """"inside", "outside" or None (no documented range for this tree): the
    range of the tree's axis ("upstream" or "kernel"), less its "unknown"
    ("kernel_unknown") part."""
    key = axis_key(tree)
    if not rng or key is None or key[0] not in rng:
        return None
    unknown = rng.get("unknown" if key[0] == "upstream" else "kernel_unknown")
    if unknown and in_range(unknown, tree):
        return None
    return "inside" if in_range(rng[key[0]], tree) else "outside"
