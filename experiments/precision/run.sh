#!/usr/bin/env bash
# Regenerates experiments/precision/report/ from a built tree (scripts/build.sh), then
# writes report/precision.md: for kernel ridge at each n and λ, the test RMSE of the
# float64, mixed and float32 cells, the refinement steps and fallbacks of mixed, how far
# each cell's predictions are from float64's, and the times of K and the fit; the same for
# falkon in float64 and mixed. Fails when a mixed kernel ridge cell's test RMSE is not
# float64's to 10⁻⁶ relative, or a mixed falkon cell's with λ ≥ 10⁻⁷ not to 10⁻³. Run from anywhere; KEXP names another kexp program.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=experiments/precision
. "$(dirname "$0")/../lib.sh"
report=$(report_folder "$here" "$@")
kexp=${KEXP:-build/bin/kexp}
# One thread for the Gram matrix and for BLAS: the times compare on one core. Cells fail
# by design (float32 on matrices it cannot hold), so kexp's exit status 1 is expected.
status=0
OPENBLAS_NUM_THREADS=1 "$kexp" run "$here/experiment.yaml" --out "$report" --force --quiet ||
  status=$?
[[ $status == 0 || $status == 1 ]] || exit "$status"
rm -f "$report/results.jsonl"  # results.csv holds every row
for file in summary.md results.csv config.yaml manifest.json; do
  [[ -s $report/$file ]] || { echo "run.sh: $report/$file is missing" >&2; exit 1; }
done

csv_to_tsv "$report/results.csv" | awk -F'\t' -v out="$report/precision.md" '
  NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  $col["solver"] == "falkon" {
    key = sprintf("%08d %s", $col["n_train"], $col["solver.lambda"])
    if (!(key in fseen)) { fseen[key] = 1; fkeys[++fcount] = key; fn[key] = $col["n_train"]; flambda[key] = $col["solver.lambda"] }
    p = $col["solver.precision"]
    frmse[key, p] = $col["status"] == "ok" ? sprintf("%.6g", $col["test_rmse"]) : "failed"
    ffit[key, p] = $col["status"] == "ok" ? sprintf("%.3g", $col["fit_seconds"]) : "—"
    fiter[key, p] = $col["iterations"]
    fjitter[key, p] = $col["jitter"] == "" ? "—" : sprintf("%.2g", $col["jitter"])
    if (p == "mixed") fdiff[key] = $col["precision_max_diff"] == "" ? "—" : sprintf("%.2g", $col["precision_max_diff"])
    if ($col["status"] == "ok") fvalue[key, p] = $col["test_rmse"] + 0
    next
  }
  {
    key = sprintf("%08d %s", $col["n_train"], $col["solver.lambda"])
    if (!(key in seen)) { seen[key] = 1; keys[++count] = key; n[key] = $col["n_train"]; lambda[key] = $col["solver.lambda"] }
    p = $col["solver.precision"]
    rmse[key, p] = $col["status"] == "ok" ? sprintf("%.6g", $col["test_rmse"]) : "failed"
    # K and the fit: single builds its float32 K inside its fit, the others get K built
    fit[key, p] = $col["status"] == "ok" ? sprintf("%.3g", $col["gram_seconds"] + $col["fit_seconds"]) : "—"
    diff[key, p] = $col["precision_max_diff"] == "" ? "—" : sprintf("%.2g", $col["precision_max_diff"])
    if (p == "mixed") {
      steps[key] = $col["refinement_steps"]
      fallback[key] = $col["precision_fallback"] == "1" ? "yes" : "no"
    }
    if ($col["status"] == "ok") value[key, p] = $col["test_rmse"] + 0
  }
  function abs(v) { return v < 0 ? -v : v }
  END {
    print "# Kernel ridge in three precisions\n" > out
    print "Gaussian kernel (σ = 2) on friedman1 (d = 10, noise 1), one repeat per cell, one thread." > out
    print "test RMSE per precision; mixed: its refinement steps and whether it fell back to" > out
    print "float64; max |Δŷ|: the largest difference of the test predictions from the float64" > out
    print "cell (precision_max_diff); K + fit: seconds of building K and fitting, one thread" > out
    print "(double and mixed get K in float64 from the runner, single builds its own in float32)." > out
    print "The float64 cells of a λ sweep share one band reduction of K, which the first of them" > out
    print "carries. Written by run.sh from results.csv.\n" > out
    print "| n_train | λ | double | mixed | single | mixed steps | mixed fell back | max \\|Δŷ\\| mixed | max \\|Δŷ\\| single | K + fit double | K + fit mixed | K + fit single |" > out
    print "|---|---|---|---|---|---|---|---|---|---|---|---|" > out
    for (i = 2; i <= count; ++i)  # insertion sort by (n, λ)
      for (j = i; j > 1; --j) {
        a = keys[j - 1]; b = keys[j]
        if (n[a] + 0 < n[b] + 0 || (n[a] + 0 == n[b] + 0 && lambda[a] + 0 <= lambda[b] + 0)) break
        keys[j - 1] = b; keys[j] = a
      }
    worst = 0
    for (i = 1; i <= count; ++i) {
      k = keys[i]
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n[k], lambda[k], rmse[k, "double"], rmse[k, "mixed"], rmse[k, "single"], steps[k], fallback[k], diff[k, "mixed"], diff[k, "single"], fit[k, "double"], fit[k, "mixed"], fit[k, "single"] > out
      if (((k, "mixed") in value) && ((k, "double") in value)) {
        rel = abs(value[k, "mixed"] - value[k, "double"]) / value[k, "double"]
        if (rel > worst) worst = rel
      } else bad = 1
    }
    printf "\nThe largest relative difference of the mixed and float64 test RMSEs is %.2g.\n", worst > out
    print "\n# Falkon in float64 and mixed precision\n" > out
    print "The same data; falkon with m = 400 centres, λ per sample (kernel ridge'"'"'s λ is n times" > out
    print "it), at most 20 iterations. mixed: the kernel values of K_nm and K(X*, C) in float32," > out
    print "their products, conjugate gradients and the preconditioner in float64; jitter: the ε" > out
    print "of K_mm + εmI (mixed raises it where K_mm has pivots below float32'"'"'s resolution); fit:" > out
    print "seconds, one thread.\n" > out
    print "| n_train | λ | double | mixed | max \\|Δŷ\\| mixed | iterations double | iterations mixed | jitter double | jitter mixed | fit double | fit mixed |" > out
    print "|---|---|---|---|---|---|---|---|---|---|---|" > out
    for (i = 2; i <= fcount; ++i)
      for (j = i; j > 1; --j) {
        a = fkeys[j - 1]; b = fkeys[j]
        if (fn[a] + 0 < fn[b] + 0 || (fn[a] + 0 == fn[b] + 0 && flambda[a] + 0 <= flambda[b] + 0)) break
        fkeys[j - 1] = b; fkeys[j] = a
      }
    fworst = 0
    for (i = 1; i <= fcount; ++i) {
      k = fkeys[i]
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", fn[k], flambda[k], frmse[k, "double"], frmse[k, "mixed"], fdiff[k], fiter[k, "double"], fiter[k, "mixed"], fjitter[k, "double"], fjitter[k, "mixed"], ffit[k, "double"], ffit[k, "mixed"] > out
      if (((k, "mixed") in fvalue) && ((k, "double") in fvalue)) {
        rel = abs(fvalue[k, "mixed"] - fvalue[k, "double"]) / fvalue[k, "double"]
        if (rel > fworst) fworst = rel
        if (flambda[k] + 0 >= 1e-7 && rel > fheld) fheld = rel
      } else bad = 1
    }
    printf "\nThe largest relative difference of falkon'"'"'s mixed and float64 test RMSEs is %.2g for λ ≥ 10⁻⁷, %.2g in all.\n", fheld, fworst > out
    close(out)
    if (bad) { print "run.sh: a float64 or mixed cell did not finish" > "/dev/stderr"; exit 1 }
    if (worst > 1e-6) { printf "run.sh: mixed and float64 test RMSEs differ by %.3g relative\n", worst > "/dev/stderr"; exit 1 }
    if (fheld > 1e-3) { printf "run.sh: falkon'"'"'s mixed and float64 test RMSEs differ by %.3g relative (λ ≥ 10⁻⁷)\n", fheld > "/dev/stderr"; exit 1 }
  }
'
echo "report in $report"

# The README's cost claim, a ratio of one run: at n = 3200, where mixed refined, single's
# K and fit take less than mixed's (it builds its own float32 K and factors it once; mixed
# gets K in float64 and refines).
while IFS='|' read -r _ n lambda _ _ _ _ fell _ _ _ mixed single _; do
  n=${n// /}; fell=${fell// /}; mixed=${mixed// /}; single=${single// /}
  [[ $n == 3200 && $fell == no && $single =~ ^[0-9.e-]+$ && $mixed =~ ^[0-9.e-]+$ ]] || continue
  claim "n = 3200, λ = ${lambda// /}: single's K + fit over mixed's" \
    "$(awk -v s="$single" -v m="$mixed" 'BEGIN { printf "%.3g", s / m }')" 0.2 1
done < <(grep '^| [0-9]' "$report/precision.md" | awk -F'|' 'NF >= 14')
status=0
claims_hold || status=1
check_provenance "$here" "$report" || status=1
compare_with_committed "$here" "$report" "$kexp" || status=1
exit $status
