#!/usr/bin/env bash
# The tools ci/ci_gate.sh starts with (git, make, python3), installed with
# apt-get when missing: the first step of action.yml and of the GitLab
# component (templates/lz4gate.yml). Everything else is `make deps`, which
# ci_gate.sh runs once it knows a copy changed.
set -eu
missing=()
for tool in git make python3; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" ca-certificates
