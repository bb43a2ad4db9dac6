#!/usr/bin/env bash
# Fails when a C++ file differs from what clang-format (.clang-format) makes of it.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
bad=0
for f in "${files[@]}"; do
  if ! diff -q <(clang-format --style=file "$f") "$f" > /dev/null; then
    echo "not formatted: $f (run: clang-format -i $f)"
    bad=1
  fi
done
if ((bad)); then exit 1; fi
echo "format: ${#files[@]} files clean"
