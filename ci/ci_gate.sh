#!/usr/bin/env bash
# CI entry point for gating a vendoring update; called by the GitHub Actions
# workflow (ci/github/lz4gate.yml) and the GitLab job (ci/gitlab/lz4gate.yml).
#
# Environment (set by the CI template):
#   LZ4GATE_BASE        SPEC of the base, e.g. kernel:/path/to/base/checkout
#   LZ4GATE_CANDIDATE   SPEC of the candidate, e.g. kernel:/path/to/pr/checkout
#   LZ4GATE_FUZZ_TIME   seconds of differential fuzzing (default 300)
#   LZ4GATE_STRICT      1: known findings fail the gate too
#   LZ4GATE_CONFIGS     build configurations, e.g. asan64,O2 (default: the gate's)
#   LZ4GATE_EXTRA_ARGS  more ci/gate.py options, split on spaces
#                       (e.g. "--patch /path/series.mbox --fuzz-targets decode_differential")
#   LZ4GATE_OUT         report directory (default build/gate): report.md,
#                       report-full.md, junit.xml, results.sarif (SARIF 2.1.0)
#   GITHUB_STEP_SUMMARY (GitHub) the report is appended there
#   CI_PROJECT_DIR      (GitLab) the report is copied to $CI_PROJECT_DIR/lz4gate-report
# Exit status is the gate's: 0 pass, 1 fail, 2 could not run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
for v in LZ4GATE_BASE LZ4GATE_CANDIDATE; do
    if [ -z "${!v:-}" ]; then
        echo "ci_gate.sh: set $v to a SPEC (e.g. kernel:/path/to/checkout)" >&2
        exit 2
    fi
done
out=${LZ4GATE_OUT:-$top/build/gate}

make -C "$top" -s deps subjects || exit 2
args=(--base "$LZ4GATE_BASE" --candidate "$LZ4GATE_CANDIDATE"
      --fuzz-time "${LZ4GATE_FUZZ_TIME:-300}" --out "$out")
[ "${LZ4GATE_STRICT:-0}" = 1 ] && args+=(--strict)
[ -n "${LZ4GATE_CONFIGS:-}" ] && args+=(--configs "$LZ4GATE_CONFIGS")
# shellcheck disable=SC2206  # split on purpose: several options
[ -n "${LZ4GATE_EXTRA_ARGS:-}" ] && args+=(${LZ4GATE_EXTRA_ARGS})
/usr/bin/python3 "$top/ci/gate.py" "${args[@]}" >/dev/null
status=$?

if [ -f "$out/report.md" ]; then
    [ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat "$out/report.md" >>"$GITHUB_STEP_SUMMARY"
    if [ -n "${CI_PROJECT_DIR:-}" ]; then
        mkdir -p "$CI_PROJECT_DIR/lz4gate-report" && cp -r "$out/." "$CI_PROJECT_DIR/lz4gate-report/"
    fi
    head -n 1 "$out/report.md"
fi
exit $status
