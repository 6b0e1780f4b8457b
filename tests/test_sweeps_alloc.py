"""The allocation-failure sweep (issue 25): sweep.alloc.* makes every
allocation of the HC and frame entry points fail in turn and reuses the
context after it (harness/runners/contracts/contracts_sweep_alloc.c). ref
passes it; lz4 1.9.4 fails it where ULZ4-LZ4F-ALLOCFAIL-REUSE says, as that
known finding; its planted bug (broken:alloc_null_deref): test_sweeps_planted.py."""
import re

from conftest import contract_records

FRAME_FORMS = {"sweep.alloc.frame_compress[level=1]", "sweep.alloc.frame_compress[level=9]",
               "sweep.alloc.frame_stream[levels=1,9]", "sweep.alloc.frame_stream[levels=9,1]",
               "sweep.alloc.frame_mem_stream[levels=1,9]",
               "sweep.alloc.frame_mem_stream[levels=9,1]", "sweep.alloc.frame_decompress"}
HC_FORMS = {"sweep.alloc.compress_hc[level=%d]" % level for level in (1, 9, 12)}
# The frames whose third frame (level 1) reuses a context whose level-9
# state could not be allocated.
REUSE = {"sweep.alloc.frame_stream[levels=1,9]", "sweep.alloc.frame_mem_stream[levels=1,9]"}


def alloc_records(spec):
    return {r["check"]: r for r in contract_records(spec, "asan64")
            if r["check"].startswith("sweep.alloc.")}


def test_ref_passes_every_allocation_failure():
    recs = alloc_records("ref")
    assert set(recs) == FRAME_FORMS | HC_FORMS
    assert {c for c, r in recs.items() if r["status"] == "pass"} == FRAME_FORMS
    # ref has no HC compressor: n/a, named
    assert all(recs[c]["status"] == "n/a" and "HC" in recs[c]["evidence"] for c in HC_FORMS)


def test_lz4_1_9_4_fails_only_where_the_known_reuse_bug_is():
    recs = alloc_records("upstream")
    not_pass = {c: r for c, r in recs.items() if r["status"] != "pass"}
    assert set(not_pass) == REUSE, {c: r["evidence"] for c, r in not_pass.items()}
    for r in not_pass.values():
        assert r["status"] == "known finding", r
        assert r["finding"] == "ULZ4-LZ4F-ALLOCFAIL-REUSE"
        assert "in LZ4_prepareTable" in r["report"], r
        # the crash names the failing allocation (isolate.h isolate_step)
        assert re.search(r" \(at: allocation \d+ failing\)$", r["evidence"]), r["evidence"]
        assert r["report"].startswith("lz4gate-step allocation "), r["report"][:100]


def test_kernel_hc_compressor_allocates_nothing_and_passes():
    # The kernel's LZ4_compress_HC works in the caller's wrkmem: no index
    # fails, and the one run is judged as an unarmed one. No LZ4F: n/a.
    recs = alloc_records("kernel")
    assert {c for c, r in recs.items() if r["status"] == "pass"} == HC_FORMS
    assert all(recs[c]["status"] == "n/a" for c in FRAME_FORMS)
