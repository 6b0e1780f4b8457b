"""The environment of a fuzz target: the findings it counts instead of
stopping at (LZ4GATE_FUZZ_IGNORE: only what the user names with --ignore, or
a subject's own documented findings in a run that stops at its first
finding), the entry points it skips (LZ4GATE_FUZZ_SKIP), and the sanitizer
options of the engine."""
from harness import toolchain
from harness.fuzzing.targets import PAIR_TARGET
from harness.subjects import options
from harness.subjects.build import subject_identity


def tested_spec(args):
    """The subject whose bugs a target looks for: the candidate of the pair
    target (--subject-b), else --subject."""
    return args.subject_b if args.target == PAIR_TARGET and args.subject_b else args.subject


def documented_ids(args, known):
    """CLASS@ENTRY of the findings documented for the tested subject's own
    tree (never another subject's: a base's findings must not hide a
    candidate's); known: harness/findings/documented.py FuzzKnown."""
    b = args.target == PAIR_TARGET and args.subject_b
    patches = args.patch_b if b else args.patch
    kw = options.side(args, "_b" if b else "")
    return known.ids(subject_identity(tested_spec(args), patches, **kw))


def target_env(args, purpose="libfuzzer", ignore=(), **extra):
    env = toolchain.sanitizer_env(purpose, **extra)
    ids = list(args.ignore) + [i for i in ignore if i not in args.ignore]
    if ids:
        env["LZ4GATE_FUZZ_IGNORE"] = ",".join(ids)
    if args.skip:
        env["LZ4GATE_FUZZ_SKIP"] = ",".join(args.skip)
    return env


def generation_of(spec):
    """kernel or upstream, for naming a new case KLZ4-* or ULZ4-*."""
    kind = spec.partition(":")[0]
    return "kernel" if kind.startswith("kernel") else "upstream"
