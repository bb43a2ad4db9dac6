#!/usr/bin/env bash
# Regenerates experiments/kernel-validity/report from a built tree (scripts/build.sh):
#   1. `kexp check-kernel --config` on every kernel variant of experiment.yaml, on the same
#      200 points x ~ N(0, I₅) (seed 1): report/check-kernel.txt, the command's output;
#   2. report/checks.tsv, one row per variant: λmin, λmax, λmin/λmax, PSD verdict, declared PSD;
#   3. report/report.md: the closure rules, and the sigmoid grid as a table;
#   4. report/plots/sigmoid.svg: λmin/λmax of tanh(a·xᵀz + b) over the (a, b) grid.
# Run from the repository root: experiments/kernel-validity/run.sh
set -euo pipefail
here=experiments/kernel-validity
kexp=${KEXP:-build/bin/kexp}
. "$(dirname "$0")/../lib.sh"
report=$(report_folder "$here" "$@")
rm -rf "$report"
mkdir -p "$report/plots"

# Exit code 1 is expected: some variants (the sigmoid) are not valid.
status=0
"$kexp" check-kernel --config "$here/experiment.yaml" --points 200 --dim 5 --seed 1 \
  >"$report/check-kernel.txt" || status=$?
if [[ $status -gt 1 ]]; then exit "$status"; fi
cp "$here/experiment.yaml" "$report/config.yaml"
# check-kernel writes no manifest: the version that wrote the report, for the README.
echo "kexp $("$kexp" --version)" >"$report/version.txt"

# One row per kernel variant, in the order of the file.
awk '
  /^kernel / { title = $0; sub(/^kernel /, "", title); sub(/ on n = .*/, "", title) }
  /^  eigenvalues/ {  # λmin = A, λmax = B, λmin / λmax = C: the number after each "= "
    split($0, part, "= "); lmin = part[2] + 0; lmax = part[3] + 0; ratio = part[4] + 0
  }
  /^  PSD/ { psd = $2; sub(/:$/, "", psd); declared = $NF }  # "PSD  yes: λmin / λmax = …"
  /^verdict:/ { printf "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", idx++, title, lmin, lmax, ratio, psd, declared }
' "$report/check-kernel.txt" >"$report/checks.tsv"

# The sigmoid grid: the variants after the first 12 (the last kernels entry), a-major.
awk -F'\t' '$1 >= 12 {
  t = $2; sub(/^sigmoid\(a=/, "", t); split(t, ab, ",b="); sub(/\)$/, "", ab[2])
  print ab[1] "\t" ab[2] "\t" $5 "\t" $6 }' "$report/checks.tsv" >"$report/sigmoid.tsv"

{
  echo "# Kernel validity: closure rules and the sigmoid kernel"
  echo
  echo "\`kexp check-kernel --config experiments/kernel-validity/experiment.yaml --points 200"
  echo "--dim 5 --seed 1\`: every kernel on the same 200 points x ~ N(0, I₅). PSD means"
  echo "λmin/λmax ≥ −100·n·ε = −4.44e-12 (the command's tolerance); the full output is"
  echo "check-kernel.txt."
  echo
  echo "## Closure rules"
  echo
  echo "The parts k₁ = gaussian (σ = 2), k₂ = linear xᵀz, k₃ = polynomial (xᵀz + 1)³,"
  echo "k₄ = laplacian (σ = 2), and s = sigmoid tanh(xᵀz − 1); rows in the order of"
  echo "experiment.yaml (check-kernel.txt names each variant in full)."
  echo
  echo "| # | kernel | λmin | λmax | λmin/λmax | PSD | declared PSD |"
  echo "|---:|---|---:|---:|---:|---|---|"
  # Labels of the first 12 variants, in the order of experiment.yaml's kernels.
  awk -F'\t' 'BEGIN {
      n = split("k₁|k₂|k₃|k₄|k₁ + k₂|k₁ · k₃|0.001 · k₄|1000 · k₄|k₃·k₄ + 2·k₁ + 0.5 + 0.1·k₂|s|k₁ + s|k₁ · s", label, "|")
    }
    $1 < 12 { printf "| %d | %s | %.4g | %.4g | %.3g | %s | %s |\n", $1, label[$1 + 1], $3, $4, $5, $6, $7 }' \
    "$report/checks.tsv"
  echo
  awk -F'\t' '$1 == 0 { g = $3 } $1 == 1 { l = $3 } $1 == 4 { s = $3 }
    END { printf "Weyl: λmin(K_gauss + K_lin) = %.4g ≥ λmin(K_gauss) + λmin(K_lin) = %.4g.\n", s, g + l }' \
    "$report/checks.tsv"
  echo
  echo "## Sigmoid tanh(a·xᵀz + b): λmin/λmax over (a, b)"
  echo
  echo "Rows a, columns b; ✓ PSD on these points, ✗ not (λmin/λmax < −4.44e-12)."
  echo
  sort -t$'\t' -k1,1g -k2,2g "$report/sigmoid.tsv" | awk -F'\t' '
    $1 != a { rows++; a = $1; row[rows] = sprintf("| %s |", $1) }
    rows == 1 { head = head sprintf(" %s |", $2); rule = rule "---:|" }
    { row[rows] = row[rows] sprintf(" %.2g %s |", $3, $4 == "yes" ? "✓" : "✗") }
    END { print "| a \\ b |" head; print "|---|" rule; for (i = 1; i <= rows; i++) print row[i] }'
} >"$report/report.md"

# Heat map: log10(−λmin/λmax) where negative (how far from PSD), PSD cells marked.
sort -t$'\t' -k1,1g -k2,2g "$report/sigmoid.tsv" | awk -F'\t' '
  $1 != a { i++; a = $1; j = 0; alab = alab sprintf("%s\"%s\" %d", i > 1 ? ", " : "", $1, i - 1) }
  { j++; if (i == 1) blab = blab sprintf("%s\"%s\" %d", j > 1 ? ", " : "", $2, j - 1)
    v = -$3; z = (v > 1e-16) ? log(v) / log(10) : -16
    printf "%d %d %.4f %s\n", j - 1, i - 1, z, ($4 == "yes") ? "PSD" : sprintf("%.0e", $3) > "'"$report"'/sigmoid.dat" }
  END { print alab > "'"$report"'/sigmoid.ytics"; print blab > "'"$report"'/sigmoid.xtics" }'
gnuplot <<GNUPLOT
set terminal svg size 860,560 dynamic background rgb "white" font "sans,11"
set output "$report/plots/sigmoid.svg"
set title "tanh(a·xᵀz + b) on 200 points in R⁵: λmin/λmax (colour: log₁₀ of its negative part)"
set xlabel "b"; set ylabel "a"
set xtics ($(cat "$report/sigmoid.xtics")); set ytics ($(cat "$report/sigmoid.ytics"))
set xrange [-0.5:8.5]; set yrange [-0.5:7.5]
set cbrange [-16:0]; set cblabel "log₁₀(−λmin / λmax)"
set palette defined (-16 "#2166ac", -11.35 "#f7f7f7", -6 "#fddbc7", 0 "#b2182b")
plot "$report/sigmoid.dat" using 1:2:3 with image notitle, \
     "" using 1:2:4 with labels font "sans,9" notitle
GNUPLOT
rm -f "$report/sigmoid.dat" "$report/sigmoid.xtics" "$report/sigmoid.ytics"
echo "wrote $report"
if [[ $report != "$here/report" ]]; then
  # The verdicts are the claim and must match what is committed: every variant's PSD on
  # these points and what it declares. The eigenvalues near zero are rounding, and move
  # with the BLAS kernels of the machine (-1.08e-13 on one, -1.18e-13 on another).
  if ! diff <(cut -f1,2,6,7 "$here/report/checks.tsv") <(cut -f1,2,6,7 "$report/checks.tsv"); then
    echo "kernel-validity: the verdicts differ from the committed report (above)" >&2
    exit 1
  fi
  echo "kernel-validity: every verdict as committed ($(wc -l <"$report/checks.tsv") kernel variants)"
fi
check_provenance "$here" "$report"
