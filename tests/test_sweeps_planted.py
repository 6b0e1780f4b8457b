"""Each boundary sweep class catches its planted bug (harness/runners/
contracts/planted.py, the table `make mutants` runs too), and the judge of
that proof bites."""
import pytest

from harness.runners.contracts import planted


@pytest.fixture(scope="module")
def baseline():
    return planted.failed_checks(planted.run_contracts("ref", "asan64", quiet=True,
                                                       vectors=False))


@pytest.mark.parametrize("prefix,spec,must,only", planted.PLANTED,
                         ids=[p[0].rstrip(".") for p in planted.PLANTED])
def test_each_sweep_class_catches_its_planted_bug(prefix, spec, must, only, baseline):
    added = planted.added_failures(spec, baseline)
    assert planted.judge(prefix, must, only, added) is None, sorted(added)


def test_the_proof_fails_when_the_class_misses_or_others_catch():
    judge = planted.judge
    assert judge("sweep.window.", "sweep.window.a", True, {"sweep.window.a"}) is None
    assert "does not fail" in judge("sweep.window.", "sweep.window.a", True, {"sweep.window.b"})
    assert "outside" in judge("sweep.window.", "sweep.window.a", True,
                              {"sweep.window.a", "compress_default.into_bound"})
    # a bug other compressor checks may see by chance of their data
    assert judge("sweep.end.", "sweep.end.a", False,
                 {"sweep.end.a", "compress_fast[accel=2].into_bound"}) is None
    assert "outside" in judge("sweep.end.", "sweep.end.a", False,
                              {"sweep.end.a", "decompress_safe.capacity_exact"})
    assert "outside" in judge("sweep.end.", "sweep.end.a", False,
                              {"sweep.end.a", "sweep.window.stream"})
    # sweep.lengths' tail inputs are end-of-block shapes too (planted.OVERLAPS)
    assert judge("sweep.end.", "sweep.end.a", False, {"sweep.end.a", "sweep.lengths.b"}) is None
    assert "outside" in judge("sweep.window.", "sweep.window.a", False,
                              {"sweep.window.a", "sweep.lengths.b"})
