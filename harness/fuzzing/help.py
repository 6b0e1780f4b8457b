"""The manual of `python3 -m harness fuzz` (--help)."""

HELP = """\
NAME
    python3 -m harness fuzz - build, run and replay lz4gate's fuzz targets;
    minimise their corpora; turn a crash into a regression-case skeleton

SYNOPSIS
    python3 -m harness fuzz build  --target T --subject SPEC [--subject-b SPEC]
                           --engine libfuzzer|afl|replay [--bits 32|64] [--config CONFIG]
    python3 -m harness fuzz run    --target T|all [--subject SPEC] [--subject-b SPEC]
                           [--base SPEC --candidate SPEC] [--patch FILE]...
                           [--include DIR]... [--define NAME[=VALUE]]... (and -b: --subject-b's)
                           [--adapter FILE.c [--sources A.c,B.c]]
                           [--engine libfuzzer|afl] [--time SECONDS] [--jobs N] [--seed N]
                           [--fresh] [--stop-at-first] [--runs N] [--known-findings FILE]
                           [--ignore ID]... [--skip ENTRY]...
    python3 -m harness fuzz replay --target T --subject SPEC [--subject-b SPEC] [--bits 32|64]
                           [--config CONFIG] [--ignore ID]... [--skip ENTRY]... [PATH...]
    python3 -m harness fuzz corpus --target T|all
    python3 -m harness fuzz corpus-min --target T|all [--engine libfuzzer|afl] [--subject SPEC]
                           [--subject-b SPEC] [--dir DIR] [--dry-run]
    python3 -m harness fuzz triage CRASH_FILE --target T --subject SPEC [--subject-b SPEC]
                           [--id ID] [--out-dir DIR] [--force] [--bits 32|64]
                           [--minimize-time S] [--minimize-runs N] [--no-minimize]
                           [--ignore ID]... [--skip ENTRY]... [--known]
    python3 -m harness fuzz list [--targets]

DESCRIPTION
    The targets (fuzz/<T>.c, one LLVMFuzzerTestOneInput each) test a subject
    built by `python3 -m harness subjects` against lz4gate's reference codec (ref/):

    decode_differential  arbitrary bytes as a block; every decoder of the
                         subject against ref (profile table tolerance)
    decode_large         blocks of up to 16 MiB a short input describes (one
                         long run of a byte inside the fuzzer's bytes): length
                         chains near 2^32 for 32-bit decoders, against ref
    compress_roundtrip   the subject compresses drawn data (up to 68 KiB) in a
                         drawn mode into an exactly sized buffer; ref decodes
                         it exactly
    compress_large       the same judge on 64 KiB-4 MiB of data a short input
                         describes (fuzz/synth.h), capacities a few bytes
                         short: the limited-output run-length bugs
    ref_to_subject       valid blocks from ref's encoder and generator must
                         decode exactly in the subject (full, partial, dict)
    base_vs_candidate    two subjects in one program (--subject is the base,
                         --subject-b the candidate): same verdicts, and each
                         one's compressed blocks decode in the other
    frame_decode         arbitrary bytes through the subject's LZ4F_decompress
                         in drawn pieces, against ref's frame decoder
    frame_roundtrip      drawn preferences: the subject compresses, ref
                         decodes; ref compresses, the subject decodes
    legacy_decode        the kernel's unlz4() (fill and buffer mode) against
                         ref's legacy-frame decoder
    stream_roundtrip     streams of 2-50 blocks through the subject's
                         streaming API (prefix, rings, saveDict, dictionaries
                         loaded or attached, fast and HC): ref decodes the
                         subject's stream and the subject decodes ref's
    alloc_fail           the subject's N-th allocation fails (N drawn) during
                         HC, stream, LZ4F (custom allocators too) or unlz4:
                         no crash, a clean error, right output otherwise
    (the list is fuzz/targets.tsv)

    build   compiles the target with the subject (and the second subject) for
            an engine and prints the binary's path:
              libfuzzer  clang -fsanitize=fuzzer,address,undefined
                         (subject config libfuzzer, or libfuzzer32 with --bits 32)
              afl        afl-clang-fast + ASan/UBSan + {afl_driver}
                         (subject config afl)
              env        $CC $CFLAGS, linked with $LIB_FUZZING_ENGINE (what
                         OSS-Fuzz / ClusterFuzzLite set; ci/oss-fuzz/build.sh)
              replay     fuzz/replay_main.c, no engine: runs files and
                         directories given on its command line (--each:
                         every input in a child process of its own, going
                         on past failures; subject
                         config asan64, asan32 with --bits 32, or --config:
                         any configuration of `python3 -m harness subjects list`, e.g.
                         O2-32 or gcov)
    run     a campaign: builds, copies the seed corpus corpus/<T>/ to
            build/fuzz/<T>/<subjects>/run-<engine>/corpus (kept between runs
            unless --fresh) and fuzzes until --time seconds are up, printing
            a progress line at least every 10 seconds. It keeps going past
            findings: libFuzzer runs in fork mode (-fork=JOBS, with
            -ignore_crashes, -ignore_ooms, -ignore_timeouts; crash inputs
            go to crashes/), AFL++ as one -M and JOBS-1 -S instances, and the
            targets count the oracle's verdicts instead of stopping at them
            (LZ4GATE_FUZZ_RECORD: a sample of up to 8 inputs per CLASS@ENTRY
            in findings/). Every crash file is triaged: each replayed once
            for its stack (unsymbolized, one child process per file of one
            replay process), the smallest file of each distinct stack again
            with symbols for its signature; a line gives the crash files
            written (and libFuzzer's own crash count), replayed, the
            distinct stacks, those triaged with symbols, and the files not
            looked at (normally 0; each one listed, and a not_triaged@-
            finding). Then every distinct finding is listed once,
            de-duplicated by its signature (class @ entry, and the top frame
            in subject code when there is a stack), with its count, its
            smallest input and the command that replays it; each is "known"
            when harness/findings/known_findings.json documents it for the
            subject's own tree (its identity: kind + a digest of its LZ4
            files) and "NEW" otherwise. UBSan reports in subject code (which
            continue) are listed too. --target all runs every target of
            fuzz/targets.tsv for --time seconds each, with the subjects that
            file names unless --subject (and, for base_vs_candidate,
            --base/--candidate) are given.
            --stop-at-first runs one libFuzzer process (-jobs with --jobs)
            that stops at the first finding not documented for the tested
            subject (the documented ones are counted); for bounded runs in
            tests and the time-to-find bench.
            <subjects> is the SPEC (two for base_vs_candidate), with
            +p<digest> when --patch is given (a patched tree is another
            program). A second campaign in the same directory waits until
            the first has reported.
    replay  builds the replay binary and runs it on corpus/<T>/ (or the
            PATHs given): every input must pass.
    corpus  regenerates corpus/<T>/ with fuzz/make_seeds.c (ref's encoder
            and generator; deterministic).
    corpus-min
            minimises corpus/<T>/ (or --dir DIR) for the target built with
            --subject (default: fuzz/targets.tsv): libFuzzer -merge=1 (ENGINE libfuzzer) or afl-cmin
            (ENGINE afl) into build/fuzz/corpus-min/<T>/. Prints the file
            count, bytes and coverage before and after. libFuzzer's merge
            keeps, of the inputs it is given, a subset that has every
            coverage feature of the whole set (afl-cmin: every edge tuple);
            corpus-min checks this again by loading both sets (-runs=0;
            afl-showmap -C) and replaces the corpus only when the new set
            covers at least as much, keeping the original file names. The
            new set is staged next to the corpus and swapped in by two
            renames; on any error the old corpus stays (an interrupted swap
            is undone by the next corpus-min). --dry-run only reports. An
            input that fails on the subject stops it (corpus unchanged).
            Note: the committed corpora are what fuzz/make_seeds.c writes
            (a test checks this); minimise a corpus that grew from fuzzing
            runs, or regenerate with `corpus` afterwards.
    triage  from a crash to a regression-case skeleton:
              1. replays CRASH_FILE with the replay build (asan64, asan32
                 with --bits 32): if it passes, prints "does not reproduce"
                 and exits 1;
              2. minimises it with libFuzzer -minimize_crash=1 (each step
                 -runs=--minimize-runs and -max_total_time=--minimize-time/3,
                 all of it stopped after --minimize-time seconds, default
                 30), then keeps the smallest input the replay build still
                 fails with the same kind: the oracle's CLASS@ENTRY, or the
                 sanitizer report type, READ/WRITE and API entry (else the
                 original input);
              3. writes DIR/ID.json (default DIR regress/cases, default ID
                 KLZ4-FUZZ-<hash> for a kernel subject, else
                 ULZ4-FUZZ-<hash>): id, title "TODO", origin, generations,
                 entry and class (from the failure message), trigger (the
                 failure message), exercised, one test with the input as
                 hex and entry "fuzz:<T>" (`python3 -m harness regress` runs it through
                 the target's replay build; expect "pass": it exits 0),
                 fails_on [the subject with the bug], notes on what to fill
                 in. The input is also saved in build/fuzz/triage/ID.bin.
              Never overwrites a case unless --force.
    list    prints the targets, engines and subject configurations (--targets:
            the target names only, one per line, for scripts).

OPTIONS
    --target T       one of: {targets}
    --subject SPEC   ref | system | upstream | kernel | upstream:DIR | kernel:DIR |
                     auto:DIR | project:DIR | ref-mutant:CHECK | broken:MODE
                     (`python3 -m harness subjects --help`)
    --subject-b SPEC the candidate, for base_vs_candidate only (default: the
                     same as --subject)
    --patch FILE     apply FILE to --subject's tree (repeatable)
    --patch-b FILE   apply FILE to --subject-b's tree (repeatable)
    --include DIR, --define NAME[=VALUE]
                     --subject's headers kept outside its copy (a relative DIR
                     is taken from its tree) and configuration macros
                     (repeatable; part of the subject: identity, cache keys)
    --include-b DIR, --define-b NAME[=VALUE]
                     the same for --subject-b
    --adapter FILE.c, --sources A.c,B.c
                     the adapter (and the .c files of DIR to compile) of
                     every project:DIR SPEC given (docs/subjects.md, "Project APIs"); or
                     name them in the SPEC, project:DIR,adapter=FILE.c
    --engine E       libfuzzer (default), afl or replay
    --bits 32|64     word size (default 64; system has no 32-bit build)
    --config C       subject configuration for the replay engine
    --time S         fuzzing time in seconds (default 60)
    --jobs N         parallel fuzzing processes (default 1)
    --runs N         libFuzzer: stop after N executions (-runs; with
                     --stop-at-first per job, in a campaign that keeps
                     going those of every fork-mode job summed, whichever
                     comes first of --runs and --time)
    --seed N         libFuzzer: random seed (-seed)
    --fresh          start from the seed corpus again (drop the run's corpus)
    --base SPEC, --candidate SPEC
                     run --target all: the subjects of base_vs_candidate
    --stop-at-first  run: stop at the first finding not documented for the
                     subject (one process; see run)
    --known-findings FILE
                     the documented findings (default
                     harness/findings/known_findings.json)
    --ignore ID      a finding to count, not report: CLASS or CLASS@ENTRY, e.g.
                     stale_output@decompress_safe_partial (sets
                     LZ4GATE_FUZZ_IGNORE; the run prints how many times it
                     was hit)
    --skip ENTRY     an entry point not to call, e.g. decompress_fast (sets
                     LZ4GATE_FUZZ_SKIP)
    --known          triage: count the findings documented for the subject's
                     own tree while replaying and minimising (and write them
                     as the case's "ignore")
    --id ID          triage: the case id (and file name)
    --out-dir DIR    triage: where the case goes (default regress/cases)
    --force          triage: overwrite DIR/ID.json
    --minimize-time S  triage: minimisation budget in seconds (default 30)
    --minimize-runs N  triage: -runs of each minimisation step (default 200000)
    --no-minimize    triage: keep the input as it is
    --dir DIR        corpus-min: the corpus directory (default corpus/<T>)
    --dry-run        corpus-min: report, do not replace
    -q, --quiet      no progress lines

FILES
    fuzz/<T>.c, fuzz/targets.tsv (the targets), fuzz/params.h (parameters
    from the input header), fuzz/oracle.h + oracle*.c (verdicts, recording),
    fuzz/replay_main.c, fuzz/make_seeds.c, corpus/<T>/ (seeds),
    corpus/lz4_block.dict (libFuzzer/AFL++ dictionary), build/fuzz/
    (binaries; per campaign: corpus/, crashes/, findings/, findings.json:
    {{"crash_triage": the counts and every stack, "findings": [...]}}).

EXIT STATUS
    0  success (build, corpus, replay: all inputs pass; run: no NEW finding;
       corpus-min: minimised or already minimal; triage: case written)
    1  run: a NEW finding; replay: an input failed; triage: the input
       does not reproduce; corpus-min: the corpus was not replaced (less
       coverage, a failing input, a tool failure)
    2  bad input (unknown target, subject, engine; a missing file or tool;
       a subject that does not build; triage: the case file exists), with
       one line on stderr saying what to do

EXAMPLES
    python3 -m harness fuzz run --target decode_differential --subject upstream --time 300 --jobs 2
    python3 -m harness fuzz run --target base_vs_candidate --subject kernel --subject-b kernel:/src/linux
    python3 -m harness fuzz replay --target ref_to_subject --subject kernel --bits 32
    python3 -m harness fuzz corpus-min --target all --engine libfuzzer --dry-run
    python3 -m harness fuzz triage build/fuzz/decode_differential/kernel/run-libfuzzer/crashes/crash-1f2e \\
        --target decode_differential --subject kernel --id KLZ4-PARTIAL-NEWBUG

Manual: docs/fuzzing.md
"""
