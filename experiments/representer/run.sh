#!/usr/bin/env bash
# Regenerates experiments/representer/report/ from a built tree (scripts/build.sh), then
# writes report/agreement.md: for every primal-dual pair, the largest difference between
# their test predictions relative to the largest prediction, and fails when one is above
# 1e-8. Run from anywhere; KEXP names another kexp program.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=experiments/representer
. "$(dirname "$0")/../lib.sh"
report=$(report_folder "$here" "$@")
kexp=${KEXP:-build/bin/kexp}
# One thread for the Gram blocks, BLAS and OpenMP (the feature maps): times compare on one
# core.
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$kexp" run "$here/experiment.yaml" --out "$report" --force --quiet
rm -f "$report/results.jsonl"  # results.csv holds every row
for file in summary.md results.csv config.yaml manifest.json; do
  [[ -s $report/$file ]] || { echo "run.sh: $report/$file is missing" >&2; exit 1; }
done
compgen -G "$report/plots/cost_vs_D_*.svg" > /dev/null ||
  { echo "run.sh: no time-against-D plot in $report/plots (is gnuplot installed?)" >&2; exit 1; }

# The pairs as the runner recorded them: the later cell of a pair names the other in
# paired_with, with the largest absolute difference of their test predictions.
awk -F, -v report="$report" -v limit=1e-8 '
  function abs(v) { return v < 0 ? -v : v }
  function largest(file,   line, f, m) {  # max |y_pred| of a predictions file
    m = 0
    while ((getline line < file) > 0) {
      split(line, f, ",")
      if (f[3] != "y_pred" && abs(f[3] + 0) > m) m = abs(f[3] + 0)
    }
    close(file)
    return m
  }
  NR == FNR {
    if (FNR == 1) { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    cell = $col["cell"]; form[cell] = $col["form"]; dim[cell] = $col["feature_dim"]
    degree[cell] = $col["kernel.degree"]; steps[cell] = $col["solver.iterations"]
    n[cell] = $col["n_train"]
    next
  }
  FNR == 1 { next }
  $col["paired_with"] != "" {
    a = $col["cell"]; b = $col["paired_with"]
    primal = form[a] == "primal" ? a : b; dual = form[a] == "primal" ? b : a
    diff = $col["prediction_max_diff"] + 0
    scale = largest(report "/predictions/" dual "-" $col["repeat"] ".csv")
    rel = scale > 0 ? diff / scale : diff
    if (rel > worst) worst = rel
    ++pairs
    rows[pairs] = sprintf("| %s | %s | %s | %s | %s | %.3g | %.4g | %.3g |", degree[primal],
                          dim[primal], n[primal], steps[primal], primal " / " dual, diff, scale, rel)
    key[pairs] = sprintf("%08d %08d", degree[primal], steps[primal])
  }
  END {
    out = report "/agreement.md"
    print "# Primal against dual gradient descent: agreement of the predictions\n" > out
    print "For each pair of cells that differ only in form (primal_gd on the exact feature" > out
    print "map, dual_gd on the Gram matrix, same degree and number of steps): max |Δŷ| is the" > out
    print "largest difference of their test predictions, max |ŷ| the largest |prediction| of" > out
    print "the dual cell, relative their ratio. Written by run.sh from results.csv and" > out
    print "predictions/.\n" > out
    print "| degree | D | n | iterations | primal / dual cells | max \\|Δŷ\\| | max \\|ŷ\\| | relative |" > out
    print "|---|---|---|---|---|---|---|---|" > out
    for (i = 1; i <= pairs; ++i) order[i] = i
    for (i = 2; i <= pairs; ++i)  # insertion sort by (degree, iterations)
      for (j = i; j > 1 && key[order[j - 1]] > key[order[j]]; --j) {
        t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
      }
    for (i = 1; i <= pairs; ++i) print rows[order[i]] > out
    printf "\n%d pairs; the largest relative difference is %.3g (limit %g).\n", pairs, worst, limit > out
    close(out)
    if (pairs == 0) { print "run.sh: no primal-dual pairs in results.csv" > "/dev/stderr"; exit 1 }
    if (worst > limit) {
      printf "run.sh: primal and dual predictions differ by %.3g relative (> %g)\n", worst, limit > "/dev/stderr"
      exit 1
    }
  }
' "$report/results.csv" "$report/results.csv"
echo "report in $report"
compare_with_committed "$here" "$report" "$kexp"
