"""`python3 -m harness fuzz`: the fuzz driver's command line."""
import argparse
import sys

from harness import toolchain
from harness.errors import EXIT_BAD_INPUT, EXIT_OK, BadInput
from harness.findings import documented
from harness.fuzzing import campaign, corpus, replay, triage
from harness.fuzzing.build import AFL_DRIVER, ENGINES, build
from harness.fuzzing.help import HELP
from harness.fuzzing.targets import PAIR_TARGET, TARGETS
from harness.subjects import options, project


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(message + "; see python3 -m harness fuzz --help")


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(HELP.format(afl_driver=AFL_DRIVER, targets=", ".join(TARGETS)))
        return EXIT_OK if argv else EXIT_BAD_INPUT
    ap = Parser(prog="harness fuzz", add_help=False)
    ap.add_argument("command", choices=("build", "run", "replay", "corpus", "corpus-min",
                                        "triage", "list"))
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--target")
    ap.add_argument("--subject")
    ap.add_argument("--subject-b", dest="subject_b")
    ap.add_argument("--patch", action="append", default=[])
    ap.add_argument("--patch-b", dest="patch_b", action="append", default=[])
    options.add_arguments(ap, options.FUZZ_SIDES)     # --include, --define, --include-b, ...
    ap.add_argument("--engine", default="libfuzzer")
    ap.add_argument("--bits", default="64")
    ap.add_argument("--config")
    ap.add_argument("--time", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--runs", type=int)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--ignore", action="append", default=[])
    ap.add_argument("--skip", action="append", default=[])
    ap.add_argument("--known", action="store_true")
    ap.add_argument("--known-findings", dest="known_findings")
    ap.add_argument("--stop-at-first", action="store_true")
    ap.add_argument("--base")
    ap.add_argument("--candidate")
    ap.add_argument("--id", dest="case_id")
    ap.add_argument("--out-dir")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--minimize-time", type=int, default=30)
    ap.add_argument("--minimize-runs", type=int, default=200000)
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--dir")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--targets", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    project.add_arguments(ap)      # for project:DIR subjects (docs/subjects.md: Project APIs)
    try:
        args = ap.parse_intermixed_args(argv)
        return dispatch(args)
    except BadInput as e:
        print("harness fuzz: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT


def dispatch(args):
    specs = [args.subject, args.subject_b, args.base, args.candidate]
    project.check_used(args, specs)
    args.subject, args.subject_b, args.base, args.candidate = \
        project.apply_arguments(args, specs)
    if args.command == "list":
        if args.targets:
            print("\n".join(TARGETS))
            return EXIT_OK
        print("targets: " + " ".join(TARGETS))
        print("engines: " + " ".join(ENGINES))
        print("replay configs: " + " ".join(toolchain.RUNNER_CONFIGS))
        return EXIT_OK
    if not args.target:
        raise BadInput("%s needs --target (one of: %s)" % (args.command, ", ".join(TARGETS)))
    if args.command == "corpus":
        return corpus.corpus(args)
    if args.command == "corpus-min":
        return corpus.corpus_min(args)
    if args.time <= 0 or args.jobs <= 0 or (args.runs is not None and args.runs <= 0):
        raise BadInput("--time, --jobs and --runs must be positive")
    if args.command == "run" and args.target == "all":
        if args.subject_b:
            raise BadInput("--target all takes --base and --candidate for %s, not --subject-b"
                           % PAIR_TARGET)
        if args.engine == "replay":
            raise BadInput("run needs a fuzzing engine: --engine libfuzzer or afl")
        return campaign.run_all(args)
    if args.command == "run" and args.target in TARGETS and not args.subject:
        args = campaign.defaults_for(args, args.target)     # fuzz/targets.tsv
    if not args.subject:
        raise BadInput("%s needs --subject SPEC (e.g. ref, upstream, kernel)" % args.command)
    if args.paths and args.command not in ("replay", "triage"):
        raise BadInput("unexpected argument '%s'" % args.paths[0])
    if args.command == "build":
        print(build(args))
        return EXIT_OK
    if args.command == "replay":
        return replay.replay(args)
    known = documented.FuzzKnown(documented.Documented(args.known_findings))
    if args.command == "triage":
        return triage.triage(args, known)
    if args.engine == "replay":
        raise BadInput("run needs a fuzzing engine: --engine libfuzzer or afl")
    status, _ = campaign.run(args, known)
    return status
