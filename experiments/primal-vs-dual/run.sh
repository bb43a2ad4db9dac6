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

# The README's claims that hold on any machine, each with the tolerance it states.
summary=$report/summary.md
# 1. Same model: the forms' test predictions agree to rounding.
agree=$(sed -n 's/.*polynomial: max |Δŷ| ≤ \([0-9.e+-]*\) over.*/\1/p' "$summary")
claim "largest |Δŷ| of a primal-dual pair" "$agree" 0 1e-8
# 2. Each resolved crossover lies within a factor 1.65 of where the flop counts cross.
while IFS=$'\t' read -r primal dual D crossover flops; do
  n=${crossover%% *}
  [[ $n =~ ^[0-9.]+$ && $flops =~ ^[0-9.]+$ ]] || continue
  claim "$primal / $dual at D = $D: crossover over the flop counts'" \
    "$(awk -v a="$n" -v b="$flops" 'BEGIN { printf "%.3g", a / b }')" 0.6 1.65
done < <(summary_table "$summary" "Crossover in n" |
  pick primal dual D "crossover n (range)" "flops predict")
# 3. Each form wins at its end: the primal costs more at n = 80, D = 3876 (d = 15, p = 4)
#    and less at n = 6400, D = 21 (d = 5, p = 2), for gradient descent and ridge.
while IFS=$'\t' read -r primal dual n D ratio; do
  if [[ $n == 80 && $D == 3876 ]]; then
    claim "${primal%% *} / ${dual%% *} at n = 80, D = 3876: time ratio (dual cheaper)" "$ratio" 1 1e9
  elif [[ $n == 6400 && $D == 21 ]]; then
    claim "${primal%% *} / ${dual%% *} at n = 6400, D = 21: time ratio (primal cheaper)" "$ratio" 0 1
  fi
done < <(summary_table "$summary" "Primal against dual" | pick primal dual n D "time ratio")
# 4. Growth: each time exponent within 0.75 of its flop count's, where the fit holds (R² ≥ 0.9).
while IFS=$'\t' read -r solver settings cost b r2 flops; do
  [[ $cost == time_seconds && $flops =~ ^[0-9.]+$ ]] || continue
  awk -v r="$r2" 'BEGIN { exit !(r >= 0.9) }' || continue
  claim "$solver (${settings%%, solver.*}): time exponent less the flops'" \
    "$(awk -v a="$b" -v f="$flops" 'BEGIN { printf "%.2f", a - f }')" -0.75 0.75
done < <(summary_table "$summary" "Growth with n" |
  pick solver "other parameters" cost "exponent b" "R²" "flops predict")
status=0
claims_hold || status=1
check_provenance "$here" "$report" || status=1
compare_with_committed "$here" "$report" "$kexp" || status=1
exit $status
