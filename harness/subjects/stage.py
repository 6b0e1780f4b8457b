"""Staging: a subject's LZ4 files are copied to build/stage/<id>/ and its
patch series is applied there. The user's tree is never modified."""
import os
import shutil
import subprocess

from harness.errors import BadInput
from harness.paths import BUILD
from harness.subjects.spec import KERNEL_FILES

# Hunks of a kernel series outside the LZ4 area (crypto/, fs/, ...) are not
# built here and are left out when the series is applied.
KERNEL_PATCH_AREA = ("lib/lz4/*", "include/linux/lz4.h", "lib/decompress_unlz4.c")


def stage(subject):
    """Copy subject's LZ4 files to build/stage/<id>/, apply its patches there;
    return the directory (reused when already staged)."""
    out = os.path.join(BUILD, "stage", subject.id)
    done = os.path.join(out, ".staged")
    if os.path.exists(done):
        _add_created_files(subject, out)
        return out
    tmp = "%s.tmp.%d" % (out, os.getpid())
    shutil.rmtree(tmp, ignore_errors=True)
    for f in subject.files:
        os.makedirs(os.path.dirname(os.path.join(tmp, f)), exist_ok=True)
        shutil.copy2(os.path.join(subject.path, f), os.path.join(tmp, f))
    for p in subject.patches:
        apply_patch(subject, p, tmp)
    _add_created_files(subject, tmp)
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    open(done, "w").close()
    return out


def apply_patch(subject, patch, tree):
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
        raise BadInput("patch %s does not apply to %s: %s" % (patch, subject.spec, first))


def _add_created_files(subject, tree):
    """New files a patch created inside the LZ4 area join the build."""
    for f in KERNEL_FILES if subject.kind == "kernel" else []:
        if f not in subject.files and os.path.isfile(os.path.join(tree, f)):
            subject.files.append(f)
