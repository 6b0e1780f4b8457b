"""The bugs of the detection benchmark (issue 15 item 5), derived from data:
which regression case FAILs on which upstream release
(regress/results/releases.jsonl), the signature of that failure, which fuzz
targets can reach it, and when a fuzz finding is that bug.

A bug's signature comes from its release record: the failing test (the
record's evidence names its tcId) gives the API entry (the case's test
"call" entry), the evidence gives the failure class (a sanitizer report
type, or the regression runner's verdict: accepted invalid input, wrong
return value, wrong output). The records keep no stack, so a bug signature
has no top frame; a finding's top frame is then not compared (same_defect).
"""
import collections
import glob
import json
import os
import re

from harness import toolchain
from harness.paths import CASES_DIR, TOP

RELEASES_JSONL = os.path.join(TOP, "regress", "results", "releases.jsonl")
# The configurations a 64-bit libFuzzer campaign stands for; a bug that
# fails only in 32-bit ones (CONFIGS_32) gets 32-bit campaigns (libfuzzer32)
# where this machine runs them (harness/toolchain.py runnable()).
CONFIGS_64 = ("asan64", "O0", "O2")
CONFIGS_32 = ("asan32", "O0-32", "O2-32")
# The targets of a 32-bit-only bug: its trigger is a length near 2^32, some
# 16.8 million length bytes (KLZ4-2014-4611 and its kin), which only
# decode_large builds from a short input.
TARGETS_32 = ("decode_large",)

# Failure class -> class family: one defect shows up under different
# classes depending on who watches. The regression runner puts inputs at
# guard pages (SEGV), the fuzzers in ASan's heap (heap-buffer-overflow,
# signature_class() OOB-READ/WRITE); the oracle names wrong output by what
# it compared. Classes not listed are their own family.
FAMILIES = {
    "oob": ("SEGV", "OOB-READ", "OOB-WRITE", "NULL-READ", "NULL-WRITE", "heap-buffer-overflow",
            "stack-buffer-overflow",
            "global-buffer-overflow", "use-after-poison", "stack-buffer-underflow",
            "dynamic-stack-buffer-overflow", "wrote_before_dst", "invalid memory access",
            # alloc_fail's name for a fault on a NULL state (ULZ4-LZ4F-ALLOCFAIL-REUSE)
            "null_state_reuse"),
    "accepts-invalid": ("accepts_invalid",),
    "wrong-return": ("return_above_capacity", "return_above_target", "negative_return",
                     "bad_consumed", "dest_size_short"),
    "wrong-output": ("wrong_output", "malformed_wrong_output", "valid_block", "roundtrip",
                     "nonconformant_block", "cross_decode", "offset0_output", "stale_output",
                     "bad_frame", "invalid_block_size_id_frame"),
    "false-failure": ("rejects_valid", "fails_within_bound", "compress_fails"),
}
FAMILY_OF = {c: fam for fam, classes in FAMILIES.items() for c in classes}


def family(cls):
    """The class family of a signature's class (FAMILIES)."""
    return FAMILY_OF.get(cls, cls)


# A sanitizer report names the entry by the adapter frame under the subject
# (failure.py ADAPTER_FRAME_RE, prefix stripped): the frame adapters' f_*
# give decompress, compress, begin/update/end, which the oracle and the
# case files call frame_decompress, frame_compress, frame_compress_stream.
FRAME_ADAPTER_ENTRY = {"decompress": "frame_decompress", "compress": "frame_compress",
                       "begin": "frame_compress_stream", "update": "frame_compress_stream",
                       "end": "frame_compress_stream"}


def parse_signature(sig):
    """(class, entry, top function or None) of "CLASS@ENTRY[ in FUNC]"
    (harness/evidence/failure.py signature()), the entry as the case files
    name it (FRAME_ADAPTER_ENTRY)."""
    head, _, top = sig.partition(" in ")
    cls, _, entry = head.partition("@")
    entry = FRAME_ADAPTER_ENTRY.get(entry, entry)
    return cls, (entry if entry and entry != "-" else None), (top or None)


def same_defect(bug_sig, finding_sig):
    """Whether a fuzz finding is the bug: the same class family and the same
    API entry; when both signatures have a top subject frame, the same
    frame too (it tells apart two defects of one entry). Not the case's
    other tests' entries: on one release another defect of the same family
    often fails there (KLZ4-FAST's decompress_fast vs INPUTEDGE's
    decompress_safe on v1.8.1.2). The one equivalence of the benchmark
    (tests/test_detection.py)."""
    bcls, bentry, btop = parse_signature(bug_sig)
    fcls, fentry, ftop = parse_signature(finding_sig)
    if family(bcls) != family(fcls) or fentry is None or fentry != bentry:
        return False
    return not (btop and ftop) or btop == ftop


SANITIZER_EV = re.compile(r"ERROR: \w+Sanitizer: ([\w-]+)")
TEST_EV = re.compile(r"^test (\d+) ")


def class_of_evidence(evidence):
    """The failure class of a release record's evidence: the sanitizer's
    report type, or the regression runner's verdict as the oracle's class."""
    m = SANITIZER_EV.search(evidence)
    if m:
        return m.group(1)
    if "expected reject" in evidence:
        return "accepts_invalid"
    if "(expected return:" in evidence:
        return "return_above_target"
    if "output differs" in evidence or "does not decode" in evidence:
        return "wrong_output"
    # a plain build's crash (O2-32: no sanitizer report, the signal alone)
    if "signal 11" in evidence or "Segmentation fault" in evidence or "SIGSEGV" in evidence:
        return "SEGV"
    return "unknown"


# The block and frame API entries each benchmarked fuzz target calls (its
# fuzz/<target>.c and, for the decoders, fuzz/oracle_call.c; checked by
# tests/test_detection.py). Streaming (stream_roundtrip) and the kernel's
# legacy format are left out: the benchmark is about the block and frame
# APIs (issue 15 item 5). alloc_fail: LZ4_compress_HC with a failing
# HEAPMODE malloc (ULZ4-2021-HCNULL) and LZ4F's contexts.
TARGET_ENTRIES = {
    "decode_differential": ("decompress_safe", "decompress_safe_partial",
                            "decompress_safe_using_dict", "decompress_fast"),
    "ref_to_subject": ("decompress_safe", "decompress_safe_partial", "decompress_fast"),
    "decode_large": ("decompress_safe", "decompress_safe_partial", "decompress_fast"),
    # compress_large first: its every execution is large data with a tight
    # capacity (the limited-output bugs, 17543 and HCLIM, in seconds), so a
    # bug it finds costs no compress_roundtrip campaign (run_pairs: a later
    # target runs only for bugs the earlier ones missed). Its compress_fast
    # has the capacity compress_bound and small accelerations: no release
    # bug of that entry (KLZ4-ACCEL-WRAP) is within its reach.
    "compress_large": ("compress_default", "compress_dest_size", "compress_hc",
                       "compress_using_dict"),
    "compress_roundtrip": ("compress_default", "compress_fast", "compress_dest_size",
                           "compress_hc", "compress_using_dict"),
    "frame_decode": ("frame_decompress",),
    "frame_roundtrip": ("frame_compress", "frame_compress_stream", "frame_decompress"),
    "alloc_fail": ("compress_hc", "frame_compress", "frame_compress_stream",
                   "frame_decompress"),
}


ALLOC_TARGET = "alloc_fail"


# What a case must be to be benchmarked, in order; the first that fails is
# the row's reason in the legend.
def skip_reason(case, recs, entries, entry, bits="64"):
    if case["id"].startswith("KLZ4-") and case.get("generations") == ["kernel"]:
        return "kernel glue: the trigger needs the kernel's own code"
    if not recs:
        return "no FAIL record in a configuration the benchmark's campaigns stand for"
    if bits == "32" and not toolchain.runnable("libfuzzer32"):
        return ("fails only in 32-bit builds (a length wraps near 2^32); this machine cannot "
                "run 32-bit libFuzzer programs (harness/toolchain.py runnable())")
    if not entries:
        return ("its failing test's entry point (%s) is called by no benchmarked target "
                "(streaming, context reuse or kernel glue)" % entry)
    return None


def load_cases():
    out = {}
    for path in sorted(glob.glob(os.path.join(CASES_DIR, "*.json"))):
        with open(path) as f:
            c = json.load(f)
        out[c["id"]] = c
    return out


def load_releases(path=RELEASES_JSONL):
    """(trees {tree: record}, case records [..]) of releases.jsonl."""
    trees, recs = {}, []
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["kind"] == "tree":
                trees[r["tree"]] = r
            elif r["kind"] == "case":
                recs.append(r)
    return trees, recs


def failing(recs):
    """{case: {tree: [records]}} of the records where a case FAILs (a
    documented finding is a FAIL too: the bug is there)."""
    out = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in recs:
        if r.get("status") in ("FAIL", "known finding"):
            out[r["case"]][r["tree"]].append(r)
    return out


Bug = collections.namedtuple("Bug", "case tag tree commit signature entries targets skip bits")


def failing_test(case, evidence):
    m = TEST_EV.match(evidence or "")
    if not m:
        return None
    return next((t for t in case.get("tests", []) if str(t["tcId"]) == m.group(1)), None)


def bug_of(case, tree, recs, target_entries=TARGET_ENTRIES):
    """The Bug of one case on one release tree (recs: its FAIL records)."""
    recs64 = [r for r in recs if r["config"] in CONFIGS_64]
    bits = "64" if recs64 else "32"
    if bits == "32":
        recs64 = [r for r in recs if r["config"] in CONFIGS_32]
        target_entries = {t: e for t, e in target_entries.items() if t in TARGETS_32}
    rec = next((r for r in recs64 if r["config"] in ("asan64", "asan32")),
               recs64[0] if recs64 else None)
    test = failing_test(case, rec.get("evidence")) if rec else None
    entry = str(test["call"]["entry"]) if test else None
    entries = sorted({str(t["call"]["entry"]) for t in case.get("tests", [])})
    # A fuzz target counts when it calls the failing test's entry; a test
    # that makes an allocation fail (alloc_fail_at, ULZ4-2021-HCNULL) is for
    # alloc_fail alone, and only such a test is (the other targets never
    # fail an allocation, alloc_fail's plain calls are few).
    alloc = bool(test and test["call"].get("alloc_fail_at"))
    targets = [t for t, ents in target_entries.items()
               if entry in ents and (t == ALLOC_TARGET) == alloc]
    skip = skip_reason(case, recs64, targets, entry, bits)
    sig = "%s@%s" % (class_of_evidence(rec.get("evidence", "")), entry) if rec else ""
    return Bug(case["id"], tree["tag"], tree["tree"], tree.get("commit"), sig, entries,
               targets, skip, bits)


def catalogue(target_entries=TARGET_ENTRIES, cases=None, releases=None):
    """Every (case, release) pair where the case FAILs: {(case, tag): Bug},
    the pairs whose case is not benchmarked included (Bug.skip)."""
    cases = cases or load_cases()
    trees, recs = releases or load_releases()
    out = {}
    for cid, by_tree in failing(recs).items():
        if cid not in cases:
            continue
        for tname, rs in by_tree.items():
            tree = trees.get(tname)
            if not tree or not tree.get("tag"):
                continue
            b = bug_of(cases[cid], tree, rs, target_entries)
            out[(cid, b.tag)] = b
    return out


def release_order(trees):
    return {t["tag"]: t["order"] for t in trees.values() if t.get("tag")}


def is_release(tag):
    """A release tag, not a development branch (dev, dev-1.7.2)."""
    return not tag.startswith("dev")


def default_set(bugs, order):
    """The default pairs: for each benchmarked bug, the newest release that
    carries it (the one a vendoring user is most likely to take)."""
    newest = {}
    for (cid, tag), b in bugs.items():
        if b.skip or not is_release(tag):
            continue
        if cid not in newest or order[tag] > order[newest[cid]]:
            newest[cid] = tag
    return sorted(((cid, tag) for cid, tag in newest.items()), key=lambda k: (order[k[1]], k[0]))
