"""The manual of `python3 -m harness fuzz-bench`."""

HELP = """\
NAME
    python3 -m harness fuzz-bench - exec/s of lz4gate's fuzz targets next to upstream lz4's
    own fuzzers, and time to find planted bugs

SYNOPSIS
    python3 -m harness fuzz-bench [--time SECONDS] [--max-len N] [--seed N] [--rounds N]
                        [--subject SPEC] [--base SPEC] [--candidate SPEC]
                        [--upstream-tree DIR] [--upstream-debuglevel N] [--only A,B,...]
                        [--find] [--no-speed] [--find-runs N] [--find-timeout SECONDS]
                        [--find-from seeds,empty]
                        [-q]
    python3 -m harness fuzz-bench --find releases --lz4-git DIR [--tags T,...]
                        [--bugs ID,...] [--runs 3] [--cap-cpu-min 10] [--fresh]
                        [--write] [-q]

DESCRIPTION
    Speed (default). Builds, then runs one after the other, each for --time
    seconds:
      our targets       every target of fuzz/targets.tsv, on --subject or,
                        without it, the target's default subject (the
                        table's third column: upstream, legacy_decode on the
                        kernel); base_vs_candidate with --base -> --candidate
                        (default kernel -> upstream); built by
                        python3 -m harness fuzz build --engine libfuzzer
      upstream's own    decompress_fuzzer, round_trip_fuzzer,
                        decompress_frame_fuzzer and round_trip_frame_fuzzer,
                        compiled at run time from DIR/ossfuzz/ and DIR/lib/
                        (default DIR: the default upstream tree,
                        build/subjects/lz4-upstream) into
                        build/fuzz-bench/upstream/ (a frame fuzzer the tree
                        lacks is left out); nothing of upstream is copied
                        into lz4gate
    Each target is compared with its nearest upstream peer, the fuzzer that
    drives the same API on the same kind of input:
      decode_differential, ref_to_subject, base_vs_candidate
                        decompress_fuzzer
      compress_roundtrip
                        round_trip_fuzzer
      frame_decode      decompress_frame_fuzzer
      legacy_decode     decompress_frame_fuzzer (upstream has no fuzzer of
                        the legacy format; LZ4F's decoder is the nearest)
      frame_roundtrip   round_trip_frame_fuzzer
    and each peer runs right after the first of its targets, so that load
    changes hit both sides of a ratio alike.
    Every fuzzer starts under the same conditions: libFuzzer, one process
    (no -jobs), an empty corpus directory, no dictionary, the same
    -max_len, -seed, -timeout and -rss_limit_mb, the same compiler and flags
    (clang, the flags of the libfuzzer subject configuration of
    harness/toolchain.py with -fsanitize=fuzzer: -O1 -g, ASan + UBSan). Our
    targets record their findings and go on (LZ4GATE_FUZZ_RECORD, as a
    campaign does), so that no run stops early; a run that stops on a crash
    anyway is marked. exec/s is libFuzzer's own figure,
    stat::average_exec_per_sec of -print_final_stats=1 (executions / seconds
    of the run). The table gives each fuzzer's exec/s, and for ours the peer
    and the ratio (ours / peer); the goals stated for the suite are every
    target >= 0.25x its peer and decode_differential >= 0.5x
    decompress_fuzzer.

    With --rounds N the whole sequence runs N times, interleaved, and the
    table shows the median per fuzzer. Figures measured while other work
    runs on the machine are noisy: compare the ratios of one run, not
    absolute figures of different runs.

    Time to find (--find). For each planted bug (a ref mutant with one named
    check compiled out, or a deliberately broken adapter; the list of
    tests/test_fuzz.py) and the target that must find it, --find-runs
    libFuzzer runs (default 5) with -seed=1..N, each from a fresh copy of
    the target's seed corpus (corpus/<T>/) with the dictionary, as
    python3 -m harness fuzz run does, and (--find-from) as many from an empty
    corpus, until the first crash or --find-timeout seconds (default 60).
    Time is wall-clock seconds from the start of the libFuzzer process (the
    seed corpus load included) to its exit on the crash. The table gives the
    median, min and max over the runs that found the bug, and how many did;
    a run that hits the timeout is "not found", never counted as a time.
    "before fuzzing" counts the runs that failed before libFuzzer's first
    mutation: on a file of the seed corpus (the seeds alone exercise that
    check) or, from an empty corpus, on libFuzzer's own first input, the
    empty one (which a target reads as a complete draw of its header).
    The goal stated for the suite (issue 15): from an empty corpus, every
    planted bug found in a median of at most 10 s; the last line says
    whether it is met. Targets reach it by reading an input shorter than
    their header as a complete draw of their parameters (fuzz/params.h,
    fp_init_filled, fp_init_block) and by making their own valid input
    (ref's blocks and frames of fuzz/synth.c data, sometimes with one
    damaged byte), so that libFuzzer's first few-byte inputs already reach
    the checks.

    Detection on real releases (--find releases). For each catalogued bug
    present in a real upstream release, how long the fuzzers alone need to
    find it. The bugs come from data: a regression case (regress/cases/)
    that FAILs on a release tree in a 64-bit configuration
    (regress/results/releases.jsonl) is a bug of that release; its
    signature is CLASS@ENTRY of that failure: the entry of the failing
    test (the record's evidence names its tcId) and the class of the
    evidence (the sanitizer's report type, or the runner's verdict:
    accepts_invalid, return_above_target, wrong_output). A fuzz finding is
    the bug when it has the same class family (an out-of-bounds access is
    one family whether a guard page gave SEGV or ASan's heap an overflow;
    wrong output, wrong return value, accepted invalid input, false failure
    are the others) and the same entry, or an entry of another of the
    case's tests (harness/bench/detect_bugs.py same_defect). Bugs
    of one release with one signature are found together. A bug is
    benchmarked by the targets that call its entry (detect_bugs.py
    TARGET_ENTRIES: decode_differential, ref_to_subject, decode_large,
    compress_large, compress_roundtrip, frame_decode, frame_roundtrip;
    alloc_fail only for a test that makes an allocation fail). A case that
    fails only in 32-bit builds (a length near 2^32) gets 32-bit campaigns
    (libfuzzer32) of decode_large, its target column marked "(32-bit)",
    where this machine runs 32-bit sanitizer programs. Kernel glue, entries
    no benchmarked target calls (streaming, frame context reuse) and, on a
    machine without 32-bit programs, the 32-bit cases are listed under the
    table with the reason.
    Releases: every bug x release pair can be run (--tags, --bugs); by
    default, for each bug, the newest release that carries it. Each
    release is exported from the clone into build/releases/TAG (git
    archive; the clone is only read).
    Per release and target, keep-going libFuzzer campaigns (fork mode,
    -ignore_crashes, the oracle records and goes on) from the target's
    seed corpus only (corpus/<T>/ and the dictionary: no regression case,
    no vector), under nice -n 10, one at a time; one campaign serves every
    bug of the release the target reaches. Time is the CPU time of the
    campaign (all its processes) when the first finding with the bug's
    signature appeared (the oracle's record directory and the crash files
    are polled every second; every new crash file is replayed for its
    stack, the smallest of each new stack with symbols for its signature:
    no cap per file, harness/fuzzing/crash_triage.py). A run ends
    when all its bugs are found or at --cap-cpu-min; runs use -seed=1..N;
    a bug missed in a majority of runs is decided (not run again), a bug a
    target finds in a majority of runs is not run on the later targets.
    The table: one row per bug x release, the median CPU seconds (a miss
    counts as above the cap: a bug missed in a majority of runs is "not
    found within cap"), each run's time, and the target with the best
    median. Every run is a line of build/detect/runs.jsonl, reused by a
    later call with the same cap (--fresh runs again); progress lines go
    to stderr and build/detect/progress.log.

OPTIONS
    --time S              seconds per fuzzer for the speed table (default 30)
    --max-len N           libFuzzer -max_len for every fuzzer (default 4096)
    --seed N              libFuzzer -seed for the speed runs (default 1)
    --rounds N            repeat the speed sequence N times, median (default 1)
    --subject SPEC        subject of every single-subject target (default: each
                          target's own default subject, fuzz/targets.tsv)
    --base SPEC, --candidate SPEC
                          subjects of base_vs_candidate (default kernel, upstream)
    --upstream-tree DIR   the lz4 tree whose ossfuzz/ fuzzers are built
    --upstream-debuglevel N
                          LZ4_DEBUG for upstream's fuzzers (default 0: asserts
                          off, as in lz4gate's subject build; upstream's
                          ossfuzz/Makefile defaults to 1)
    --only A,B,...        speed: run only these fuzzers (names as in the table)
    --find                also run the time-to-find table
    --no-speed            skip the speed table (with --find: only time to find)
    --find-runs N         runs per planted bug (default 5)
    --find-timeout S      per-run timeout in seconds (default 60)
    --find-from LIST      seeds, empty or seeds,empty (default): start from the
                          seed corpus, from an empty corpus, or both
    --find releases       detection on real releases (above); needs --lz4-git
    --lz4-git DIR         a git clone of lz4 with its release tags (read only)
    --tags T,...          these releases, every benchmarked bug on them
    --bugs ID,...         these cases (default release: the newest carrying each)
    --runs N              runs per target and release (default 3)
    --cap-cpu-min M       CPU minutes per run (default 10)
    --fresh               ignore build/detect/runs.jsonl, run everything again
    --write               also write regress/results/detection.tsv
    -q, --quiet           no progress lines (the tables are still printed)

FILES
    build/fuzz-bench/upstream/   upstream's fuzzers, built here
    build/fuzz-bench/runs/       corpora and logs of the last runs
    build/detect/                --find releases: runs.jsonl, progress.log, the
                                 campaigns' work directories (TAG/TARGET/run-N)
    regress/results/detection.tsv  the committed table (--write); docs/detection.md

EXIT STATUS
    0  the tables were printed (the bench reports, it does not gate)
    2  bad input or a build failure (one line on stderr); --find releases
       without --lz4-git

EXAMPLES
    make fuzz-bench                      # speed table, 30 s per fuzzer (~6 min)
    make fuzz-bench TIME=120 FIND=1      # both tables
    python3 -m harness fuzz-bench --time 2         # a quick look
    python3 -m harness fuzz-bench --only compress_roundtrip,round_trip_fuzzer --rounds 3
    python3 -m harness fuzz-bench --find --no-speed --find-runs 5 --find-timeout 60
    make fuzz-bench FIND=releases LZ4_GIT=~/src/lz4      # the default set, 3 runs x 10 CPU min
    python3 -m harness fuzz-bench --find releases --lz4-git ~/src/lz4 --tags v1.9.1 \
        --bugs ULZ4-2019-PARTIAL --runs 1 --cap-cpu-min 1

Manual: docs/fuzzing.md
"""
