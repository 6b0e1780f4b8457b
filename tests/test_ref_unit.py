"""The reference codec's C unit tests, in every build configuration.

Each tests/c/test_*.c is its own program; it prints "N checks, M failed" and
exits non-zero on any failed check or sanitizer report.
"""
import pytest

from harness import reftests, toolchain

CASES = [(c, p) for c in reftests.UNIT_CONFIGS for p in reftests.programs()]


def params(config, program):
    marks = [pytest.mark.check] if config == "asan64" else []
    if program not in reftests.programs_for(config):
        # Debian ships liblz4 for the native ABI only
        marks.append(pytest.mark.skip(reason="liblz4 is not installed for the 32-bit ABI"))
    elif not reftests.runnable(config):
        marks.append(pytest.mark.skip(reason="%s: %s" % (config, toolchain.NO_I386)))
    return pytest.param(config, program, marks=marks, id="%s-%s" % (program, config))


@pytest.mark.parametrize("config,program", [params(c, p) for c, p in CASES])
def test_unit_program(config, program):
    # asan64 runs the very build the mutants of tests/test_ref_mutants.py run
    # (ref/mutant.h REF_MUTANT_FROM_ENV) with no check switched off: this is
    # also their control, so a mutant's failure comes from its mutation, not
    # from the build. (The other configurations build ref as users do.)
    mutant = reftests.ANY_MUTANT if config == "asan64" else ""
    binary = reftests.build(config, mutant, only=[program])[program]
    status, text = reftests.run(binary, config=config, LZ4REF_MUTANT_ID="0")
    assert status == 0, text[-6000:]
    assert " 0 failed" in text, text[-2000:]
