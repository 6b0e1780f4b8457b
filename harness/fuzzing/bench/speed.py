"""The speed table: exec/s of each of our targets and of upstream's fuzzers,
measured one after the other in one run, each target next to its nearest
upstream peer, with the ratio."""
import os
import statistics
import sys

from harness.fuzzing.bench.common import OUT, build_ours, fuzzer_flags, known_env, run_libfuzzer, say
from harness.errors import BadInput
from harness.fuzzing.bench.upstream import UPSTREAM_CPPFLAGS, UPSTREAM_FUZZERS, build_upstream
from harness.fuzzing.targets import TABLE, TARGETS
from harness.paths import TOP
from harness.subjects.spec import DEFAULT_TREES

# Each target's nearest upstream peer: the fuzzer of upstream's ossfuzz/
# that drives the same API on the same kind of input.
PEERS = {
    "decode_differential": "decompress_fuzzer",
    "ref_to_subject": "decompress_fuzzer",      # block decoders, on valid blocks
    "base_vs_candidate": "decompress_fuzzer",   # block decoders (+ a round trip)
    "compress_roundtrip": "round_trip_fuzzer",
    "frame_decode": "decompress_frame_fuzzer",
    # No upstream fuzzer reads the legacy format; LZ4F's decoder on
    # arbitrary bytes is the nearest.
    "legacy_decode": "decompress_frame_fuzzer",
    "frame_roundtrip": "round_trip_frame_fuzzer",
}
# The goal of the suite (issue 15): every target at least this fraction of
# its peer's exec/s; decode_differential at least DD_GOAL of its own.
GOAL = 0.25
DD_GOAL = 0.5


def subjects_of(args, target):
    """(subject, subject_b) a target is measured on: --base/--candidate for
    the pair target, else --subject, else the target's default subject."""
    if TABLE[target].pair:
        return args.base, args.candidate
    return args.subject or TABLE[target].defaults[0], None


def run_order(targets, upstream):
    """Each upstream fuzzer right after the first of its targets, so that load
    changes during the run hit both sides of a ratio alike."""
    order = []
    for up in UPSTREAM_FUZZERS:
        mine = [t for t in targets if PEERS.get(t) == up]
        order += mine[:1] + ([up] if up in upstream else []) + mine[1:]
    return order + [t for t in targets if t not in order]


def speed(args):
    cc, flags = fuzzer_flags()
    lf_flags = ["-max_len=%d" % args.max_len, "-seed=%d" % args.seed, "-timeout=60",
                "-rss_limit_mb=4096"]
    known = list(TARGETS) + list(UPSTREAM_FUZZERS)
    for name in args.only:
        if name not in known:
            raise BadInput("unknown fuzzer '%s' for --only; use: %s" % (name, ", ".join(known)))
    wanted = lambda name: not args.only or name in args.only
    rows = {}
    for target in TARGETS:
        s, sb = subjects_of(args, target)
        what = "%s -> %s" % (s, sb) if sb else s
        row = {"name": target, "what": what, "ours": True, "figures": [],
               "peer": PEERS.get(target)}
        if wanted(target):
            say(args, "building %s for %s" % (target, what))
            row["binary"] = build_ours(target, s, sb)
            row["env"] = known_env(target, s, sb, os.path.join(OUT, "records", target))
        rows[target] = row
    bins, up_flags = build_upstream(args)
    for name in UPSTREAM_FUZZERS:
        env = dict(os.environ)
        env.pop("LZ4GATE_FUZZ_IGNORE", None)
        rows[name] = {"name": name, "what": "upstream ossfuzz", "binary": bins.get(name),
                      "env": env, "ours": False, "figures": []}
    order = [rows[n] for n in run_order(TARGETS, bins)
             if wanted(n) and rows[n].get("binary")]
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
    print_speed(args, [r for r in order], cc, flags, up_flags)
    return order


def median_of(row, key):
    return statistics.median(f[key] for f in row["figures"])


def ratio_of(row, up):
    peer = row.get("peer")
    if not row["ours"] or not peer or not up.get(peer):
        return None
    return median_of(row, "exec_s") / up[peer]


def shown_ratio(q):
    """ours / upstream, with at least two significant digits."""
    if q is None:
        return "n/a"
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
    hdr = ("fuzzer", "subject", "exec/s", "execs", "cov", "peer", "vs peer")
    lines = []
    for r in rows:
        crashed = any(f["crashed"] for f in r["figures"])
        lines.append((r["name"] + (" (crashed)" if crashed else ""), r["what"],
                      "%d" % median_of(r, "exec_s"), "%d" % median_of(r, "execs"),
                      "%d" % median_of(r, "cov"), (r.get("peer") or "none") if r["ours"] else "-",
                      shown_ratio(ratio_of(r, up)) if r["ours"] else "-"))
    widths = [max(len(x[i]) for x in lines + [hdr]) for i in range(len(hdr))]
    fmt = "  ".join("%%-%ds" % w if i in (0, 1, 5) else "%%%ds" % w
                    for i, w in enumerate(widths))
    print(fmt % hdr)
    for l in lines:
        print(fmt % l)
    print()
    # A target without an upstream peer (none drives that API) is not judged.
    judged = [(r["name"], ratio_of(r, up)) for r in rows if r["ours"] and r.get("peer")]
    low = ["%s %s" % (n, shown_ratio(q)) for n, q in judged if q is None or q < GOAL]
    if judged:
        print("goal: every target >= %.2fx its peer's exec/s: %s" % (
            GOAL, "met" if not low else "NOT met (%s)" % ", ".join(low)))
    dd = next((r for r in rows if r["name"] == "decode_differential"), None)
    q = ratio_of(dd, up) if dd else None
    if q is not None:
        print("goal: decode_differential >= %.2fx decompress_fuzzer exec/s: %s (%.2fx)" % (
            DD_GOAL, "met" if q >= DD_GOAL else "NOT met", q))
    print("(ours check every result against the reference codec, run each decoder twice "
          "and compress/decode several ways per input; upstream's only call the API)")
    sys.stdout.flush()
