"""Fuzzing campaigns: `python3 -m harness fuzz run`.

A campaign runs until its time is up and reports every distinct finding
(findings.py): libFuzzer in fork mode with -ignore_crashes/-ignore_ooms/
-ignore_timeouts, or AFL++, while the targets count the oracle's verdicts
instead of stopping at them (LZ4GATE_FUZZ_RECORD). Each finding is marked
known when it is documented for the subject's own tree (its identity; the
caller hands the documented findings in: harness/findings/documented.py
FuzzKnown), new otherwise.

--stop-at-first runs the old way (tests, the time-to-find bench): the first
finding that is not documented for the subject stops the run, and the
documented ones are counted (LZ4GATE_FUZZ_IGNORE).
"""
import argparse
import copy
import glob
import os
import re
import shutil

from harness.errors import EXIT_FAIL, EXIT_OK, BadInput
from harness.fuzzing import crash_triage, engines, findings
from harness import atomic, toolchain
from harness.fuzzing.build import (build, describe, not_applicable, run_dir, side_options,
                                   subject_config)
from harness.fuzzing.environment import target_env
from harness.fuzzing.targets import PAIR_TARGET, TABLE, TARGETS
from harness.paths import CORPUS, shown
from harness.evidence.failure import UBSAN_RE, clip
from harness.subjects import options
from harness.subjects.build import subject_identity

DICT = os.path.join(CORPUS, "lz4_block.dict")
say = engines.say
read_text = engines.read_text
stop_group = engines.stop_group


def seed_dir(target):
    d = os.path.join(CORPUS, target)
    if not os.path.isdir(d) or not os.listdir(d):
        raise BadInput("no seed corpus in %s; run: python3 -m harness fuzz corpus --target %s"
                       % (d, target))
    return d


def workdir(args, engine):
    return os.path.join(run_dir(args), "run-" + engine + ("-32" if str(args.bits) == "32" else ""))


def prepare_workdir(args, engine):
    work = workdir(args, engine)
    if args.fresh:
        shutil.rmtree(work, ignore_errors=True)
    corpus = os.path.join(work, "corpus")
    crashes = os.path.join(work, "crashes")
    records = os.path.join(work, "findings")
    for d in (crashes, records):             # per campaign
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    if not os.path.isdir(corpus):
        shutil.copytree(seed_dir(args.target), corpus)
    return work, corpus, crashes, records


def identities(args):
    """(subject identity, base identity or None) of a campaign's subjects."""
    if args.target == PAIR_TARGET:
        return (subject_identity(args.subject_b, args.patch_b, **side_options(args, "b")),
                subject_identity(args.subject, args.patch, **side_options(args)))
    return subject_identity(args.subject, args.patch, **side_options(args)), None


def replay_args(args):
    a = copy.copy(args)
    a.engine, a.config = "replay", None
    return a


def run(args, known=None):
    """One campaign; prints its findings; returns (exit status, findings).
    known: the documented findings (FuzzKnown), None for none. A campaign
    owns its work directory (corpus, crashes, findings) until it has
    reported: a second campaign of the same target, subjects and engine
    waits for it rather than emptying the directory under it."""
    toolchain.run_argv(subject_config(args), [])       # BadInput if it cannot run here
    why = not_applicable(args)
    if why:
        print("fuzz: %s on %s: n/a (%s)" % (args.target, describe(args), why))
        return EXIT_OK, {}
    binary = build(args)
    work = workdir(args, args.engine)
    with atomic.lock("fuzz-" + work, waiting=lambda: say(
            args, "waiting for the campaign already running in %s" % shown(work))):
        return _run(args, known, binary)


def _run(args, known, binary):
    identity, base_identity = identities(args)
    work, corpus, crashes, records = prepare_workdir(args, args.engine)
    keep_going = not args.stop_at_first
    purpose = "afl" if args.engine == "afl" else "libfuzzer"
    if keep_going:
        env = target_env(args, purpose, LZ4GATE_FUZZ_RECORD=records)
    else:   # count the subject's own documented findings, stop at anything else
        env = target_env(args, purpose, LZ4GATE_FUZZ_RECORD=records, LZ4GATE_FUZZ_STOP="1",
                         ignore=known.ids(identity) if known else ())
    dictionary = DICT if os.path.isfile(DICT) else None
    say(args, "%s: %s on %s, %d s x %d job(s)%s, corpus %s" % (
        "AFL++" if args.engine == "afl" else "libFuzzer", args.target, describe(args),
        args.time, args.jobs, "" if keep_going else ", stopping at the first finding",
        shown(corpus)))
    if args.engine == "afl":
        text, _, crash_files, failed = engines.afl(args, binary, work, corpus, env, dictionary)
        if failed and not crash_files:
            tail = [l for l in text.splitlines() if "PROGRAM ABORT" in l or "[-]" in l]
            raise BadInput("afl-fuzz failed: %s" % (tail[0].strip() if tail else "see " + work))
    else:
        text, _, status = engines.libfuzzer(args, binary, work, corpus, env, keep_going,
                                            dictionary)
        crash_files = [f for f in glob.glob(os.path.join(crashes, "*")) if os.path.isfile(f)
                       and not os.path.basename(f).startswith("slow-unit-")]
        if status not in (0, 1, None) and not crash_files and keep_going and \
                "INFO: fuzzed for" not in text and "Done" not in text:
            lines = [l for l in text.splitlines() if "ERROR" in l or "error" in l]
            raise BadInput("libFuzzer could not run %s (exit %s): %s" % (
                args.target, status, lines[0].strip() if lines else "see " + work))
    crash_found, triage = triage_crashes(args, work, crash_files, keep_going)
    triage["engine"] = engine_counts(text) if args.engine != "afl" else None
    found = findings.Findings(findings.merge(findings.from_records(records), crash_found))
    found.triage = triage
    findings.mark(found, known, identity, args.ignore)
    if base_identity:
        for f in found.values():
            # A pair finding the target recorded as the base's fault (ref
            # decides: fuzz/base_vs_candidate.c) is the base's bug: known
            # when documented for the base's tree, never the candidate's.
            if f["status"] == "new" and f.get("fault") == "base":
                fid = known.finding(f["signature"], base_identity) if known else None
                f.update(status="known" if fid else "base", finding=fid)
    findings.save(found, os.path.join(work, "findings.json"), triage)
    report(args, found, text, triage)
    return (EXIT_FAIL if any(f["status"] == "new" for f in found.values()) else EXIT_OK), found


def triage_crashes(args, work, crash_files, keep_going):
    """Every crash file, replayed as the campaign ran it: in a campaign that
    keeps going, the oracle's verdicts are recorded (to a scratch
    directory: the campaign's own record has them) and the replay goes on
    to the crash that made the file."""
    rargs = replay_args(args)
    prefix = toolchain.run_argv(subject_config(rargs), [])
    env = target_env(args, "replay")
    if keep_going:
        env["LZ4GATE_FUZZ_RECORD"] = os.path.join(work, "triage-records")
        shutil.rmtree(env["LZ4GATE_FUZZ_RECORD"], ignore_errors=True)
        os.makedirs(env["LZ4GATE_FUZZ_RECORD"])
    if crash_files:
        say(args, "triage: %d crash file(s)" % len(crash_files))
    return findings.triage_crashes(crash_files, build(rargs), env, prefix=prefix,
                                   jobs=args.jobs)


ENGINE_COUNTS_RE = re.compile(r"oom/timeout/crash: (\d+)/(\d+)/(\d+)")


def engine_counts(log_text):
    """libFuzzer's own counts of a fork-mode run (its last status line),
    or None."""
    last = None
    for last in ENGINE_COUNTS_RE.finditer(log_text):
        pass
    if not last:
        return None
    return {"ooms": int(last.group(1)), "timeouts": int(last.group(2)),
            "crashes": int(last.group(3))}


def reproduce_command(args, path):
    cmd = "python3 -m harness fuzz replay --target %s --subject %s" % (args.target, args.subject)
    if args.target == PAIR_TARGET:
        cmd += " --subject-b %s" % args.subject_b
    for p in args.patch:
        cmd += " --patch %s" % p
    for p in getattr(args, "patch_b", None) or []:
        cmd += " --patch-b %s" % p
    cmd += options.command_line(side_options(args))
    if args.target == PAIR_TARGET:
        cmd += options.command_line(side_options(args, "b"), "-b")
    return cmd + (" --bits 32" if str(args.bits) == "32" else "") + " " + shown(path)


def ubsan_lines(log_text):
    """One line per UBSan site (file:line:col and the message, addresses
    aside): a campaign reports the same overflow at lz4.c:1827:44 some 200
    times, each with other pointers (issue 41)."""
    sites = {}
    for m in UBSAN_RE.finditer(log_text):
        line = m.group(1)
        site, _, what = line.partition(": runtime error: ")
        key = (site, re.sub(r"0x[0-9a-fA-F]+", "0x...", what))
        first, n = sites.get(key, (line, 0))
        sites[key] = (first, n + 1)
    return ["UBSan in subject code (not a crash): %s%s" % (
        first, "" if n == 1 else " (%d reports at this site, other addresses)" % n)
        for _, (first, n) in sorted(sites.items())]


def report(args, found, log_text, triage=None):
    for line in ubsan_lines(log_text):
        print(line)
    if triage is not None:
        eng = triage.get("engine")
        print(crash_triage.summary_line(triage, eng and "libFuzzer counted %d crash(es), %d "
                                        "timeout(s), %d OOM(s)" % (
                                            eng["crashes"], eng["timeouts"], eng["ooms"])))
        for line in crash_triage.not_looked_at_lines(triage):
            print(line)
    if not found:
        print("fuzz: %s on %s: no finding" % (args.target, describe(args)))
        return
    count = {k: sum(f["status"] == k for f in found.values())
             for k in ("new", "known", "suppressed", "base")}
    print("fuzz: %s on %s: %d distinct finding(s), %d new, %d known, %d suppressed%s" % (
        args.target, describe(args), len(found), count["new"], count["known"],
        count["suppressed"], ", %d the base's own" % count["base"] if count["base"] else ""))
    for f in sorted(found.values(), key=lambda f: (f["status"] != "new", f["signature"])):
        label = {"new": "NEW  ", "known": "known %s" % f["finding"],
                 "suppressed": "suppressed (--ignore)",
                 "base": "the base's own (not documented)"}[f["status"]]
        print("  %s  %s  x%d%s" % (label, f["signature"], f["count"], "  (%d stack(s))" % f[
            "stacks"] if f.get("stacks") else ""))
        if getattr(args, "brief", False):
            continue            # the caller (the gate) reports the details itself
        print("    %s" % clip(f["message"], 300))
        print("    input: %s" % shown(f["input"]))
        print("    reproduce: %s" % reproduce_command(args, f["input"]))


def defaults_for(args, target):
    """args for one target of `--target all`, subjects from fuzz/targets.tsv
    unless given (--subject; for the pair target --base/--candidate)."""
    a = copy.copy(args)
    a.target = target
    d = TABLE[target].defaults
    if TABLE[target].pair:
        a.subject = args.base or d[0]
        a.subject_b = args.candidate or d[-1]
        a.patch_b = a.patch_b or []
    else:
        a.subject = args.subject or d[0]
        a.subject_b = None
    return a


def run_all(args):
    """`--target all`: every target for --time seconds each."""
    status = EXIT_OK
    for t in TARGETS:
        st, _ = run(defaults_for(args, t))
        status = max(status, st)
    return status


def namespace(**kw):
    """A campaign's arguments with their defaults (for callers in Python)."""
    base = dict(target=None, subject=None, subject_b=None, patch=[], patch_b=[],
                include=[], define=[], include_b=[], define_b=[],
                engine="libfuzzer", bits="64", config=None, time=60, jobs=1, runs=None,
                seed=None, fresh=False, ignore=[], skip=[], stop_at_first=False, quiet=False,
                brief=False,
                known_findings=None, base=None, candidate=None)
    base.update(kw)
    return argparse.Namespace(**base)
