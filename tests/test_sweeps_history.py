"""The history boundary sweeps (issue 25): sweep.dict.* (dictionaries of 0,
1, 4, 65534..65537 and 100000 bytes, separate and contiguous with the
output, offsets at their first byte and one before; the safe, fast and
streaming decoders) and sweep.stream.* (2 to 5 streamed blocks around 64
KiB of history, every input layout; an empty block between two) pass on
ref, and ref's own streams keep only what a decoder keeps across a jump.
Their planted bugs (broken:dict_prefix_64k_early,
broken:stream_history_one_short): tests/test_sweeps_planted.py."""
from conftest import contract_records

CLASSES = ("sweep.dict.", "sweep.stream.")


def test_sweeps_pass_on_ref():
    recs = [r for r in contract_records("ref", "asan64") if r["check"].startswith(CLASSES)]
    failed = [r for r in recs if r["status"] == "FAIL"]
    assert not failed, "\n".join("%s: %s" % (r["check"], r["evidence"]) for r in failed)
    passed = {r["check"] for r in recs if r["status"] == "pass"}
    # ref has no HC stream: those are n/a
    assert {"sweep.dict.compress_using_dict", "sweep.dict.stream",
            "sweep.dict.decompress_safe_using_dict[separate]",
            "sweep.dict.decompress_safe_using_dict[contiguous]",
            "sweep.dict.stream_decode[separate]", "sweep.dict.stream_decode[contiguous]",
            "sweep.dict.decompress_fast_using_dict[separate]",
            "sweep.dict.decompress_fast_using_dict[contiguous]",
            "sweep.stream.decode_empty_block_between[one_buffer]",
            "sweep.stream.decode_empty_block_between[separate]",
            "sweep.stream.compress[mode=prefix]", "sweep.stream.compress[mode=separate]",
            "sweep.stream.compress[mode=ring]", "sweep.stream.compress[mode=savedict]",
            # a 64 KiB + 1 dictionary, then a ring that wraps: ref's stream
            # drops the dictionary there, as the ring's decoder does
            "sweep.stream.compress[mode=ring_sync]",
            "sweep.stream.decode[mode=prefix]", "sweep.stream.decode[mode=separate]",
            "sweep.stream.decode[mode=ring]", "sweep.stream.decode[mode=usingDict]",
            "sweep.stream.decode[mode=usingDict_copy]"} == passed
    assert {r["check"] for r in recs if r["status"] == "n/a"} == {
        "sweep.dict.stream_hc_dict[level=%d]" % n for n in (2, 3, 9, 12)} | {
        "sweep.stream.compress_hc[mode=%s]" % m for m in ("prefix", "ring_sync", "savedict")}
