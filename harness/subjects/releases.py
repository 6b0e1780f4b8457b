"""The release trees of an lz4 git clone: which tags are releases, in what
order, and their export into build/releases/TAG (reused while the exported
commit is the tag's). The clone is only read (git tag, rev-parse, archive)."""
import os
import re
import shutil
import subprocess

from harness import atomic
from harness.errors import BadInput
from harness.paths import BUILD

RELEASES_DIR = os.path.join(BUILD, "releases")
# Release tags of lz4/lz4 (docs/fix-history.md "Upstream release tags"):
# rN (and its aliases rcNvM, lz4-rN) up to r131, then vMAJOR.MINOR.RELEASE[.N].
RELEASE_TAG = re.compile(r"^(?:r|lz4-r|rc)(\d+)(?:v(\d+))?$|^v(\d+(?:\.\d+)+)$")
DEFAULT_SINCE = "r117"   # r116 is the orphan mirror import (docs/fix-history.md)
MARK = ".lz4gate-commit"


def release_key(tag):
    """Release order: r117 < ... < r131 < v1.7.3 < ... < v1.10.0; the aliases
    of one release (r129, rc129v0, lz4-r130) sort together, the plain rN
    first (it names the tree when aliases share a commit), then by name."""
    m = RELEASE_TAG.match(tag)
    if not m:
        return None
    if m.group(3):
        return (1, tuple(int(x) for x in m.group(3).split(".")), 0, tag)
    return (0, (int(m.group(1)),), 0 if tag.startswith("r") and not tag.startswith("rc")
            else 1, tag)


def git(clone, *args, data=None, binary=False):
    """stdout of `git -C clone ARGS` (bytes with binary=True; data: its
    stdin, bytes); BadInput with git's last line of stderr."""
    try:
        proc = subprocess.run(["git", "-C", clone] + list(args), input=data,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise BadInput("cannot run git: %s" % e)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines() or ["?"]
        raise BadInput("git %s in %s failed: %s" % (args[0], clone, err[-1]))
    return proc.stdout if binary else proc.stdout.decode("utf-8", "replace")


def release_tags(clone, since=DEFAULT_SINCE, wanted=()):
    """The release tags of the clone from `since` on, in release order (or
    exactly `wanted`, each of which must be a tag)."""
    tags = git(clone, "tag", "--list").split()
    if wanted:
        missing = [t for t in wanted if t not in tags]
        if missing:
            raise BadInput("%s has no tag %s" % (clone, ", ".join(missing)))
        return sorted(wanted, key=lambda t: release_key(t) or (2, (), t))
    floor = release_key(since)
    if floor is None:
        raise BadInput("--since %s is not a release tag (rN or vX.Y.Z)" % since)
    out = [t for t in tags if release_key(t) and release_key(t)[:2] >= floor[:2]]
    if not out:
        raise BadInput("%s has no release tags (rN, vX.Y.Z) from %s on; is it an lz4 clone?"
                       % (clone, since))
    return sorted(out, key=release_key)


def commit_of(clone, ref):
    return git(clone, "rev-parse", "--verify", "--quiet", ref + "^{commit}").strip()


def export(clone, ref, name):
    """build/releases/NAME holding ref's tree (re-exported when it holds
    another commit); returns (directory, commit id)."""
    commit = commit_of(clone, ref)
    out = os.path.join(RELEASES_DIR, name)
    # Under a lock (two commands may export the same release), into a
    # scratch directory renamed into place when complete.
    with atomic.lock("release-" + out):
        if _holds(out, commit):
            return out, commit
        tmp = atomic.scratch_dir(out)
        try:
            archive = subprocess.Popen(["git", "-C", clone, "archive", "--format=tar", commit],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            tar = subprocess.run(["tar", "-x", "-C", tmp], stdin=archive.stdout,
                                 stderr=subprocess.PIPE, universal_newlines=True)
            archive.stdout.close()
            err = archive.stderr.read().decode(errors="replace")
            if archive.wait() != 0 or tar.returncode != 0:
                raise BadInput("cannot export %s of %s: %s" % (ref, clone,
                                                              (err or tar.stderr).strip()))
            with open(os.path.join(tmp, MARK), "w") as f:
                f.write(commit + "\n")
            atomic.publish_dir(tmp, out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return out, commit


def _holds(out, commit):
    try:
        with open(os.path.join(out, MARK)) as f:
            return f.read().strip() == commit
    except OSError:
        return False
