"""The failure classes: lz4gate's one table, read from the C header every
runner and fuzz target is built with (harness/runners/common/fail_class.h,
the X-macro LZ4GATE_FAIL_CLASSES). Each class has a KIND (what the verdict
policy does with it: harness/findings/policy.py), a FAMILY (failures of one
family at one place in the subject's code are one root cause) and a
SEVERITY (the report's order). A failure's kind is read from its class,
never from the words of its message."""
import os
import re
from collections import namedtuple

from harness.errors import BadInput
from harness.paths import HARNESS

TABLE = os.path.join(HARNESS, "runners", "common", "fail_class.h")

# Kinds of failure, as the table names them, and as reports say them.
MEMORY = "memory safety"
CORRUPTION = "data corruption"
FALSE_REJECT = "false reject"
LATITUDE = "latitude"
CONVENTION = "return convention"
UNDEFINED = "undefined behaviour"
RESOURCES = "speed, size or resources"
HARNESS_KIND = "lz4gate could not complete the check"
KINDS = {"MEMORY": MEMORY, "CORRUPTION": CORRUPTION, "FALSE_REJECT": FALSE_REJECT,
         "LATITUDE": LATITUDE, "CONVENTION": CONVENTION, "UNDEFINED": UNDEFINED,
         "RESOURCES": RESOURCES, "HARNESS": HARNESS_KIND}

FailClass = namedtuple("FailClass", "name ident kind family severity what")

# X(FAIL_ID, "name", KIND, family, severity, "what" "continued") one row,
# possibly over several lines (the lines end in backslashes).
ROW = re.compile(r'X\((FAIL_\w+),\s*"([^"]+)",\s*(\w+),\s*(\w+),\s*(\d),\s*((?:"[^"]*"\s*)+)\)')


def _load(path=TABLE):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BadInput("cannot read the failure class table %s: %s" % (path, e))
    body = text.split("#define LZ4GATE_FAIL_CLASSES(X)", 1)[-1].split("\nenum fail_class", 1)[0]
    body = re.sub(r"/\*.*?\*/", " ", body.replace("\\\n", " "), flags=re.S)
    out = {}
    for m in ROW.finditer(body):
        ident, name, kind, family, sev, what = m.groups()
        if kind not in KINDS:
            raise BadInput("%s: class %s has an unknown kind %s" % (path, name, kind))
        if name in out:
            raise BadInput("%s: class %s is in the table twice" % (path, name))
        out[name] = FailClass(name, ident, KINDS[kind], family, int(sev),
                              "".join(re.findall(r'"([^"]*)"', what)))
    rows = body.count("X(FAIL_")
    if not out or rows != len(out):
        raise BadInput("%s: %d rows, %d read (a row this reader does not understand)"
                       % (path, rows, len(out)))
    return out


CLASSES = _load()


def get(name):
    """The class of a name; BadInput for a name the table does not have
    (a runner that printed it is out of step with the table)."""
    try:
        return CLASSES[name]
    except KeyError:
        raise BadInput("failure class '%s' is not in %s" % (name, TABLE))


def kind_of(name):
    return get(name).kind


def family_of(name):
    return get(name).family


def severity_of(name):
    return get(name).severity


def is_class(name):
    return name in CLASSES
