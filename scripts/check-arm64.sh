#!/usr/bin/env bash
# Compiles the SDK, the runner core and the command line for arm64 with Debian's cross
# compiler (g++-aarch64-linux-gnu), syntax only: code for one architecture
# (x86-64's intrinsics, its CPU feature tests) must be guarded so that the tree builds on
# another. The libraries' headers are the build machine's, looked in after the cross
# compiler's own C and C++ library.
#   scripts/check-arm64.sh [BUILD_DIR]   (default build/, for the generated version.hpp)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${KEXP_JOBS:-$(nproc)}
compiler=aarch64-linux-gnu-g++
if ! command -v "$compiler" >/dev/null; then
  echo "check-arm64: $compiler is not installed (apt-get install g++-aarch64-linux-gnu)" >&2
  exit 1
fi
if [[ ! -f "$build/framework/include/kexp/version.hpp" ]]; then
  echo "check-arm64: $build/framework/include/kexp/version.hpp is missing: build first" >&2
  exit 1
fi
flags=(-std=c++17 -fsyntax-only -fopenmp -DBOOST_DLL_USE_STD_FS
  '-DKEXP_PLUGIN_RELDIR="lib/kexp/plugins"'
  -I framework/include -I "$build/framework/include" -I framework/src -I framework -I plugins
  -idirafter /usr/include -idirafter /usr/include/x86_64-linux-gnu)
mapfile -t files < <(find framework/src framework/cli -name '*.cpp' ! -path '*/device/cuda_*' | sort)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
running=0
for f in "${files[@]}"; do
  log="$logs/$(echo "$f" | tr / _).log"
  { "$compiler" "${flags[@]}" "$f" >"$log" 2>&1 || echo "$f" >>"$logs/failed"; } &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n
    running=$((running - 1))
  fi
done
wait
if [[ -f "$logs/failed" ]]; then
  while read -r f; do
    echo "check-arm64: $f does not compile for arm64:" >&2
    head -20 "$logs/$(echo "$f" | tr / _).log" >&2
  done <"$logs/failed"
  exit 1
fi
echo "arm64: ${#files[@]} files compile"
