#!/usr/bin/env bash
# Checks that no source file in framework/ or plugins/ is longer than 450 lines: a file
# that grows past it does more than one job, and is split by job. The exceptions below are
# files whose length is one job that a split would only scatter; each says why. Prints
# every file over the limit that is not an exception, and every exception that is no
# longer over it (so that the list stays true), and fails when there is one.
#   scripts/check-lines.sh
set -euo pipefail
cd "$(dirname "$0")/.."

limit=450
# file → why it may be longer
# (none today; an entry reads: [path/to/file.cpp]="why it is one job")
declare -A exceptions=()

failures=0
checked=0
while IFS= read -r file; do
  checked=$((checked + 1))
  lines=$(wc -l <"$file")
  if ((lines > limit)); then
    if [[ -z ${exceptions[$file]+set} ]]; then
      echo "$file: $lines lines, more than $limit: split it by job (or, when it is one job, add it to the exceptions in scripts/check-lines.sh with the reason)"
      failures=$((failures + 1))
    fi
  elif [[ -n ${exceptions[$file]+set} ]]; then
    echo "$file: $lines lines, no longer over $limit: remove it from the exceptions in scripts/check-lines.sh"
    failures=$((failures + 1))
  fi
done < <(git ls-files --cached --others --exclude-standard -- \
  'framework/*.hpp' 'framework/*.cpp' 'framework/*.cu' 'framework/*.inl' 'framework/*.h' \
  'plugins/*.hpp' 'plugins/*.cpp')

for file in "${!exceptions[@]}"; do
  if [[ ! -f $file ]]; then
    echo "$file: listed in the exceptions of scripts/check-lines.sh, and there is no such file"
    failures=$((failures + 1))
  fi
done

if ((failures > 0)); then
  echo "lines: $failures problem(s) in $checked files"
  exit 1
fi
echo "lines: $checked files at most $limit lines (${#exceptions[@]} exceptions)"
