"""Staging: a subject's LZ4 files are copied to build/stage/<id>/ and its
patch series is applied there. The user's tree is never modified."""
import os
import re
import shutil
import subprocess
import tempfile

from harness import atomic
from harness.errors import BadInput
from harness.paths import BUILD
from harness.subjects.spec import KERNEL_FILES

# Hunks of a kernel series outside the LZ4 area (crypto/, fs/, ...) are not
# built here and are left out when the series is applied.
KERNEL_PATCH_AREA = ("lib/lz4/*", "include/linux/lz4.h", "lib/decompress_unlz4.c")


def stage(subject):
    """Copy subject's LZ4 files to build/stage/<id>/, apply its patches there;
    return the directory (reused when already staged).

    The id is a digest of the tree's files and the patches, so a staged
    directory never changes: it is built in a scratch directory, marked
    complete (.staged) there and renamed into place, under a lock, so that
    concurrent builders stage it once and nobody reads or removes a half
    copy."""
    out = os.path.join(BUILD, "stage", subject.id)
    done = os.path.join(out, ".staged")
    if not os.path.exists(done):
        with atomic.lock("stage-" + subject.id):
            if not os.path.exists(done):
                tmp = atomic.scratch_dir(out)
                try:
                    for f in subject.files:
                        os.makedirs(os.path.dirname(os.path.join(tmp, f)), exist_ok=True)
                        shutil.copy2(os.path.join(subject.path, f), os.path.join(tmp, f))
                    for p in subject.patches:
                        apply_patch(subject, p, tmp)
                    open(os.path.join(tmp, ".staged"), "w").close()
                    atomic.publish_dir(tmp, out)    # (an unmarked leftover goes)
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)
    _add_created_files(subject, out)
    return out


# A mailbox (`git format-patch --stdout`, or several patches saved as one
# file) separates its messages with mbox "From " lines: "From <sha1> Mon Sep
# 17 00:00:00 2001" from git, "From <sender> <weekday> ..." elsewhere. Diff
# lines start with ' ', '+', '-' or '@', so none can look like this.
MBOX_FROM = re.compile(r"^From \S+ (Mon|Tue|Wed|Thu|Fri|Sat|Sun) ", re.M)


DIFF_START = re.compile(r"^(diff --git |--- \S)", re.M)


def split_mailbox(text):
    """The messages of a mailbox, in order; a plain patch is one message."""
    starts = [m.start() for m in MBOX_FROM.finditer(text)]
    if len(starts) < 2:
        return [text]
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]


def _subject_line(message):
    m = re.search(r"^Subject: *(.*)$", message, re.M)
    return m.group(1).strip() if m else "no Subject line"


def apply_patch(subject, patch, tree):
    """Apply one patch file to the staged tree; a mailbox of several patches
    is applied message by message, in order, as `git am` would."""
    with open(patch, encoding="utf-8", errors="surrogateescape") as f:
        messages = split_mailbox(f.read())
    if len(messages) == 1:
        _git_apply(subject, patch, patch, tree)
        return
    for i, message in enumerate(messages, 1):
        if not DIFF_START.search(message):
            continue      # a cover letter ([PATCH 0/N]) changes nothing; git am stops on it
        fd, part = tempfile.mkstemp(suffix=".patch", dir=os.path.dirname(tree))
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(message)
        try:
            _git_apply(subject, part, "%s (patch %d of %d, \"%s\")"
                       % (patch, i, len(messages), _subject_line(message)), tree)
        finally:
            os.remove(part)


def _git_apply(subject, patch, shown, tree):
    includes = []
    for f in subject.files:
        includes += ["--include", f]
    if subject.kind == "kernel":
        for area in KERNEL_PATCH_AREA:
            includes += ["--include", area]
    # The staging copy lives inside lz4gate's own git checkout: stop git
    # from finding that repository, or it would apply paths relative to
    # its top and silently skip every file of the copy.
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(tree))
    proc = subprocess.run(["git", "apply", "-p1"] + includes + [patch],
                          cwd=tree, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode != 0:
        first = (proc.stdout.strip().splitlines() or ["?"])[0]
        raise BadInput("patch %s does not apply to %s: %s" % (shown, subject.spec, first))


def _add_created_files(subject, tree):
    """New files a patch created inside the LZ4 area join the build."""
    for f in KERNEL_FILES if subject.kind == "kernel" else []:
        if f not in subject.files and os.path.isfile(os.path.join(tree, f)):
            subject.files.append(f)
