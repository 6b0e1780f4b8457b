"""fuzz/synth.c: data of up to several MiB described by a few bytes (issue 15).

- deterministic: the same description and seed give the same bytes, another
  seed other bytes;
- a kind-7 segment copies from beyond the 64 KiB window;
- fz_synth_size draws large sizes rarely (small ones log-uniform), never
  above the maximum, and a seed's value gives exactly its size.

One small C driver, built with ASan + UBSan (a few seconds).
"""
import os
import subprocess

import pytest

from conftest import TOP

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "synth.h"
#include "prng.h"

/* synth.c's only needs from the oracle */
void *fz_alloc(size_t n) { void *p = malloc(n ? n : 1); if (!p) abort(); return p; }
static uint8_t **kept;
static void free_kept(void) { free(*kept); }
void fz_free_at_exit(uint8_t **slot) { kept = slot; atexit(free_kept); }

int main(void)
{
    enum { N = 3u << 17 };
    /* 128 KiB + 1 of random bytes (kind 0, k = 17, byte 1 = 0 ... cut),
     * then kind 7 (beyond the window) for the rest */
    static const uint8_t desc[] = { 0 | 17 << 3, 1, 5, 0,  7 | 16 << 3, 0, 0, 0 };
    uint8_t *a = malloc(N), *b = malloc(N);
    size_t i, start = (1u << 17) + 512, dist, far = 0, small = 0, huge = 0, over = 0;
    double sum = 0;
    ref_prng r = { 42 };
    fz_synth(a, N, desc, sizeof desc, 7);
    fz_synth(b, N, desc, sizeof desc, 7);
    printf("same %d\n", memcmp(a, b, N) == 0);
    fz_synth(b, N, desc, sizeof desc, 8);
    printf("other_seed_differs %d\n", memcmp(a, b, N) != 0);
    /* the kind-7 segment: bytes at a distance above 64 KiB repeat */
    for (dist = 65537; dist <= start; dist++)
        if (memcmp(a + start, a + start - dist, 64) == 0) {
            far = dist;
            break;
        }
    printf("far_copy %zu\n", far);
    for (i = 0; i < 1000000; i++) {
        uint64_t v = ref_prng_next(&r);
        size_t n = fz_synth_size((uint8_t)v, (uint32_t)(v >> 32), 4096, 8u << 20);
        over += n > (8u << 20);
        small += n <= 4096;
        huge += n > (1u << 20);
        sum += (double)n;
    }
    printf("over %zu\nsmall_per_mille %zu\nhuge %zu\nmean_small_class %.0f\n", over,
           small / 1000, huge, sum / 1000000.0);
    printf("exact_300000 %zu\n", fz_synth_size(255, (300000u - 65536u) << 12 | 64, 4096,
                                               8u << 20));
    printf("exact_3000 %zu\n", fz_synth_size(0, FZ_SYNTH_SMALL_4K(3000), 4096, 8u << 20));
    printf("exact_5000000 %zu\n", fz_synth_size(255, ((5000000u - (1u << 20)) / 8) << 12,
                                                4096, 8u << 20));
    free(a);
    free(b);
    return 0;
}
"""


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    d = tmp_path_factory.mktemp("synth")
    src = d / "synth_driver.c"
    src.write_text(DRIVER)
    exe = str(d / "synth_driver")
    cc = ["clang", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O1", "-g",
          "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
          "-I" + os.path.join(TOP, "fuzz"), "-I" + os.path.join(TOP, "ref"),
          "-I" + os.path.join(TOP, "harness", "subjects", "adapters"),
          "-o", exe, str(src), os.path.join(TOP, "fuzz", "synth.c")]
    subprocess.run(cc, check=True, capture_output=True, text=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True, timeout=120).stdout
    return {k: float(v) for k, v in (l.split() for l in out.splitlines())}


def test_synth_is_deterministic_per_description_and_seed(figures):
    assert figures["same"] == 1
    assert figures["other_seed_differs"] == 1


def test_synth_reaches_copies_from_beyond_the_64k_window(figures):
    assert figures["far_copy"] > 65536, figures


def test_synth_size_draws_large_sizes_rarely_and_never_above_the_maximum(figures):
    assert figures["over"] == 0
    assert figures["small_per_mille"] >= 990          # large classes: 1 draw in 128
    assert figures["huge"] <= 20                       # > 1 MiB: about 2 in a million
    # each class costs a small part of the time of the small one
    assert figures["mean_small_class"] < 1500, figures


def test_a_seed_value_gives_exactly_its_size(figures):
    assert figures["exact_300000"] == 300000
    assert figures["exact_3000"] == 3000
    assert figures["exact_5000000"] == 5000000
