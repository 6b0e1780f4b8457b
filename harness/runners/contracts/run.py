"""Running the API contract checks and the known-answer vectors on a subject.

For a SPEC and a CONFIG: build the subject, link the contract runner
(contracts/*.c) and the vector runner (vectors/vectors.c) against it, run
each (every check in a child process) and classify the records against the
known findings."""
import json
import os
import subprocess

from harness import result_memo, symbolize, toolchain
from harness.errors import BadInput
from harness.paths import CORPUS
from harness.evidence import records
from harness.runners.link import link_runner, runner_sources
from harness.subjects.build import build, info

CONTRACT_SOURCES = ("contracts/contracts.c", "contracts/contracts_data.c",
                    "contracts/contracts_compress.c", "contracts/contracts_decode.c",
                    "contracts/contracts_old_api.c", "contracts/contracts_frame_decode.c",
                    "contracts/contracts_frame_compress.c",
                    "contracts/contracts_sweep_window.c", "contracts/contracts_sweep_end.c",
                    "contracts/contracts_sweep_lengths.c",
                    "contracts/contracts_sweep_capacity.c",
                    "contracts/contracts_sweep_capacity_frame.c", "contracts/contracts_sweep_input.c",
                    "contracts/contracts_sweep_dict.c", "contracts/contracts_sweep_stream.c",
                    "contracts/contracts_sweep_stream_empty.c",
                    "contracts/contracts_sweep_header.c", "contracts/contracts_sweep_alloc.c",
                    "common/stream_driver.c", "common/stream_decode.c",
                    "common/frame_driver.c", "common/frame_make.c",
                    "common/isolate.c", "common/guard.c", "subject_names.c",
                    "common/jsonl.c", "common/testdata.c", "common/judge.c",
                    "common/fail_class.c")
VECTOR_SOURCES = ("vectors/vectors.c", "vectors/vector_load.c", "vectors/json_read.c",
                  "vectors/defined_prefix.c", "common/isolate.c", "common/guard.c",
                  "subject_names.c", "common/jsonl.c", "common/sha256.c", "common/judge.c",
                  "common/fail_class.c")
VECTOR_DIR = os.path.join(CORPUS, "vectors")
DEFAULT_CONFIGS = ["asan64", "asan32", "O0", "O2"]


def run_contracts(spec, config, patches=(), quiet=False, vectors=True, includes=(),
                  defines=(), only=None):
    """Contract (and vector) records of one subject in one configuration
    (harness/evidence/records.py; "status" from the verdict alone: the
    caller consults the documented findings, harness/findings/documented.py
    mark_all). includes, defines: the subject's --include and --define.
    only: run the checks whose id starts with it, no others (the runner's
    --only)."""
    out = build(spec, config, patches, quiet, includes, defines)
    identity = info(out)["identity"]
    env = toolchain.sanitizer_env("runner")
    recs = []
    runners = [(CONTRACT_SOURCES, "contracts", ["--only", only] if only else [])]
    if vectors:
        runners.append((VECTOR_SOURCES, "vectors", ["--dir", VECTOR_DIR]))
    for sources, name, args in runners:
        program = link_runner(out, config, runner_sources(*sources), name)
        what = "%s runner for %s [%s]" % (name, spec, config)
        argv = toolchain.run_argv(config, [program])
        text = (contract_lines(argv, env, args, what) if name == "contracts"
                else runner_stdout(argv + args, env, what))
        found = symbolize.records(records.read_jsonl(text, config=config, spec=spec,
                                                     identity=identity, stage="contracts"))
        recs += [records.with_status(records.normalize(r)) for r in found]
    return recs


def runner_stdout(argv, env, what):
    """What a runner printed; BadInput when it stopped."""
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, errors="replace", env=env, timeout=3600)
    if proc.returncode != 0:
        raise BadInput("%s stopped: %s" % (what, (proc.stderr.strip().splitlines() or ["?"])[-1]))
    return proc.stdout


def contract_lines(argv, env, args, what):
    """The contract runner's records (JSON lines, in its table's order). With
    LZ4GATE_RESULT_MEMO (lz4gate's own test runs, harness/result_memo.py), a
    check that passed or was n/a on the same program in the same
    environment is not run again: the runner gets the others by --id. A
    failure is run afresh every time."""
    if not result_memo.directory():
        return runner_stdout(argv + args, env, what)
    ids = runner_stdout(argv + ["--list"] + args, env, what).split()
    keys = {i: result_memo.key(argv, env, "contract\t" + i) for i in ids}
    lines = {i: r["line"] for i, r in ((i, result_memo.get(k)) for i, k in keys.items()) if r}
    todo = [i for i in ids if i not in lines]
    if todo:
        fresh = runner_stdout(argv + [a for i in todo for a in ("--id", i)], env, what)
        for line in fresh.splitlines():
            if line.startswith("{"):
                rec = json.loads(line)
                lines[rec["check"]] = line
                result_memo.put(keys.get(rec["check"]), {"verdict": rec["verdict"], "line": line},
                                keep=("pass", "n/a"))
        lost = [i for i in todo if i not in lines]
        if lost:
            raise BadInput("%s gave no record of check %s" % (what, lost[0]))
    return "\n".join(lines[i] for i in ids if i in lines) + "\n"


def configs_for(spec, configs):
    """The configurations a subject can be built in (Debian ships liblz4 for
    the native ABI only)."""
    return [c for c in configs if spec != "system" or toolchain.bits_of(c) == 64]
