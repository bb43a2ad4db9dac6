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

# The README's cost claims, as ratios of one run: after 100 and 1000 steps the primal is
# the cheaper form at D = 11 and the dual at D = 3003 (time ratio primal / dual, the mean
# over the repeats, below and above 1), and the two cross at D/n from 0.4 to 1.1 (between
# where the step flop counts cross, D = n/2, and D = n, with what two machines measured).
while read -r steps low_d low_ratio high_d high_ratio cross; do
  [[ $steps == 100 || $steps == 1000 ]] || continue
  claim "after $steps steps, time ratio primal / dual at D = $low_d (primal cheaper)" "$low_ratio" 0 1
  claim "after $steps steps, time ratio primal / dual at D = $high_d (dual cheaper)" "$high_ratio" 1 1e9
  claim "after $steps steps, D/n where the forms cross" "$cross" 0.4 1.1
done < <(csv_to_tsv "$report/results.csv" | awk -F'\t' '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["status"] == "ok" {
    t = $c["gram_seconds"] + $c["feature_seconds"] + $c["fit_seconds"] + $c["predict_seconds"]
    k = $c["solver.iterations"] SUBSEP $c["kernel.degree"]
    if ($c["form"] == "primal") { p[k] += t; np[k]++; D[k] = $c["feature_dim"] } else { d[k] += t; nd[k]++ }
    n = $c["n_train"]; its[$c["solver.iterations"]] = 1; deg[$c["kernel.degree"]] = 1
  }
  END {
    for (it in its) {
      m = 0
      for (g in deg) { k = it SUBSEP g; if (!(k in D) || !(k in d)) continue
        m++; x[m] = D[k] + 0; r[m] = (p[k] / np[k]) / (d[k] / nd[k]) }
      for (i = 2; i <= m; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
        t = x[j]; x[j] = x[j - 1]; x[j - 1] = t; t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
      cross = ""
      for (i = 1; i < m && cross == ""; i++) if ((r[i] - 1) * (r[i + 1] - 1) <= 0) {
        f = log(r[i]) / (log(r[i]) - log(r[i + 1]))
        cross = exp(log(x[i]) + f * (log(x[i + 1]) - log(x[i]))) / n }
      printf "%s %s %.3g %s %.3g %s\n", it, x[1], r[1], x[m], r[m], cross == "" ? "none" : sprintf("%.3g", cross)
    }
  }')
status=0
claims_hold || status=1
check_provenance "$here" "$report" || status=1
compare_with_committed "$here" "$report" "$kexp" || status=1
exit $status
