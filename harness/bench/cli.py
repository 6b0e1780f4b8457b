"""`python3 -m harness fuzz-bench`: the command line."""
import argparse
import sys

from harness import atomic
from harness.errors import EXIT_BAD_INPUT, EXIT_OK, BadInput
from harness.bench.detect_releases import detect
from harness.bench.find import find
from harness.bench.help import HELP
from harness.bench.speed import check_only, speed


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(message + "; see python3 -m harness fuzz-bench --help")


def main(argv):
    if argv and argv[0] in ("-h", "--help", "help"):
        print(HELP)
        return EXIT_OK
    ap = Parser(prog="harness fuzz-bench", add_help=False)
    ap.add_argument("--time", type=int, default=30)
    ap.add_argument("--max-len", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--subject")
    ap.add_argument("--base", default="kernel")
    ap.add_argument("--candidate", default="upstream")
    ap.add_argument("--upstream-tree")
    ap.add_argument("--upstream-debuglevel", type=int, default=0)
    # --find alone: the planted bugs; --find releases: real release bugs.
    ap.add_argument("--find", nargs="?", const="planted", choices=("planted", "releases"))
    ap.add_argument("--lz4-git")
    ap.add_argument("--tags", default="")
    ap.add_argument("--bugs", default="")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cap-cpu-min", type=float, default=10)
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--find-runs", type=int, default=5)
    ap.add_argument("--find-timeout", type=int, default=60)
    ap.add_argument("--find-from", default="seeds,empty")
    ap.add_argument("--only", default="")
    ap.add_argument("-q", "--quiet", action="store_true")
    try:
        args = ap.parse_args(argv)
        args.only = [n for n in args.only.split(",") if n]
        args.find_from = [f for f in args.find_from.split(",") if f]
        if not args.find_from or set(args.find_from) - {"seeds", "empty"}:
            raise BadInput("--find-from takes seeds, empty or seeds,empty")
        for name in ("time", "max_len", "rounds", "find_runs", "find_timeout", "runs",
                     "cap_cpu_min"):
            if getattr(args, name) <= 0:
                raise BadInput("--%s must be positive" % name.replace("_", "-"))
        if args.find == "releases":      # its own benchmark: no speed table
            detect(args)
            return EXIT_OK
        if args.no_speed and not args.find:
            raise BadInput("--no-speed leaves nothing to do; add --find")
        check_only(args)
        # One bench at a time (after the arguments are checked): its work
        # directories under build/fuzz-bench/ have fixed names, and two
        # benches on shared cores would measure each other.
        with atomic.lock("fuzz-bench", waiting=lambda: print(
                "fuzz-bench: waiting for the fuzz-bench already running", file=sys.stderr)):
            bench(args)
    except BadInput as e:
        print("harness fuzz-bench: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


def bench(args):
    if not args.no_speed:
        speed(args)
    if args.find:
        if not args.no_speed:
            print()
        find(args)
