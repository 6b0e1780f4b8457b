"""The speed table: exec/s of each of our targets and of upstream's fuzzers,
measured one after the other in one run, with ratios."""
import os
import statistics
import sys

from harness.fuzzing.bench.common import OUT, build_ours, fuzzer_flags, known_env, run_libfuzzer, say
from harness.errors import BadInput
from harness.fuzzing.bench.upstream import UPSTREAM_CPPFLAGS, UPSTREAM_FUZZERS, build_upstream
from harness.fuzzing.targets import PAIR_TARGET
from harness.paths import TOP
from harness.subjects.spec import DEFAULT_TREES

# Our block-format targets, measured against upstream's block fuzzers.
BLOCK_TARGETS = ("decode_differential", "compress_roundtrip", "ref_to_subject",
                 "base_vs_candidate")


def speed(args):
    cc, flags = fuzzer_flags()
    lf_flags = ["-max_len=%d" % args.max_len, "-seed=%d" % args.seed, "-timeout=60",
                "-rss_limit_mb=4096"]
    ours = [(t, args.base, args.candidate) if t == PAIR_TARGET else (t, args.subject, None)
            for t in BLOCK_TARGETS]
    rows = []
    known = [t for t, _, _ in ours] + list(UPSTREAM_FUZZERS)
    for name in args.only:
        if name not in known:
            raise BadInput("unknown fuzzer '%s' for --only; use: %s" % (name, ", ".join(known)))
    for target, s, sb in ours:
        say(args, "building %s for %s" % (target, "%s -> %s" % (s, sb) if sb else s))
        if args.only and target not in args.only:
            rows.append({"name": target, "what": "%s -> %s" % (s, sb) if sb else s,
                         "ours": True, "figures": []})
            continue
        rows.append({"name": target, "what": "%s -> %s" % (s, sb) if sb else s,
                     "binary": build_ours(target, s, sb), "env": known_env(target, s, sb, os.path.join(
                         OUT, "records", target)),
                     "ours": True, "figures": []})
    bins, up_flags = build_upstream(args)
    for name in UPSTREAM_FUZZERS:
        env = dict(os.environ)
        env.pop("LZ4GATE_FUZZ_IGNORE", None)
        rows.append({"name": name, "what": "upstream ossfuzz", "binary": bins[name],
                     "env": env, "ours": False, "figures": []})
    # Interleave: each of ours next to its upstream peer, so that load
    # changes during the run hit both sides of a ratio alike.
    order = [rows[i] for i in (0, 4, 1, 5, 2, 3)]
    if args.only:
        order = [r for r in order if r["name"] in args.only]
    total = len(order) * args.rounds
    say(args, "speed: %d fuzzers x %d s x %d round(s); each from an empty corpus, 1 job, "
              "no dictionary, -max_len=%d -seed=%d" % (len(order), args.time, args.rounds,
                                                       args.max_len, args.seed))
    k = 0
    for rnd in range(args.rounds):
        for row in order:
            k += 1
            label = "[%d/%d] %s" % (k, total, row["name"])
            say(args, "%s (%s): %d s" % (label, row["what"], args.time))
            fig = run_libfuzzer(args, label, row["binary"], lf_flags, row["env"],
                                os.path.join(OUT, "runs", "speed-%s" % row["name"]), args.time)
            row["figures"].append(fig)
            say(args, "%s: %d exec/s (%d execs, cov %d)%s" % (
                label, fig["exec_s"], fig["execs"], fig["cov"],
                "; STOPPED EARLY on a crash: %s" % fig["fail"] if fig["crashed"] else ""))
    print_speed(args, rows, cc, flags, up_flags)
    return rows

def median_of(row, key):
    return statistics.median(f[key] for f in row["figures"])

def ratio(a, b):
    """ours / upstream, with at least two significant digits."""
    if not b:
        return "n/a"
    q = a / b
    return "%.2fx" % q if q >= 0.1 else "%.4fx" % q

def print_speed(args, rows, cc, flags, up_flags):
    rows = [r for r in rows if r["figures"]]
    up = {r["name"]: median_of(r, "exec_s") for r in rows if not r["ours"]}
    print("Fuzz target speed: libFuzzer, one process each, in turn; %d s per fuzzer%s; "
          "every fuzzer from an empty corpus, no dictionary, -max_len=%d -seed=%d; "
          "%s %s" % (args.time, ", median of %d rounds" % args.rounds if args.rounds > 1 else "",
                     args.max_len, args.seed, cc, " ".join(flags)))
    print("upstream fuzzers: built from %s with LZ4_DEBUG=%d and their Makefile's %s" % (
        os.path.relpath(args.upstream_tree or DEFAULT_TREES["upstream"], TOP),
        args.upstream_debuglevel, " ".join(UPSTREAM_CPPFLAGS)))
    print()
    hdr = ("fuzzer", "subject", "exec/s", "execs", "cov", "vs decompress_fuzzer",
           "vs round_trip_fuzzer")
    lines = []
    for r in rows:
        rate = median_of(r, "exec_s")
        crashed = any(f["crashed"] for f in r["figures"])
        lines.append((r["name"] + (" (crashed)" if crashed else ""), r["what"],
                      "%d" % rate, "%d" % median_of(r, "execs"), "%d" % median_of(r, "cov"),
                      ratio(rate, up.get("decompress_fuzzer")) if r["ours"] else "-",
                      ratio(rate, up.get("round_trip_fuzzer")) if r["ours"] else "-"))
    widths = [max(len(x[i]) for x in lines + [hdr]) for i in range(len(hdr))]
    fmt = "  ".join("%%-%ds" % w if i < 2 else "%%%ds" % w for i, w in enumerate(widths))
    print(fmt % hdr)
    for l in lines:
        print(fmt % l)
    print()
    dd = next((r for r in rows if r["name"] == "decode_differential"), None)
    if dd and up.get("decompress_fuzzer"):
        q = median_of(dd, "exec_s") / up["decompress_fuzzer"]
        print("goal: decode_differential >= 0.50x decompress_fuzzer exec/s: %s (%.2fx)" % (
            "met" if q >= 0.5 else "NOT met", q))
    print("(ours check every result against the reference codec, run each decoder twice "
          "and compress/decode several ways per input; upstream's only call the API)")
    sys.stdout.flush()
