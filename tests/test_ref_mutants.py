"""Every named check of the reference decoders is exercised by a unit test.

Builds tests/c/test_decode.c (block checks) or tests/c/test_frame.c (frame
checks) with one check switched off (64-bit ASan+UBSan, then 32-bit if the
mutant survives) and requires that the tests fail: a surviving mutant means
a check no test depends on.
"""
import pytest

import mutants
from harness import reftests

NAMES = mutants.check_names()


def test_check_list_is_complete():
    # Guards the parser: the list in checks.h is what the decoder uses.
    assert len(NAMES) >= 14
    assert len(set(NAMES)) == len(NAMES)


@pytest.fixture(scope="module")
def all_results():
    # Both cores, and each mutant stops at the first build that kills it
    # (asan64; asan32 only for the 32-bit-only length-wrap checks).
    return mutants.run_all(NAMES, jobs=2, first_kill=True)


@pytest.mark.xdist_group("ref_mutants")     # the fixture once (Makefile: loadgroup)
@pytest.mark.parametrize("name", NAMES)
def test_mutant_is_killed(name, all_results):
    results = all_results[name]
    killed = [c for c, (k, _) in results.items() if k]
    assert killed, "mutant %s survived in %s" % (name, ", ".join(results))


# The control (the mutants' build with no check switched off passes) is
# tests/test_ref_unit.py's asan64 run, which runs that very build.


def test_a_mutant_id_switches_its_check_off():
    # The selection itself: the id of OFFSET_NOT_ZERO fails test_decode,
    # the id of nothing (0) does not (guards mutant_ids() and the variable).
    binary = reftests.build("asan64", reftests.ANY_MUTANT, only=["test_decode"])["test_decode"]
    status, _ = reftests.run(binary, LZ4REF_MUTANT_ID=mutants.mutant_ids()["OFFSET_NOT_ZERO"],
                             LZ4GATE_CHECK_FIRST="1")
    assert status != 0
    assert set(mutants.mutant_ids()) >= set(NAMES)
