#!/usr/bin/env bash
# Regenerates experiments/primal-vs-dual/report/ from a built tree (scripts/build.sh).
# Run from anywhere; KEXP names another kexp program.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=experiments/primal-vs-dual
kexp=${KEXP:-build/bin/kexp}
# One thread for the Gram blocks, BLAS and OpenMP (the feature maps): each cost is measured
# on one core, so the growth exponents are those of the algorithms, not of how well threads
# spread at each size (on a busy machine an idle OpenMP team waits for a scheduler tick).
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$kexp" run "$here/experiment.yaml" --out "$here/report" \
  --force --quiet --threads 1
# results.csv holds every row; the JSON lines copy of it is not committed.
rm -f "$here/report/results.jsonl"
for file in summary.md results.csv config.yaml manifest.json; do
  [[ -s $here/report/$file ]] || { echo "run.sh: $here/report/$file is missing" >&2; exit 1; }
done
compgen -G "$here/report/plots/cost_vs_n_*.svg" > /dev/null ||
  { echo "run.sh: no time-against-n plots in $here/report/plots (is gnuplot installed?)" >&2; exit 1; }
grep -q '^## Crossover in n' "$here/report/summary.md" ||
  { echo "run.sh: summary.md has no crossover table" >&2; exit 1; }
echo "report in $here/report"
