#!/usr/bin/env bash
# Checks the layering of the runner core: a file in framework/src/<folder>/ (or
# framework/cli/) may include, with #include "…", only its own folder, lower folders, and
# the public SDK (kexp/…). Lowest to highest:
#
#   util < device < kernel_algebra < plugin < config < sweep < exec < reporting < run < cli
#
# check/ stands beside the chain: it may include util, kernel_algebra, plugin, config and
# sweep, and only cli may include it. sdk/ (the public SDK's implementation) may include
# the SDK only. Prints every violation and fails when there is one.
#   scripts/check-layers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

order=(util device kernel_algebra plugin config sweep exec reporting run cli)

rank_of() {
  local i
  for i in "${!order[@]}"; do
    if [[ ${order[$i]} == "$1" ]]; then
      echo "$i"
      return
    fi
  done
  echo -1
}

# Whether a file in folder $1 may include a header of folder $2.
allowed() {
  local from=$1 to=$2
  [[ $to == kexp || $to == "$from" ]] && return 0
  case $from in
    sdk) return 1 ;;
    check)
      case $to in util | kernel_algebra | plugin | config | sweep) return 0 ;; esac
      return 1
      ;;
  esac
  if [[ $to == check ]]; then
    [[ $from == cli ]]
    return
  fi
  local rf rt
  rf=$(rank_of "$from")
  rt=$(rank_of "$to")
  ((rf >= 0 && rt >= 0 && rt < rf))
}

# The layer of a source file: its folder under framework/src, or cli.
layer_of() {
  case $1 in
    framework/cli/*) echo cli ;;
    framework/src/*)
      local rest=${1#framework/src/}
      echo "${rest%%/*}"
      ;;
  esac
}

violations=0
checked=0
while IFS= read -r file; do
  from=$(layer_of "$file")
  checked=$((checked + 1))
  while IFS=: read -r line header; do
    [[ -z $line ]] && continue
    to=${header%%/*}
    [[ $to == "$header" ]] && to="(no folder)"
    if ! allowed "$from" "$to"; then
      echo "$file:$line: $from includes \"$header\" ($to)"
      violations=$((violations + 1))
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
    sed -E 's/^([0-9]+):[^"]*"([^"]*)".*/\1:\2/' || true)
done < <(git ls-files --cached --others --exclude-standard -- \
  'framework/src/*.hpp' 'framework/src/*.cpp' 'framework/src/*.in' \
  'framework/cli/*.hpp' 'framework/cli/*.cpp')

if ((violations > 0)); then
  echo "layers: $violations include(s) against the order util < device < kernel_algebra < plugin < config < sweep < exec < reporting < run < cli in $checked files"
  exit 1
fi
echo "layers: $checked files clean"
