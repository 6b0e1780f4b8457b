"""Running the fuzzing engines: libFuzzer (fork mode, or -jobs for a run that
stops at its first finding) and AFL++ (-M/-S), with a progress line at least
every PROGRESS_EVERY seconds, bounded in time."""
import os
import re
import signal
import subprocess
import sys
import time

PROGRESS_EVERY = 5          # seconds between progress lines (at most 10)
GRACE = 60                  # seconds past --time before a run is stopped


def say(args, msg):
    if not getattr(args, "quiet", False):
        print("fuzz: " + msg, file=sys.stderr, flush=True)


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def stop_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


STATUS_LINE = re.compile(r"^#(\d+)[:\s].*?cov: (\d+).*?corp: (\d+).*?exec/s:? (\d+)", re.M)


def libfuzzer_status(logs):
    """Executions, exec/s (summed over jobs), coverage and corpus size from
    the last status line of each log ("#N ... cov: C ... corp: K ... exec/s: R";
    fork mode prints "#N: cov: C ft: F corp: K exec/s: R ...")."""
    execs = rate = cov = corp = 0
    for log in logs:
        last = None
        for last in STATUS_LINE.finditer(read_text(log)):
            pass
        if last:
            execs += int(last.group(1))
            rate += int(last.group(4))
            cov = max(cov, int(last.group(2)))
            corp = max(corp, int(last.group(3)))
    return execs, rate, cov, corp


def afl_stats(path):
    stats = {}
    for line in read_text(path).splitlines():
        k, _, v = line.partition(":")
        stats[k.strip()] = v.strip()
    return stats


def watch(args, procs, seconds, progress):
    """Wait for procs (a list of Popen in their own process groups) for
    seconds + GRACE at most, printing progress() every PROGRESS_EVERY s."""
    start = last = time.time()
    try:
        while any(p.poll() is None for p in procs):
            time.sleep(0.5)
            now = time.time()
            if now > start + seconds + GRACE:
                say(args, "still running %d s past --time; stopping it" % (now - start - seconds))
                for p in procs:
                    stop_group(p)
                break
            if now - last >= PROGRESS_EVERY:
                last = now
                say(args, "%3d s: %s" % (now - start, progress()))
    except KeyboardInterrupt:
        for p in procs:
            stop_group(p)
        raise
    return time.time() - start


def libfuzzer(args, binary, work, corpus, env, keep_going, dictionary=None):
    """Run libFuzzer; return (log text, elapsed seconds). Keep-going mode is
    libFuzzer's fork mode: a crash, OOM or timeout ends one job, is saved
    under crashes/, and the campaign goes on until --time is up."""
    cmd = [binary, "corpus", "-artifact_prefix=crashes/", "-print_final_stats=1",
           "-timeout=60", "-rss_limit_mb=4096", "-max_total_time=%d" % args.time]
    if dictionary:
        cmd.append("-dict=" + dictionary)
    if args.seed is not None:
        cmd.append("-seed=%d" % args.seed)
    if keep_going:
        cmd += ["-fork=%d" % args.jobs, "-ignore_crashes=1", "-ignore_ooms=1",
                "-ignore_timeouts=1"]
    elif args.jobs > 1:
        cmd += ["-jobs=%d" % args.jobs, "-workers=%d" % args.jobs]
    if args.runs:       # fork mode: executions of every job summed (FuzzWithFork)
        cmd.append("-runs=%d" % args.runs)
    logs = [os.path.join(work, "fuzz-%d.log" % i) for i in range(args.jobs)] \
        if args.jobs > 1 and not keep_going else [os.path.join(work, "fuzz-0.log")]
    for old in logs + [os.path.join(work, "driver.log")]:
        if os.path.exists(old):
            os.remove(old)
    out_path = logs[0] if len(logs) == 1 else os.path.join(work, "driver.log")
    with open(out_path, "w") as out:
        proc = subprocess.Popen(cmd, cwd=work, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        crashes = os.path.join(work, "crashes")

        def progress():
            execs, rate, cov, corp = libfuzzer_status(logs)
            return "%d execs, %d exec/s, cov %d, corpus %d, crashes %d" % (
                execs, rate, cov, corp, len(os.listdir(crashes)))
        elapsed = watch(args, [proc], args.time + (600 if args.runs else 0), progress)
    text = "\n".join(read_text(l) for l in logs + [os.path.join(work, "driver.log")])
    execs, rate, cov, corp = libfuzzer_status(logs)
    avg = sum(int(x) for x in re.findall(r"stat::average_exec_per_sec:\s+(\d+)", text)) or rate
    say(args, "done after %d s: %d execs, %s exec/s on average, cov %d, corpus %d"
        % (elapsed, execs, avg, cov, corp))
    return text, elapsed, proc.returncode


def afl(args, binary, work, corpus, env, dictionary=None):
    """Run AFL++ (one -M and jobs-1 -S instances); AFL++ keeps going past
    crashes by itself. Returns (log text, elapsed, crash files)."""
    out = os.path.join(work, "afl")
    env = dict(env, AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
               AFL_NO_AFFINITY="1", AFL_AUTORESUME="1")
    names = ["main0"] + ["sec%d" % i for i in range(1, args.jobs)]
    procs, logs = [], []
    for i, name in enumerate(names):
        cmd = ["afl-fuzz", "-i", corpus, "-o", out, "-M" if i == 0 else "-S", name,
               "-V", str(args.time), "-t", "5000", "-m", "none"]
        if dictionary:
            cmd += ["-x", dictionary]
        logs.append(open(os.path.join(work, "afl-%s.log" % name), "w"))
        procs.append(subprocess.Popen(cmd + ["--", binary], cwd=work, stdout=logs[-1],
                                      stderr=subprocess.STDOUT, env=env, start_new_session=True))

    def progress():
        execs = rate = paths = crash = 0
        for name in names:
            st = afl_stats(os.path.join(out, name, "fuzzer_stats"))
            execs += int(st.get("execs_done", 0) or 0)
            rate += float(st.get("execs_per_sec", 0) or 0)
            paths = max(paths, int(st.get("corpus_count", st.get("paths_total", 0)) or 0))
            crash += int(st.get("saved_crashes", st.get("unique_crashes", 0)) or 0)
        return "%d execs, %.0f exec/s, corpus %d, crashes %d" % (execs, rate, paths, crash)
    try:
        elapsed = watch(args, procs, args.time + 60, progress)
    finally:
        for log in logs:
            log.close()
    text = "".join(read_text(os.path.join(work, "afl-%s.log" % n)) for n in names)
    crashes = []
    for name in names:
        d = os.path.join(out, name, "crashes")
        crashes += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.startswith("id:")] \
            if os.path.isdir(d) else []
    failed = [p.returncode for p in procs if p.returncode not in (0, None, -signal.SIGTERM)]
    say(args, "done after %d s: %s" % (elapsed, progress()))
    return text, elapsed, crashes, failed
