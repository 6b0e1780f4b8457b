"""Recipe for project:DIR subjects (harness/subjects/project.py): an LZ4 copy
behind its project's own API, and the adapter the user wrote for it
(docs/subjects.md: Project APIs; helpers in adapters/project_adapter.h).

The copy's .c files are compiled as the subject's code (SUBJECT_WARNINGS:
its warnings are not ours to fix), the adapter with lz4gate's warnings.
Include path of both: the subject's --include directories and --define
macros (the builder's user_flags; api_flags for the adapter), then the
staged copy's folder and its include/ (so stub headers may live in DIR),
then harness/subjects/adapters/ (subject.h, project_adapter.h) for the
adapter.
Everything but lz4gate_subject() is made local by build.py, so two copies
behind the same adapter link into one program (the pair target).
"""
import os
import re

from harness.paths import ADAPTERS
from harness.toolchain import OUR_WARNINGS, SUBJECT_WARNINGS


def stage_flags(stage):
    """The staged copy's folder and its include/: stub headers may live there."""
    flags = ["-I" + stage]
    if os.path.isdir(os.path.join(stage, "include")):
        flags.append("-I" + os.path.join(stage, "include"))
    return flags


def build_project(b, stage):
    copy_flags = ["-std=gnu11"] + b.user_flags + stage_flags(stage) + SUBJECT_WARNINGS + \
        b.subject_ubsan()
    objs = [b.compile(os.path.join(stage, f), "p_" + re.sub(r"\W", "_", f[:-2]), copy_flags)
            for f in b.s.sources]
    # The adapter is hosted C like lz4gate's own adapters: b.api_flags (an
    # --include directory never hides the C library from it).
    objs.append(b.compile(b.s.adapter, "adapter",
                          OUR_WARNINGS + b.api_flags + stage_flags(stage) +
                          ["-I" + ADAPTERS, '-DSUBJECT_NAME="%s"' % b.s.spec]))
    return objs, [], {"kind": "project", "adapter": b.s.adapter, "sources": b.s.sources}
