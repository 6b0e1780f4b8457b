"""compress_large (fuzz/compress_large.c): its seeds show the limited-output
run-length overflows where they are (linux-6.1's documented KLZ4-GAP-17543
and KLZ4-GAP-HCLIM; lz4 v1.8.3 and v1.9.1 at dev time) and nothing on the
fixed subjects (tests/test_fuzz.py replays them on ref, upstream 1.9.4 and
the system library)."""
import glob
import os

import pytest

from conftest import TOP
from harness.fuzzing import campaign, findings
from harness.fuzzing.build import build
from harness.fuzzing.environment import target_env
from harness.findings import documented
from harness.findings.documented import Documented
from harness.subjects.build import subject_identity
from harness.subjects.spec import DEFAULT_TREES

SEEDS = sorted(glob.glob(os.path.join(TOP, "corpus", "compress_large", "seed-*")))
RELEASES = os.path.join(TOP, "build", "releases")


def seed_findings(subject):
    a = campaign.namespace(target="compress_large", subject=subject, engine="replay",
                           quiet=True)
    found = findings.from_crashes(SEEDS, build(a), target_env(a, "replay"))
    return {s: f for s, f in found.items() if f["cls"] != "flaky"}     # flaky: passed


def test_large_seeds_show_the_kernel_findings():
    if not os.path.isdir(os.path.join(TOP, DEFAULT_TREES["kernel"])):
        pytest.skip("default kernel tree not fetched (make subjects)")
    found = seed_findings("kernel")
    findings.mark(found, documented.FuzzKnown(Documented()), subject_identity("kernel"))
    ids = {f["signature"]: (f["status"], f["finding"]) for f in found.values()}
    # Every seed failure is one of the two documented findings, and both show.
    assert all(status == "known" for status, _ in ids.values()), ids
    assert {fid for _, fid in ids.values()} == {"KLZ4-GAP-17543", "KLZ4-GAP-HCLIM"}, ids


@pytest.mark.parametrize("tag,entry", [("v1.9.1", "compress_default"),
                                       ("v1.9.1", "compress_dest_size"),
                                       ("v1.8.3", "compress_hc")])
def test_large_seeds_show_release_bugs(tag, entry):
    """ULZ4-2019-17543 (v1.9.1, both entries) and ULZ4-2019-HCLIM (v1.8.3)."""
    tree = os.path.join(RELEASES, tag)
    if not os.path.isdir(tree):
        pytest.skip("release tree %s not exported (python3 -m harness releases --lz4-git "
                    "CLONE)" % tag)
    found = seed_findings("upstream:" + tree)
    assert "OOB-WRITE@" + entry in {s.split(" in ")[0] for s in found}, sorted(found)
