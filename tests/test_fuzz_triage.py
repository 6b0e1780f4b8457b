"""Crash triage (harness/fuzzing/crash_triage.py, issue 27): every crash
file of a campaign is looked at, so a rare crash is not lost among many
files of a frequent one.

The planted subject is broken:frequent_and_rare (adapter_broken.c): a
one-byte over-read in decompress_safe on small malformed blocks (the
frequent crash, small files) and a one-byte over-write in
decompress_safe_partial on large blocks (the rare one, large files).
"""
import os
import random
import re

import pytest

from conftest import TOP, harness
from harness.fuzzing import campaign, crash_triage, findings
from harness.fuzzing.build import build
from harness.fuzzing.environment import target_env

SUBJECT = "broken:frequent_and_rare"
TARGET = "decode_differential"
FREQUENT = "OOB-READ@decompress_safe in b_decompress_safe"
RARE = "OOB-WRITE@decompress_safe_partial in b_decompress_safe_partial"
OLD_MAX_TRIAGE = 64      # what findings.py replayed before (smallest first)


def planted_constants():
    """FR_* and the salt of adapter_broken.c, so that the files below are
    made for the code as it is."""
    with open(os.path.join(TOP, "harness", "subjects", "adapters", "adapter_broken.c")) as f:
        text = f.read()
    consts = dict((k, int(v)) for k, v in re.findall(r"\b(FR_\w+) = (\d+)", text))
    consts["salt"] = int(re.search(r"#define FR_SALT (\d+)u", text).group(1))
    return consts


def fr_hash(block, salt):
    """adapter_broken.c fr_hash (FNV-1a, folded)."""
    h = salt
    for c in block:
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
    return h ^ (h >> 16)


def crash_files(tmp_path, n_frequent, n_rare):
    """n_frequent small inputs that crash the frequent way (a block of 2-4
    bytes whose 5 literals are cut short: every decoder rejects it) and
    n_rare inputs of 24 + 300 bytes that crash the rare way (a zero header:
    capacity = the decoded size)."""
    c = planted_constants()
    rng = random.Random(27)
    d = tmp_path / "crashes"
    d.mkdir()
    frequent, rare = set(), set()
    while len(frequent) < n_frequent:
        block = bytes([0x50]) + bytes(rng.randrange(256) for _ in range(rng.randint(1, 3)))
        if fr_hash(block, c["salt"]) % c["FR_FREQUENT"] == 0:
            frequent.add(block)
    while len(rare) < n_rare:
        block = bytes(rng.randrange(256) for _ in range(300))
        if fr_hash(block, c["salt"]) % c["FR_RARE"] == 0:
            rare.add(bytes(24) + block)
    paths = []
    for i, data in enumerate(sorted(frequent) + sorted(rare)):
        p = d / ("crash-%04d" % i)
        p.write_bytes(data)
        paths.append(str(p))
    return paths


def replay_setup(tmp_path):
    a = campaign.namespace(target=TARGET, subject=SUBJECT, engine="replay", quiet=True)
    env = target_env(a, "replay")
    env["LZ4GATE_FUZZ_RECORD"] = str(tmp_path / "records")     # as a campaign replays
    os.makedirs(env["LZ4GATE_FUZZ_RECORD"])
    return build(a), env


UNSYMBOLIZED = """==%(pid)d==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x%(addr)x at pc 0x55
%(access)s of size 1 at 0x%(addr)x thread T0
    #0 0x55d0c1a2  (/build/fuzz/t/asan64/decode_differential-replay+0x%(off)x) (BuildId: 78de)
    #1 0x55d0c1b3  (/build/fuzz/t/asan64/decode_differential-replay+0x1f44e8) (BuildId: 78de)
    #2 0x7f2618e7  (/lib/x86_64-linux-gnu/libc.so.6+0x27249) (BuildId: 93ac)

0x%(addr)x is located 0 bytes after 16-byte region
allocated by thread T0 here:
    #0 0x55d0c1c4  (/build/fuzz/t/asan64/decode_differential-replay+0x%(alloc)x) (BuildId: 78de)
"""


@pytest.mark.check
def test_the_stack_key_is_the_report_kind_and_the_frames_not_the_addresses():
    def key(**kw):
        v = dict(pid=1, addr=0x6310, access="READ", off=0x17ee21, alloc=0xd51ce)
        v.update(kw)
        return crash_triage.stack_key("exit 1", UNSYMBOLIZED % v)
    base = key()
    assert base.startswith("heap-buffer-overflow READ | ")
    # another process, address, or allocation stack: the same stack
    assert key(pid=2, addr=0x7f00, alloc=0x1234) == base
    # another frame, or a write: another key
    assert key(off=0x17ee22) != base
    assert key(access="WRITE") != base
    # the oracle's verdicts (no stack), inputs that pass, timeouts
    oracle = "lz4gate-fuzz decode_differential: FAIL [stale_output@decompress_safe]: x"
    assert crash_triage.stack_key("signal 6", oracle) == "oracle stale_output@decompress_safe"
    assert crash_triage.stack_key("ok", "") == crash_triage.PASSES
    assert crash_triage.stack_key("timeout", "") == crash_triage.TIMEOUT
    assert crash_triage.stack_key("signal 11", "Segmentation fault") != base


def test_the_seeds_do_not_crash_the_planted_subject():
    # The salt keeps every seed clear of both crashes: a crashing seed would
    # crash every fork-mode job at its start (one file, and no fuzzing).
    proc = harness("fuzz", "replay", "-q", "--target", TARGET, "--subject", SUBJECT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_rare_crash_among_fifty_times_as_many_frequent_ones_is_triaged(tmp_path):
    # 200 small files of the frequent crash, 4 large ones of the rare: the
    # 64 smallest (all the old triage replayed) are all frequent ones.
    files = crash_files(tmp_path, 200, 4)
    by_size = sorted(files, key=os.path.getsize)
    assert all(os.path.getsize(f) < 30 for f in by_size[:OLD_MAX_TRIAGE]), "the old rule"
    binary, env = replay_setup(tmp_path)
    found = findings.from_crashes(files, binary, env)
    assert set(found) == {FREQUENT, RARE}, sorted(found)
    assert (found[FREQUENT]["count"], found[RARE]["count"]) == (200, 4)
    assert os.path.getsize(found[RARE]["input"]) == 324       # the smallest of its stack
    # the counts a report gives
    found, summary = findings.triage_crashes(files, binary, env)
    assert (summary["files"], summary["replayed"]) == (204, 204), summary
    assert summary["stacks"] == summary["triaged"] >= 2, summary
    assert summary["signatures"] == 2 and summary["not_looked_at"] == [], summary
    assert crash_triage.summary_line(summary).endswith("; 0 not looked at")


def test_a_file_is_replayed_once_and_one_not_there_is_counted_and_listed(tmp_path):
    files = crash_files(tmp_path, 3, 1)
    binary, env = replay_setup(tmp_path)
    t = crash_triage.CrashTriage(binary, env)
    assert t.add(files[:2]) == {FREQUENT}           # the signatures seen first
    assert t.add(files) == {RARE}                   # the first two: not again
    s = t.summary()
    assert (s["files"], s["replayed"], s["not_looked_at"]) == (4, 4, []), s
    assert set(t.findings()) == {FREQUENT, RARE}
    # A file gone before its replay: counted, listed, and a finding.
    os.remove(files[1])
    found, s = findings.triage_crashes(files, binary, env)
    assert [m["path"] for m in s["not_looked_at"]] == [files[1]], s
    assert found["not_triaged@-"]["count"] == 1, found
    assert crash_triage.summary_line(s).endswith("; 1 not looked at")
    assert crash_triage.not_looked_at_lines(s) == [
        "  not looked at: %s (%s)" % (files[1], s["not_looked_at"][0]["why"])]


def check_campaign(proc, seed):
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    counts = {}
    for name, sig in (("frequent", FREQUENT), ("rare", RARE)):
        m = re.search(r"^  NEW\s+%s\s+x(\d+)  \((\d+) stack\(s\)\)$" % re.escape(sig), out, re.M)
        assert m, "seed %d: %s crash not reported:\n%s" % (seed, name, out)
        counts[name] = int(m.group(1))
    m = re.search(r"^crash files: (\d+) written \(libFuzzer counted (\d+) crash\(es\), "
                  r"\d+ timeout\(s\), \d+ OOM\(s\)\), "
                  r"(\d+) replayed, (\d+) distinct stack\(s\), (\d+) triaged with symbols "
                  r"\(the smallest file of each\) -> (\d+) signature\(s\); 0 not looked at$",
                  out, re.M)
    assert m, out
    written, engine, replayed, stacks, triaged, sigs = (int(x) for x in m.groups())
    assert written == replayed == counts["frequent"] + counts["rare"], out
    assert stacks == triaged >= 2 and sigs == 2, out
    assert engine > 0, out                 # libFuzzer's own count of crashing jobs
    return written, counts


# One worker runs the campaigns (Makefile: --dist loadgroup), as the planted
# runs of tests/test_fuzz.py: their work directory is the subject's.
@pytest.mark.xdist_group("planted")
def test_a_keep_going_campaign_reports_the_frequent_and_the_rare_crash():
    # Two campaigns (libFuzzer -seed=1, 2), each bounded by its executions
    # (-runs: fork mode sums its jobs', so the crash files are about as many
    # on a busy machine as on an idle one: ~30, one per crashing job): each
    # reports both crashes, the files written, replayed, their distinct
    # stacks, the stacks triaged with symbols, and 0 not looked at. Which of
    # the two ends more jobs is not asserted: 33/8, 15/12 and 23/9 files at
    # development time, 20/22 on a loaded machine (fork mode's jobs race).
    # A crash 50 times rarer would show in a run ~N/51 times: in every run
    # only with ~300 files per run, 10 CPU minutes here; the 50-to-1 case is
    # the test above, on crash files made for it.
    for seed in (1, 2):
        proc = harness("fuzz", "run", "--fresh", "--jobs", "1", "--target", TARGET,
                       "--subject", SUBJECT, "--runs", "1500", "--time", "900", "--seed", seed,
                       timeout=1800)
        check_campaign(proc, seed)


@pytest.mark.check
def test_a_ubsan_site_is_one_line_whatever_its_addresses():
    # lz4 1.9.0's decode_differential campaign: one overflow at lz4.c:1827:44
    # printed 193 times, each with other pointers (issue 41)
    log = "".join("lib/lz4.c:1827:44: runtime error: addition of unsigned offset to 0x%x "
                  "overflowed to 0x%x\n" % (0x631000014801 + i, 0x630fff01480d + i)
                  for i in range(193))
    log += "lib/lz4.c:90:1: runtime error: load of misaligned address 0x1 for type 'U32'\n"
    lines = campaign.ubsan_lines(log)
    assert len(lines) == 2, lines
    assert lines[0].endswith("(193 reports at this site, other addresses)"), lines[0]
    assert lines[1].endswith("for type 'U32'"), lines[1]
