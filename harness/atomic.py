"""Writing shared build outputs safely when several processes (pytest
workers, two lz4gate commands) make the same one at once.

The rules every writer under build/ follows:
  - a file is written to a temporary name unique to the writer (process and
    thread), in the same directory, then os.replace()d into place: a reader
    sees the old file or the new one, never half of one, and a program being
    executed is never rewritten in place (execve of a file another process
    is writing fails with EACCES/ETXTBSY);
  - a directory of several files is built in a temporary directory beside
    it and renamed into place complete, under lock() so that one process
    builds it and the others wait and reuse it;
  - whoever comes second finds the work done and does not fail.
"""
import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import tempfile
import threading

from harness.paths import BUILD

LOCKS = os.path.join(BUILD, "locks")


def tmp_name(path):
    """A name beside path that no other writer (process or thread) uses."""
    return "%s.tmp.%d.%d" % (path, os.getpid(), threading.get_ident())


def write_file(path, data):
    """Write path (str or bytes) atomically: the whole of it or nothing."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = tmp_name(path)
    try:
        with open(tmp, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


def lock_path(name):
    """build/locks/NAME.lock; NAME may be any text (a path, a spec)."""
    safe = re.sub(r"[^A-Za-z0-9_.+-]+", "_", name).strip("_")[:80]
    if safe != name:
        safe += "-" + hashlib.sha256(name.encode()).hexdigest()[:12]
    return os.path.join(LOCKS, safe + ".lock")


@contextlib.contextmanager
def lock(name=None, path=None, waiting=None):
    """Hold an exclusive lock named NAME (or the lock file path) while the
    block runs; others wait (calling waiting() first, if given). Locks are
    per open file, so two threads of one process exclude each other too,
    and a lock dies with its process. (Do not take the same lock twice in
    one thread: it would wait forever.)"""
    path = path or lock_path(name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting:
                waiting()
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def scratch_dir(out):
    """A new empty directory beside out (same file system: it can be renamed
    onto out), named so that nothing mistakes it for out."""
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    return tempfile.mkdtemp(prefix=".%s.tmp-" % os.path.basename(out), dir=parent)


def publish_dir(tmp, out):
    """Rename the complete directory tmp to out (call under lock()). An
    existing out (an older version) is moved aside first and removed."""
    old = None
    if os.path.lexists(out):
        old = scratch_dir(out)
        os.rename(out, os.path.join(old, "old"))
    os.rename(tmp, out)
    if old:
        shutil.rmtree(old, ignore_errors=True)


def replace_files(src_dir, dst_dir, stale=()):
    """Move every file of src_dir into dst_dir, each atomically (os.replace),
    then remove the files of dst_dir named in stale that src_dir did not
    have. A reader of dst_dir sees whole files, old or new, throughout."""
    os.makedirs(dst_dir, exist_ok=True)
    names = sorted(os.listdir(src_dir))
    for n in names:
        os.replace(os.path.join(src_dir, n), os.path.join(dst_dir, n))
    for n in set(stale) - set(names):
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(dst_dir, n))
