"""The EROFS KUnit suite (harness/kunit/emit_erofs.py): generated from the
cases' "erofs" kernel tests and the checks in harness/kunit/erofs/, the
same bytes each time, every such test a row; a test naming a check that
does not exist, and a tree whose decompressor lacks what the checks call,
are refused."""
import json
import os
import re
import shutil

import pytest

from harness.kunit import emit, emit_erofs, model
from harness.paths import CASES_DIR
from harness.runners.regress.cases import load_cases

pytestmark = pytest.mark.check


def test_generation_is_deterministic_and_has_a_row_per_erofs_test():
    text, cases = emit_erofs.generate()
    assert emit_erofs.generate()[0] == text
    assert [c["id"] for c in cases] == ["KLZ4-EROFS-45999", "KLZ4-EROFS-49464",
                                        "KLZ4-EROFS-52497"]
    for case, tests in emit_erofs.erofs_cases(load_cases()):
        name = model.c_name(case["id"])
        m = re.search(r"static const struct klz4e_param %s_rows\[\] = \{\n(.*?)\n\};" % name,
                      text, re.S)
        assert m, case["id"]
        assert re.findall(r"\{ (\d+), ", m.group(1)) == [str(t["tcId"]) for t in tests]
        assert 'KLZ4E_CASE("%s", %s_gen_params)' % (case["id"], name) in text
    assert text.startswith(emit.HEADER.splitlines()[0] + "\n")   # the licence line first


def test_the_main_suite_leaves_the_erofs_tests_to_the_erofs_suite():
    included, excluded = model.suite()
    assert not any(c["id"].startswith("KLZ4-EROFS") for c, _ in included)
    assert ("KLZ4-EROFS-45999", "in the lz4gate_erofs suite (fs/erofs/decompressor.c)") \
        in excluded


def test_a_test_naming_a_missing_check_is_refused(tmp_path):
    cases = tmp_path / "cases"
    shutil.copytree(CASES_DIR, str(cases))
    path = cases / "KLZ4-EROFS-45999.json"
    case = json.loads(path.read_text())
    case["kunit"]["tests"][0]["call"]["check"] = "klz4e_no_such_check"
    path.write_text(json.dumps(case))
    with pytest.raises(ValueError, match="no check 'klz4e_no_such_check'"):
        emit_erofs.generate(str(cases))


def test_a_decompressor_without_the_called_functions_is_left_out(tmp_path):
    assert emit_erofs.unsupported(str(tmp_path)).startswith("no fs/erofs/")
    erofs = tmp_path / "fs" / "erofs"
    erofs.mkdir(parents=True)
    (erofs / "decompressor.c").write_text("z_erofs_lz4_handle_overlap( z_erofs_lz4_decompress(\n")
    (erofs / "zutil.c").write_text("z_erofs_gbuf_growsize(\n")
    assert "z_erofs_transform_plain" in emit_erofs.unsupported(str(tmp_path))
    with open(str(erofs / "decompressor.c"), "a") as f:
        f.write("z_erofs_transform_plain(\n")
    assert emit_erofs.unsupported(str(tmp_path)) is None


def test_every_check_file_belongs_to_a_case_with_erofs_tests():
    with_tests = {c["id"] for c, _ in emit_erofs.erofs_cases(load_cases())}
    files = {n[:-2] for n in os.listdir(emit_erofs.CHECKS) if n.endswith(".c")}
    assert files == with_tests
