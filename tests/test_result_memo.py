"""The suite's result memo (harness/result_memo.py): passes of the same
program on the same test line are reused within one test run; failures are
run afresh every time; nothing is kept without LZ4GATE_RESULT_MEMO."""
import glob
import os

from harness import result_memo
from harness.runners.regress.cases import load_cases
from harness.runners.regress.run import run_subject

CASE = "KLZ4-2020-SPEED"      # eight tests; broken:short_return fails it


def stored(d):
    return glob.glob(os.path.join(str(d), "*", "*.json"))


def run(spec, capsys):
    recs = run_subject(spec, load_cases(only=[CASE]), ["asan64"], quiet=True)
    return recs, capsys.readouterr().err


def test_a_pass_is_reused_and_a_failure_runs_again(tmp_path, monkeypatch, capsys):
    memo = tmp_path / "memo"
    monkeypatch.setenv(result_memo.ENV, str(memo))
    first, err = run("ref", capsys)
    assert [r["verdict"] for r in first] == ["pass"] and "reused" not in err
    tests = len(stored(memo))
    assert tests == len(load_cases(only=[CASE])[0]["tests"])
    again, err = run("ref", capsys)
    assert again == first and "%d passes reused" % tests in err

    # Another program (the same tests on a broken subject) reuses nothing,
    # and the test it fails is never kept: the second run runs it again and
    # fails it again, with its evidence.
    bad, err = run("broken:short_return", capsys)
    assert bad[0]["verdict"] == "FAIL" and "reused" not in err
    passes_of_broken = len(stored(memo)) - tests
    assert passes_of_broken < tests
    bad_again, err = run("broken:short_return", capsys)
    assert bad_again == bad
    assert ("%d passes reused" % passes_of_broken in err) if passes_of_broken else \
        "reused" not in err


def test_nothing_is_reused_without_the_variable(monkeypatch, capsys):
    monkeypatch.delenv(result_memo.ENV, raising=False)
    for _ in range(2):
        recs, err = run("ref", capsys)
        assert recs[0]["verdict"] == "pass" and "reused" not in err
    result_memo.put("0" * 64, {"verdict": "pass"})      # no directory: a no-op
    assert result_memo.get("0" * 64) is None


def test_the_key_covers_program_environment_line_and_input_files(tmp_path):
    prog, data = tmp_path / "runner", tmp_path / "input.bin"
    prog.write_bytes(b"program 1")
    data.write_bytes(b"data 1")
    line = "120\tX/1\tdata=file:%s" % data
    env = {"ASAN_OPTIONS": "detect_leaks=0", "HOME": "/root"}
    k = result_memo.key([str(prog), "--batch"], env, line)
    assert k == result_memo.key([str(prog), "--batch"], dict(env, HOME="/tmp"), line)
    others = [result_memo.key([str(prog), "--batch"], dict(env, ASAN_OPTIONS="x"), line),
              result_memo.key([str(prog), "--batch"], dict(env, LZ4GATE_FORK_EACH="1"), line),
              result_memo.key([str(prog), "--batch"], env, line.replace("120", "300"))]
    prog.write_bytes(b"program 2")
    os.utime(str(prog), ns=(1, 1))
    others.append(result_memo.key([str(prog), "--batch"], env, line))
    data.write_bytes(b"data 2")
    os.utime(str(data), ns=(1, 1))
    others.append(result_memo.key([str(prog), "--batch"], env, line))
    assert k not in others and len(set(others)) == len(others)
    assert result_memo.key([str(prog)], env, "1\tX/1\tdata=file:/nonexistent") is None


def test_contract_passes_and_n_a_are_reused_and_a_failing_check_runs_again(tmp_path,
                                                                          monkeypatch):
    # The contract runner (harness/runners/contracts/run.py): a second run
    # of the same program gets only the checks whose result was not kept
    # (--id); its records are the first run's, in the table's order.
    from harness.runners.contracts.run import run_contracts
    memo = tmp_path / "memo"
    monkeypatch.setenv(result_memo.ENV, str(memo))

    def records(spec):
        return [(r["check"], r["status"], r["evidence"])
                for r in run_contracts(spec, "asan64", quiet=True, vectors=False,
                                       only="decompress_safe.")]
    first = records("broken:short_return")
    failed = {c for c, status, _ in first if status == "FAIL"}
    assert "decompress_safe.exact_capacity" in failed
    kept = len(stored(memo))
    assert kept == len(first) - len(failed)          # every pass, no failure
    calls = []
    real_run = __import__("subprocess").run

    def spy(argv, **kw):
        calls.append(argv)
        return real_run(argv, **kw)
    monkeypatch.setattr("harness.runners.contracts.run.subprocess.run", spy)
    assert records("broken:short_return") == first
    ran = [a for argv in calls if "--id" in argv for a in argv[argv.index("--id"):]]
    assert set(ran[1::2]) == failed                  # only the failures ran again
