"""harness/symbolize.py: runner reports made with symbolize=0 and
symbolized after the run read exactly as the sanitizer's own (the readers
in harness/evidence/failure.py are unchanged), in one symbolizer process."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import TOP
from harness import symbolize
from harness.evidence.failure import failure_of, frames_of

PROGRAM = os.path.join(TOP, "tests", "c", "symbolize_crash.c")
ASAN = "detect_leaks=0:allocator_may_return_null=1"


def normal(text):
    """Addresses and process ids differ between two runs; nothing else may."""
    return re.sub(r"==\d+==", "==PID==", re.sub(r"0x[0-9a-f]+", "0xADDR", text))


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    exe = str(tmp_path_factory.mktemp("sym") / "crash")
    subprocess.run(["clang", "-O1", "-g", "-fsanitize=address",
                    "-fno-omit-frame-pointer", PROGRAM, "-o", exe], check=True)
    return exe


def run(exe, mode, options):
    proc = subprocess.run([exe, mode], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, env=dict(os.environ, ASAN_OPTIONS=options))
    assert proc.returncode != 0 and "ERROR: AddressSanitizer" in proc.stdout, proc.stdout
    return proc.stdout


@pytest.mark.check
@pytest.mark.parametrize("mode", ["heap", "segv", "memcpy"])
def test_a_report_symbolized_after_the_run_is_the_sanitizers_own(program, mode):
    own = run(program, mode, ASAN)
    raw = run(program, mode, ASAN + ":symbolize=0")
    assert " in main " not in raw and "+0x" in raw           # really unsymbolized
    done = symbolize.texts([raw])[0]
    assert normal(done) == normal(own)
    assert frames_of(done) == frames_of(own) and frames_of(done)
    assert failure_of(done)["kind"] == failure_of(own)["kind"]


@pytest.mark.check
def test_inlined_frames_are_numbered_on_and_every_stack_restarts(program):
    done = symbolize.texts([run(program, "heap", ASAN + ":symbolize=0")])[0]
    funcs = [f["func"] for f in frames_of(done)]
    assert funcs[:3] == ["poke", "heap", "main"], funcs
    nums = [int(n) for n in re.findall(r"^\s*#(\d+) ", done, re.M)]
    stacks = [s for s in re.split(r"(?=\b0\b)", " ".join(map(str, nums))) if s.strip()]
    for s in stacks:                       # 0, 1, 2 ... in each stack
        assert [int(x) for x in s.split()] == list(range(len(s.split()))), nums
    assert "allocated by thread T0 here" in done and " in __interceptor_malloc " in done


def symbolizer_calls(monkeypatch, memo):
    """The symbolizer processes started, with the memo (symbolize.MEMO) in
    a directory of the test's."""
    monkeypatch.setattr(symbolize, "MEMO", str(memo))
    calls = []
    real = subprocess.run
    monkeypatch.setattr(symbolize.subprocess, "run",
                        lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    return calls


@pytest.mark.check
def test_many_reports_take_one_symbolizer_process_and_text_without_frames_is_kept(
        program, monkeypatch, tmp_path):
    raws = [run(program, "segv", ASAN + ":symbolize=0") for _ in range(3)]
    calls = symbolizer_calls(monkeypatch, tmp_path / "memo")
    out = symbolize.texts(raws + ["no frames here", ""])
    assert len(calls) == 1 and all(" in main " in t for t in out[:3])
    assert out[3:] == ["no frames here", ""]
    recs = [{"report": raws[0], "evidence": "e"}, {"verdict": "pass"}]
    assert " in main " in symbolize.records(recs)[0]["report"] and recs[1] == {"verdict": "pass"}


def test_a_programs_addresses_are_symbolized_once_until_it_is_rebuilt(
        program, monkeypatch, tmp_path):
    raw, other = (run(program, mode, ASAN + ":symbolize=0") for mode in ("heap", "segv"))
    calls = symbolizer_calls(monkeypatch, tmp_path / "memo")
    first = symbolize.texts([raw])[0]
    assert len(calls) == 1 and " in main " in first
    assert symbolize.texts([raw])[0] == first and len(calls) == 1      # from the memo
    # another report of the same program: its new addresses are asked
    assert " in main " in symbolize.texts([other])[0] and len(calls) == 2
    assert symbolize.texts([raw, other]) == [first, symbolize.texts([other])[0]]
    assert len(calls) == 2
    # a program rebuilt (here: its file replaced by a copy) is asked again
    copy = str(tmp_path / "crash")
    shutil.copy(program, copy)
    at_copy = raw.replace(program, copy)
    want = normal(first.replace(program, copy))
    assert normal(symbolize.texts([at_copy])[0]) == want and len(calls) == 3
    assert normal(symbolize.texts([at_copy])[0]) == want and len(calls) == 3
    os.replace(shutil.copy(program, copy + ".new"), copy)
    assert normal(symbolize.texts([at_copy])[0]) == want and len(calls) == 4
