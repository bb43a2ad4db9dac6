#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy: checks that find bugs and slow code) over the runner core
# and the kexp program, the code that reads what users write, with the compile commands
# of the build in build/ (scripts/build.sh first). Fails on any finding.
#   scripts/check-tidy.sh [BUILD_DIR] [PATH…]   (default: framework/src framework/cli)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
paths=("$@")
if ((${#paths[@]} == 0)); then paths=(framework/src framework/cli); fi
jobs=${KEXP_JOBS:-$(nproc)}
if [[ ! -f $build/compile_commands.json ]]; then
  echo "check-tidy: no $build/compile_commands.json; run scripts/build.sh first" >&2
  exit 2
fi
# the files this build compiles (a build with CUDA compiles device/cuda_backend.cu, not
# device/cuda_absent.cpp)
mapfile -t files < <(git ls-files -- "${paths[@]/%//*.cpp}" |
  while read -r f; do grep -q "\"file\": \"[^\"]*/$f\"" "$build/compile_commands.json" && echo "$f"; done)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -n 2 clang-tidy -p "$build" --quiet > "$out" 2> /dev/null || status=$?
if ((status != 0)) || grep -q "error:\|warning:" "$out"; then
  grep -A3 "error:\|warning:" "$out" || true
  echo "tidy: findings in ${#files[@]} files (above)"
  exit 1
fi
echo "tidy: ${#files[@]} files clean"
