"""What the boundary sweeps add to the gate's contracts stage (issue 25: at
most 60 s on a FUZZ_TIME=0 gate on 2 cores): the CPU seconds of the
sweep.* checks beside those of every contract check, for each subject and
each of the stage's configurations this machine runs, measured in the same
run (a ratio, not a timing).

    python3 -m harness.runners.contracts.sweep_cost [SPEC...]   (default: kernel upstream,
                                                                 the README's make gate)
"""
import resource
import subprocess
import sys

from harness import toolchain
from harness.errors import BadInput
from harness.runners.contracts.run import CONTRACT_SOURCES, DEFAULT_CONFIGS
from harness.runners.link import link_runner, runner_sources
from harness.subjects.build import build


def cpu_of(argv, env):
    """CPU seconds (user + system) of a program and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise BadInput("%s exited with %d" % (argv[-1], proc.returncode))
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main(argv):
    specs = argv or ["kernel", "upstream"]
    total_sweeps = total_all = 0.0
    for spec in specs:
        for config in DEFAULT_CONFIGS:
            try:
                run = toolchain.run_argv(config, [])
            except BadInput as e:
                print("%-10s %-7s not run here: %s" % (spec, config, e))
                continue
            program = link_runner(build(spec, config, [], True), config,
                                  runner_sources(*CONTRACT_SOURCES), "contracts")
            env = toolchain.sanitizer_env("runner")
            sweeps = cpu_of(run + [program, "--only", "sweep."], env)
            every = cpu_of(run + [program], env)
            total_sweeps += sweeps
            total_all += every
            print("%-10s %-7s sweeps %6.2f CPU s of %6.2f (%4.1f%%)" % (
                spec, config, sweeps, every, 100 * sweeps / every), flush=True)
    print("sweeps: %.1f CPU s of the %.1f the contract checks take (%.1f%%)" % (
        total_sweeps, total_all, 100 * total_sweeps / max(total_all, 1e-9)))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        print("sweep_cost: %s" % e, file=sys.stderr)
        sys.exit(2)
