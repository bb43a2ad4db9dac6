#!/usr/bin/env bash
# Regenerates the primal-vs-dual report from a built tree (scripts/build.sh): into
# results/primal-vs-dual, then compared with the committed report/ (`kexp diff`); with
# --update, into report/ itself. Run from anywhere; KEXP names another kexp program.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=experiments/primal-vs-dual
kexp=${KEXP:-build/bin/kexp}
. "$(dirname "$0")/../lib.sh"
report=$(report_folder "$here" "$@")
# One thread for BLAS and OpenMP (the feature maps), as experiment.yaml's `threads: 1`
# sets for the Gram blocks: each cost is measured on one core, so the growth exponents are
# those of the algorithms, not of how well threads spread at each size (on a busy machine
# an idle OpenMP team waits for a scheduler tick).
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$kexp" run "$here/experiment.yaml" --out "$report" \
  --force --quiet
# results.csv holds every row; the JSON lines copy of it is not committed.
rm -f "$report/results.jsonl"
for file in summary.md results.csv config.yaml manifest.json; do
  [[ -s $report/$file ]] || { echo "run.sh: $report/$file is missing" >&2; exit 1; }
done
compgen -G "$report/plots/cost_vs_n_*.svg" > /dev/null ||
  { echo "run.sh: no time-against-n plots in $report/plots (is gnuplot installed?)" >&2; exit 1; }
grep -q '^## Crossover in n' "$report/summary.md" ||
  { echo "run.sh: summary.md has no crossover table" >&2; exit 1; }
echo "report in $report"
compare_with_committed "$here" "$report" "$kexp"
