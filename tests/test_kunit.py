"""The generated KUnit suite (harness/kunit/, issue 26): deterministic,
covering every case with a kernel entry point, compiling and running in
user space against a stub of the KUnit API (tests/kunit_stub.py), and the
KTAP reader. Each check has a test that shows it failing on a broken
variant."""
import itertools
import json
import os
import re
import shutil

import pytest

import kunit_stub
from conftest import TOP, harness
from harness.kunit import emit, ktap, model

CASES = os.path.join(TOP, "regress", "cases")
# The kernel's LZ4 entry points (include/linux/lz4.h of 4.11+, and
# include/linux/decompress/unlz4.h), by the regression runner's entry names:
# written here, not imported, so the generator's table is checked.
KERNEL = {"decompress_safe", "decompress_safe_partial", "decompress_fast",
          "decompress_safe_using_dict", "compress_default", "compress_fast", "compress_hc",
          "compress_dest_size", "unlz4"}
# The kernel glue a case's "kunit" tests call: the crypto API.
GLUE = {"crypto_compress", "crypto_decompress"}


@pytest.fixture(scope="module")
def suite_c():
    text, _, _ = emit.generate()
    return text


def case_files(cases_dir=CASES):
    out = []
    for name in sorted(os.listdir(cases_dir)):
        if name.endswith(".json"):
            with open(os.path.join(cases_dir, name)) as f:
                out.append(json.load(f))
    return out


def coverage_problems(text, cases):
    """What of the case files the C text lacks: every exercised case with a
    kernel entry point, and every case with kernel-only ("kunit") tests, is
    a KUnit case, with a row per test."""
    problems = []
    for case in cases:
        tests = (case.get("tests") or []) if case.get("exercised") else []
        tests = tests + (case.get("kunit") or {}).get("tests", [])
        if not any(t["call"]["entry"] in KERNEL | GLUE for t in tests):
            continue
        name = re.sub(r"[^0-9a-zA-Z]", "_", case["id"]).lower()
        if 'KLZ4_CASE("%s", %s_gen_params)' % (case["id"], name) not in text:
            problems.append("%s: no KUnit case" % case["id"])
            continue
        m = re.search(r"static const struct klz4_row %s_rows\[\] = \{\n(.*?)\n\};" % name,
                      text, re.S)
        rows = [int(n) for n in re.findall(r"\.tc_id = (\d+),", m.group(1))] if m else []
        want = [int(t["tcId"]) for t in tests]
        if rows != want:
            problems.append("%s: rows %s, tests %s" % (case["id"], rows, want))
    return problems


def test_the_entry_table_is_the_kernels():
    assert set(model.KERNEL_ENTRIES) == KERNEL
    assert set(model.GLUE_ENTRIES) == GLUE


def test_kernel_only_tests_are_rows_of_their_case(suite_c):
    # KLZ4-2017-CRYPTO-ERR is not exercised in userspace; its "kunit" tests
    # are its KUnit rows (the crypto API), and the coverage check sees a
    # missing one.
    assert 'KLZ4_CASE("KLZ4-2017-CRYPTO-ERR", klz4_2017_crypto_err_gen_params)' in suite_c
    assert '.entry = KLZ4_CRYPTO_DECOMPRESS' in suite_c and '.alg = "lz4hc"' in suite_c
    cases = case_files()
    no_row = suite_c.replace("\t\t.tc_id = 2,\n\t\t.entry = KLZ4_CRYPTO_DECOMPRESS,\n"
                             "\t\t.input = KLZ4_BLOB(klz4_2017_crypto_err", "\t\t.x")
    assert coverage_problems(no_row, cases) == ["KLZ4-2017-CRYPTO-ERR: rows [1], tests [1, 2]"]


@pytest.mark.check
def test_generation_is_deterministic(suite_c, tmp_path):
    again, _, _ = emit.generate()
    assert again == suite_c
    out = tmp_path / "lz4_kunit.c"
    proc = harness("kunit", "--generate", out, "-q")
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == suite_c


def test_a_nondeterministic_generator_is_seen(monkeypatch):
    # The check above fails when the output depends on the run.
    counter = itertools.count()
    real = emit.row_init
    monkeypatch.setattr(emit, "row_init",
                        lambda row, blobs: real(row, blobs) + ["/* %d */" % next(counter)])
    assert emit.generate()[0] != emit.generate()[0]


@pytest.mark.check
def test_every_case_with_a_kernel_entry_point_is_covered(suite_c):
    cases = case_files()
    assert not coverage_problems(suite_c, cases)
    covered = re.findall(r'KLZ4_CASE\("([^"]+)"', suite_c)
    assert len(covered) > 30 and covered == sorted(covered)


def test_coverage_check_sees_a_missing_case_or_row(suite_c):
    cases = case_files()
    no_case = suite_c.replace('KLZ4_CASE("KLZ4-2014-4611"', 'KLZ4_CASE("KLZ4-XXXX"')
    assert coverage_problems(no_case, cases) == ["KLZ4-2014-4611: no KUnit case"]
    no_row = suite_c.replace("\t\t.tc_id = 3,\n\t\t.entry = KLZ4_DECOMPRESS_SAFE_PARTIAL,\n"
                             "\t\t.bits = 32,\n\t\t.input = KLZ4_BLOB(klz4_2014_4611", "\t\t.x")
    assert coverage_problems(no_row, cases) == ["KLZ4-2014-4611: rows [1, 2], tests [1, 2, 3]"]


def test_a_new_case_appears_without_hand_work(tmp_path):
    cases = tmp_path / "cases"
    shutil.copytree(CASES, str(cases))
    with open(os.path.join(CASES, "ULZ4-SVN-r98.json")) as f:
        case = json.load(f)
    case.update({"id": "ULZ4-NEW-CASE", "known_findings": [],
                 "tests": case["tests"][:1]})
    (cases / "ULZ4-NEW-CASE.json").write_text(json.dumps(case))
    text, _, _ = emit.generate(str(cases))
    assert not coverage_problems(text, case_files(str(cases)))
    assert 'KLZ4_CASE("ULZ4-NEW-CASE", ulz4_new_case_gen_params)' in text


def test_data_specs_and_sizes():
    assert model.blob("hex:0102ff") == [("bytes", b"\x01\x02\xff")]
    assert model.blob("pattern:F0x1,FFx16843008") == [("run", 0xF0, 1), ("run", 0xFF, 16843008)]
    assert model.blob("concat:hex:C1C2+zeros:8+pattern:55x6") == [
        ("bytes", b"\xc1\xc2"), ("run", 0, 8), ("run", 0x55, 6)]
    assert model.blob("zeros:1048576:3") == [("run", 0, 1048576)]
    assert model.blob_size(model.blob("concat:hex:C1C2+zeros:8")) == 10
    assert model.blob("text:100:1") == [("gen", "KLZ4_TEXT", 100, 1)]
    assert model.blob("concat:unique:1048000+zeros:256+unique:16:7") == [
        ("gen", "KLZ4_UNIQUE", 1048000, 1), ("run", 0, 256), ("gen", "KLZ4_UNIQUE", 16, 7)]
    for spec in ("compress:mixed:3000", "legacy:text:3000:1", "file:x", "other:5"):
        with pytest.raises(model.Unsupported):
            model.blob(spec)
    assert model.size_expr("bound", 5, 1000) == 1000 + 1000 // 255 + 16
    assert model.size_expr("input-1", 30, 0) == 29
    assert model.size_expr("0x7E000001", 0, 0) == 0x7E000001
    assert model.expectation("return:input", 30, 7) == ("KLZ4_EQUAL", 30)
    assert model.expectation("decoded", 30, 7) == ("KLZ4_EQUAL", 7)
    assert model.expectation("reject", 30, 7) == ("KLZ4_REJECT", 0)


def test_large_patterns_are_run_tables(suite_c):
    assert "KLZ4_RUN(0xff, 16843008)," in suite_c   # KLZ4-2014-4611's 16.8 MB of FF
    assert len(suite_c) < 1 << 20
    assert not re.search(r"(0xff, ){200}", suite_c)


def test_skipped_tests_say_why(suite_c):
    text, included, skipped = emit.generate()
    assert skipped and all(reason for _, reason in skipped)
    fastbound = suite_c.split("/* ULZ4-2022-FASTBOUND: ")[1].split("static const")[0]
    assert " * tc 7 skipped: high=1 maps buffers" in fastbound
    assert " * ULZ4-2017-LZ4F-HDR: no test calls a kernel entry point (frame_decompress)" \
        in suite_c


def test_kunitconfig(tmp_path):
    out = tmp_path / ".kunitconfig"
    assert harness("kunit", "--kunitconfig", out).returncode == 0
    lines = out.read_text().split()
    for want in ("CONFIG_KUNIT=y", "CONFIG_LZ4_KUNIT_TEST=y", "CONFIG_LZ4_DECOMPRESS=y",
                 "CONFIG_LZ4HC_COMPRESS=y", "CONFIG_CRYPTO_LZ4=y"):
        assert want in lines


# ---- compiled and run in user space -----------------------------------------

def liblz4_trees():
    """The known_findings trees the system liblz4 is (lz4-X.Y.Z)."""
    with open("/usr/include/lz4.h") as f:
        h = f.read()
    v = ".".join(re.search(r"#define LZ4_VERSION_%s\s+(\d+)" % p, h).group(1)
                 for p in ("MAJOR", "MINOR", "RELEASE"))
    return {"lz4-" + v, "liblz4-" + v}


def stub_records(tmp_path, suite_c, broken=0, cases=()):
    folder = str(tmp_path)
    kunit_stub.write_stub(folder)
    src = os.path.join(folder, "lz4_kunit.c")
    with open(src, "w") as f:
        f.write(suite_c)
    cc, run = kunit_stub.build_and_run(folder, src, broken, cases)
    assert cc.returncode == 0, cc.stdout[-3000:]
    return ktap.records(run.stdout, suite="lz4gate")


needs_liblz4 = pytest.mark.skipif(not kunit_stub.have_liblz4(), reason="gcc or liblz4-dev missing")


@needs_liblz4
@pytest.mark.check
def test_the_suite_runs_in_user_space_on_liblz4(tmp_path, suite_c):
    recs = stub_records(tmp_path, suite_c)
    included = model.suite()[0]
    assert len(recs) == sum(len(rows) for _, rows in included)
    assert {r["status"] for r in recs} == {"PASS", "SKIP", "FAIL"}
    # A failure is a documented finding of this liblz4 (lz4 1.9.4:
    # ULZ4-PARTIAL-OFFSET0 and its kernel twin), nothing else.
    trees = liblz4_trees()
    documented = {c["id"] for c in case_files()
                  if trees & {k["tree"] for k in c.get("known_findings", [])}}
    failed = {r["case"] for r in recs if r["status"] == "FAIL"}
    assert failed <= documented, failed - documented
    skips = [r for r in recs if r["status"] == "SKIP"]
    assert all(r["message"] for r in skips)


@needs_liblz4
def test_generated_data_is_the_runners(tmp_path, suite_c):
    folder = str(tmp_path)
    kunit_stub.write_stub(folder)
    with open(os.path.join(folder, "lz4_kunit.c"), "w") as f:
        f.write(suite_c)
    cc, run = kunit_stub.check_generated_data(folder, os.path.join(folder, "lz4_kunit.c"),
                                              os.path.join(TOP, "harness", "runners", "common"))
    assert cc.returncode == 0, cc.stdout[-3000:]
    assert run.returncode == 0 and run.stdout.strip() == "0 differ", run.stdout[-2000:]


@needs_liblz4
@pytest.mark.parametrize("broken, case, message", [
    (1, "KLZ4-2015-DATAABORT", "returned"),            # decoder accepts everything
    (2, "ULZ4-2019-17543", "wrote past the capacity"),  # compressor overruns by one
    (3, "ULZ4-2019-PARTIAL", "returned"),             # partial ignores the target
    (4, "KLZ4-2017-CRYPTO-ERR", "not a negative errno"),   # crypto leaks LZ4's value
    (5, "KLZ4-2013-CRYPTO-DEC", "not a negative errno"),   # crypto ignores slen, *dlen
])
def test_the_suite_fails_on_a_broken_library(tmp_path, suite_c, broken, case, message):
    recs = stub_records(tmp_path, suite_c, broken, [case])
    assert {r["case"] for r in recs} == {case}
    bad = [r for r in recs if r["status"] == "FAIL"]
    assert bad and message in bad[0]["message"], [r for r in recs if r["case"] == case]


@needs_liblz4
def test_crypto_rows_see_each_half_of_the_unbounded_glue(tmp_path, suite_c):
    # STUB_BROKEN 5 reads past slen and writes past *dlen: the decompress
    # rows and the compress rows of KLZ4-2013-CRYPTO-DEC both fail, each for
    # its own reason (the round trips fail too: the trusted-input decoder
    # gives the bytes it read, not the size decoded).
    recs = stub_records(tmp_path, suite_c, 5, ["KLZ4-2013-CRYPTO-DEC"])
    status = {r["tcId"]: (r["status"], r["message"]) for r in recs}
    assert [t for t, (s, _) in sorted(status.items()) if s == "FAIL"] == [1, 2, 3, 4, 5, 6], status
    assert "not a negative errno" in status[1][1] and "wrote past *dlen" in status[3][1]
