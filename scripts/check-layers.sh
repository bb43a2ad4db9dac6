#!/usr/bin/env bash
# Checks the layering of the runner core: a file in framework/src/<folder>/ (or
# framework/cli/) may include, with #include "…", only its own folder, lower folders, and
# the public SDK (kexp/…). Lowest to highest:
#
#   util < device < kernel_algebra < plugin < config < sweep < exec < reporting < run < cli
#
# check/ stands beside the chain: it may include util, kernel_algebra, plugin, config and
# sweep, and only cli may include it. sdk/ (the public SDK's implementation) may include
# the SDK only. CUDA sources (*.cu) and included implementation files (*.inl) are checked
# as the headers and sources of their folder are.
#
# The plugins are built as a user's are: a file in plugins/<kind>/ may include the SDK
# (kexp/…), its own folder and plugins/common/; a file in plugins/common/ the SDK and
# common/ only. No plugin includes another plugin folder or a private header of the
# runner. Prints every violation and fails when there is one.
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
    plugins/*)
      local rest=${1#plugins/}
      echo "plugins/${rest%%/*}"
      ;;
  esac
}

# Whether a plugin file in plugins/$1 may include a header of folder $2.
plugin_allowed() {
  local from=${1#plugins/} to=$2
  [[ $to == kexp || $to == common ]] && return 0
  [[ $from != common && $to == "$from" ]]
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
    if [[ $from == plugins/* ]]; then
      if ! plugin_allowed "$from" "$to"; then
        echo "$file:$line: a plugin file in $from includes \"$header\" ($to): plugins include the SDK (kexp/), their own folder and common/ only"
        violations=$((violations + 1))
      fi
      continue
    fi
    if ! allowed "$from" "$to"; then
      echo "$file:$line: $from includes \"$header\" ($to)"
      violations=$((violations + 1))
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
    sed -E 's/^([0-9]+):[^"]*"([^"]*)".*/\1:\2/' || true)
done < <(git ls-files --cached --others --exclude-standard -- \
  'framework/src/*.hpp' 'framework/src/*.cpp' 'framework/src/*.in' \
  'framework/src/*.cu' 'framework/src/*.inl' \
  'framework/cli/*.hpp' 'framework/cli/*.cpp' \
  'plugins/*.hpp' 'plugins/*.cpp')

if ((violations > 0)); then
  echo "layers: $violations include(s) against the order util < device < kernel_algebra < plugin < config < sweep < exec < reporting < run < cli, or the plugins' rule, in $checked files"
  exit 1
fi
echo "layers: $checked files clean"
