"""Passes reused within one test run of lz4gate's own suite.

`make test` runs the same subjects through the same checks many times: a
gate test with Linux 6.1 as its base runs every regression case on that
build, and so do five other gate tests. With LZ4GATE_RESULT_MEMO=DIR set
(tests/conftest.py sets it to a directory of its own run, which no later
run reads), a regression test that passed is not run again when the same
program (by digest) runs the same test line in the same configuration with
the same sanitizer and lz4gate environment, and the same input files. The
contract runner's checks are kept the same way (harness/runners/contracts/
run.py: a check's pass or n/a, by program, environment and check id).

Only passes are kept: a FAIL, a crash or a timeout is run afresh every
time, so every failure a test sees comes with its own report. Without the
variable (make gate, make regress, any user's command) nothing is kept or
reused.
"""
import hashlib
import json
import os

from harness import atomic

ENV = "LZ4GATE_RESULT_MEMO"
# The environment a runner reads (sanitizer options, LZ4GATE_BUFFER_MAP,
# LZ4GATE_FORK_EACH, ...): part of every key.
_ENV_PREFIXES = ("ASAN_", "UBSAN_", "LSAN_", "LZ4GATE_")
_digests = {}


def directory():
    """The memo directory of this run, or None when results are not kept."""
    return os.environ.get(ENV) or None


def file_digest(path):
    """sha256 of a file's bytes (read again only when size or mtime moved)."""
    st = os.stat(path)
    sig = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    if sig not in _digests:
        with open(path, "rb") as f:
            _digests[sig] = hashlib.sha256(f.read()).hexdigest()
    return _digests[sig]


def _input_files(line):
    """Files a test line reads (data=file:PATH and the like)."""
    return [field.split("file:", 1)[1] for field in line.split("\t") if "file:" in field]


def key(argv, env, line):
    """The key of one test line run by argv (the runner, and an emulator
    before it) in env; None when an input file it names cannot be read."""
    h = hashlib.sha256()
    for arg in argv:
        h.update((file_digest(arg) if os.path.isfile(arg) else arg).encode() + b"\0")
    for name in sorted(env):
        if name.startswith(_ENV_PREFIXES) and name != ENV:
            h.update(("%s=%s\0" % (name, env[name])).encode())
    h.update(line.encode() + b"\0")
    for path in _input_files(line):
        try:
            h.update(file_digest(path).encode())
        except OSError:
            return None
    return h.hexdigest()


def _path(k):
    return os.path.join(directory(), k[:2], k + ".json")


def get(k):
    """The result kept under key k, or None."""
    if k is None or not directory():
        return None
    try:
        with open(_path(k)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def put(k, result, keep=("pass",)):
    """Keep result under key k, if its verdict is one of keep (a pass; a
    contract check's n/a too, which says only what the program lacks) and
    results are kept."""
    if k is not None and directory() and result.get("verdict") in keep:
        atomic.write_file(_path(k), json.dumps(result))
