"""The LZ4 frame API contract checks (harness/runners/contracts/contracts_frame.c) and the
frame entries of the regression runner bite: each planted fault (a ref
mutant with one frame check switched off, a broken frame adapter) fails
exactly the checks written for it, and ref passes them all."""
import pytest

from conftest import CONFIG32, contract_records
from harness.runners.contracts.run import run_contracts

FRAME_CHECKS = {
    "frame_decompress.ref_frames_whole", "frame_decompress.ref_frames_bytewise",
    "frame_decompress.ref_frames_4k_chunks", "frame_decompress.full_header_bytewise",
    "frame_decompress.dictionary", "frame_decompress.rejects_corrupt",
    "frame_decompress.reset_after_error", "frame_compress.roundtrip_into_bound",
    "frame_compress.small_capacity", "frame_compress_stream.roundtrip",
    "frame_compress_stream.cdict_reuse_across_levels",
}
# LZ4F_flush after every Update (issue 25): upstream has it, ref's frame
# codec has no flush (n/a there)
FLUSH_CHECKS = {"frame_compress_stream.flush_each_update[%s]" % v
                for v in ("linked", "linked,level=9", "independent")}
DECODE_CHECKS = {c for c in FRAME_CHECKS if c.startswith("frame_decompress.")}
# planted fault -> the frame checks it must fail (and no other frame check)
FAULTS = {
    "broken:frame_reset_noop": {"frame_decompress.reset_after_error"},
    "broken:frame_write_past": DECODE_CHECKS,
    "broken:frame_state_reuse": {"frame_compress_stream.cdict_reuse_across_levels",
                                 "frame_compress_stream.roundtrip"},
    "broken:frame_dict_uninit": {"frame_decompress.full_header_bytewise",
                                 "frame_decompress.dictionary"},
    "ref-mutant:BLOCK_CHECKSUM": {"frame_decompress.rejects_corrupt",
                                  "frame_decompress.reset_after_error"},
    "ref-mutant:CONTENT_CHECKSUM": {"frame_decompress.rejects_corrupt"},
    "ref-mutant:FRAME_HEADER_CHECKSUM": {"frame_decompress.rejects_corrupt"},
    "ref-mutant:FRAME_VERSION": {"frame_decompress.rejects_corrupt"},
}


def frame_records(spec, config="asan64"):
    # The default subjects' records are the suite's shared run (conftest);
    # a planted fault runs the frame checks only.
    if spec in ("ref", "upstream"):
        recs = contract_records(spec, config)
    else:
        recs = run_contracts(spec, config, quiet=True, vectors=False, only="frame_")
    return {r["check"]: r for r in recs if r["check"].startswith("frame_")}


@pytest.mark.parametrize("config", ["asan64", CONFIG32])
def test_ref_passes_every_frame_check(config):
    recs = frame_records("ref", config)
    assert set(recs) == FRAME_CHECKS | FLUSH_CHECKS
    bad = [(c, r["evidence"]) for c, r in recs.items()
           if r["status"] != ("n/a" if c in FLUSH_CHECKS else "pass")]
    assert not bad, bad


def test_upstream_frame_api_only_fails_the_known_reset_bug():
    recs = frame_records("upstream")
    assert set(recs) == FRAME_CHECKS | FLUSH_CHECKS
    assert all(r["status"] != "n/a" for r in recs.values())   # the frame API was found
    not_pass = {c: r for c, r in recs.items() if r["status"] != "pass"}
    assert set(not_pass) == {"frame_decompress.reset_after_error"}, not_pass
    r = not_pass["frame_decompress.reset_after_error"]
    assert r["status"] == "known finding" and r["finding"] == "ULZ4-2023-1227"
    assert "ERROR_frameSize_wrong" in r["evidence"]


@pytest.mark.parametrize("spec", sorted(FAULTS))
def test_each_planted_frame_fault_fails_its_checks(spec):
    recs = frame_records(spec)
    failed = {c for c, r in recs.items() if r["status"] == "FAIL"}
    assert failed == FAULTS[spec], [(c, recs[c]["evidence"]) for c in sorted(failed)]
