"""Readable history from now on (issue 43): a commit's subject is at most
72 characters, the details and the reasons in its body. The rule holds
from its first commit on (that commit and its descendants); the history
before it is left as it is."""
import os
import subprocess

import pytest

from conftest import TOP

MAX_SUBJECT = 72
# The rule's first commit, and its subject: a history where the commit was
# rebased (another hash) finds it by its subject.
RULE_FIRST = ("467638caeb1ee46539f74e141513574f4fb28f2f",
              "Runners record each failure's class from one table")


def git(repo, *args, check=True):
    return subprocess.run(["git", "-C", str(repo)] + list(args), check=check,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          universal_newlines=True)


def rule_start(repo, first=RULE_FIRST):
    """The rule's first commit in repo's history of HEAD, or None."""
    commit, subject = first
    if git(repo, "merge-base", "--is-ancestor", commit, "HEAD", check=False).returncode == 0:
        return commit
    for line in git(repo, "log", "--format=%H%x09%s", "HEAD").stdout.splitlines():
        h, s = line.split("\t", 1)
        if s == subject:
            return h
    return None


def long_subjects(repo, start, limit=MAX_SUBJECT):
    """["HASH (N characters): SUBJECT"] of start and the commits descending
    from it up to HEAD (a merged branch's own commits that do not descend
    from start are not the rule's) whose subject is longer than limit."""
    out = git(repo, "log", "--ancestry-path", "--format=%H%x09%s", "%s..HEAD" % start).stdout
    out += git(repo, "log", "-1", "--format=%H%x09%s", start).stdout
    return ["%s (%d characters): %s" % (h[:12], len(s), s)
            for h, s in (line.split("\t", 1) for line in out.splitlines()) if len(s) > limit]


@pytest.mark.check
def test_commit_subjects_since_the_rule_fit_in_72_characters():
    if git(TOP, "rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        pytest.skip("a shallow clone: the rule's first commit may be missing")
    start = rule_start(TOP)
    assert start, ("the rule's first commit %s (%r) is not in this history: set RULE_FIRST "
                   "to the first commit the rule applies to" % RULE_FIRST)
    assert long_subjects(TOP, start) == [], "shorten the subject, the details go in the body"


@pytest.mark.check
def test_the_subject_check_bites(tmp_path):
    # A history with a long subject before the rule (kept), the rule's first
    # commit, then a planted long subject after it (reported), a side branch
    # from before the rule merged in (its commit kept: not the rule's).
    repo = tmp_path / "repo"
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")

    def commit(subject, *args):
        subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", subject]
                       + list(args), check=True, env=env)
        return git(repo, "rev-parse", "HEAD").stdout.strip()
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    old = commit("x" * 100)
    git(repo, "branch", "side")
    first = commit("the rule's first commit")
    planted = commit("y" * 73)
    git(repo, "checkout", "-q", "side")
    commit("z" * 90)
    git(repo, "checkout", "-q", "main")
    subprocess.run(["git", "-C", str(repo), "merge", "-q", "--no-edit", "side"], check=True,
                   env=env, stdout=subprocess.DEVNULL)
    assert rule_start(repo, (first, "")) == first
    assert long_subjects(repo, first) == ["%s (73 characters): %s" % (planted[:12], "y" * 73)]
    # Rebased (another hash): found by its subject; unknown: None.
    assert rule_start(repo, ("0" * 40, "the rule's first commit")) == first
    assert rule_start(repo, ("0" * 40, "no such subject")) is None
    assert long_subjects(repo, old) != []          # the old history would fail
