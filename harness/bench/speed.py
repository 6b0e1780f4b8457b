"""The speed table: exec/s of each of our targets and of upstream's fuzzers,
measured one after the other in one run, each target next to its nearest
upstream peer, with the ratio."""
import os
import re
import statistics
import sys

from harness.bench.common import OUT, build_ours, fuzzer_flags, known_env, run_libfuzzer, say
from harness.errors import BadInput
from harness.bench.upstream import UPSTREAM_CPPFLAGS, UPSTREAM_FUZZERS, build_upstream
from harness.fuzzing.targets import TABLE, TARGETS
from harness.paths import TOP
from harness.subjects.spec import DEFAULT_TREES

# Each target's nearest upstream peer: the fuzzer of upstream's ossfuzz/
# that drives the same API on the same kind of input.
PEERS = {
    "decode_differential": "decompress_fuzzer",
    "ref_to_subject": "decompress_fuzzer",      # block decoders, on valid blocks
    "base_vs_candidate": "decompress_fuzzer",   # block decoders (+ a round trip)
    "frame_decode": "decompress_frame_fuzzer",
    # No upstream fuzzer reads the legacy format; LZ4F's decoder on
    # arbitrary bytes is the nearest.
    "legacy_decode": "decompress_frame_fuzzer",
    "frame_roundtrip": "round_trip_frame_fuzzer",
    # A mix (below): most inputs take compress_default-like paths, a share
    # of them HC; round_trip_hc_fuzzer is the nearest peer of that share.
    "compress_roundtrip": ("round_trip_fuzzer", "round_trip_hc_fuzzer", "hc"),
    # Block streams: compress_fast_continue / HC_continue, dictionaries,
    # decompress_safe_continue, as ours.
    "stream_roundtrip": "round_trip_stream_fuzzer",
}
# Targets without a peer, and why (the table prints it).
NO_PEER = {"alloc_fail": "none: no upstream fuzzer makes allocations fail",
           "compress_large": "none: no upstream fuzzer compresses 64 KiB-4 MiB per input",
           "decode_large": "none: no upstream fuzzer decodes blocks of up to 16 MiB"}
# A mixed peer (base, alt, share): the target prints at exit the share h of
# its executions that took the alt path ("lz4gate-fuzz T: share NAME H of
# N", fz_share in fuzz/oracle_record.c), counted in this very run. The
# peer's rate is that of doing the same mix of inputs upstream's way:
# 1 / ((1 - h) / rate(base) + h / rate(alt)), i.e. its time per input
# weighted by the share of inputs that take each path.
SHARE_RE = re.compile(r"^lz4gate-fuzz \S+: share (\w+) (\d+) of (\d+)$", re.M)


def peers_of(target):
    """The upstream fuzzers a target is measured against."""
    peer = PEERS.get(target)
    if isinstance(peer, tuple):
        return list(peer[:2])
    return [peer] if peer else []


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
    for t in targets:
        order += [t] + [up for up in peers_of(t) if up in upstream and up not in order]
    return order


def check_only(args):
    known = list(TARGETS) + list(UPSTREAM_FUZZERS)
    for name in args.only:
        if name not in known:
            raise BadInput("unknown fuzzer '%s' for --only; use: %s" % (name, ", ".join(known)))


def speed(args):
    cc, flags = fuzzer_flags()
    lf_flags = ["-max_len=%d" % args.max_len, "-seed=%d" % args.seed, "-timeout=60",
                "-rss_limit_mb=4096"]
    check_only(args)
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
    bins, up_flags = build_upstream(args, wanted)
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
            fig["shares"] = read_shares(os.path.join(OUT, "runs", "speed-%s" % row["name"],
                                                     "fuzz.log"))
            row["figures"].append(fig)
            say(args, "%s: %d exec/s (%d execs, cov %d)%s" % (
                label, fig["exec_s"], fig["execs"], fig["cov"],
                "; STOPPED EARLY on a crash: %s" % fig["fail"] if fig["crashed"] else ""))
    print_speed(args, [r for r in order], cc, flags, up_flags)
    return order


def median_of(row, key):
    return statistics.median(f[key] for f in row["figures"])


def read_shares(log_path):
    """{name: (hits, all)} of the fz_share lines of a run's log."""
    try:
        with open(log_path, errors="replace") as f:
            text = f.read()
    except OSError:
        return {}
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in SHARE_RE.finditer(text)}


def share_of(row, name):
    """The share of the row's executions (all rounds) that took path name."""
    hits = sum(f.get("shares", {}).get(name, (0, 0))[0] for f in row["figures"])
    every = sum(f.get("shares", {}).get(name, (0, 0))[1] for f in row["figures"])
    return hits / every if every else None


def peer_rate(row, up):
    """(exec/s of the row's peer, its description); (None, text) if there is
    none or it did not run."""
    peer = row.get("peer")
    if not peer:
        return None, NO_PEER.get(row["name"], "none")
    if not isinstance(peer, tuple):
        return up.get(peer), peer
    base, alt, name = peer
    h = share_of(row, name)
    if h is None or not up.get(alt):
        return up.get(base), base       # the note under the table says why
    if not up.get(base):
        return None, base
    rate = 1.0 / ((1 - h) / up[base] + h / up[alt])
    return rate, "%s + %.1f%% %s (%s share)" % (base, 100 * h, alt, name)


def ratio_of(row, up):
    rate, _ = peer_rate(row, up)
    if not row["ours"] or not rate:
        return None
    return median_of(row, "exec_s") / rate


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
                      "%d" % median_of(r, "cov"), peer_rate(r, up)[1] if r["ours"] else "-",
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
    for r in rows:
        if r["ours"] and isinstance(r.get("peer"), tuple) and \
                peer_rate(r, up)[1] == r["peer"][0]:
            print("%s: measured against %s alone (%s)" % (
                r["name"], r["peer"][0], "%s did not run" % r["peer"][1]
                if not up.get(r["peer"][1]) else "no %s share counted" % r["peer"][2]))
    if any(isinstance(r.get("peer"), tuple) for r in rows if r["ours"]):
        print("mixed peer 'A + h B': the rate of running this target's mix of inputs upstream's "
              "way, 1 / ((1 - h) / rate(A) + h / rate(B)), h = the share of this run's inputs "
              "that took B's path (counted by the target)")
    print("(ours check every result against the reference codec, run each decoder twice "
          "and compress/decode several ways per input; upstream's only call the API)")
    sys.stdout.flush()
