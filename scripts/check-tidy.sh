#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy) over kexp's own sources, with the compile commands of
# the build in build/ (scripts/build.sh first). Fails on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${KEXP_JOBS:-$(nproc)}
if [[ ! -f $build/compile_commands.json ]]; then
  echo "check-tidy: no $build/compile_commands.json; run scripts/build.sh first" >&2
  exit 2
fi
mapfile -t files < <(git ls-files 'framework/*.cpp' 'plugins/*.cpp')
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -n 4 clang-tidy -p "$build" --quiet 2>/dev/null
echo "tidy: ${#files[@]} files clean"
