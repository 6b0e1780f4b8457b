"""A commit's LZ4 part written under build/pr/ (`harness pr`): the copies
and the files beside them, never a whole tree, with a mark naming the
repository and the commit. The repository is only read (git ls-tree,
cat-file)."""
import json
import os
import shutil

from harness import atomic
from harness.paths import BUILD
from harness.subjects import releases as releases_git
from harness.subjects.find.copies import scan
from harness.subjects.origin import EXPORT_MARK


def git(repo, *args, data=None):
    """stdout of git -C repo ARGS, as bytes (the releases runner's git)."""
    return releases_git.git(repo, *args, data=data, binary=True)


def exported_names(names):
    """What of a commit's files the gate can need: every file of a folder
    that holds a file named for lz4 (a copy, its header, a kernel's lib/ and
    include/linux/decompress/), and the top-level files (a kernel's
    Makefile gives its version). A whole kernel tree is not written."""
    dirs = {os.path.dirname(n) for n in names if "lz4" in n.lower()}
    return [n for n in names if "/" not in n or os.path.dirname(n) in dirs]


def _blobs(repo, commit, *paths, recursive=True):
    """(path, blob id) of commit's files (those paths name; all when none),
    symbolic links and submodules left out."""
    out = []
    for line in git(repo, "ls-tree", *(["-r"] if recursive else []), "-z", "--full-tree",
                    commit, "--", *paths).split(b"\0"):
        if line:
            meta, name = line.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob" and mode != b"120000":
                out.append((name.decode("utf-8", "surrogateescape"), sha))
    return out


def project_name(repo):
    """The project's name: its repository's folder (a bare NAME.git as NAME,
    a mirror's OWNER+NAME/repo as OWNER+NAME)."""
    name = os.path.basename(repo[:-4] if repo.endswith(".git") else repo)
    return os.path.basename(os.path.dirname(repo)) if name == "repo" else name


def export_dir(repo, commit):
    """Where commit's LZ4 part is written: build/pr/NAME-COMMIT."""
    return os.path.join(BUILD, "pr", "%s-%s" % (project_name(repo), commit[:12]))


def export(repo, commit, dest):
    """The LZ4 part of commit (exported_names) written under dest, once
    (under a lock, into a scratch directory published when complete: two
    commands may export one commit). The mark at its top names the
    repository and the commit (harness/subjects/origin.py: reports name
    the commit, and their commands export it again)."""
    mark = json.dumps({"repo": repo, "commit": commit}, sort_keys=True) + "\n"
    with atomic.lock("pr-export-" + dest):
        if os.path.isfile(os.path.join(dest, EXPORT_MARK)):
            if open(os.path.join(dest, EXPORT_MARK)).read() != mark:   # (an older, empty mark)
                atomic.write_file(os.path.join(dest, EXPORT_MARK), mark)
            return dest
        entries = _blobs(repo, commit)
        keep = set(exported_names([n for n, _ in entries]))
        tmp = atomic.scratch_dir(dest)
        try:
            _write_blobs(repo, [(n, sha) for n, sha in entries if n in keep], tmp)
            with open(os.path.join(tmp, EXPORT_MARK), "w") as f:
                f.write(mark)
            atomic.publish_dir(tmp, dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


def export_commit(repo, commit):
    """The LZ4 part of commit, with the headers each copy includes from
    outside its folder: the tree a report's command gates again
    (python3 -m harness pr REPO --export COMMIT)."""
    dest = export(repo, commit, export_dir(repo, commit))
    for copy in scan(dest):
        if copy["outside"]:
            add_files(repo, commit, dest, outside_files(copy))
    return dest


def _write_blobs(repo, entries, root):
    """(path, blob id) -> root/path, one git cat-file for all."""
    out = git(repo, "cat-file", "--batch", data=b"".join(s + b"\n" for _, s in entries))
    pos = 0
    for name, _ in entries:
        end = out.index(b"\n", pos)
        size = int(out[pos:end].split()[2])
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(out[end + 1:end + 1 + size])
        pos = end + 1 + size + 1


def outside_files(copy):
    """The folders (repository paths, ending in /) of the files a copy's
    sources include from outside its folder (7-Zip-zstd's lz4frame.c:
    "../zstd/xxhash.h", which includes its neighbours in turn)."""
    return sorted({os.path.dirname(os.path.normpath(os.path.join(
        copy["library"], o.split(": ", 1)[1]))) + "/" for o in copy.get("outside", [])})


def add_files(repo, commit, dest, names):
    """names (files or folders/), as commit has them, written into the
    export dest too."""
    names = [n for n in names if not n.startswith("..")]
    if names:
        with atomic.lock("pr-export-" + dest):
            _write_blobs(repo, _blobs(repo, commit, *names, recursive=False), dest)
