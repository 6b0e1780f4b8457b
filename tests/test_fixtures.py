"""The adapters' old-API paths and the old-API contract checks, on the
synthetic trees of tests/fixtures (no kernel 3.11-4.10 or r1xx upstream
tree exists on Debian 12; see tests/fixtures/README.md).

The correct G1 fixture passes every old-API check in 64- and 32-bit; each
faulty variant fails exactly the checks for its fault, so the checks bite.
"""
import pytest

from conftest import CONFIG32, contract_records, expect_bad_input, harness
from harness.subjects.build import build, info as subject_info

OLD_CHECKS = {
    "old_compress.ignores_dst_len_fits_bound",
    "old_hc_compress.ignores_dst_len_fits_bound",
    "old_decompress.returns_zero_and_input_consumed",
    "old_decompress.error_is_minus_one",
    "old_decompress_unknown.returns_zero_and_size",
    "old_decompress_unknown.error_is_minus_one",
    "old_decompress_unknown.capacity_sweep",
}
# variant -> the old-API checks it must fail (and no others)
FAULTS = {
    "fixture:kernel-g1-3.11": {"old_decompress.error_is_minus_one",
                               "old_decompress_unknown.error_is_minus_one"},
    "fixture:kernel-g1-compat": {"old_decompress.error_is_minus_one",
                                 "old_decompress_unknown.error_is_minus_one",
                                 "old_decompress_unknown.capacity_sweep"},
    "fixture:kernel-g1-srclen": {"old_decompress.returns_zero_and_input_consumed"},
    "fixture:kernel-g1-dstlen": {"old_compress.ignores_dst_len_fits_bound",
                                 "old_hc_compress.ignores_dst_len_fits_bound"},
}


def info(spec, config="asan64"):
    return subject_info(build(spec, config, quiet=True))


def test_g1_fixture_is_probed_as_the_old_kernel_api():
    i = info("fixture:kernel-g1")
    assert i["kind"] == "kernel"
    assert set(i["entry_points"]) == {"lz4_compress", "lz4hc_compress", "lz4_decompress",
                                      "lz4_decompress_unknownoutputsize"}
    assert i["missing"] == ["lib/decompress_unlz4.c"]


def test_r1xx_fixture_is_probed_with_the_old_upstream_names():
    i = info("fixture:upstream-r1xx")
    assert i["files"] == ["lz4.c", "lz4.h", "lz4hc.c", "lz4hc.h"]   # top-level layout
    assert set(i["entry_points"]) == {"LZ4_compressBound", "LZ4_compress_limitedOutput",
                                      "LZ4_uncompress", "LZ4_uncompress_unknownOutputSize",
                                      "LZ4_compressHC2_limitedOutput"}


@pytest.mark.parametrize("config", ["asan64", CONFIG32, "O2"])
def test_g1_fixture_passes_the_old_api_contract(config):
    recs = {r["check"]: r for r in contract_records("fixture:kernel-g1", config)
            if r["check"].startswith("old_")}
    assert set(recs) == OLD_CHECKS
    bad = ["%s: %s" % (c, r["evidence"]) for c, r in recs.items() if r["status"] != "pass"]
    assert not bad, bad
    assert all(r["generation"] == "kernel-old" for r in recs.values())


@pytest.mark.parametrize("spec", sorted(FAULTS))
def test_each_faulty_g1_variant_fails_its_checks(spec):
    recs = [r for r in contract_records(spec, "asan64") if r["check"].startswith("old_")]
    failed = {r["check"] for r in recs if r["status"] == "FAIL"}
    assert failed == FAULTS[spec], [(r["check"], r["evidence"]) for r in recs]


def test_r1xx_fixture_passes_every_contract_and_vector_through_the_old_names():
    recs = contract_records("fixture:upstream-r1xx", "asan64")
    assert {r["generation"] for r in recs} == {"upstream-old"}
    applicable = [r for r in recs if r["status"] != "n/a"]
    bad = [(r["check"], r["evidence"]) for r in applicable if r["status"] != "pass"]
    assert not bad, bad
    # the decoders and compressors behind the old names really ran
    ran = {r["check"].split(".")[0] for r in applicable}
    assert {"decompress_safe", "decompress_fast", "compress_default", "compress_bound"} <= ran
    assert any(c.startswith("compress_hc[") for c in ran)
    assert len([r for r in applicable if r["check"].startswith("vector.")]) > 200


def test_unknown_fixture_is_a_clear_error():
    expect_bad_input(harness("subjects", "build", "fixture:nope"),
                     "unknown fixture 'nope'; use one of:")
