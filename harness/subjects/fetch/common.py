"""What every fetch step shares: the exit convention, progress lines, running
commands, and the cache of fetched trees (stamps, atomic install)."""
import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

PROG = "fetch"
# Bump when what ends up in a cached tree changes; a stamp with another
# recipe number makes the tree stale and it is fetched again.
RECIPE = 1
STAMP = ".lz4gate-stamp.json"
APT_TIMEOUT = 1800     # seconds, any single apt-get call
TAR_TIMEOUT = 600      # seconds, kernel tarball extraction
EXIT_OK, EXIT_FAIL, EXIT_MISSING = 0, 1, 2
# The kernel trees are fetched side by side (fetch/cli.py); apt-get runs one
# at a time, since two `apt-get update` would contend for APT's lock.
APT_GET = threading.Lock()


class Fail(Exception):
    """A failure with an exit status and a one-line message."""

    def __init__(self, code, message, detail=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

class Progress:
    def __init__(self, quiet):
        self.quiet = quiet

    def __call__(self, subject, msg):
        if not self.quiet:
            # one write per line: the kernel trees report from two threads
            sys.stderr.write("%s: [%s] %s\n" % (PROG, subject, msg))
            sys.stderr.flush()

def is_root():
    return os.geteuid() == 0

def need_tool(name, package):
    if shutil.which(name) is None:
        raise Fail(EXIT_MISSING, "%s not found on PATH" % name,
                   "fix: apt-get install -y %s" % package)

def run(cmd, cwd=None, timeout=APT_TIMEOUT, env_extra=None):
    """Run cmd, capture output, raise Fail(1) on error or timeout."""
    env = dict(os.environ)
    env.setdefault("DEBIAN_FRONTEND", "noninteractive")
    env["LC_ALL"] = "C"
    if env_extra:
        env.update(env_extra)
    shown = " ".join(cmd)
    try:
        with APT_GET if cmd[0] == "apt-get" else contextlib.nullcontext():
            p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise Fail(EXIT_FAIL, "command timed out after %ds: %s"
                   % (timeout, shown))
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        tail = "\n".join(out.rstrip().splitlines()[-15:])
        raise Fail(EXIT_FAIL, "command failed (exit %d): %s"
                   % (p.returncode, shown), tail)
    return out

def run_pipeline(cmds, timeout=TAR_TIMEOUT):
    """Run cmds as a shell-free pipeline; raise Fail(1) if any stage fails."""
    procs, prev = [], None
    errf = tempfile.TemporaryFile()
    env = dict(os.environ, LC_ALL="C")
    try:
        for i, cmd in enumerate(cmds):
            last = i == len(cmds) - 1
            p = subprocess.Popen(cmd, stdin=prev if prev else subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL if last
                                 else subprocess.PIPE, stderr=errf, env=env)
            if prev:
                prev.close()       # only the next stage holds the pipe now
            prev = p.stdout
            procs.append(p)
        deadline = time.monotonic() + timeout
        for p in procs:
            p.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
            p.wait()
        raise Fail(EXIT_FAIL, "pipeline timed out after %ds: %s"
                   % (timeout, " | ".join(" ".join(c) for c in cmds)))
    except BaseException:              # interrupted: leave no child behind
        for p in procs:
            p.kill()
            p.wait()
        raise
    errf.seek(0)
    err = errf.read().decode("utf-8", "replace")
    errf.close()
    for p, cmd in zip(procs, cmds):
        if p.returncode != 0:
            tail = "\n".join(err.rstrip().splitlines()[-15:])
            raise Fail(EXIT_FAIL, "command failed (exit %d): %s"
                       % (p.returncode, " ".join(cmd)), tail)

def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()

def read_stamp(tree):
    try:
        with open(os.path.join(tree, STAMP), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

def stamp_problem(tree, required):
    """None if tree is cached and current, else a short reason."""
    if not os.path.isdir(tree):
        return "not fetched"
    st = read_stamp(tree)
    if st is None:
        return "no stamp"
    if st.get("recipe") != RECIPE:
        return "stamp from another recipe"
    for rel in list(required) + list(st.get("files", [])):
        if not os.path.isfile(os.path.join(tree, rel)):
            return "missing %s" % rel
    return None

def write_stamp(tree, info):
    files = []
    for root, dirs, names in os.walk(tree):
        dirs.sort()
        for n in sorted(names):
            if n != STAMP:
                files.append(os.path.relpath(os.path.join(root, n), tree))
    info = dict(info, recipe=RECIPE, files=files,
                fetched_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    with open(os.path.join(tree, STAMP), "w", encoding="utf-8") as f:
        json.dump(info, f, indent=1, sort_keys=True)
        f.write("\n")

def install_tree(staged, final):
    """Atomically replace final by staged (both inside the cache dir)."""
    trash = None
    if os.path.lexists(final):
        trash = final + ".old-%d" % os.getpid()
        os.rename(final, trash)
    os.rename(staged, final)
    if trash:
        shutil.rmtree(trash, ignore_errors=True)


@contextlib.contextmanager
def staging_dir(out, name):
    d = tempfile.mkdtemp(prefix=".tmp-%s-" % name, dir=out)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)
