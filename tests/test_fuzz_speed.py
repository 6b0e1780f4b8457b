"""What the fuzz targets' speed work (issue 15) must not lose, and the bench's
mixed-peer arithmetic (harness/bench/speed.py).

The pooled large allocations of the kernel shim's vmalloc
(kshim/linux/vmalloc.h) and of the subjects' allocation hook
(adapters/alloc_hook.c) must keep what an exact allocation gives under
ASan: an access just past the block, just before it, or after it was freed
is reported, also when a slot is reused for a shorter block."""
import os
import subprocess

import pytest

from harness.bench import speed
from harness.paths import ADAPTERS, KSHIM

CASES = ("ok", "past_end", "before_start", "after_free", "past_end_reused")

KSHIM_PROGRAM = r"""
#include <linux/kernel.h>
#include <linux/vmalloc.h>
#define ALLOC(n) vmalloc(n)
#define FREE(p) vfree(p)
"""

HOOK_PROGRAM = r"""
#include <stddef.h>
void *lz4gate_hook_malloc(size_t size);
void lz4gate_hook_free(void *p);
#define ALLOC(n) lz4gate_hook_malloc(n)
#define FREE(p) lz4gate_hook_free(p)
"""

# The same checks on either allocator: 200 000 bytes (pooled), freed, then
# 199 997 bytes from the same slot (ends 3 bytes short of the kept block's
# end: the tail is poisoned, not ASan's redzone).
BODY = r"""
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv);
int main(int argc, char **argv)
{
    volatile unsigned char sink;
    unsigned long n = 200000;
    unsigned char *p = ALLOC(n), *q;
    (void)argc;
    memset(p, 1, n);
    FREE(p);
    q = ALLOC(n - 3);
    memset(q, 2, n - 3);
    if (!strcmp(argv[1], "past_end")) q[n - 3] = 1;
    if (!strcmp(argv[1], "before_start")) sink = q[-1];
    if (!strcmp(argv[1], "after_free")) { FREE(q); sink = q[10]; }
    if (!strcmp(argv[1], "past_end_reused")) { FREE(q); q = ALLOC(n); sink = q[n]; }
    (void)sink;
    printf("reused %d\n", q == p || (q > p && q < p + 16));
    return 0;
}
"""


def build(tmp_path, which):
    src = tmp_path / ("%s.c" % which)
    src.write_text((KSHIM_PROGRAM if which == "kshim" else HOOK_PROGRAM) + BODY)
    exe = str(tmp_path / which)
    cmd = ["clang", "-std=gnu11", "-O1", "-g", "-Wall", "-Wextra", "-Werror",
           "-fsanitize=address", "-o", exe, str(src)]
    cmd += ["-I", KSHIM] if which == "kshim" else \
        ["-I", ADAPTERS, os.path.join(ADAPTERS, "alloc_hook.c")]
    subprocess.run(cmd, check=True)
    return exe


@pytest.mark.parametrize("which", ["kshim", "alloc_hook"])
def test_pooled_blocks_keep_asan_detection(which, tmp_path):
    exe = build(tmp_path, which)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    for case in CASES:
        proc = subprocess.run([exe, case], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, env=env)
        if case == "ok":
            assert proc.returncode == 0, proc.stderr
            assert "reused 1" in proc.stdout    # the pool did reuse the slot
        else:
            assert proc.returncode != 0 and "ERROR: AddressSanitizer" in proc.stderr, \
                "%s %s not reported: %s" % (which, case, proc.stderr[-500:])


def test_mixed_peer_rate_weighs_by_share():
    row = {"name": "compress_roundtrip", "ours": True,
           "peer": ("round_trip_fuzzer", "round_trip_hc_fuzzer", "hc"),
           "figures": [{"exec_s": 1000, "shares": {"hc": (100, 1000)}}]}
    up = {"round_trip_fuzzer": 9000.0, "round_trip_hc_fuzzer": 100.0}
    rate, text = speed.peer_rate(row, up)
    # 10% of the inputs at 1/100 s, 90% at 1/9000 s: 1 / (0.0001 + 0.001)
    assert abs(rate - 1 / (0.9 / 9000 + 0.1 / 100)) < 1e-6
    assert "10.0% round_trip_hc_fuzzer" in text
    assert abs(speed.ratio_of(row, up) - 1000 / rate) < 1e-9
    # no share counted: the base peer alone, said so
    row["figures"][0]["shares"] = {}
    rate, text = speed.peer_rate(row, up)
    assert rate == 9000.0 and text == "round_trip_fuzzer"


def test_share_lines_parsed(tmp_path):
    log = tmp_path / "fuzz.log"
    log.write_text("#2 INITED\nlz4gate-fuzz compress_roundtrip: share hc 12 of 345\nDone\n")
    assert speed.read_shares(str(log)) == {"hc": (12, 345)}


def test_every_peer_is_built_and_alloc_fail_says_why():
    from harness.bench.upstream import UPSTREAM_FUZZERS
    from harness.fuzzing.targets import TARGETS
    for target in TARGETS:
        assert all(p in UPSTREAM_FUZZERS for p in speed.peers_of(target)), target
        if not speed.peers_of(target):
            assert target in speed.NO_PEER, target
    order = speed.run_order(TARGETS, UPSTREAM_FUZZERS)
    assert sorted(order) == sorted(set(order))           # each fuzzer runs once
