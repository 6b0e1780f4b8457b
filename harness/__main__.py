"""`python3 -m harness COMMAND [ARGS]`: every lz4gate command, one table."""
import importlib
import sys

# command: (module with main(argv), one line of help)
COMMANDS = {
    "ref-tests": ("harness.reftests", "build (and --run) ref's C unit tests"),
    "fetch": ("harness.subjects.fetch.cli", "fetch the default subjects into build/subjects"),
    "subjects": ("harness.subjects.cli", "build a subject, show its entry points"),
    "scan": ("harness.subjects.find.cli", "list every LZ4 copy under a project tree"),
    "contracts": ("harness.runners.contracts.cli", "API contract tests and known-answer vectors"),
    "vectors": ("harness.runners.vectors.generate", "generate or check corpus/vectors"),
    "regress": ("harness.runners.regress.cli", "regression cases; --mutants, --check"),
    "fuzz": ("harness.fuzzing.cli", "fuzz targets: build, run, replay, corpus-min, triage"),
    "fuzz-bench": ("harness.bench.cli", "exec/s and time-to-find of the fuzz targets"),
    "releases": ("harness.runners.releases.cli", "cases and contracts on every lz4 release of a clone"),
    "kernels": ("harness.runners.kernels.cli", "cases and contracts on real Linux kernel trees"),
    "regressions-md": ("harness.report.regressions.cli", "generate and check REGRESSIONS.md"),
    "gate": ("harness.gate.cli", "may CANDIDATE replace BASE? (also ci/gate.py)"),
    "pr": ("harness.gate.pr", "gate the LZ4 copy a change of a project touches (merge base "
           "vs head)"),
    "acceptance": ("harness.gate.acceptance", "the gate on the acceptance set of real vendoring "
                   "updates (regress/results/acceptance.json)"),
    "kunit": ("harness.kunit.cli", "the regression cases as a KUnit suite for a kernel tree; "
              "its KTAP output read back"),
    "gate-stability": ("harness.gate.stability", "the gate N times with other fuzz seeds: "
                       "verdicts and findings per run"),
    "mutate": ("harness.mutate.cli", "mutation score of the checks on an lz4 tree: one-token "
               "mutants, killed or survived"),
    "mutate-score": ("harness.mutate.score", "the committed mutation scores "
                     "(docs/mutation-score.md) from regress/results/mutation/"),
    "planted": ("harness.gate.planted", "the verdict policy's planted scenarios: one planted "
                "bug per policy example, its evidence recorded for the tests"),
}


def usage():
    lines = ["usage: python3 -m harness COMMAND [ARGS]  (COMMAND --help for its manual)", ""]
    lines += ["  %-15s %s" % (name, text) for name, (_, text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if argv else 2
    if argv[0] not in COMMANDS:
        print("harness: unknown command '%s'\n%s" % (argv[0], usage()), file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
