"""`python3 -m harness pr` and ci/ci_gate.sh's LZ4GATE_REPO mode: the copy a
project's change touches, found on the merge base and the head, with no
path written anywhere (issue 24, the CI templates). The repositories are
made here: the stand-in copies of tests/test_scan.py, and for the gate
runs the decoder-only copy of tests/partial_trees.py (lz4gate's own ref
codec behind the LZ4 names)."""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from conftest import TOP
from test_scan import CALLERS, kernel_tree, upstream_copy, write_tree

ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@t")
for _v in ("GITHUB_BASE_REF", "CI_MERGE_REQUEST_DIFF_BASE_SHA"):
    ENV.pop(_v, None)


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo)] + list(args), check=True, env=ENV,
                          stdout=subprocess.PIPE, universal_newlines=True).stdout


def project(tmp_path, files):
    """A git repository on branch main holding files, and a branch 'change'."""
    repo = tmp_path / "project"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    write_tree(repo, dict(CALLERS, **dict(files, **{"docs/index.txt": "a project\n"})))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "change")
    return repo


def commit(repo, message="change"):
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def pr(repo, *args, env=ENV):
    return subprocess.run([sys.executable, "-m", "harness", "pr", str(repo)] + list(args),
                          cwd=TOP, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def state(repo):
    """What pr must leave as it was: the work tree, the refs, the index."""
    return (git(repo, "status", "--porcelain", "--ignored"), git(repo, "show-ref"),
            git(repo, "worktree", "list"), git(repo, "rev-parse", "HEAD"))


@pytest.mark.check
def test_a_renamed_versioned_folder_is_paired_and_the_repository_left_alone(tmp_path):
    repo = project(tmp_path, upstream_copy("third_party/lz4-1.8.3", (1, 8, 3)))
    git(repo, "mv", "third_party/lz4-1.8.3", "third_party/lz4-1.9.1")
    write_tree(repo, upstream_copy("third_party/lz4-1.9.1", (1, 9, 1)))
    commit(repo, "lz4 1.9.1")
    before = state(repo)
    proc = pr(repo, "--base-ref", "main", "--dry-run", "--fuzz-time", "0")
    assert proc.returncode == 0, proc.stderr
    base = git(repo, "rev-parse", "main").strip()
    export = os.path.join(TOP, "build", "pr", "project-" + base[:12])
    head = git(repo, "rev-parse", "HEAD").strip()
    assert shlex.split(proc.stdout) == [
        "--base", "upstream:%s/third_party/lz4-1.8.3" % export,
        "--candidate", "upstream:%s/third_party/lz4-1.9.1" % repo,
        "--source-root", str(repo),
        # what the report calls each side: the project's words
        "--base-name", "project, third_party/lz4-1.8.3, lz4 1.8.3 at %s" % base[:7],
        "--candidate-name", "project, third_party/lz4-1.9.1, lz4 1.9.1 at %s" % head[:7],
        "--fuzz-time", "0"]
    assert "touches the LZ4 copy at third_party/lz4-1.9.1 (upstream, 1.9.1), " \
        "third_party/lz4-1.8.3 (1.8.3) in the base" in proc.stderr
    # The base's folders holding files named for lz4, not the rest.
    assert os.path.isfile(os.path.join(export, "third_party/lz4-1.8.3/lz4.h"))
    assert not os.path.exists(os.path.join(export, "docs"))
    assert state(repo) == before
    # An uncommitted edit of the copy is part of the head (the working tree).
    shutil.rmtree(export)
    git(repo, "checkout", "-q", "-b", "later")
    with open(os.path.join(str(repo), "third_party/lz4-1.9.1/lz4.c"), "a") as f:
        f.write("/* local */\n")
    proc = pr(repo, "--base-ref", "change", "--dry-run")
    assert proc.returncode == 0 and "third_party/lz4-1.9.1 (upstream, 1.9.1): 1 file(s)" \
        in proc.stderr, proc.stderr


@pytest.mark.check
def test_an_adapter_makes_each_side_it_is_given_to_a_project_subject(tmp_path):
    # U-Boot's update: a copy with LZ4_* names on the head only. One
    # --adapter compares both sides through it; --base-adapter only the base.
    repo = project(tmp_path, upstream_copy("third_party/lz4", (1, 8, 3)))
    with open(os.path.join(str(repo), "third_party/lz4/lz4.c"), "a") as f:
        f.write("/* update */\n")
    commit(repo)
    folder = "%s/third_party/lz4" % repo
    for opts, sides in ((["--adapter", "a.c"], ("project", "project")),
                        (["--base-adapter", "a.c"], ("project", "upstream")),
                        (["--candidate-adapter=a.c"], ("upstream", "project")),
                        ([], ("upstream", "upstream"))):
        proc = pr(repo, "--base-ref", "main", "--dry-run", *opts)
        assert proc.returncode == 0, proc.stderr
        argv = shlex.split(proc.stdout)
        assert argv[argv.index("--base") + 1].split(":")[0] == sides[0], opts
        assert argv[argv.index("--candidate") + 1] == "%s:%s" % (sides[1], folder), opts


@pytest.mark.check
def test_a_change_that_touches_no_copy_has_nothing_to_gate(tmp_path):
    repo = project(tmp_path, upstream_copy("lz4", (1, 9, 4)))
    write_tree(repo, {"src/lz4_wrapper.c": "int ulz4fn(void) { return 1; }\n"})
    commit(repo)
    proc = pr(repo, "--base-ref", "main", "--dry-run")
    assert proc.returncode == 0 and proc.stdout == ""
    assert "nothing to gate: the change (1 file(s)) touches no LZ4 copy (lz4)" in proc.stderr
    # Without --dry-run too: exit 0, no gate, no report.
    out = tmp_path / "out"
    proc = pr(repo, "--base-ref", "main", "--out", str(out))
    assert proc.returncode == 0 and not out.exists(), proc.stderr


@pytest.mark.check
def test_a_copy_is_its_own_files_not_its_folder(tmp_path):
    # A client keeps lz4 in src/ beside its own code, with xxHash renamed
    # (issue 45): lz4frame.c includes "rdxxhash.h", whose rdxxhash.c is the
    # copy's too; src/client.c is not.
    files = {"src/" + k.split("/", 1)[1]: v for k, v in upstream_copy("lz4", (1, 9, 4)).items()}
    files.update({"src/lz4frame.c": '#include "lz4.h"\n#include "rdxxhash.h"\n'
                                    "int LZ4F_compressFrame(void) { return rd_xxh(); }\n",
                  "src/rdxxhash.h": "int rd_xxh(void);\n",
                  "src/rdxxhash.c": '#include "rdxxhash.h"\nint rd_xxh(void) { return 1; }\n',
                  "src/client.c": "int client(void) { return 0; }\n"})
    repo = project(tmp_path, files)
    write_tree(repo, {"src/client.c": "int client(void) { return 1; }\n"})
    commit(repo)
    proc = pr(repo, "--base-ref", "main", "--dry-run")
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    assert "nothing to gate: the change (1 file(s)) touches no LZ4 copy (src)" in proc.stderr
    write_tree(repo, {"src/rdxxhash.c": '#include "rdxxhash.h"\nint rd_xxh(void) { return 2; }\n'})
    commit(repo)
    proc = pr(repo, "--base-ref", "main", "--dry-run")
    assert proc.returncode == 0 and "--candidate" in proc.stdout, proc.stderr
    assert "touches the LZ4 copy at src (upstream, 1.9.4): 1 file(s)" in proc.stderr


@pytest.mark.check
def test_a_change_that_removes_the_copy_says_what_the_project_uses_now(tmp_path):
    repo = project(tmp_path, dict(upstream_copy("third_party/lz4", (1, 9, 3)),
                                  **{"CMakeLists.txt": "add_subdirectory(third_party/lz4)\n"}))
    git(repo, "rm", "-q", "-r", "third_party/lz4")
    write_tree(repo, {"CMakeLists.txt": "project(p C)\nfind_package(LZ4 REQUIRED)\n"})
    commit(repo, "use the system lz4")
    for args in (["--dry-run"], ["--head", "change", "--dry-run"]):
        proc = pr(repo, "--base-ref", "main", *args)
        assert proc.returncode == 0 and proc.stdout == "", proc.stderr
        line = [x for x in proc.stderr.splitlines() if "removes the LZ4" in x]
        assert line == ["lz4gate pr: the change removes the LZ4 copy third_party/lz4 (upstream, "
                        "1.9.3): nothing to gate; the build files name this LZ4: "
                        "CMakeLists.txt:2: find_package(LZ4 REQUIRED)"], proc.stderr


@pytest.mark.check
def test_two_copies_changed_added_or_removed_exit_2_naming_them(tmp_path):
    repo = project(tmp_path, dict(upstream_copy("a/lz4", (1, 8, 3)),
                                  **upstream_copy("b/lz4", (1, 8, 3))))
    write_tree(repo, dict(upstream_copy("a/lz4", (1, 9, 1)), **upstream_copy("b/lz4", (1, 9, 1))))
    commit(repo)
    proc = pr(repo, "--base-ref", "main", "--dry-run")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "touches several LZ4 copies (base: a/lz4 (upstream, 1.8.3), b/lz4 (upstream, " \
        "1.8.3); head: a/lz4 (upstream, 1.9.1), b/lz4 (upstream, 1.9.1))" in proc.stderr
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", "add")
    write_tree(repo, upstream_copy("c/lz4", (1, 9, 4)))
    commit(repo)
    proc = pr(repo, "--base-ref", "main", "--dry-run")
    assert proc.returncode == 2 and "adds an LZ4 copy the base does not have" in proc.stderr


@pytest.mark.check
def test_a_kernel_tree_is_named_by_its_top_and_bad_input_is_one_line(tmp_path):
    repo = project(tmp_path, kernel_tree())
    write_tree(repo, kernel_tree(decoder_extra="/* fix */\n"))
    commit(repo)
    proc = pr(repo, "--base-ref", "main", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert shlex.split(proc.stdout)[1].startswith("kernel:%s/build/pr/project-" % TOP)
    assert shlex.split(proc.stdout)[3] == "kernel:%s" % repo
    for args, says in ((["--dry-run"], "no --base-ref"),
                       (["--base-ref", "nosuch", "--dry-run"], "the base ref nosuch is not a commit"),
                       (["--base-ref", "main", "--base", "ref"], "--base is chosen by pr")):
        proc = pr(repo, *args)
        assert proc.returncode == 2 and says in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    proc = pr(tmp_path / "nope", "--base-ref", "main")
    assert proc.returncode == 2 and "is not a directory" in proc.stderr
    # In GitHub Actions the base ref is the pull request's target branch.
    git(repo, "update-ref", "refs/remotes/origin/main", "main")
    proc = pr(repo, "--dry-run", env=dict(ENV, GITHUB_BASE_REF="main"))
    assert proc.returncode == 0 and "merge base of origin/main and HEAD" in proc.stderr
    assert pr(repo, "--help").stdout.count("EXIT STATUS") == 1


@pytest.mark.check
def test_a_header_the_copy_includes_from_a_neighbour_folder_is_exported_and_searched(tmp_path):
    # 7-Zip-zstd's C/lz4/lz4frame.c includes "../zstd/xxhash.h", which
    # includes its neighbours: the base's export holds that folder, and each
    # side's copy folder is searched (so the relative include resolves).
    frame = '#include "lz4.h"\n#include "../zstd/xxhash.h"\nint LZ4F_x(void) { return 0; }\n'
    files = dict(upstream_copy("C/lz4", (1, 9, 3)), **{
        "C/lz4/lz4frame.c": frame, "C/zstd/xxhash.h": '#include "zstd_deps.h"\n',
        "C/zstd/zstd_deps.h": "/* deps */\n"})
    repo = project(tmp_path, files)
    write_tree(repo, upstream_copy("C/lz4", (1, 9, 4)))
    commit(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    proc = pr(repo, "--base-ref", "main", "--head", head, "--dry-run")
    assert proc.returncode == 0, proc.stderr
    argv = shlex.split(proc.stdout)
    base_tree = argv[1].split(":", 1)[1][:-len("/C/lz4")]
    head_tree = argv[3].split(":", 1)[1][:-len("/C/lz4")]
    assert argv[10:] == ["--base-include", base_tree + "/C/lz4",
                        "--candidate-include", head_tree + "/C/lz4"], argv
    for tree in (base_tree, head_tree):
        assert os.path.isfile(os.path.join(tree, "C/zstd/zstd_deps.h")), tree
    assert "includes from outside its folder (lz4frame.c: ../zstd/xxhash.h)" in proc.stderr


@pytest.mark.check
def test_ci_script_in_repo_mode_ends_at_once_when_no_copy_changed(tmp_path):
    repo = project(tmp_path, upstream_copy("lz4", (1, 9, 4)))
    write_tree(repo, {"README": "docs\n"})
    commit(repo)
    # PATH with git and dirname but no make: the script must not reach the set-up.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("git", "dirname"):
        os.symlink(shutil.which(tool), str(bin_dir / tool))
    env = dict(ENV, LZ4GATE_REPO=str(repo), LZ4GATE_BASE_REF="main",
               LZ4GATE_OUT=str(tmp_path / "out"), PATH=str(bin_dir))
    proc = subprocess.run(["/bin/bash", os.path.join(TOP, "ci", "ci_gate.sh")], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0 and "nothing to gate" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_change_that_breaks_the_copy_fails_at_a_path_of_the_repository(tmp_path):
    """A u-boot-like project (lib/lz4.c, include/testlz4/lz4.h) and a change
    that plants a one-byte write past the output in its decoder: pr names
    the folder, --include ../include (relative to it) reaches both sides
    and the confirmation replays; FAIL, and the report's and SARIF's paths
    are the repository's (lib/lz4.c), not lz4gate's build directories."""
    from partial_trees import make_copy
    repo = tmp_path / "project"
    make_copy(repo)
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "decoder")
    git(repo, "checkout", "-q", "-b", "change")
    lz4c = repo / "lib" / "lz4.c"
    text = lz4c.read_text()
    assert text.count("    return (int)r.written;") == 1
    lz4c.write_text(text.replace("    return (int)r.written;",
                                 "    dst[dstCapacity] = 0;\n    return (int)r.written;"))
    commit(repo)
    out = tmp_path / "out"
    proc = pr(repo, "--base-ref", "main", "--include", "../include", "--fuzz-time", "0",
              "--configs", "asan64", "--no-coverage", "--skip", "compare", "--out", str(out))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "the LZ4 copy at lib (decoder-only" in proc.stderr
    report = (out / "report.md").read_text()
    assert report.startswith("# lz4gate: FAIL") and "OOB-WRITE" in report
    assert re.search(r"Where\**:?\**:? `?lib/lz4\.c:\d+", report), report[:3000]
    sarif = json.loads((out / "results.sarif").read_text())
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for run in sarif["runs"] for r in run["results"] for loc in r.get("locations", [])}
    assert uris and all(u == "lib/lz4.c" for u in uris), uris
