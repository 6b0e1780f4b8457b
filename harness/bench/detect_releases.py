"""`fuzz-bench --find releases`: how long the fuzzers alone need to find each
catalogued bug on a real upstream release (issue 15 item 5).

Per release, one keep-going campaign per (target, run) serves every bug of
that release the target can reach (detect_bugs.py): libFuzzer fork mode
from the target's seed corpus (corpus/<target>/, no regression case, no
vector), under nice -n 10, one campaign at a time. The oracle records
every finding and goes on (LZ4GATE_FUZZ_RECORD); every crash file is
triaged as it comes (crash_triage.CrashTriage: each replayed for its stack,
the smallest of each new stack with symbols for its signature; no cap per
file). A bug's time is the campaign's
CPU time (every process of its session, children included) when the first
finding of its signature (detect_bugs.same_defect) appeared. A run ends when
all its bugs are found or at the CPU cap. Runs 1..N use -seed=1..N; a bug
missed in a majority of runs is decided (no further run for it); a bug a
target finds in a majority of runs is not run again on later targets.
Every run is one line of build/detect/runs.jsonl (reused on a rerun with the
same cap; --fresh runs again).
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

from harness import atomic, toolchain
from harness.errors import BadInput
from harness.fuzzing.build import build, subject_config
from harness.fuzzing.crash_triage import CrashTriage, summary_line
from harness.fuzzing.campaign import DICT, namespace, replay_args, seed_dir, stop_group
from harness.fuzzing.environment import target_env
from harness.bench import detect_bugs as db
from harness.paths import BUILD, TOP, shown
from harness.subjects import releases as git

OUT = os.path.join(BUILD, "detect")
RUNS_LOG = os.path.join(OUT, "runs.jsonl")
PROGRESS_LOG = os.path.join(OUT, "progress.log")
TSV = os.path.join(TOP, "regress", "results", "detection.tsv")
TARGET_ORDER = tuple(db.TARGET_ENTRIES)
POLL_S = 1.0
TICK = os.sysconf("SC_CLK_TCK")


def mtime(path):
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0


def session_cpu(sid):
    """CPU seconds of every process of session sid, with the children they
    have waited for (utime + stime + cutime + cstime, /proc/PID/stat)."""
    total = 0
    for path in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            continue
        rest = text[text.rfind(")") + 2:].split()     # rest[0] is field 3 (state)
        if len(rest) > 14 and rest[3] == str(sid):
            total += sum(int(x) for x in rest[11:15])
    return total / float(TICK)


def log(args, msg):
    os.makedirs(OUT, exist_ok=True)
    line = time.strftime("%H:%M:%S ") + msg
    with open(PROGRESS_LOG, "a") as f:
        f.write(line + "\n")
    if not args.quiet:
        print("fuzz-bench: " + msg, file=sys.stderr, flush=True)


def load_runs():
    runs = []
    if os.path.isfile(RUNS_LOG):
        with open(RUNS_LOG) as f:
            runs = [json.loads(l) for l in f if l.strip()]
    return runs


def campaign(args, ctx, tag, target, seed, pending, cap_s, bits="64"):
    """One keep-going run; returns its record."""
    a, binary, replay_bin, prefix = ctx
    work = os.path.join(OUT, tag, target + ("" if bits == "64" else "-32"), "run-%d" % seed)
    shutil.rmtree(work, ignore_errors=True)
    corpus, crashes, records = (os.path.join(work, d) for d in ("corpus", "crashes", "findings"))
    shutil.copytree(seed_dir(target), corpus)
    os.makedirs(crashes)
    os.makedirs(records)
    cmd = ["nice", "-n", "10", binary, "corpus", "-artifact_prefix=crashes/", "-timeout=30",
           "-rss_limit_mb=4096", "-seed=%d" % seed, "-fork=1", "-ignore_crashes=1",
           "-ignore_ooms=1", "-ignore_timeouts=1", "-max_total_time=%d" % (cap_s * 6 + 120)]
    if os.path.isfile(DICT):
        cmd.append("-dict=" + DICT)
    env = target_env(a, "libfuzzer", LZ4GATE_FUZZ_RECORD=records)
    # replayed as the campaign runs them: the oracle's verdicts recorded
    # (not read: the campaign's own record has them), up to the crash
    renv = target_env(a, "replay", LZ4GATE_FUZZ_RECORD=os.path.join(work, "triage-records"))
    os.makedirs(renv["LZ4GATE_FUZZ_RECORD"])
    tri = CrashTriage(replay_bin, renv, timeout=30, prefix=prefix)
    seen, found, after = {}, {}, {}
    cpu, start, stopped = 0.0, time.time(), "exited"
    with open(os.path.join(work, "fuzz.log"), "w") as out:
        proc = subprocess.Popen(cmd, cwd=work, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        try:
            while True:
                time.sleep(POLL_S)
                alive = proc.poll() is None
                cpu = max(cpu, session_cpu(proc.pid)) if alive else cpu
                for path in glob.glob(os.path.join(records, "*.input")):
                    seen.setdefault(os.path.basename(path).rsplit(".", 3)[0], cpu)
                for sig in tri.add(new_crashes(crashes, tri)):
                    seen.setdefault(sig, cpu)
                found = found_in(seen, pending)
                if len(found) == len(pending):
                    stopped = "all found"
                elif cpu >= cap_s:
                    stopped = "cap"
                elif not alive:
                    stopped = "exited"
                elif time.time() - start > cap_s * 6 + 180:
                    stopped = "wall limit"
                else:
                    continue
                break
        finally:
            if proc.poll() is None:
                stop_group(proc)
    # The files written after the last poll: looked at too, their
    # signatures kept apart (after the run's end, they time nothing).
    for sig in tri.add(new_crashes(crashes, tri)):
        (seen if stopped == "exited" else after).setdefault(sig, cpu)
    summary = tri.summary()
    summary.pop("by_stack")
    return {"tag": tag, "target": target, "seed": seed, "cap_s": cap_s,
            "bugs": sorted(b.case for b in pending), "found": found_in(seen, pending),
            "signatures": {s: round(t, 1) for s, t in sorted(seen.items())},
            "after_stop": sorted(after), "crash_triage": summary,
            "cpu_s": round(cpu, 1), "wall_s": round(time.time() - start, 1), "stopped": stopped,
            "bits": bits}


def new_crashes(crashes, tri):
    """The crash files tri has not seen, oldest first."""
    known = set(tri.files)
    return sorted((p for p in glob.glob(os.path.join(crashes, "*")) if p not in known and
                   not os.path.basename(p).startswith("slow-unit-")), key=mtime)


def found_in(signatures, bugs):
    """{case: CPU s of its first finding} of the bugs among the signatures
    a run saw ({signature: CPU s})."""
    out = {}
    for b in bugs:
        hits = [t for s, t in signatures.items() if db.same_defect(b.signature, s)]
        if hits:
            out[b.case] = round(min(hits), 1)
    return out


def prepare(tag, spec, target, bits="64"):
    a = namespace(target=target, subject=spec, engine="libfuzzer", quiet=True, bits=bits)
    binary = build(a)
    ra = replay_args(a)
    return a, binary, build(ra), toolchain.run_argv(subject_config(ra), [])


def majority(n):
    return n // 2 + 1


def run_pairs(args, pairs, bugs, specs):
    """Run the campaigns of every requested (case, tag) pair, release by
    release; returns the run records that bear on them."""
    old = [] if args.fresh else load_runs()
    used, by_tag = [], {}
    for cid, tag in pairs:
        by_tag.setdefault(tag, []).append(bugs[(cid, tag)])
    cap_s = args.cap_cpu_min * 60
    for tag, here in by_tag.items():
        decided = set()            # found in a majority of runs by an earlier target
        for target, bits in [(t, b) for t in TARGET_ORDER for b in ("64", "32")]:
            relevant = [b for b in here if target in b.targets and b.bits == bits and
                        b.case not in decided]
            what = target if bits == "64" else target + " (32-bit)"
            if not relevant:
                continue
            times = {b.case: [] for b in relevant}
            ctx = None
            for seed in range(1, args.runs + 1):
                pending = [b for b in relevant
                           if sum(t is None for t in times[b.case]) < majority(args.runs)]
                if not pending:
                    break
                names = sorted(b.case for b in pending)
                rec = next((r for r in old if (r["tag"], r["target"], r["seed"], r["cap_s"],
                                               r.get("bits", "64")) ==
                            (tag, target, seed, cap_s, bits) and set(names) <= set(r["bugs"])),
                           None)
                if rec is None:
                    if ctx is None:
                        log(args, "%s: building %s" % (tag, what))
                        try:
                            ctx = prepare(tag, specs[tag], target, bits)
                        except BadInput as e:     # a row without this target's runs
                            log(args, "%s: cannot build %s: %s" % (tag, what, e))
                            break
                    log(args, "%s %s run %d/%d: %d bug(s) (%s), cap %d CPU s" % (
                        tag, what, seed, args.runs, len(pending), ", ".join(names), cap_s))
                    rec = campaign(args, ctx, tag, target, seed, pending, cap_s, bits)
                    with open(RUNS_LOG, "a") as f:
                        f.write(json.dumps(rec, sort_keys=True) + "\n")
                    log(args, "%s %s run %d: %s after %.0f CPU s (%.0f s wall); found %s" % (
                        tag, what, seed, rec["stopped"], rec["cpu_s"], rec["wall_s"],
                        ", ".join("%s %.0f s" % kv for kv in sorted(rec["found"].items()))
                        or "none"))
                    log(args, "%s %s run %d: %s" % (tag, what, seed,
                                                   summary_line(rec["crash_triage"])))
                    for m in rec["crash_triage"]["not_looked_at"]:
                        log(args, "  not looked at: %s (%s)" % (m["path"], m["why"]))
                used.append(rec)
                got = found_in(rec["signatures"], pending)      # a reused run: today's rule
                for b in pending:
                    times[b.case].append(got.get(b.case))
            for cid, ts in times.items():
                if sum(t is not None for t in ts) >= majority(args.runs):
                    decided.add(cid)
    return used


def results(args, pairs, bugs, runs):
    """One row per pair: the target with the best median (misses count as
    above the cap; a run not made after a majority of misses is a miss)."""
    cap_s = args.cap_cpu_min * 60
    rows = []
    for cid, tag in pairs:
        b = bugs[(cid, tag)]
        best = None
        for target in b.targets:
            rs = sorted((r for r in runs if (r["tag"], r["target"]) == (tag, target)
                         and r.get("bits", "64") == b.bits and cid in r["bugs"]
                         and r["cap_s"] == cap_s), key=lambda r: r["seed"])
            if not rs:
                continue
            # Matched again here, so that the table follows same_defect.
            ts = [found_in(r["signatures"], [b]).get(cid) for r in rs][:args.runs]
            ts += [None] * (args.runs - len(ts))
            inf = [t if t is not None else float("inf") for t in ts]
            med = sorted(inf)[(args.runs - 1) // 2]
            key = (med, sum(t is None for t in ts))
            if best is None or key < best[0]:
                best = (key, target, ts, med)
        rows.append({"case": cid, "tag": tag, "commit": b.commit, "signature": b.signature,
                     "targets": b.targets,
                     "target": best[1] + ("" if b.bits == "64" else " (32-bit)") if best else None,
                     "times": best[2] if best else [None] * args.runs,
                     "median": best[3] if best and best[3] != float("inf") else None,
                     "shares": sorted(c for (c, t), o in bugs.items() if t == tag and c != cid
                                      and o.signature == b.signature and not o.skip)})
    return rows


def fmt_t(t):
    return "-" if t is None else "%.0f" % t


def print_table(args, rows, skipped):
    cap_s = args.cap_cpu_min * 60
    print("Detection on real upstream releases: the fuzzers alone (seed corpora, no regression "
          "case, no vector), keep-going libFuzzer campaigns, nice -n 10, one at a time; "
          "time = CPU seconds of the campaign to the first finding with the bug's signature; "
          "median of %d runs (-seed=1..%d), each capped at %d CPU s; a bug missed in a "
          "majority of runs is not found" % (args.runs, args.runs, cap_s))
    print("Releases: %s" % ("the pairs asked for" if args.tags or args.bugs else
                            "for each bug, the newest release that carries it (the one a "
                            "vendoring user is most likely to take)"))
    print()
    hdr = ("bug", "release", "signature", "target", "median", "runs (CPU s)")
    lines = [(r["case"], r["tag"], r["signature"],
              r["target"] if r["median"] is not None else "+".join(r["targets"]),
              fmt_t(r["median"]) if r["median"] is not None else
              "not found within cap", " ".join(fmt_t(t) for t in r["times"])) for r in rows]
    widths = [max(len(x[i]) for x in lines + [hdr]) for i in range(len(hdr))]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    print(fmt % hdr)
    for l in lines:
        print(fmt % l)
    print()
    n = sum(r["median"] is not None for r in rows)
    print("found within the cap: %d of %d bug x release rows%s" % (
        n, len(rows), "" if n == len(rows) else "; not found: " + ", ".join(
            "%s on %s" % (r["case"], r["tag"]) for r in rows if r["median"] is None)))
    print("runs: CPU seconds to the finding, \"-\": not found within the cap or not run "
          "(a majority of misses decides); signature: class@entry of the case's failure on "
          "that release (regress/results/releases.jsonl); a finding is the bug when its "
          "class family and entry are the same (detect_bugs.same_defect); bugs of one "
          "release with one signature are found together")
    if skipped:
        print("Not benchmarked (no userspace block or frame API trigger a 64-bit fuzzer "
              "reaches):")
        for cid, why in sorted(skipped.items()):
            print("  %s: %s" % (cid, why))


TSV_HEADER = ("case", "release", "commit", "signature", "target", "found", "median_cpu_s",
              "runs_cpu_s", "cap_cpu_s", "same_signature")


def write_tsv(args, rows, order, path=TSV):
    """Writes the rows measured now over the same (case, release) rows of
    the file; the file's other rows stay as they are. Rows in release order,
    then by case."""
    new = {(r["case"], r["tag"]) for r in rows}
    lines = []
    if os.path.isfile(path):
        with open(path) as f:
            lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#") and
                     not l.startswith(TSV_HEADER[0] + "\t") and
                     tuple(l.split("\t")[:2]) not in new]
    for r in rows:
        found = r["median"] is not None
        lines.append("\t".join([r["case"], r["tag"], r["commit"] or "-", r["signature"],
                                r["target"] if found else "+".join(r["targets"]),
                                "yes" if found else "no", fmt_t(r["median"]),
                                ",".join(fmt_t(t) for t in r["times"]),
                                str(args.cap_cpu_min * 60), ",".join(r["shares"]) or "-"]))
    lines.sort(key=lambda l: (order.get(l.split("\t")[1], len(order)), l.split("\t")[0]))
    with open(path, "w") as f:
        f.write("# fuzz-bench --find releases (harness/bench/detect_releases.py): "
                "CPU seconds to the first finding of each bug; runs_cpu_s: one per run, "
                "- when not found; target: the best one (a miss lists those tried)\n")
        f.write("\t".join(TSV_HEADER) + "\n")
        f.writelines(l + "\n" for l in lines)


def detect(args):
    if not args.lz4_git:
        raise BadInput("--find releases needs a git clone of lz4: --lz4-git DIR "
                       "(make fuzz-bench FIND=releases LZ4_GIT=DIR)")
    if not os.path.isdir(args.lz4_git):
        raise BadInput("--lz4-git %s: no such directory" % args.lz4_git)
    bugs = db.catalogue()
    trees, _ = db.load_releases()
    order = db.release_order(trees)
    wanted = [c for c in re.split(r"[,\s]+", args.bugs or "") if c]
    tags = [t for t in re.split(r"[,\s]+", args.tags or "") if t]
    unknown = [c for c in wanted if not any(k[0] == c for k in bugs)]
    if unknown:
        raise BadInput("no release FAILs case %s (regress/results/releases.jsonl)" %
                       ", ".join(unknown))
    skipped = {b.case: b.skip for b in bugs.values() if b.skip and
               (not wanted or b.case in wanted)}
    if tags:
        pairs = sorted((k for k, b in bugs.items() if k[1] in tags and not b.skip and
                        (not wanted or k[0] in wanted)), key=lambda k: (order[k[1]], k[0]))
    else:
        pairs = [k for k in db.default_set(bugs, order) if not wanted or k[0] in wanted]
    if not pairs:
        raise BadInput("no benchmarked bug on %s" % (", ".join(tags) or "these releases"))
    # One at a time (after the arguments are checked): the work directories
    # under build/detect/ have fixed names, and runs.jsonl is appended to.
    with atomic.lock("fuzz-bench-detect", waiting=lambda: log(
            args, "waiting for the fuzz-bench --find releases already running")):
        return _detect(args, pairs, bugs, order, skipped)


def _detect(args, pairs, bugs, order, skipped):
    specs = {}
    for tag in sorted({t for _, t in pairs}, key=order.get):
        d, commit = git.export(args.lz4_git, tag, tag)
        specs[tag] = "upstream:" + d
    os.makedirs(OUT, exist_ok=True)
    runs = run_pairs(args, pairs, bugs, specs)
    rows = results(args, pairs, bugs, runs)
    total = sum(r["cpu_s"] for r in runs)
    log(args, "total campaign CPU: %.0f s" % total)
    print_table(args, rows, skipped)
    print("campaign CPU time of these runs: %.0f s (%.1f min), %d runs" % (
        total, total / 60, len(runs)))
    if args.write:
        write_tsv(args, rows, order)
        print("wrote %s" % shown(TSV))
    return rows
