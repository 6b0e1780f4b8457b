"""ref_to_subject draws its large sizes (64 KiB and more) only for inputs
whose hash passes large_allowed (fuzz/ref_to_subject.c, header "size"):
the committed seeds that ask for a large size must pass it, or they would
silently decode small blocks, and most one-byte changes of them must not."""
import glob
import os

import pytest

from harness.paths import TOP

LARGE_HASH_START = 136      # fuzz/ref_to_subject.c
SEL_LARGE = 254             # fuzz/synth.h FZ_SYNTH_SEL_LARGE
MASK = (1 << 64) - 1


def prng_mix(z):
    """ref/prng.h ref_prng_mix."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def large_allowed(data):
    h = LARGE_HASH_START
    for b in data:
        h = prng_mix(h ^ b)
    return h >> 60 == 0


def large_seeds():
    seeds = []
    for path in sorted(glob.glob(os.path.join(TOP, "corpus", "ref_to_subject", "*"))):
        with open(path, "rb") as f:
            data = f.read()
        if len(data) >= 2 and data[1] >= SEL_LARGE:     # header byte 1: size selector
            seeds.append(data)
    return seeds


@pytest.mark.check
def test_large_seeds_pass_and_their_mutations_mostly_do_not():
    seeds = large_seeds()
    assert len(seeds) >= 2
    for data in seeds:
        assert large_allowed(data)
        flips = [data[:i] + bytes([data[i] ^ 1]) + data[i + 1:] for i in range(len(data))]
        assert sum(map(large_allowed, flips)) < len(flips) / 4
