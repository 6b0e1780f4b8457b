"""Loading and validating the regression cases (regress/cases/*.json; the
schema is regress/README.md). The one loader: the runner, the gate and
REGRESSIONS.md all read cases through it."""
import json
import os

from harness.errors import CaseError
from harness.evidence import classes
from harness.fuzzing.targets import PAIR_TARGET, TARGETS
from harness.paths import CASES_DIR, TOP

REQUIRED = ("id", "title", "origin", "commits", "cve", "class", "fail_class", "bits", "trigger",
            "fix", "exercised")
FUZZ_ENTRY = "fuzz:"
FUZZ_CALL_KEYS = ("entry", "input", "expect", "base", "ignore", "skip")
TEST_KEYS = ("tcId", "comment", "call")


def load_cases(only=(), cases_dir=CASES_DIR):
    """Every case (or those whose id is in `only`), validated, sorted by id."""
    cases = []
    try:
        names = sorted(os.listdir(cases_dir))
    except OSError as e:
        raise CaseError("cannot read the case directory: %s" % e)
    for name in names:
        if not name.endswith(".json"):
            continue
        with open(os.path.join(cases_dir, name)) as f:
            try:
                case = json.load(f)
            except ValueError as e:
                raise CaseError("%s: not valid JSON: %s" % (name, e))
        validate(case, name)
        if not only or case["id"] in only:
            cases.append(case)
    if only and len(cases) != len(set(only)):
        missing = set(only) - {c["id"] for c in cases}
        raise CaseError("no such case: %s" % ", ".join(sorted(missing)))
    if not cases and not only:
        raise CaseError("no case files in %s" % cases_dir)
    return cases


def validate(case, name):
    for key in REQUIRED:
        if key not in case:
            raise CaseError("%s: missing field '%s'" % (name, key))
    if name != case["id"] + ".json":
        raise CaseError("%s: file name must be the id (%s.json)" % (name, case["id"]))
    if case["bits"] not in ("32", "64", "both"):
        raise CaseError("%s: bits must be 32, 64 or both" % name)
    validate_fail_class(case, name)
    if case["exercised"]:
        if not case.get("tests"):
            raise CaseError("%s: an exercised case needs tests" % name)
        if not case.get("fails_on"):
            raise CaseError("%s: no way to see it fail ('fails_on' is empty); a case "
                            "nothing can fail is a defect" % name)
        for t in case["tests"]:
            validate_test(name, t)
    elif not case.get("reason"):
        raise CaseError("%s: a case not exercised here must say why ('reason')" % name)
    if "kunit" in case:
        validate_kunit(case, name)
    for k in case.get("known_findings", []):
        # Documented per tree and configuration, never per generation: the
        # tree is one of harness/findings/known_findings.json's, which the
        # documented findings check when they read the cases
        # (harness/findings/documented.py check_cases).
        if not isinstance(k.get("tree"), str):
            raise CaseError("%s: a known finding names no tree" % name)
        configs = k.get("configs", "all")
        if configs != "all" and not (isinstance(configs, list) and configs):
            raise CaseError("%s: known finding 'configs' must be \"all\" or a list" % name)


def validate_fail_class(case, name):
    """The case's "fail_class": the name of a row of lz4gate's failure class
    table (harness/runners/common/fail_class.h), what a failure of its tests
    means where the bug is present. The verdict takes a failing case's kind
    from it, never from the prose "class"."""
    value = case["fail_class"]
    if not isinstance(value, str) or not classes.is_class(value):
        raise CaseError("%s: fail_class %s is not a class of %s; use the name of one of "
                        "its rows: %s"
                        % (name, json.dumps(value), os.path.relpath(classes.TABLE, TOP),
                           ", ".join(classes.CLASSES)))


KUNIT_KEYS = ("note", "tests", "bug", "bug_note", "differs")


def validate_kunit(case, name):
    """The case's "kunit" object: kernel-only tests (harness/kunit), the bug
    that shows they can fail, and why an in-kernel result may differ from
    the kshim's (regress/README.md)."""
    kunit = case["kunit"]
    extra = sorted(set(kunit) - set(KUNIT_KEYS))
    if extra:
        raise CaseError("%s: 'kunit' has no key '%s' (keys: %s)"
                        % (name, extra[0], ", ".join(KUNIT_KEYS)))
    for t in kunit.get("tests", []):
        validate_test(name, t)
    if kunit.get("tests") and not case["exercised"] and not kunit.get("bug"):
        raise CaseError("%s: kernel-only tests need a 'bug' in 'kunit' that makes them "
                        "fail; a case nothing can fail is a defect" % name)
    for sub in kunit.get("bug", []):
        if sorted(sub) != ["file", "new", "old"] or not all(
                isinstance(sub[k], str) and sub[k] for k in ("file", "old")):
            raise CaseError("%s: each 'kunit' 'bug' is {file, old, new} (old: a fragment of "
                            "the fixed code)" % name)


def validate_test(name, t):
    for key in TEST_KEYS:
        if key not in t:
            raise CaseError("%s: test without '%s'" % (name, key))
    if "result" in t:
        # The call's "expect" is what a test checks; a second expectation
        # that decides nothing would only mislead a reader.
        raise CaseError("%s: test %s: 'result' is not a field any more; 'expect' in the "
                        "call says what must hold (regress/README.md)" % (name, t["tcId"]))
    for key in ("entry", "expect"):
        if key not in t["call"]:
            raise CaseError("%s: test %s: call without '%s'" % (name, t["tcId"], key))
    if str(t["call"]["entry"]).startswith(FUZZ_ENTRY):
        validate_fuzz_call(name, t)


def validate_fuzz_call(name, test):
    call = test["call"]
    where = "%s: test %s" % (name, test["tcId"])
    target = call["entry"][len(FUZZ_ENTRY):]
    if target not in TARGETS:
        raise CaseError("%s: unknown fuzz target '%s'; use one of: %s"
                        % (where, target, ", ".join(TARGETS)))
    if call["expect"] != "pass":
        raise CaseError("%s: a fuzz:%s test expects 'pass' (the replay exits 0)" % (where, target))
    extra = sorted(set(call) - set(FUZZ_CALL_KEYS))
    if extra:
        raise CaseError("%s: key '%s' does not apply to a fuzz test (keys: %s)"
                        % (where, extra[0], ", ".join(FUZZ_CALL_KEYS)))
    if "base" in call and target != PAIR_TARGET:
        raise CaseError("%s: 'base' is for fuzz:%s only" % (where, PAIR_TARGET))
    fuzz_input(call, where)


def fuzz_input(call, where):
    """The bytes of a fuzz test's input (hex:HEX or file:PATH)."""
    spec = str(call.get("input", ""))
    if spec.startswith("hex:"):
        try:
            return bytes.fromhex(spec[4:])
        except ValueError:
            raise CaseError("%s: input is not valid hex" % where)
    if spec.startswith("file:"):
        path = os.path.join(TOP, spec[5:])
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as e:
            raise CaseError("%s: cannot read %s: %s" % (where, spec[5:], e.strerror))
    raise CaseError("%s: a fuzz test needs input=hex:HEX or input=file:PATH" % where)
