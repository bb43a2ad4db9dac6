#!/usr/bin/env bash
# Regenerates experiments/gaussian-features/report from a built tree (scripts/build.sh):
#   1. `kexp run experiment.yaml`: every kernel variant with primal ridge on its approximate
#      map and with exact kernel ridge (the summary pairs them);
#   2. `kexp check-kernel --config experiment.yaml`: the kernel approximation error
#      max |⟨φ(x), φ(z)⟩ − k(x, z)| of every map on 300 points x ~ N(0, I₃), same σ;
#   3. report/report.md: tables per feature count D, the least-squares slope of the RFF errors
#      on log-log axes; report/plots/{kernel-error,test-error,time}.svg.
# Run from the repository root: experiments/gaussian-features/run.sh
set -euo pipefail
here=experiments/gaussian-features
kexp=${KEXP:-build/bin/kexp}
. "$(dirname "$0")/../lib.sh"
report=$(report_folder "$here" "$@")

OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$kexp" run "$here/experiment.yaml" --out "$report" --force --quiet
"$kexp" check-kernel --config "$here/experiment.yaml" --points 300 --dim 3 --seed 1 \
  >"$report/check-kernel.txt"
rm -f "$report/results.jsonl"

# Kernel approximation error per map variant: map key (taylor:order or rff:features:seed), D, error.
# A variant is named by its parameters that are not at their default (order 4, features
# 1000, seed 0 for the gaussian kernel): a parameter not named has its default.
awk '
  function value(t, name, default_value) {
    return match(t, name "=[0-9]+") ? substr(t, RSTART + length(name) + 1, RLENGTH - length(name) - 1) : default_value
  }
  /^kernel / {
    key = ""; t = $0
    if (t ~ /map=taylor/) key = "taylor " value(t, "order", 4)
    if (t ~ /map=rff/) key = "rff " value(t, "features", 1000) " " value(t, "seed", 0)
  }
  /^  feature map     approximate/ && key != "" {
    split($0, part, "= "); D = part[2] + 0; err = part[3] + 0
    if (key ~ /^taylor/) print key, "-", D, err; else print key, D, err
  }' "$report/check-kernel.txt" >"$report/kernel-error.dat"


# The runs, one line per kernel variant (key: map order features seed), over the 3 repeats:
# D, mean primal test RMSE, least primal time (features + fit + predict), mean dual test RMSE,
# least dual time (Gram + fit + predict), mean max |h_primal − h_dual|, primal and dual flops
# (the solvers' analytic counts). The least time of the
# repeats is the one least disturbed by other work on the machine.
awk -F'\t' '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["status"] == "ok" {
    key = $c["kernel.map"] " " ($c["kernel.map"] == "taylor" ? $c["kernel.order"] : "-") " " \
          ($c["kernel.map"] == "rff" ? $c["kernel.features"] " " $c["kernel.seed"] : "- -")
    keys[key] = 1
    if ($c["form"] == "primal") {
      D[key] = $c["feature_dim"]; np[key]++; prmse[key] += $c["test_rmse"]
      t = $c["feature_seconds"] + $c["fit_seconds"] + $c["predict_seconds"]
      if (!(key in pt) || t < pt[key]) pt[key] = t
      pf[key] = $c["flops"]
    } else {
      nd[key]++; drmse[key] += $c["test_rmse"]
      t = $c["gram_seconds"] + $c["fit_seconds"] + $c["predict_seconds"]
      if (!(key in dt) || t < dt[key]) dt[key] = t
      df[key] = $c["flops"]
    }
    if ($c["prediction_max_diff"] != "") { ndiff[key]++; diff[key] += $c["prediction_max_diff"] }
  }
  END {
    for (k in keys) {
      line = sprintf("%s %s %s %s %.6g %.6g %s %s %s", k, (k in D) ? D[k] : "-",
        np[k] ? prmse[k] / np[k] : "-", (k in pt) ? pt[k] : "-", drmse[k] / nd[k], dt[k],
        ndiff[k] ? diff[k] / ndiff[k] : "-", (k in pf) ? pf[k] : "-", df[k])
      if (k ~ /^none/) print line > "/dev/stderr"; else print line
    }
  }' <(csv_to_tsv "$report/results.csv") 2>"$report/exact.dat" | sort -k1,1 -k2,2g -k3,3g -k4,4g >"$report/runs.dat"

# Per D: the Taylor maps as they are; the RFF maps averaged over their five seeds (mean and
# standard deviation), kernel error joined from kernel-error.dat.
# taylor.dat: order D kernel_err test_rmse pred_diff primal_seconds (features + fit + predict)
#             primal / dual time (its exact dual partner in the same run)
# rff.dat:    D err_mean err_sd test_rmse_mean test_rmse_sd pred_diff_mean primal_seconds_mean
#             mean primal / dual time
awk 'FNR == NR { if ($1 == "taylor") te[$2] = $5; next }
  $1 == "taylor" { print $2, $5, te[$2], $6, $10, $7, $7 / $9, $11 / $12 }' \
  "$report/kernel-error.dat" "$report/runs.dat" | sort -k1,1g >"$report/taylor.dat"
awk 'FNR == NR { if ($1 == "rff") re[$2 " " $3] = $5; next }
  $1 == "rff" {
    D = $3; e = re[$3 " " $4]; n[D]++; se[D] += e; se2[D] += e * e
    sr[D] += $6; sr2[D] += $6 * $6; sd[D] += $10; st[D] += $7; sq[D] += $7 / $9; sf[D] += $11 / $12
  }
  END {
    for (D in n) {
      m = se[D] / n[D]; mr = sr[D] / n[D]
      printf "%d %.6g %.3g %.6g %.3g %.6g %.6g %.4g %.4g\n", D, m, sqrt(max0(se2[D] / n[D] - m * m) * n[D] / (n[D] - 1)),
        mr, sqrt(max0(sr2[D] / n[D] - mr * mr) * n[D] / (n[D] - 1)), sd[D] / n[D], st[D] / n[D], sq[D] / n[D], sf[D] / n[D]
    }
  }
  function max0(x) { return x > 0 ? x : 0 }' \
  "$report/kernel-error.dat" "$report/runs.dat" | sort -k1,1g >"$report/rff.dat"

# Least-squares slope b of log(error) = a + b·log D over every RFF draw (5 seeds × 8 D), for
# the kernel error and for the largest difference of the predictions from the exact ones.
fit() { awk '{ x = log($1); y = log($2); n++; sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y }
  END { b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
        r = (n * sxy - sx * sy) / sqrt((n * sxx - sx * sx) * (n * syy - sy * sy))
        printf "%.3f %.4g %.3f\n", b, exp(a), r * r }'; }
read -r slope_k coef_k r2_k < <(awk '$1 == "rff" { print $4, $5 }' "$report/kernel-error.dat" | fit)
read -r slope_p coef_p r2_p < <(awk '$1 == "rff" { print $3, $10 }' "$report/runs.dat" | fit)

# The exact dual: the map-free entry, and the median over the dual partner of every map variant.
read -r exact_rmse exact_seconds < <(awk '{ print $8, $9 }' "$report/exact.dat")
dual_median=$(awk '{ print $9 }' "$report/runs.dat" | sort -g |
  awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')

{
  echo "# Gaussian kernel: exact dual against Taylor and random Fourier features"
  echo
  echo "sine data, d = 3, 2400 training and 600 test points, standardized; σ = 1, λ = 1e-2."
  echo "Kernel error: max |⟨φ(x), φ(z)⟩ − k(x, z)| over 300 points x ~ N(0, I₃)"
  echo "(\`kexp check-kernel --config\`, check-kernel.txt). Prediction difference: max over the"
  echo "test points of |h_primal(x) − h_dual(x)|, the dual being exact kernel ridge (results.csv,"
  echo "prediction_max_diff). Time: features + fit + predict (primal), Gram + fit + predict (dual);"
  echo "Errors are means over 3 repeats (3 draws of the data), times the least of the 3;"
  echo "primal / dual: against the exact dual partner of the same kernel variant."
  echo
  printf "Exact kernel ridge (dual): test RMSE %.4f, %.3f s (median over the dual partners of all %d map variants: %.3f s).\n" \
    "$exact_rmse" "$exact_seconds" "$(wc -l <"$report/runs.dat")" "$dual_median"
  echo
  echo "## Random Fourier features (mean ± sd over 5 seeds; test RMSE and prediction difference also over 3 repeats)"
  echo
  echo "| D | kernel error | test RMSE | prediction difference | primal time (s) | primal / dual time | primal / dual flops |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  awk '{ printf "| %d | %.4f ± %.4f | %.4f ± %.4f | %.4f | %.4f | %.2f | %.3g |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' \
    "$report/rff.dat"
  echo
  echo "Least-squares fit over the 40 draws, log error = log c + b·log D:"
  echo "kernel error b = $slope_k (c = $coef_k, R² = $r2_k); prediction difference"
  echo "b = $slope_p (c = $coef_p, R² = $r2_p). The theory: b = −1/2."
  echo
  echo "## Truncated Taylor map"
  echo
  echo "| order m | D = C(m + 3, 3) | kernel error | test RMSE | prediction difference | primal time (s) | primal / dual time | primal / dual flops |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk '{ printf "| %d | %d | %.3g | %.4f | %.3g | %.4f | %.2f | %.3g |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' \
    "$report/taylor.dat"
} >"$report/report.md"

gnuplot <<GNUPLOT
set terminal svg size 760,520 dynamic background rgb "white" font "sans,12"
set logscale xy; set format y "10^{%L}"; set grid
set xlabel "number of features D"; set key bottom left
set output "$report/plots/kernel-error.svg"
set title "Kernel approximation error, Gaussian σ = 1, 300 points in R³"
set ylabel "max |⟨φ(x), φ(z)⟩ − k(x, z)|"
plot "$report/rff.dat" using 1:2:3 with yerrorbars pt 7 lc rgb "#d95f02" title "RFF (mean ± sd, 5 seeds)", \
     $coef_k * x**($slope_k) with lines lc rgb "#d95f02" dt 2 title sprintf("fit %.3g·D^{%.3f}", $coef_k, $slope_k), \
     "$report/taylor.dat" using 2:3 with linespoints pt 5 lc rgb "#1b9e77" title "Taylor, order 1 … 14"
set output "$report/plots/test-error.svg"
set title "Test RMSE of primal ridge on the map against exact kernel ridge"
set ylabel "test RMSE"; set key top right; unset format y; set format y "%g"
plot "$report/rff.dat" using 1:4:5 with yerrorlines pt 7 lc rgb "#d95f02" title "RFF + primal ridge", \
     "$report/taylor.dat" using 2:4 with linespoints pt 5 lc rgb "#1b9e77" title "Taylor + primal ridge", \
     $exact_rmse with lines lw 2 lc rgb "black" title "exact kernel ridge (dual)"
set output "$report/plots/time.svg"
set title "Cost: features + fit + predict (primal) against Gram + fit + predict (dual, n = 2400)"
set ylabel "seconds"; set key top left; set format y "10^{%L}"
plot "$report/rff.dat" using 1:7 with linespoints pt 7 lc rgb "#d95f02" title "RFF + primal ridge (mean of 5)", \
     "$report/taylor.dat" using 2:6 with linespoints pt 5 lc rgb "#1b9e77" title "Taylor + primal ridge", \
     $exact_seconds with lines lw 2 lc rgb "black" title "exact kernel ridge (dual)"
GNUPLOT
echo "wrote $report"

# The README's claims, each a ratio within this run: the kernel error of random Fourier
# features falls as D^b with b near −1/2, and the primal on them costs what its flop count
# says against the exact dual (time ratio over flop ratio within a factor 1.5 where the
# cells take over 0.05 s): cheaper at D = 1024, dearer at D = 2048.
slope=$(sed -n 's/^kernel error b = \([-0-9.e]*\) .*/\1/p' "$report/report.md")
claim "random features: slope of log kernel error on log D" "$slope" -0.6 -0.4
while IFS='|' read -r _ D _ _ _ _ time flops _; do
  D=${D// /}; time=${time// /}; flops=${flops// /}
  [[ $D == 1024 || $D == 2048 ]] || continue
  claim "random features D = $D: primal / dual time over primal / dual flops" \
    "$(awk -v t="$time" -v f="$flops" 'BEGIN { printf "%.3g", t / f }')" 0.667 1.5
  if [[ $D == 1024 ]]; then
    claim "random features D = 1024: primal / dual time (primal cheaper)" "$time" 0 1
  else
    claim "random features D = 2048: primal / dual time (dual cheaper)" "$time" 1 1e9
  fi
done < <(sed -n '/^## Random Fourier features/,/^## /p' "$report/report.md" | grep '^| [0-9]')
status=0
claims_hold || status=1
check_provenance "$here" "$report" || status=1
compare_with_committed "$here" "$report" "$kexp" || status=1
exit $status
