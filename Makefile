# lz4gate — conformance and differential-fuzzing suite for vendored LZ4.
#
#   make gate      gate a vendoring update: BASE=SPEC CANDIDATE=SPEC PATCHES=...
#                  FUZZ_TIME=60 JOBS=2 STRICT=1 KUNIT=1 (default: kernel 6.1 -> upstream 1.9.4)
#   make gate-pr   gate a project's change of its vendored copy: REPO=checkout
#                  BASE_REF=origin/main (merge base vs head; scan finds the copy)
#   make gate-stability  the gate RUNS=10 times with other fuzz seeds: verdicts per run
#   make test      set up (apt-get as root), then every test of the suite (12-13 min)
#   make check     the inner loop: a fast subset of `make test` (<= 3 min)
#   make bench     reference codec vs the system liblz4, side by side; then fuzz-bench
#   make mutants   every named check of ref is needed by a unit test, every
#                  regression case fails on a subject that has its bug, and every
#                  boundary sweep class catches its planted bug
#   make mutate    mutation score of the checks on an lz4 tree: TREE=DIR
#                  [FILES=lib/lz4.c,...] [N=50] [SEED=1] [JOBS=1] (docs/mutation.md)
#   make kunit     the regression cases as KUnit tests inside a kernel (UML):
#                  KERNEL=DIR (default: linux-source-6.12, fetched) JOBS=2 KUNIT_I386=1
#   make subjects  fetch the default subjects (Debian's lz4 source, linux 6.1 and 6.12)
#   make scan      list every LZ4 copy under a project tree: DIR=... [JSON=1]
#   make contracts API contract tests: SUBJECT="ref system upstream kernel"
#                  CONFIGS="asan64 asan32 O0 O2" PATCHES="a.patch ..."
#   make regress   regression cases: SUBJECT="ref upstream kernel" CONFIGS=...
#   make releases  cases and contracts on every lz4 release: LZ4_GIT=clone [TAGS=...]
#   make kernels   cases and contracts on real kernel trees: TREES="dir ..." [CONFIGS=...]
#   make fuzz      differential fuzzing: TARGET=... SUBJECT=... ENGINE=libfuzzer|afl TIME=60
#   make fuzz-bench  exec/s of the fuzz targets vs upstream's fuzzers: TIME=30 FIND=1
#   make corpus-min  minimise corpus/<target>/: TARGET=all ENGINE=libfuzzer|afl
#   make triage    crash -> regression-case skeleton: CRASH=file TARGET=... SUBJECT=...
#   make vectors   regenerate corpus/vectors (deterministic)
#   make lz4ref    the reference frame codec as a command-line tool
#   make clean     remove build/
#
# Every command is `python3 -m harness COMMAND` underneath (python3 -m harness
# --help); everything is built out of tree under build/.

PYTHON ?= /usr/bin/python3
HARNESS := $(PYTHON) -m harness
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# pytest-xdist workers for make test / make check: one more than the cores,
# since tests wait on compilers, emulators and locks (measured on 2 cores: 3
# workers keep 1.9 cores busy, 2 workers 1.5). Tests marked xdist_group run on
# one worker (--dist loadgroup): a module fixture that runs campaigns would
# otherwise run on every worker at once, in the same directories
# (tests/test_fuzz.py, the planted bugs).
TEST_WORKERS ?= $(shell echo $$(( $(JOBS) + 1 )))
WARN := -std=c11 -Wall -Wextra -Werror

.PHONY: all help deps subjects test check kunit ref-tests mutants mutate bench contracts regress \
	releases kernels scan vectors lz4ref fuzz fuzz-bench corpus-min triage gate gate-pr gate-stability clean

all: ref-tests

help:
	@sed -n '1,34p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@bash ci/deps.sh

# The default subjects, cached under build/subjects (nothing is installed:
# the kernel .debs are downloaded and only their LZ4 files are extracted).
subjects: deps
	@$(HARNESS) fetch --download-kernel --quiet >/dev/null

test: deps subjects
	$(PYTHON) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup --durations=25 tests

# The inner loop (docs/commands.md: which to run when): ref unit tests (asan64),
# contracts on ref and upstream (asan64), regress --check, corpus replays (asan64).
check: deps subjects
	$(PYTHON) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup -m check tests

# ref's C unit tests, CONFIG=asan64|asan32|gcc-O0|gcc-O2|gcc-O2-m32|clang-O2
CONFIG ?= asan64
ref-tests:
	$(HARNESS) ref-tests --config $(CONFIG) --run

# Every named check of ref is exercised by a unit test, and every regression
# case fails on the subjects that have its bug.
mutants: deps subjects
	$(PYTHON) tests/mutants.py
	$(HARNESS) regress --mutants
	$(HARNESS) contracts --planted

# The mutation score of lz4gate's checks on an lz4 tree (python3 -m harness
# mutate --help): one-token mutants of FILES, N sampled with SEED, each built
# and checked (vectors, contracts, regress; asan64), each survivor probed.
# JOBS: mutants at once (default 1 here: each one is a compile and three
# runners). RESUME=1: keep the records of a run cut short (its journal).
MUTATE_ARGS = --tree $(TREE) $(if $(FILES),--files $(FILES)) $(if $(N),-n $(N)) \
	$(if $(SEED),--seed $(SEED)) $(if $(OUT),--out $(OUT)) $(if $(RESUME),--resume) \
	--jobs $(if $(filter command line,$(origin JOBS)),$(JOBS),1)
mutate: deps
	$(if $(TREE),,$(error usage: make mutate TREE=DIR [FILES=lib/lz4.c,...] [N=50] [SEED=1] [JOBS=1] [OUT=FILE.json] [RESUME=1]))
	$(HARNESS) mutate $(strip $(MUTATE_ARGS))

# The regression cases inside a real kernel (docs/kunit.md): the generated
# KUnit suite in a hard-linked copy of KERNEL (default: Debian's
# linux-source-6.12, the whole tree, fetched into build/kernel/), built and
# booted under UML; then each glue case on a copy given its bug, and the same
# tree's LZ4 files on the kshim beside the in-kernel results. UML's build
# needs flex, bison and bc (their own stamp: make test's stays as it is).
# KUNIT_I386=0: no i386 UML build (the 32-bit cases then skip).
KUNIT_DEPS := flex bison bc
KUNIT_I386 ?= 1
kunit: deps
	@LZ4GATE_DEPS_EXTRA="$(KUNIT_DEPS)" LZ4GATE_STAMP_DIR=$(CURDIR)/build/kunit-deps bash ci/deps.sh
	$(HARNESS) kunit $(if $(KERNEL),--kernel $(KERNEL),--fetch) --jobs $(JOBS) \
		$(if $(filter 1,$(KUNIT_I386)),--i386) --prove-bugs --compare

SUBJECT ?= ref system upstream kernel
CONFIGS ?= asan64 asan32 O0 O2
PATCHES ?=
regress: subjects
	$(HARNESS) regress $(if $(filter command line,$(origin SUBJECT)),$(SUBJECT),ref upstream kernel) \
		$(if $(filter command line,$(origin CONFIGS)),$(foreach c,$(CONFIGS),--config $(c))) \
		$(foreach p,$(PATCHES),--patch $(p)) $(ADAPTER_ARGS)

# Every upstream release of an lz4 clone (python3 -m harness releases --help):
# writes regress/results/releases.jsonl for REGRESSIONS.md's fixes-by-release table.
releases:
	$(if $(LZ4_GIT),,$(error usage: make releases LZ4_GIT=DIR [TAGS="r131 v1.7.3"] [CONFIGS=asan64]))
	$(HARNESS) releases --lz4-git $(LZ4_GIT) --jobs $(JOBS) $(if $(TAGS),--tags $(TAGS)) \
		$(if $(filter command line,$(origin CONFIGS)),--configs $(CONFIGS))
	$(HARNESS) regressions-md --write

# Real kernel trees (python3 -m harness kernels --help): results to
# regress/results/kernels.jsonl, rendered in REGRESSIONS.md.
kernels:
	$(if $(TREES),,$(error usage: make kernels TREES="dir ..." [CONFIGS="asan64 O2-32"]))
	$(HARNESS) kernels $(TREES) --jobs $(JOBS) \
		$(if $(filter command line,$(origin CONFIGS)),--configs $(CONFIGS))
	$(HARNESS) regressions-md --write

# Every LZ4 copy under a project tree (python3 -m harness scan --help).
scan:
	$(if $(DIR),,$(error usage: make scan DIR=project-tree [JSON=1]))
	@$(HARNESS) scan $(DIR) $(if $(JSON),--json)

# project:DIR subjects (docs/subjects.md, "Project APIs"): ADAPTER=FILE.c [SOURCES=a.c,b.c]
# (the gate also BASE_ADAPTER=, CANDIDATE_ADAPTER=)
ADAPTER_ARGS = $(if $(ADAPTER),--adapter $(ADAPTER)) $(if $(SOURCES),--sources $(SOURCES))

contracts: subjects
	$(HARNESS) contracts $(SUBJECT) $(foreach c,$(CONFIGS),--config $(c)) \
		$(foreach p,$(PATCHES),--patch $(p)) $(ADAPTER_ARGS)

# Known-answer vectors: corpus/vectors is generated by harness/runners/vectors/
# (deterministic; tests/test_vectors.py checks the committed files match).
vectors:
	$(HARNESS) vectors --write corpus/vectors

# Programs built here may be run by another process (a second make, a
# pytest worker) while this one builds them: the compiler writes a private
# name ($@.tmp.<shell pid>), which is renamed into place when complete.
# (Linking in place, a process executing $@ meanwhile gets EACCES.)
PUBLISH = { $(1) -o $@.tmp.$$$$ $(2) && mv -f $@.tmp.$$$$ $@; } || { rm -f $@.tmp.$$$$; exit 1; }

# lz4ref: command-line frame/legacy codec on the reference codec (tools/).
lz4ref: build/lz4ref
build/lz4ref: $(wildcard tools/lz4ref*.c tools/lz4ref*.h ref/*.c ref/*.h)
	@mkdir -p $(dir $@)
	$(call PUBLISH,gcc $(WARN) -O2 -Iref -Itools,$(wildcard tools/lz4ref*.c) $(wildcard ref/*.c))

build/bench/ref_bench: bench/ref_bench.c $(wildcard ref/*.c ref/*.h harness/runners/common/*.h)
	@mkdir -p $(dir $@)
	$(call PUBLISH,gcc $(WARN) -O2 -march=x86-64 -Iref -Iharness/runners/common,$< $(wildcard ref/*.c) -llz4)

bench: deps build/bench/ref_bench
	build/bench/ref_bench
	@$(MAKE) --no-print-directory fuzz-bench

# Fuzzing: TARGET=all or one of fuzz/targets.tsv; SUBJECT (default: the
# target's, from fuzz/targets.tsv; base_vs_candidate: BASE and CANDIDATE)
# ENGINE=libfuzzer|afl TIME=60 JOBS=2
TARGET ?= all
TIME ?= 60
ENGINE ?= libfuzzer
fuzz: subjects
	$(HARNESS) fuzz run --target $(TARGET) --engine $(ENGINE) --time $(TIME) --jobs $(JOBS) \
		$(if $(filter command line,$(origin SUBJECT)),--subject $(SUBJECT)) \
		$(if $(BASE),--base $(BASE)) $(if $(CANDIDATE),--candidate $(CANDIDATE)) $(ADAPTER_ARGS)

# The gate: may CANDIDATE replace BASE? (ci/gate.py --help)
BASE ?= kernel
CANDIDATE ?= upstream
FUZZ_TIME ?= 60
GATE_CONFIGS ?=
gate: subjects
	$(PYTHON) ci/gate.py --base $(BASE) --candidate $(CANDIDATE) --fuzz-time $(FUZZ_TIME) \
		--jobs $(JOBS) $(if $(GATE_CONFIGS),--configs $(GATE_CONFIGS)) $(if $(STRICT),--strict) \
		$(foreach p,$(PATCHES),--patch $(p)) $(ADAPTER_ARGS) $(if $(KUNIT),--kunit) \
		$(if $(BASE_ADAPTER),--base-adapter $(BASE_ADAPTER)) \
		$(if $(CANDIDATE_ADAPTER),--candidate-adapter $(CANDIDATE_ADAPTER))

# The change of a project that vendors LZ4, merge base vs head: scan finds
# the copy it touches on both sides (python3 -m harness pr --help).
gate-pr: subjects
	$(if $(REPO),,$(error usage: make gate-pr REPO=project-checkout [BASE_REF=origin/main] [FUZZ_TIME=60] [GATE_ARGS="..."]))
	$(HARNESS) pr $(REPO) $(if $(BASE_REF),--base-ref $(BASE_REF)) --fuzz-time $(FUZZ_TIME) \
		--jobs $(JOBS) $(if $(GATE_CONFIGS),--configs $(GATE_CONFIGS)) $(if $(STRICT),--strict) \
		$(ADAPTER_ARGS) $(GATE_ARGS)

# The gate RUNS times on the same inputs with other fuzz seeds: a table of
# verdicts and findings per run (python3 -m harness gate-stability --help).
RUNS ?= 10
gate-stability: subjects
	$(PYTHON) -m harness gate-stability --runs $(RUNS) --base $(BASE) --candidate $(CANDIDATE) \
		--fuzz-time $(FUZZ_TIME) --jobs $(JOBS) $(if $(GATE_CONFIGS),--configs $(GATE_CONFIGS)) \
		$(if $(STRICT),--strict) $(foreach p,$(PATCHES),--patch $(p)) \
		$(if $(EXPECT),--expect $(EXPECT)) $(if $(OUT),--out $(OUT))

# Fuzz tooling (python3 -m harness fuzz-bench --help, python3 -m harness fuzz --help).
# FIND=releases: time to find each catalogued bug on real upstream releases
# (LZ4_GIT=clone [TAGS=a,b] [BUGS=id,...] [RUNS=3] [CAP_CPU_MIN=10]).
fuzz-bench: subjects
	$(if $(filter releases,$(FIND)),$(HARNESS) fuzz-bench --find releases \
		$(if $(LZ4_GIT),--lz4-git $(LZ4_GIT)) $(if $(TAGS),--tags "$(TAGS)") \
		$(if $(BUGS),--bugs "$(BUGS)") $(if $(RUNS),--runs $(RUNS)) \
		$(if $(CAP_CPU_MIN),--cap-cpu-min $(CAP_CPU_MIN)),$(HARNESS) fuzz-bench \
		--time $(if $(filter command line,$(origin TIME)),$(TIME),30) $(if $(FIND),--find))
corpus-min: subjects
	$(HARNESS) fuzz corpus-min --target $(TARGET) --engine $(ENGINE) \
		$(if $(filter command line,$(origin SUBJECT)),--subject $(SUBJECT)) $(if $(DRY_RUN),--dry-run)
triage: subjects
	$(HARNESS) fuzz triage $(CRASH) $(if $(filter command line,$(origin TARGET)),--target $(TARGET)) \
		--subject $(if $(filter command line,$(origin SUBJECT)),$(SUBJECT),upstream) \
		$(if $(SUBJECT_B),--subject-b $(SUBJECT_B)) $(if $(ID),--id $(ID))

clean:
	rm -rf build
