# lz4gate — conformance and differential-fuzzing suite for vendored LZ4.
#
#   make test      set up (apt-get as root), then run the suite's own tests
#   make gate      gate a vendoring update: BASE=SPEC CANDIDATE=SPEC PATCHES=...
#                  FUZZ_TIME=60 JOBS=2 STRICT=1 (default: kernel 6.1 -> upstream 1.9.4)
#   make bench     reference codec vs the system liblz4, side by side
#   make mutants   show that every named check of the reference decoder is
#                  exercised by a test that fails without it
#   make subjects  fetch the default subjects (Debian's lz4 source, linux 6.1)
#   make contracts API contract tests: SUBJECT="ref system upstream kernel"
#                  CONFIGS="asan64 asan32 O0 O2" PATCHES="a.patch ..."
#   make regress   regression cases: SUBJECT="ref upstream kernel" CONFIGS=...
#   make clean     remove build/
#
# Everything is built out of tree under build/. C builds are plain make;
# orchestration is Python 3 (standard library), tests are pytest.

PYTHON ?= /usr/bin/python3
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# ---- build configurations for the reference codec and its C tests ------
# CONFIG selects one; `make ref-tests CONFIG=asan32` builds into build/ref/asan32.
CONFIG ?= asan64
REF_CONFIGS := asan64 asan32 gcc-O0 gcc-O2 gcc-O2-m32 clang-O2

WARN := -std=c11 -Wall -Wextra -Werror
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
cfg_cc_asan64 := clang
cfg_flags_asan64 := -O1 -g $(SAN)
cfg_bits_asan64 := 64
cfg_cc_asan32 := clang
cfg_flags_asan32 := -m32 -O1 -g $(SAN)
cfg_bits_asan32 := 32
cfg_cc_gcc-O0 := gcc
cfg_flags_gcc-O0 := -O0 -g
cfg_bits_gcc-O0 := 64
cfg_cc_gcc-O2 := gcc
cfg_flags_gcc-O2 := -O2 -g
cfg_bits_gcc-O2 := 64
cfg_cc_gcc-O2-m32 := gcc
cfg_flags_gcc-O2-m32 := -m32 -O2 -g
cfg_bits_gcc-O2-m32 := 32
cfg_cc_clang-O2 := clang
cfg_flags_clang-O2 := -O2 -g
cfg_bits_clang-O2 := 64

ifeq ($(cfg_cc_$(CONFIG)),)
$(error unknown CONFIG '$(CONFIG)'; use one of: $(REF_CONFIGS))
endif

# MUTANT=NAME builds the reference decoder with check NAME switched off
# (ref/checks.h) into build/mutants/NAME/CONFIG.
MUTANT ?=
ifeq ($(MUTANT),)
BUILD := build/ref/$(CONFIG)
MUTANT_FLAGS :=
else
BUILD := build/mutants/$(MUTANT)/$(CONFIG)
MUTANT_FLAGS := -DREF_MUTANT=$(MUTANT)
endif

REF_CC := $(cfg_cc_$(CONFIG))
REF_CFLAGS := $(WARN) $(cfg_flags_$(CONFIG)) $(MUTANT_FLAGS) -Iref -Itests/c
REF_SRCS := $(sort $(wildcard ref/*.c))
REF_HDRS := $(wildcard ref/*.h) tests/c/check.h

# Unit tests: one program per tests/c/test_*.c. The interop test needs the
# system liblz4, which Debian ships for the native (64-bit) ABI only.
UNIT_TESTS := $(sort $(basename $(notdir $(wildcard tests/c/test_*.c))))
ifeq ($(cfg_bits_$(CONFIG)),32)
UNIT_TESTS := $(filter-out test_interop,$(UNIT_TESTS))
endif
UNIT_BINS := $(addprefix $(BUILD)/,$(UNIT_TESTS))

.PHONY: all deps test ref-tests ref-tests-all mutants bench clean help subjects contracts regress

all: ref-tests

help:
	@sed -n '1,16p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@bash ci/deps.sh

ref-tests: $(UNIT_BINS)

# All configurations at once (used by the pytest suite).
ref-tests-all:
	@for c in $(REF_CONFIGS); do $(MAKE) -s --no-print-directory ref-tests CONFIG=$$c || exit 1; done

$(BUILD)/test_interop: tests/c/test_interop.c $(REF_SRCS) $(REF_HDRS)
	@mkdir -p $(dir $@)
	$(REF_CC) $(REF_CFLAGS) -o $@ $< $(REF_SRCS) -llz4

$(BUILD)/%: tests/c/%.c $(REF_SRCS) $(REF_HDRS)
	@mkdir -p $(dir $@)
	$(REF_CC) $(REF_CFLAGS) -o $@ $< $(REF_SRCS)

test: deps subjects
	$(PYTHON) -m pytest -q tests

# The default subjects, cached under build/subjects (nothing is installed:
# the kernel .deb is downloaded and only its LZ4 files are extracted).
subjects: deps
	@$(PYTHON) harness/fetch_subjects.py --download-kernel --quiet >/dev/null

SUBJECT ?= ref system upstream kernel
CONFIGS ?= asan64 asan32 O0 O2
PATCHES ?=
regress: subjects
	$(PYTHON) harness/regress.py $(if $(filter command line,$(origin SUBJECT)),$(SUBJECT),ref upstream kernel) \
		$(if $(filter command line,$(origin CONFIGS)),$(foreach c,$(CONFIGS),--config $(c))) \
		$(foreach p,$(PATCHES),--patch $(p))

contracts: subjects
	$(PYTHON) harness/contracts.py $(SUBJECT) $(foreach c,$(CONFIGS),--config $(c)) \
		$(foreach p,$(PATCHES),--patch $(p))

# Every named check of ref is exercised by a unit test, and every regression
# case fails on the subjects that have its bug.
mutants: deps subjects
	$(PYTHON) tests/mutants.py
	$(PYTHON) harness/regress.py --mutants

build/bench/ref_bench: bench/ref_bench.c $(REF_SRCS) $(REF_HDRS)
	@mkdir -p $(dir $@)
	gcc $(WARN) -O2 -march=x86-64 -Iref -o $@ $< $(REF_SRCS) -llz4

bench: deps build/bench/ref_bench
	build/bench/ref_bench

clean:
	rm -rf build

# The gate: may CANDIDATE replace BASE? (ci/gate.py --help)
BASE ?= kernel
CANDIDATE ?= upstream
FUZZ_TIME ?= 60
GATE_CONFIGS ?= asan64,asan32,O0,O2
.PHONY: gate
gate: subjects
	$(PYTHON) ci/gate.py --base $(BASE) --candidate $(CANDIDATE) --fuzz-time $(FUZZ_TIME) \
		--jobs $(JOBS) --configs $(GATE_CONFIGS) $(if $(STRICT),--strict) \
		$(foreach p,$(PATCHES),--patch $(p))
