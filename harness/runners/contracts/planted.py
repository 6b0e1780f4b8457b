"""The planted bug of each boundary sweep class (issue 25), and the proof
that the class catches it: `python3 -m harness contracts --planted` (part of
`make mutants`) and tests/test_sweeps_block.py, tests/test_sweeps_frame.py.

A planted bug is caught when a check the table names FAILs on it. What it
adds beyond ref's own result must stay in its class; where `only` is False,
other checks also catch it by chance of their data, and those may only be
compressor checks (the bug is a compressor's)."""
from harness.runners.contracts.run import run_contracts

# (sweep class, planted subject, a check that must catch it, only the class)
PLANTED = (
    ("sweep.window.", "ref-mutant:ENCODE_WINDOW_65536", "sweep.window.compress_default", True),
    ("sweep.end.", "ref-mutant:ENCODE_LAST_MATCH", "sweep.end.compress_default", False),
    ("sweep.lengths.", "ref-mutant:ENCODE_LEN_255", "sweep.lengths.compress_default", True),
    ("sweep.capacity.", "broken:frame_bound_one_block_short",
     "sweep.capacity.frame_update_bound", True),
    ("sweep.input.", "broken:frame_block_checksum_early", "sweep.input.frame_pieces", True),
    ("sweep.dict.", "broken:dict_prefix_64k_early",
     "sweep.dict.decompress_safe_using_dict[contiguous]", True),
    ("sweep.stream.", "broken:stream_history_one_short", "sweep.stream.decode[mode=separate]",
     True),
    ("sweep.header.", "broken:frame_info_reads_past", "sweep.header.frame_get_info", True),
    # ULZ4-2021-HCNULL's class: an HC state used without a NULL check
    ("sweep.alloc.", "broken:alloc_null_deref", "sweep.alloc.compress_hc[level=9]", True),
)
# Checks besides the class that may see an `only=False` bug.
COMPRESSOR_CHECKS = ("compress_", "frame_compress")
# Sweep classes whose inputs include another class's shapes: sweep.lengths'
# text and mixed data of 13 to 140 bytes puts the last match at every
# distance from the end, so it may also see sweep.end's planted bug.
OVERLAPS = {"sweep.end.": ("sweep.lengths.",)}


def failed_checks(recs):
    return {r["check"] for r in recs if r["status"] == "FAIL"}


def judge(prefix, must, only, added):
    """None when the added failures show the class catching its bug, else
    what is wrong."""
    if must not in added:
        return "%s does not fail" % must
    others = sorted(c for c in added if not c.startswith(prefix))
    others = [c for c in others if not c.startswith(OVERLAPS.get(prefix, ()))]
    stray = [c for c in others if c.startswith("sweep.") or only or
             not c.startswith(COMPRESSOR_CHECKS)]
    if stray:
        return "also fails outside its class: %s" % ", ".join(stray[:5])
    return None


def added_failures(spec, baseline):
    """Failed contract checks (no vectors) of spec in asan64 beyond baseline's."""
    return failed_checks(run_contracts(spec, "asan64", quiet=True, vectors=False)) - baseline


def run_planted(out=print):
    """One line per class; the problems (empty when every class catches its bug)."""
    baseline = failed_checks(run_contracts("ref", "asan64", quiet=True, vectors=False))
    problems = []
    for prefix, spec, must, only in PLANTED:
        added = added_failures(spec, baseline)
        why = judge(prefix, must, only, added)
        mine = sorted(c for c in added if c.startswith(prefix))
        out("%-16s %-38s %s" % (prefix.rstrip("."), spec, "DOES NOT CATCH IT: " + why if why
                                else "caught by %d checks (%s%s)" % (
                                    len(mine), ", ".join(mine[:3]),
                                    ", ..." if len(mine) > 3 else "")))
        if why:
            problems.append("%s on %s: %s" % (prefix.rstrip("."), spec, why))
    return problems
