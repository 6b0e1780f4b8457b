"""Streaming and allocation-failure coverage (issue 15): the stream_roundtrip
and alloc_fail fuzz targets replay their seed corpora cleanly on ref,
upstream and the kernel, each finds a planted bug (broken:MODE, the modes of
adapters/adapter_stream_ref.c), and the regression cases they made
exercisable fail on their planted subjects and say why when they stay
unexercised.

Real buggy releases (build/releases/<tag>, development-time only, results in
the case files' notes): ULZ4-2021-HCNULL fails on v1.7.5, v1.8.0 and v1.8.3;
stream_roundtrip's corpus fails on v1.9.0 (LZ4_decompress_safe_continue
writes past its capacity)."""
import os

import pytest

from conftest import TOP, harness
from harness.runners.regress.cases import load_cases
from harness.subjects.spec import DEFAULT_TREES

TARGETS = ("stream_roundtrip", "alloc_fail")


def have_tree(spec):
    return spec not in DEFAULT_TREES or os.path.isdir(DEFAULT_TREES[spec])


def replay(target, subject, *paths, env=None):
    return harness("fuzz", "replay", "-q", "--target", target, "--subject", subject, *paths,
                   timeout=600, env=env)


REPLAYS = [(t, s) for t in TARGETS for s in ("ref", "upstream", "kernel", "system")]


@pytest.mark.parametrize("target,subject", REPLAYS)
def test_corpus_replays_cleanly(target, subject):
    if not have_tree(subject):
        pytest.skip("default %s tree not fetched (make subjects)" % subject)
    proc = replay(target, subject)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


# Each planted bug, and the seed that finds it with the evidence it gives.
PLANTED = [
    ("stream_roundtrip", "stream_reset_noop", "seed-000-prefix-fast-reset",
     "bad_stream@stream_compress"),
    # the sanitizer's report at the planted line: a NULL used
    ("alloc_fail", "alloc_null_deref", "seed-001-hc-fail1", "adapter_stream_ref.c"),
    ("alloc_fail", "frame_mem_cdict_null", "seed-017-frame-mem-fail2", "adapter_stream_ref.c"),
]


@pytest.mark.parametrize("target,mode,seed,evidence", PLANTED)
def test_planted_bug_is_found(target, mode, seed, evidence):
    path = os.path.join(TOP, "corpus", target, seed)
    proc = replay(target, "broken:" + mode, path)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out[-2000:]
    assert evidence in out, out[-3000:]
    if target == "alloc_fail":
        assert "null pointer" in out, out[-3000:]
    # ... and ref, with the same input, has no such bug.
    assert replay(target, "ref", path).returncode == 0


def test_cases_exercised_by_the_new_slots():
    cases = {c["id"]: c for c in load_cases()}
    for cid, mode in (("ULZ4-2021-HCNULL", "broken:alloc_null_deref"),
                      ("ULZ4-2025-62813", "broken:frame_mem_cdict_null"),
                      ("ULZ4-SVN-r107", "broken:compress_no_size_guard")):
        assert cases[cid]["exercised"] and mode in cases[cid]["fails_on"], cid
    # what stays unexercised says why, naming what is missing
    for cid in ("ULZ4-2014-ADDR32", "ULZ4-2018-IDX"):
        assert not cases[cid]["exercised"] and "2 GiB" in cases[cid]["reason"], cid


def test_a_failing_allocation_is_a_clean_error_in_the_regress_runner():
    # alloc_fail_at on a subject whose allocations cannot fail is n/a, never
    # a pass that tested nothing; on ref the frame compressor reports it.
    proc = harness("regress", "-q", "--config", "asan64", "--case", "ULZ4-2025-62813",
                   "--case", "ULZ4-2021-HCNULL", "ref", timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = {l.split()[0]: l.split()[1:] for l in proc.stdout.splitlines()[1:] if l.strip()}
    assert lines["ULZ4-2025-62813"] == ["pass"] and lines["ULZ4-2021-HCNULL"] == ["n/a"]
