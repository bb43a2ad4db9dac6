#!/usr/bin/env bash
# Regenerates the curated experiments that take under about two minutes on two cores, each
# into a scratch folder, and fails when one fails: a change that makes a committed report
# no longer regenerate (a result differs, a run is missing) or a claim of its README no
# longer hold fails the test command. Each experiment's run.sh does the work; this runs
# them one after the other and says how long each took.
#   scripts/test-experiments.sh                 # the short ones (below)
#   scripts/test-experiments.sh primal-vs-dual  # the ones named
# The others take longer (generative-kernels 1.5 to 3 minutes, primal-vs-dual 2 to 5, large-scale
# about 30 and 17 GB of memory):
# run them by their run.sh before changing what they rest on.
set -euo pipefail
cd "$(dirname "$0")/.."
short=(representer kernel-validity gp-regression precision gaussian-features new-kernels)
experiments=("$@")
[[ ${#experiments[@]} -gt 0 ]] || experiments=("${short[@]}")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=()
for e in "${experiments[@]}"; do
  [[ -x experiments/$e/run.sh ]] || { echo "test-experiments: no experiments/$e/run.sh" >&2; exit 2; }
  start=$SECONDS
  if KEXP_SCRATCH=$scratch "experiments/$e/run.sh" >"$scratch/$e.log" 2>&1; then
    echo "test-experiments: $e regenerates its committed report ($((SECONDS - start)) s)" >&2
  else
    echo "test-experiments: $e FAILED ($((SECONDS - start)) s); its output:" >&2
    tail -n 40 "$scratch/$e.log" >&2
    failed+=("$e")
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "test-experiments: ${#failed[@]} failed: ${failed[*]}" >&2
  exit 1
fi
