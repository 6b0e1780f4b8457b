#!/usr/bin/env bash
# CI entry point for gating a vendoring update; called by the GitHub Action
# (action.yml) and the GitLab CI/CD component (templates/lz4gate.yml), whose
# inputs set these variables (docs/ci.md).
#
# Two ways to name the sides:
#   LZ4GATE_REPO        a checkout of the project, with its history: the
#                       change's LZ4 copy is found by scan on the merge base
#                       and the head (python3 -m harness pr --help); a change
#                       that touches no copy exits 0 before anything is set up
#   LZ4GATE_BASE_REF    the branch the change goes into (default: GitHub's
#                       origin/$GITHUB_BASE_REF, GitLab's merge-request base)
# or
#   LZ4GATE_BASE        SPEC of the base, e.g. kernel:/path/to/base/checkout
#   LZ4GATE_CANDIDATE   SPEC of the candidate, e.g. kernel:/path/to/pr/checkout
# and
#   LZ4GATE_FUZZ_TIME   seconds of differential fuzzing (default 300)
#   LZ4GATE_STRICT      1 or true: behaviour changes (WARN) fail the gate too
#   LZ4GATE_CONFIGS     build configurations, e.g. asan64,O2 (default: the gate's)
#   LZ4GATE_WAIVERS     waivers file, relative to LZ4GATE_REPO (default: its
#                       .lz4gate.toml)
#   LZ4GATE_EXTRA_ARGS  more ci/gate.py options, split on spaces
#                       (e.g. "--patch /path/series.mbox --fuzz-targets decode_differential")
#   LZ4GATE_OUT         report directory (default build/gate): report.md,
#                       report-full.md, junit.xml, results.sarif (SARIF 2.1.0)
#   GITHUB_STEP_SUMMARY (GitHub) the report is appended there
#   CI_PROJECT_DIR      (GitLab) the report is copied to $CI_PROJECT_DIR/lz4gate-report
# Exit status is the gate's: 0 pass, 1 fail, 2 could not run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${LZ4GATE_REPO:-}" ]; then
    repo=$(cd "$LZ4GATE_REPO" && pwd) || exit 2
    sides=(/usr/bin/python3 -m harness pr "$repo")
    [ -n "${LZ4GATE_BASE_REF:-}" ] && sides+=(--base-ref "$LZ4GATE_BASE_REF")
    # Which copy changed, if any: git and python only, before the set-up.
    plan=$(cd "$top" && "${sides[@]}" --dry-run) || exit 2
    [ -z "$plan" ] && exit 0
elif [ -n "${LZ4GATE_BASE:-}" ] && [ -n "${LZ4GATE_CANDIDATE:-}" ]; then
    sides=(/usr/bin/python3 "$top/ci/gate.py" --base "$LZ4GATE_BASE"
           --candidate "$LZ4GATE_CANDIDATE")
else
    echo "ci_gate.sh: set LZ4GATE_REPO to the project's checkout (the changed copy is found" \
         "by scan), or LZ4GATE_BASE and LZ4GATE_CANDIDATE to SPECs (kernel:/path/to/checkout)" >&2
    exit 2
fi
out=${LZ4GATE_OUT:-$top/build/gate}

make -C "$top" -s deps subjects || exit 2
# One line per variable and the option it sets (tests/test_ci_action.py
# reads these lines: every input of the action and the component reaches
# an option the command accepts).
args=(--out "$out")
args+=(--fuzz-time "${LZ4GATE_FUZZ_TIME:-300}")
case ${LZ4GATE_STRICT:-0} in 1|true) args+=(--strict);; esac
[ -n "${LZ4GATE_CONFIGS:-}" ] && args+=(--configs "$LZ4GATE_CONFIGS")
[ -n "${LZ4GATE_WAIVERS:-}" ] && args+=(--waivers "$(cd "${repo:-.}" && realpath -m -- "$LZ4GATE_WAIVERS")")
# shellcheck disable=SC2206  # split on purpose: several options
[ -n "${LZ4GATE_EXTRA_ARGS:-}" ] && args+=(${LZ4GATE_EXTRA_ARGS})
(cd "$top" && "${sides[@]}" "${args[@]}" >/dev/null)
status=$?

if [ -f "$out/report.md" ]; then
    [ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat "$out/report.md" >>"$GITHUB_STEP_SUMMARY"
    if [ -n "${CI_PROJECT_DIR:-}" ]; then
        mkdir -p "$CI_PROJECT_DIR/lz4gate-report" && cp -r "$out/." "$CI_PROJECT_DIR/lz4gate-report/"
    fi
    head -n 1 "$out/report.md"
fi
exit $status
