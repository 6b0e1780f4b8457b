"""The one table of failure classes (harness/runners/common/fail_class.h):
Python reads the same rows the C code is built with, every class has a
kind the policy places, and no C failure site names a class by a string."""
import glob
import os
import re
import subprocess

import pytest

from conftest import TOP
from harness import objcache, toolchain
from harness.evidence import classes
from harness.findings import policy

pytestmark = pytest.mark.check
COMMON_C = os.path.join(TOP, "harness", "runners", "common")

PROGRAM = r"""
#include <stdio.h>
#include "fail_class.h"
int main(void)
{
    int c;
    for (c = FAIL_NONE + 1; c < FAIL_CLASS_COUNT; c++)
        printf("%s\n", fail_class_name((enum fail_class)c));
    return fail_class_named("rejects_valid") == FAIL_REJECTS_VALID &&
           fail_class_named("no such class") == FAIL_NONE && !fail_class_name(FAIL_NONE) ? 0 : 1;
}
"""


def test_python_reads_the_rows_the_c_code_is_built_with(tmp_path):
    src = tmp_path / "names.c"
    src.write_text(PROGRAM)
    cc, flags, _ = toolchain.config("O0")
    flags = list(flags) + toolchain.OUR_WARNINGS + ["-I" + COMMON_C]
    objs = [objcache.compile_object(cc, flags, str(src)),
            objcache.compile_object(cc, flags, os.path.join(COMMON_C, "fail_class.c"))]
    exe = objcache.link_program(cc, list(toolchain.CONFIGS["O0"][1]), objs,
                                str(tmp_path / "names"), "linking the class table's test")
    proc = subprocess.run([exe], stdout=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0
    assert proc.stdout.split("\n")[:-1] == list(classes.CLASSES)


def test_every_class_has_a_kind_the_policy_places_and_a_meaning():
    assert len(classes.CLASSES) > 40
    for c in classes.CLASSES.values():
        assert c.kind in policy.KINDS, c
        assert policy.category_of_new(c.kind) in ("regression", "changed"), c
        assert c.what and c.family and 0 <= c.severity <= 4, c
    # The kinds that fail the gate are the policy's, and each has classes.
    for kind in policy.FAILING_KINDS:
        assert any(c.kind == kind for c in classes.CLASSES.values()), kind


def test_the_reader_refuses_a_row_it_does_not_understand(tmp_path):
    from harness.errors import BadInput
    text = open(classes.TABLE).read()
    broken = tmp_path / "fail_class.h"
    broken.write_text(text.replace('X(FAIL_OOB_READ, "OOB-READ", MEMORY,',
                                   'X(FAIL_OOB_READ, "OOB-READ", SCARY,'))
    with pytest.raises(BadInput, match="unknown kind SCARY"):
        classes._load(str(broken))
    broken.write_text(text.replace('X(FAIL_SEGV, "SEGV", MEMORY, memory, 1,',
                                   'X(FAIL_SEGV, SEGV, MEMORY, memory, 1,'))
    with pytest.raises(BadInput, match="does not understand"):
        classes._load(str(broken))


def c_sources():
    return [p for p in glob.glob(os.path.join(TOP, "fuzz", "*.c")) +
            glob.glob(os.path.join(TOP, "harness", "runners", "*", "*.c"))]


def test_no_c_failure_site_names_its_class_by_a_string():
    text = {p: open(p).read() for p in c_sources()}
    strings = [p for p, t in text.items()
               if re.search(r'\bfz_finding(_by\([^,()]+,)?\(?\s*"', t) or
               re.search(r'stream_problem\([^,]+,\s*"', t)]
    assert not strings, strings
    # and every FAIL_ name the C code uses is a row of the table
    used = set()
    for t in text.values():
        used |= set(re.findall(r"\b(FAIL_[A-Z0-9_]+)\b", t))
    idents = {c.ident for c in classes.CLASSES.values()} | {"FAIL_NONE", "FAIL_CLASS_COUNT"}
    assert used and not sorted(used - idents), sorted(used - idents)


def test_the_policy_table_is_the_one_in_the_readme():
    with open(os.path.join(TOP, "README.md")) as f:
        readme = f.read()
    for line in policy.markdown_table():
        assert line in readme, line
