"""Known-answer vectors (corpus/vectors/; generator and runner in harness/runners/vectors/).

  - the committed vectors regenerate byte for byte;
  - an independent decoder written here from the spec agrees with every
    expectation in index.json (so the index is not just "whatever ref does");
  - the runner passes the reference and the system liblz4 (no unexplained
    FAIL), and shows the known subject findings;
  - the runner bites: broken and mutant subjects, and a tampered index, fail.
"""
import filecmp
import glob
import hashlib
import json
import os
import shutil
import subprocess

import pytest

from conftest import CONFIG32, TOP
from harness import toolchain
from harness.evidence import records
from harness.findings import documented
from harness.runners.contracts.run import VECTOR_SOURCES
from harness.runners.link import link_runner, runner_sources
from harness.runners.vectors import generate
from harness.subjects.build import build, info

VECTORS = os.path.join(TOP, "corpus", "vectors")
ENV = toolchain.sanitizer_env("replay", UBSAN_OPTIONS="print_stacktrace=0")


def vector_runner(spec, config):
    out = build(spec, config, quiet=True)
    return out, link_runner(out, config, runner_sources(*VECTOR_SOURCES), "vectors")


def load_index(path=VECTORS):
    with open(os.path.join(path, "index.json")) as f:
        return json.load(f)


# ---- (a) regeneration ---------------------------------------------------------

@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    out = tmp_path_factory.mktemp("vectors") / "out"
    out.mkdir()
    generate.write(str(out))
    return str(out)


def test_vectors_regenerate_byte_identical(regenerated):
    committed = sorted(os.listdir(VECTORS))
    fresh = sorted(os.listdir(regenerated))
    assert committed == fresh, "files differ: only committed %s, only regenerated %s" % (
        sorted(set(committed) - set(fresh)), sorted(set(fresh) - set(committed)))
    match, mismatch, errors = filecmp.cmpfiles(VECTORS, regenerated, committed, shallow=False)
    assert not mismatch and not errors, "regenerated differently: %s" % (mismatch + errors)


def test_vectors_stay_small_and_cover_the_classes():
    total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(VECTORS, "*")))
    assert total < 700 * 1024, total
    idx = load_index()
    vs = idx["vectors"]
    flags = [set(v["flags"]) for v in vs]
    assert sum("generated" in f for f in flags) >= 150
    assert sum("edge" in f for f in flags) >= 50
    assert sum("dictionary" in f for f in flags) >= 10
    assert sum("capacity_larger" in f for f in flags) >= 20
    # Every error class a block can produce appears, in each profile where it can.
    statuses = {v["expected"]["strict"]["status"] for v in vs}
    for s in ("truncated_token", "truncated_literal_length", "truncated_literals",
              "truncated_offset", "truncated_match_length", "offset_zero",
              "offset_before_start", "output_overflow", "output_full_input_left",
              "last_literals", "last_match_too_close"):
        assert s in statuses, s
    assert {n["status"] for n in idx["not_covered"]} == {"length_overflow", "bad_parameter"}
    # Every generator feature is represented.
    for feat in ("LONG_LITERALS", "LENGTH_CHAIN", "OVERLAP", "MAX_OFFSET", "EDGE_MATCHLEN",
                 "EDGE_LITLEN", "EXACT_END", "DICT", "HUGE_LITERALS"):
        assert any(feat in f for f in flags), feat


# ---- an independent decoder (from lz4_Block_format.md) ------------------------

def spec_decode(block, cap, dictionary=b"", strict=True, ample=False):
    """Return (status, output). Field order and error names as ref_status."""
    hist = bytearray(dictionary)
    base = len(hist)
    n, ip = len(block), 0
    had_match, last_match_start = False, 0

    def length(value, err):
        nonlocal ip
        while True:
            if ip >= n:
                raise ValueError(err)
            b = block[ip]
            ip += 1
            value += b
            if b != 255:
                return value
    try:
        while True:
            if ip >= n:
                return "truncated_token", None
            token = block[ip]
            ip += 1
            lit = token >> 4
            if lit == 15:
                lit = length(lit, "truncated_literal_length")
            out_len = len(hist) - base
            if lit > n - ip:
                return "truncated_literals", None
            if not ample and lit > cap - out_len:
                return "output_overflow", None
            hist += block[ip:ip + lit]
            ip += lit
            out_len += lit
            if ip == n:
                if had_match and strict:
                    if lit < 5:
                        return "last_literals", None
                    if out_len - last_match_start < 12:
                        return "last_match_too_close", None
                return "ok", bytes(hist[base:])
            if not ample and out_len >= cap:
                return "output_full_input_left", None
            if n - ip < 2:
                return "truncated_offset", None
            off = block[ip] | block[ip + 1] << 8
            ip += 2
            ml = (token & 15) + 4
            if token & 15 == 15:
                ml = length(ml, "truncated_match_length")
            if off == 0 and strict:
                return "offset_zero", None
            if off > len(hist):   # output + dictionary
                return "offset_before_start", None
            if not ample and ml > cap - out_len:
                return "output_overflow", None
            if off == 0:
                hist += bytes(ml)              # compatible: zeros
            else:
                start = len(hist) - off
                if off >= ml:
                    hist += hist[start:start + ml]
                else:
                    hist += (bytes(hist[start:]) * (ml // off + 1))[:ml]
            had_match, last_match_start = True, out_len
    except ValueError as e:
        return str(e), None


def read(name):
    with open(os.path.join(VECTORS, name), "rb") as f:
        return f.read()


def test_index_agrees_with_an_independent_decoder():
    vs = load_index()["vectors"]
    checked = 0
    for v in vs:
        block = read(v["file"])
        assert len(block) == v["size"], v["id"]
        dictionary = read(v["dict"]) if "dict" in v else b""
        well_formed = False
        for prof, strict in (("strict", True), ("compatible", False)):
            want = v["expected"][prof]
            status, out = spec_decode(block, v["capacity"], dictionary, strict)
            assert status == want["status"], (v["id"], prof, status, want)
            if status == "ok":
                assert want["result"] == "valid"
                assert len(out) == want["output_size"], v["id"]
                assert hashlib.sha256(out).hexdigest() == want["output_sha256"], v["id"]
            else:
                assert want["result"] == "invalid", v["id"]
            if spec_decode(block, 0, dictionary, strict, ample=True)[0] == "ok":
                well_formed = True
            # Partial with target = capacity: a whole-block success is also a
            # partial success with the same bytes.
            if "expected_partial" in v and status == "ok":
                assert v["expected_partial"][prof] == want, (v["id"], prof)
            checked += 1
        assert ("malformed" in v["flags"]) == (not well_formed), v["id"]
        assert ("malformed" in v.get("expected_partial", {})) == \
            (not well_formed and "expected_partial" in v), v["id"]
        s, c = v["expected"]["strict"], v["expected"]["compatible"]
        if s["result"] != c["result"]:
            assert v["expected"]["acceptable"]["rule"] in (
                "EOB_LAST_LITERALS", "EOB_LAST_MATCH", "OFFSET_ZERO"), v["id"]
        else:
            assert "acceptable" not in v["expected"], v["id"]
    assert checked == 2 * len(vs)


# ---- (b), (c) the runner on subjects -------------------------------------------

def run_vectors(spec, config="asan64", vector_dir=VECTORS, only=None):
    out, program = vector_runner(spec, config)
    cmd = [program, "--dir", vector_dir] + (["--only", only] if only else [])
    proc = subprocess.run(toolchain.run_argv(config, cmd), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, errors="replace",
                          env=ENV, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return documented.mark_all([records.normalize(r) for r in records.read_jsonl(
        proc.stdout, config=config, spec=spec, identity=info(out)["identity"],
        stage="contracts")], documented.Documented())


def failures(recs):
    return ["%s [%s]: %s %s" % (r["check"], r["verdict"], r["evidence"], r["ubsan"])
            for r in recs if r["status"] == "FAIL"]


@pytest.mark.parametrize("spec,config", [("ref", "asan64"),
                                         ("ref", CONFIG32),
                                         ("system", "asan64")])
def test_reference_and_system_pass_every_vector(spec, config):
    recs = run_vectors(spec, config)
    assert not failures(recs), "\n".join(failures(recs))
    n = len(load_index()["vectors"])
    assert sum(r["status"] == "pass" for r in recs) >= n
    # Subject code must not hit undefined behaviour on any vector either.
    assert not [r for r in recs if r["ubsan"]], [r["check"] for r in recs if r["ubsan"]]
    if spec == "ref":
        assert all(r["status"] == "pass" for r in recs)


def test_kernel_partial_offset_zero_is_shown():
    recs = run_vectors("kernel", "asan64")
    assert not failures(recs), "\n".join(failures(recs))
    known = {r["check"] for r in recs if r.get("finding") == "KLZ4-PARTIAL-OFFSET0"}
    assert "vector.inv-offset-zero.decompress_safe_partial" in known, sorted(known)


@pytest.mark.parametrize("spec", ["broken:short_return", "ref-mutant:OFFSET_IN_HISTORY",
                                  "ref-mutant:OFFSET_NOT_ZERO"])
def test_runner_bites_broken_subjects(spec):
    recs = run_vectors(spec)
    bad = [r for r in recs if r["verdict"] in ("FAIL", "CRASH")]
    assert bad, "no vector fails on %s" % spec
    if spec.endswith("OFFSET_IN_HISTORY"):
        assert any("offset" in r["check"] for r in bad), [r["check"] for r in bad]


def test_partial_early_end_only_where_the_input_runs_out():
    """A partial decoder that returns what it decoded before any defect (lz4
    up to 1.8.2, ULZ4-2026-1753) fails the malformed vectors whose input
    goes on past that point, and only those: a block cut inside its last
    literal run may still end early."""
    recs = run_vectors("broken:partial_stops_early", only="vector.inv-truncated-")
    verdict = {r["check"]: r["verdict"] for r in recs}
    assert verdict["vector.inv-truncated-match-length-ends-ff.decompress_safe_partial"] == \
        "FAIL", verdict
    early = [r for r in recs if "does not end there" in r["evidence"]]
    assert early, recs
    assert verdict["vector.inv-truncated-literals.decompress_safe_partial"] == "pass", verdict


def test_a_partial_decode_may_reject_a_block_invalid_as_a_whole():
    """Issue 23: the blocks inv-last-literals-* decode (strict) up to their
    target, the whole output, but break the end-of-block rule as a whole. A
    partial decoder that checks the whole block (broken:strict_decoders) may
    reject them, one that accepts them with ref's compatible output
    (broken:compatible_decoders) is right too (harness/runners/common/
    judge.h). A block valid as a whole must still be decoded up to the
    target: inv-output-overflow-last-literals (185 bytes, capacity 184)."""
    for spec in ("broken:strict_decoders", "broken:compatible_decoders"):
        recs = run_vectors(spec)
        assert not failures(recs), "\n".join(failures(recs))
    recs = run_vectors("broken:partial_rejects_cut", only="vector.inv-output-overflow-")
    verdict = {r["check"]: r["verdict"] for r in recs}
    assert verdict["vector.inv-output-overflow-last-literals.decompress_safe_partial"] == \
        "FAIL", verdict


def test_runner_bites_a_tampered_expectation(tmp_path):
    dst = str(tmp_path / "v")
    shutil.copytree(VECTORS, dst)
    idx = load_index(dst)
    victim = next(v for v in idx["vectors"] if v["id"] == "edge-literals-48")
    sha = victim["expected"]["strict"]["output_sha256"]
    victim["expected"]["strict"]["output_sha256"] = victim["expected"]["compatible"][
        "output_sha256"] = ("0" if sha[0] != "0" else "1") + sha[1:]
    with open(os.path.join(dst, "index.json"), "w") as f:
        json.dump(idx, f)
    recs = run_vectors("ref", vector_dir=dst, only="vector.edge-literals-48.")
    verdicts = {r["check"].rsplit(".", 1)[1]: r["verdict"] for r in recs}
    # Only the whole-block expectation was changed.
    assert verdicts == {"decompress_safe": "FAIL", "decompress_safe_partial": "pass"}, recs


def test_runner_rejects_a_broken_index(tmp_path):
    dst = str(tmp_path / "v")
    shutil.copytree(VECTORS, dst)
    with open(os.path.join(dst, "index.json"), "r+") as f:
        text = f.read()
        f.seek(0)
        f.truncate()
        f.write(text[:len(text) // 2])
    _, program = vector_runner("ref", "asan64")
    proc = subprocess.run([program, "--dir", dst], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, env=ENV)
    assert proc.returncode == 2 and "not valid JSON" in proc.stderr, proc.stderr
