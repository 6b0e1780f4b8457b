"""The mutation tool (python3 -m harness mutate, harness/mutate/): its
mutants are found by clang's tokenizer in the functions on the API's
paths, deterministic for a seed; a stage kills a mutant exactly when a
check passing on the base does not pass on it (a timeout too); and end to
end on the fetched lz4 1.9.4 tree, a mutant breaking the decoder's bounds
check is killed and one in an inactive #if branch is found equivalent.
Skipped, with the reason, without python3-clang."""
import json
import os
import subprocess
import time

import pytest

from conftest import TOP, expect_bad_input, harness, session_memo

UPSTREAM = os.path.join(TOP, "build", "subjects", "lz4-upstream")

SMALL = b"""\
#include <stddef.h>
static int helper(int a, int b) { return a < b ? a + 1 : !b; }
static int unused(int a) { return a > 2; }
static int viaptr(int x) { return x - 0x1F; }
int LZ4_api(const char *s, int n)
{
    const char *msg = "a < b + !c - 7";   /* a comment: x >= 1 - 2 */
    int (*f)(int) = viaptr;
    (void)s; (void)msg;
    if (n >= 16)
        return helper(n, 4) + f(n);
#if 0
    n = n <= 3;
#endif
    return 0;
}
int other_entry(int a) { return unused(a); }
"""


def cindex_or_skip():
    from harness.mutate.clangparse import MissingClang, cindex
    try:
        cindex()
    except MissingClang as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The mutants of SMALL (a file of one tree directory)."""
    cindex_or_skip()
    from harness.mutate.callgraph import CallGraph
    from harness.mutate.clangparse import parse
    from harness.mutate.operators import file_mutants
    d = tmp_path_factory.mktemp("small")
    path = d / "small.c"
    path.write_bytes(SMALL)
    tu = parse(str(path), ["-std=gnu11"])
    graph = CallGraph()
    graph.add_unit(tu, str(d))
    return file_mutants(tu, str(path), "small.c", graph.reachable(), str(d))


def test_mutants_only_in_functions_on_the_api_paths(small):
    # helper is called by LZ4_api, viaptr has its address taken there;
    # unused is reached only from other_entry, which is not an entry point.
    assert {m.function for m in small} == {"helper", "viaptr", "LZ4_api"}


def test_operators_come_from_tokens_not_from_strings_or_comments(small):
    text = SMALL
    string = (text.index(b'"a <'), text.index(b'7";') + 2)
    comment = (text.index(b"/*"), text.index(b"*/") + 2)
    for m in small:
        for start, end, _ in m.edits:
            assert not (string[0] <= start < string[1]), m.id
            assert not (comment[0] <= start < comment[1]), m.id
            if m.category != "bounds":
                assert text[start:end].decode() == m.original, m.id
    ops = {(m.function, m.op, m.original, m.mutated) for m in small}
    for want in [("helper", "lt2le", "<", "<="), ("helper", "add2sub", "+", "-"),
                 ("helper", "dropnot", "!", ""), ("helper", "inc", "1", "2"),
                 ("helper", "dec", "1", "0"), ("helper", "rhsinc", "b", "b+1"),
                 ("helper", "rhsdec", "b", "b-1"), ("viaptr", "sub2add", "-", "+"),
                 ("viaptr", "inc", "0x1F", "0x20"), ("LZ4_api", "ge2gt", ">=", ">"),
                 ("LZ4_api", "dec", "16", "15"), ("LZ4_api", "rhsinc", "16", "16+1"),
                 ("LZ4_api", "le2lt", "<=", "<"), ("LZ4_api", "inc", "0", "1")]:
        assert want in ops, want
    # a mutant is applied at its token only
    m = next(m for m in small if m.op == "lt2le")
    assert m.apply(SMALL) == SMALL.replace(b"return a < b", b"return a <= b", 1)
    assert m.context(SMALL)[1].startswith("static int helper(int a, int b) { return a <= b")
    assert m.id == "small.c:2:44:lt2le"


def test_integer_literals_keep_their_base_and_suffix():
    from harness.mutate.operators import int_literal
    for text, plus, minus in [("64", "65", "63"), ("0x7FFFu", "0x8000u", "0x7FFEu"),
                              ("0xffULL", "0x100ULL", "0xfeULL"), ("010", "011", "07")]:
        value, spell = int_literal(text)
        assert (spell(value + 1), spell(value - 1)) == (plus, minus)
    assert int_literal("1.5") is None and int_literal("1e3") is None


def test_the_sample_is_deterministic_for_a_seed(small):
    from harness.mutate.generate import select
    a = [m.id for m in select(small, n=6, seed=3)]
    assert a == [m.id for m in select(small, n=6, seed=3)]
    assert len(set(a)) == 6
    assert a != [m.id for m in select(small, n=6, seed=4)]
    assert [m.id for m in select(small, ids=[a[2]])] == [a[2]]
    assert {m.line for m in select(small, lines=["small.c:2"])} == {2}


class FakeStage:
    """A stage whose runner is a shell script printing records."""
    name = "fake"

    def __init__(self, script):
        self.script = script

    def argv(self, subject_dir):
        return ["sh", "-c", self.script], None

    def stdin(self):
        return None

    def feed(self):
        from harness.mutate.checks import _record_feed
        return _record_feed()


def rec(check, verdict):
    return '{"check":"%s","verdict":"%s","evidence":"e","ubsan":""}' % (check, verdict)


BASE = {"a": {"verdict": "pass"}, "b": {"verdict": "pass"}, "k": {"verdict": "FAIL"},
        "na": {"verdict": "n/a"}}


def run_fake(lines, tail="", deadline=30):
    from harness.mutate.checks import run_stage
    script = "".join("echo '%s'; " % l for l in lines) + tail
    return run_stage(FakeStage(script), None, BASE, deadline)


def test_a_check_passing_on_the_base_kills_when_it_fails():
    _, kill, _ = run_fake([rec("a", "pass"), rec("k", "CRASH"), rec("na", "n/a"),
                           rec("b", "FAIL"), rec("z", "FAIL")])
    assert (kill["check"], kill["verdict"]) == ("b", "FAIL")


def test_checks_failing_on_the_base_kill_nothing():
    results, kill, _ = run_fake([rec("a", "pass"), rec("k", "FAIL"), rec("b", "pass"),
                                 rec("na", "n/a")])
    assert kill is None and results["k"]["verdict"] == "FAIL"


def test_a_runner_stopping_before_a_check_kills():
    _, kill, _ = run_fake([rec("a", "pass")], tail="exit 3")
    assert (kill["check"], kill["verdict"]) == ("b", "CRASH")
    assert "exit status 3" in kill["evidence"]


def test_a_stage_past_its_deadline_is_a_timeout_kill():
    t0 = time.time()
    _, kill, _ = run_fake([rec("a", "pass")], tail="sleep 30", deadline=1)
    assert kill["verdict"] == "TIMEOUT" and time.time() - t0 < 10


def test_bad_input_exits_2_with_one_line(tmp_path):
    expect_bad_input(harness("mutate", "--tree", tmp_path / "none"), "--tree", "no such")
    expect_bad_input(harness("mutate", "--tree", UPSTREAM, "--checks", "fuzz"), "--checks")


# End to end on lz4 1.9.4 (build/subjects/lz4-upstream), three mutants of
# lib/lz4.c:
KILLED = "lib/lz4.c:2250:61:lt2le"      # the decoder's offset check rejects a valid match
SURVIVOR = "lib/lz4.c:2174:39:ge2gt"    # LZ4_STATIC_ASSERT(MFLIMIT > WILDCOPYLENGTH): still true
EQUIVALENT = "lib/lz4.c:575:49:inc"     # inside LZ4_NbCommonBytes' _MSC_VER branch


def run_on_upstream(out):
    # (the vectors kill KILLED; the contracts, 4 s, and the regression cases, 10 s,
    # kill none of these: left out to keep it quick)
    proc = harness("mutate", "--tree", UPSTREAM, "--files", "lib/lz4.c", "--mutant", KILLED,
                   "--mutant", SURVIVOR, "--mutant", EQUIVALENT, "--checks", "vectors",
                   "--jobs", "2", "--out", out)
    assert proc.returncode == 0, proc.stderr
    with open(out) as f:
        return {"result": json.load(f), "stdout": proc.stdout, "stderr": proc.stderr}


@pytest.fixture(scope="module")
def upstream_run(tmp_path_factory):
    """The run, once per test run whichever worker asks first (two mutant
    builds: a minute of CPU)."""
    cindex_or_skip()
    if not os.path.isdir(UPSTREAM):
        pytest.skip("the lz4 1.9.4 tree is not fetched (python3 -m harness fetch)")
    out = tmp_path_factory.mktemp("mutate") / "result.json"
    run = session_memo("mutate:upstream:%s" % "|".join((KILLED, SURVIVOR, EQUIVALENT)),
                       lambda: run_on_upstream(str(out)))
    proc = subprocess.CompletedProcess([], 0, run["stdout"], run["stderr"])
    return run["result"], proc


@pytest.mark.xdist_group("mutate_upstream")   # one worker runs the fixture
def test_a_mutant_breaking_the_decoders_bounds_check_is_killed(upstream_run):
    res, _ = upstream_run
    m = {r["id"]: r for r in res["mutants"]}[KILLED]
    assert m["result"] == "killed", m
    assert m["function"] == "LZ4_decompress_generic"
    assert m["killed_by"]["stage"] in ("vectors", "contracts"), m
    assert m["killed_by"]["verdict"] in ("FAIL", "CRASH", "TIMEOUT"), m


@pytest.mark.xdist_group("mutate_upstream")   # one worker runs the fixture
def test_a_mutant_no_input_tells_apart_survives_and_is_listed(upstream_run):
    res, proc = upstream_run
    m = {r["id"]: r for r in res["mutants"]}[SURVIVOR]
    assert m["result"] == "survived", m
    assert res["survivors"] == [SURVIVOR]
    assert "lib/lz4.c:2174:39 in LZ4_decompress_generic(): `>=` -> `>`" in proc.stdout
    assert "LZ4_STATIC_ASSERT(MFLIMIT > WILDCOPYLENGTH)" in proc.stdout
    # the difference probe sees nothing either (an assertion that still holds)
    assert m["probe"]["class"] == "no difference", m["probe"]
    assert res["probe"] == {"latitude": 0, "observable": 0, "no difference": 1}
    assert "probe: no difference" in proc.stdout


@pytest.mark.xdist_group("mutate_upstream")   # one worker runs the fixture
def test_a_token_in_an_inactive_branch_is_equivalent_by_construction(upstream_run):
    res, proc = upstream_run
    m = {r["id"]: r for r in res["mutants"]}[EQUIVALENT]
    assert m["result"] == "equivalent", m
    assert res["counts"] == {"killed": 1, "survived": 1, "does not compile": 0,
                             "equivalent": 1, "error": 0}
    assert res["score"] == 0.5
    # one progress line per mutant: place, operator, result, seconds
    lines = [l for l in proc.stderr.splitlines() if l.startswith("mutate: [")]
    assert len(lines) == 3 and all(l.endswith(" s") for l in lines), proc.stderr
    assert any("lib/lz4.c:575 inc" in l and "equivalent" in l for l in lines), lines


def test_an_unknown_mutant_is_bad_input():
    cindex_or_skip()
    if not os.path.isdir(UPSTREAM):
        pytest.skip("the lz4 1.9.4 tree is not fetched (python3 -m harness fetch)")
    proc = harness("mutate", "--tree", UPSTREAM, "--files", "lib/lz4.c", "--mutant",
                   "lib/lz4.c:2250:61:gt2ge", "--list")
    expect_bad_input(proc, "no such mutant", "lib/lz4.c:2250:61:lt2le")


@pytest.mark.xdist_group("mutate_upstream")   # one worker runs the fixture
def test_a_resumed_run_keeps_the_journal_and_runs_nothing_again(upstream_run, tmp_path):
    res, _ = upstream_run
    out = tmp_path / "again.json"
    from harness.mutate import journal
    with open(journal.path_of(str(out)), "w") as f:     # the first run's journal, moved
        f.write(json.dumps({"tree_id": res["tree_id"], "checks": ["vectors"], "probed": True,
                            "checks_digest": journal.checks_digest(),
                            "config": "asan64"}) + "\n")
        for m in res["mutants"]:
            f.write(json.dumps(m) + "\n")
    proc = harness("mutate", "--tree", UPSTREAM, "--files", "lib/lz4.c", "--mutant", KILLED,
                   "--mutant", SURVIVOR, "--mutant", EQUIVALENT, "--checks", "vectors",
                   "--resume", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "3 of the 3 mutants kept from the journal" in proc.stderr
    assert "mutate: [" not in proc.stderr           # no mutant ran
    with open(str(out)) as f:
        again = json.load(f)
    assert again["counts"] == res["counts"] and again["probe"] == res["probe"]


def test_config_asan32_runs_the_checks_in_the_gates_32_bit_build(tmp_path):
    cindex_or_skip()
    if not os.path.isdir(UPSTREAM):
        pytest.skip("the lz4 1.9.4 tree is not fetched (python3 -m harness fetch)")
    from harness import toolchain
    if not toolchain.runnable("asan32"):
        pytest.skip("this machine cannot run asan32 programs")
    out = tmp_path / "a32.json"
    proc = harness("mutate", "--tree", UPSTREAM, "--files", "lib/lz4.c", "--mutant", KILLED,
                   "--checks", "vectors", "--config", "asan32", "--no-probe", "--out", out)
    assert proc.returncode == 0, proc.stderr
    with open(str(out)) as f:
        res = json.load(f)
    assert res["config"] == "asan32" and res["counts"]["killed"] == 1, res["mutants"]
    # the 32-bit build's own base results, beside asan64's
    assert os.path.isfile(os.path.join(os.path.dirname(res["mutants"][0]["copy"]),
                                       "base-asan32-vectors.json"))
