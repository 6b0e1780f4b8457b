#!/usr/bin/env bash
# lz4gate set-up step, called by `make deps` (and so by `make test`, `make gate`,
# `make fuzz`, `make bench`). Idempotent: a stamp file records the package set
# that was last found complete, so a second run costs one dpkg query.
#
# Installs with apt-get what is missing when run as root; otherwise prints the
# exact command to run and exits 2.
#
# Environment:
#   LZ4GATE_DEPS_EXTRA   extra package names to require (space separated)
#   LZ4GATE_DEPS_NO_INSTALL=1   never install, only report (as a non-root user would)
#   LZ4GATE_STAMP_DIR    where the stamp goes (default: build/)
set -u

packages=(
    clang                 # clang 14: libFuzzer, ASan/UBSan, -m32 builds
    libclang-rt-14-dev    # compiler-rt: sanitizer and libFuzzer runtimes
    lld                   # the linker of every program lz4gate builds (faster than ld.bfd)
    afl++                 # AFL++ engine (afl-clang-fast, afl-fuzz)
    gcovr                 # coverage reports
    python3-pytest        # the suite's own tests
    python3-pytest-xdist  # ... on every core (make test, make check)
    python3-yaml          # the suite reads action.yml and the GitLab component
    gcc-multilib          # 32-bit builds
    g++-multilib          # 32-bit libFuzzer builds (libstdc++)
    qemu-user             # runs 32-bit builds where the kernel cannot (no IA-32 emulation)
    liblz4-dev            # the system liblz4: interop peer and `system` subject
    lz4                   # the lz4 command-line tool (frame interop)
    dpkg-dev              # apt-get source (the upstream lz4 subject)
    xz-utils              # extracting the kernel source tarball
    python3-clang-14      # clang.cindex: the mutation tool's tokenizer and call graph
)
# shellcheck disable=SC2206
packages+=(${LZ4GATE_DEPS_EXTRA:-})

top=$(cd "$(dirname "$0")/.." && pwd)
stamp_dir=${LZ4GATE_STAMP_DIR:-$top/build}
stamp="$stamp_dir/.deps-stamp"
want="${packages[*]}"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi

# Two set-ups at once (two make commands, parallel CI steps): one checks and
# installs, the other waits for it and then finds the stamp current (two
# apt-get runs at once fail on the dpkg lock).
mkdir -p "$stamp_dir"
exec 9>>"$stamp_dir/.deps-lock"
flock 9
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    cmd="apt-get update && apt-get install -y ${missing[*]}"
    if [ "$(id -u)" != 0 ] || [ "${LZ4GATE_DEPS_NO_INSTALL:-0}" = 1 ]; then
        echo "lz4gate: missing packages: ${missing[*]}" >&2
        echo "lz4gate: run as root:  $cmd" >&2
        exit 2
    fi
    echo "lz4gate: installing ${missing[*]} (apt-get)" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"${TMPDIR:-/tmp}/lz4gate-apt.log" 2>&1; then
        tail -n 20 "${TMPDIR:-/tmp}/lz4gate-apt.log" >&2
        echo "lz4gate: apt-get failed (log above); run by hand:  $cmd" >&2
        exit 2
    fi
fi

# Written whole (a reader never sees half a stamp), then renamed into place.
printf '%s' "$want" >"$stamp.tmp.$$" && mv -f "$stamp.tmp.$$" "$stamp"
exit 0
