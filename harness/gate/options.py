"""The gate's options: parsed, checked, and described (--help).

A bad value is one line on stderr and exit 2, before anything runs."""
import argparse
import os

from harness import toolchain
from harness.errors import BadInput
from harness.fuzzing.targets import TARGETS
from harness.subjects import options as subject_options
from harness.subjects import project
from harness.subjects.spec import Subject
from harness.paths import BUILD

DESCRIPTION = """\
lz4gate gate: may CANDIDATE replace BASE?

Stages (each prints a progress line and its own time):
  1. build     both subjects in every configuration the stages need
  2. contracts API contract tests and known-answer vectors on both
  3. regress   every regression case on both
  4. compare   compressed size and speed, base vs candidate (-O2 builds)
  5. replay    the fuzz seed corpora on the candidate (and the pair target)
  6. fuzz      differential fuzzing for --fuzz-time seconds in all, split over
               the targets (each at least --fuzz-target-min, 10 s); campaigns keep going past findings and report each
               distinct one (de-duplicated by signature) with a count and a
               reproducer
  7. coverage  gcovr over the candidate's sources, from contracts + regression runs

Verdict (exit status): 0 PASS, 1 FAIL, 2 could not run: a stage the options
ask for that cannot run (a subject that does not build, a fuzz target that
does not build, gcovr failing...) stops the gate with one line naming the
stage and the cause. Only stages skipped on purpose (--fuzz-time 0,
--no-coverage) are skipped, and the report says so at the top.

The verdict is decided once, by one classifier (harness/findings/classify.py)
over every record of both sides and every replay of each fuzz finding, with
one policy table (harness/findings/policy.py, printed in every report):
  - FAIL: a lost fix (a regression case the base passes, the candidate
    fails); a regression: a bug the candidate brings that the base does not
    have, of a failing kind (memory safety, data corruption, a false reject)
    or a catalogued bug the base predates;
  - WARN (FAIL under --strict): a behaviour change (the format's latitude,
    a return convention, undefined behaviour without a memory error,
    resources, a check lz4gate could not complete);
  - INFO: not reproducible, waived, known (one root cause on both sides:
    the same check or input failing on both, or a failure at the same place
    in the subject's code however it was reached; a documented finding of
    the candidate's tree in an entry point the base lacks; the base's own
    bug), newly fixed.
A failure's kind is its class's (harness/runners/common/fail_class.h), never
read from a message. A base's documented findings never hide a candidate's
failure, nor do the candidate's hide one the base does not have.

Copies kept in pieces: --include DIR (headers the copy includes and does not
hold; a relative DIR is taken from each side's tree) and --define
NAME[=VALUE] (configuration macros: LZ4_HEAPMODE, LZ4_MEMORY_USAGE,
LZ4_DISTANCE_MAX, LZ4LIB_API, renaming macros) apply to both sides,
--base-include/--base-define and --candidate-include/--candidate-define to
one. They are part of each subject (its identity, every cache key). A copy
with only some entry points (decoder only, no HC, no frame API) is tested
for those; the others are n/a, and the report lists what each side has.

Default scenario: BASE = the kernel's LZ4 from Debian's linux-source-6.1,
CANDIDATE = upstream lz4 from Debian's lz4 source package ("replace the
kernel's copy with upstream 1.9.4").

Outputs in --out (default build/gate): report.md (a pull-request comment,
under 64 KiB), report-full.md (every detail), findings.json (the verdict and
every finding, stable across runs), junit.xml, results.sarif (SARIF 2.1.0),
records.jsonl, fuzz.log, coverage/ (gcovr HTML + Cobertura XML).
"""


# Stages a user may skip on purpose (build always runs; fuzzing is
# --fuzz-time 0, coverage also --no-coverage).
SKIPPABLE = ("contracts", "regress", "compare", "replay", "coverage")


DEFAULT_CONFIGS = ("asan64", "asan32", "O0", "O2")


def default_configs():
    """The default configurations on this machine, and a note when one was
    replaced: a 32-bit sanitizer build cannot run without IA-32 emulation,
    so the plain 32-bit build (under qemu-i386) keeps 32-bit coverage."""
    if toolchain.runnable("asan32"):
        return list(DEFAULT_CONFIGS), None
    return [c if c != "asan32" else "O2-32" for c in DEFAULT_CONFIGS], (
        "32-bit: O2-32 under %s instead of asan32 (%s)" % (toolchain.I386_EMULATOR,
                                                           toolchain.NO_I386))


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput("%s; see ci/gate.py --help" % message)


def parser():
    ap = OneLineParser(prog="ci/gate.py", description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="Manual: docs/gate.md")
    ap.add_argument("--base", default="kernel", metavar="SPEC",
                    help="the vendored copy today (default: kernel, Linux 6.1)")
    ap.add_argument("--candidate", default="upstream", metavar="SPEC",
                    help="what the update brings in (default: upstream, lz4 1.9.4)")
    ap.add_argument("--patch", action="append", default=[], metavar="FILE",
                    help="patch applied to a copy of the candidate tree (repeatable; a "
                         "mailbox of several patches applies in order)")
    subject_options.add_arguments(ap, subject_options.GATE_SIDES)
    project.add_arguments(ap, ("", "base", "candidate"))   # project:DIR sides
    ap.add_argument("--fuzz-time", type=int, default=60, metavar="S",
                    help="seconds of fuzzing in all (0: no fuzzing; default 60)")
    ap.add_argument("--fuzz-target-min", type=int, default=10, metavar="S",
                    help="the least time each fuzz target gets when --fuzz-time is split "
                         "(default 10: a campaign's start and corpus load take seconds; "
                         "a smoke run may take 1)")
    ap.add_argument("--fuzz-seed", type=int, default=None, metavar="N",
                    help="libFuzzer's -seed base (default: derived from both subjects' "
                         "identities; each target adds its own offset; the report prints "
                         "every seed used, and a rerun with them draws the same inputs)")
    ap.add_argument("--replay-inputs", default=None, metavar="DIR",
                    help="also replay these inputs in the replay stage: files named "
                         "TARGET-*.bin, as an earlier report's reproducers/ holds them")
    ap.add_argument("--fuzz-targets", default="all", metavar="T,T...",
                    help="the fuzz targets of the replay and fuzz stages (default all: "
                         "fuzz/targets.tsv)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, metavar="N",
                    help="parallel fuzzing processes (default: the number of cores)")
    ap.add_argument("--strict", action="store_true", help="known findings fail the gate too")
    ap.add_argument("--kunit", action="store_true",
                    help="also run the regression cases inside each side's own kernel "
                         "(a whole kernel tree, kernel:DIR): the generated KUnit suites "
                         "under UML, as make kunit does (minutes per side; UML needs "
                         "flex, bison and bc); a side that is no whole tree is noted")
    ap.add_argument("--configs", default=None, metavar="C,C...",
                    help="build configurations (default asan64,asan32,O0,O2; on a machine "
                         "that cannot execute 32-bit x86 programs, O2-32 under qemu-i386 "
                         "stands in for asan32 and the report says so; named here, asan32 "
                         "there is exit 2)")
    ap.add_argument("--out", default=os.path.join(BUILD, "gate"), metavar="DIR")
    ap.add_argument("--no-coverage", action="store_true", help="skip the coverage stage")
    ap.add_argument("--skip", action="append", default=[], metavar="STAGE", choices=SKIPPABLE,
                    help="skip a stage on purpose (repeatable: %s); the report says so at "
                         "the top" % ", ".join(SKIPPABLE))
    ap.add_argument("--base-name", default=None, metavar="TEXT",
                    help="what the report calls the base (default: the tree as given, or "
                         "what a default subject is: \"Linux 6.1.192 (Debian "
                         "linux-source-6.1)\"; harness pr gives project, folder, "
                         "version and commit)")
    ap.add_argument("--candidate-name", default=None, metavar="TEXT",
                    help="what the report calls the candidate (as --base-name)")
    ap.add_argument("--source-root", default=None, metavar="DIR",
                    help="the root of the candidate's repository, which the report's paths "
                         "(\"Where:\", SARIF) are relative to (default: the git top level "
                         "of the candidate's tree, else the tree)")
    ap.add_argument("--waivers", default=None, metavar="FILE",
                    help="reviewed deviations that do not fail the gate (default: "
                         ".lz4gate.toml at the root of the candidate's repository; format: "
                         "harness/gate/waivers.py)")
    ap.add_argument("--doc-url", default=None, metavar="URL",
                    help="link each case to URL#id (REGRESSIONS.md as published); default: "
                         "no links, each item carries its own summary")
    ap.add_argument("--known-findings", metavar="FILE",
                    help="documented findings (default harness/findings/known_findings.json)")
    return ap


def parse(argv):
    """The checked options; BadInput (exit 2) for any bad value."""
    a = parser().parse_args(argv)
    if a.fuzz_target_min < 1:
        raise BadInput("--fuzz-target-min must be at least 1, not %d" % a.fuzz_target_min)
    if a.fuzz_time < 0:
        raise BadInput("--fuzz-time must be 0 (no fuzzing) or positive, not %d" % a.fuzz_time)
    if a.jobs < 1:
        raise BadInput("--jobs must be at least 1, not %d" % a.jobs)
    a.config_note = None
    if a.configs is None:
        a.configs, a.config_note = default_configs()
    else:
        a.configs = [c for c in a.configs.split(",") if c]
    if not a.configs:
        raise BadInput("--configs names no configuration")
    for c in a.configs:
        if c not in toolchain.RUNNER_CONFIGS:
            raise BadInput("unknown configuration '%s'; use some of: %s"
                           % (c, ", ".join(toolchain.RUNNER_CONFIGS)))
    a.fuzz_targets = list(TARGETS) if a.fuzz_targets == "all" else \
        [t for t in a.fuzz_targets.split(",") if t]
    for t in a.fuzz_targets:
        if t not in TARGETS:
            raise BadInput("unknown fuzz target '%s'; use all or some of: %s"
                           % (t, ", ".join(TARGETS)))
    a.patch = [os.path.abspath(p) for p in a.patch]
    for p in a.patch:
        if not os.path.isfile(p):
            raise BadInput("patch file %s does not exist" % p)
    project.check_used(a, [a.base, a.candidate])
    a.base, = project.apply_arguments(a, [a.base], "base")
    a.candidate, = project.apply_arguments(a, [a.candidate], "candidate")
    # Each side's --include/--define: both sides' first, then its own.
    a.base_opts = subject_options.side(a, "", "base_")
    a.candidate_opts = subject_options.side(a, "", "candidate_")
    Subject(a.base, (), **a.base_opts)     # an unknown SPEC, a missing tree or include
    Subject(a.candidate, a.patch, **a.candidate_opts)   # directory: now, before any stage
    if a.replay_inputs and not os.path.isdir(a.replay_inputs):
        raise BadInput("--replay-inputs %s is not a directory" % a.replay_inputs)
    if a.waivers and not os.path.isfile(a.waivers):
        raise BadInput("--waivers %s does not exist" % a.waivers)
    if a.source_root and not os.path.isdir(a.source_root):
        raise BadInput("--source-root %s is not a directory" % a.source_root)
    if a.known_findings and not os.path.isfile(a.known_findings):
        raise BadInput("--known-findings %s does not exist" % a.known_findings)
    if a.no_coverage and "coverage" not in a.skip:
        a.skip.append("coverage")
    a.out = os.path.abspath(a.out)
    if os.path.exists(a.out) and not os.path.isdir(a.out):
        raise BadInput("--out %s is not a directory" % a.out)
    return a
