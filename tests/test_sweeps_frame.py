"""The capacity and input boundary sweeps (issue 25): sweep.capacity.*
(every capacity from exact-32 to exact+32, guard pages after the output)
and sweep.input.* (every truncation of blocks and frames, frames fed in
pieces of 1 to 7 bytes with every flag) and sweep.header.* (LZ4F_getFrameInfo
after every prefix of 64 headers and a skippable frame) pass on ref. Their planted bugs
(harness/subjects/adapters/adapter_broken_sweep.c): tests/test_sweeps_planted.py."""
from conftest import contract_records

CLASSES = ("sweep.capacity.", "sweep.input.", "sweep.header.")


def test_sweeps_pass_on_ref():
    recs = [r for r in contract_records("ref", "asan64") if r["check"].startswith(CLASSES)]
    failed = [r for r in recs if r["status"] == "FAIL"]
    assert not failed, "\n".join("%s: %s" % (r["check"], r["evidence"]) for r in failed)
    passed = {r["check"] for r in recs if r["status"] == "pass"}
    assert {"sweep.capacity.decompress_safe", "sweep.capacity.decompress_fast",
            "sweep.capacity.compress_dest_size", "sweep.capacity.frame_compress",
            "sweep.capacity.frame_update_bound", "sweep.capacity.frame_update_end",
            "sweep.capacity.frame_decompress", "sweep.input.decompress_safe",
            "sweep.input.decompress_safe_partial[target=all]", "sweep.input.frame_pieces",
            "sweep.input.frame_pieces_dict_id", "sweep.input.frame_truncations",
            "sweep.header.frame_get_info"} <= passed
