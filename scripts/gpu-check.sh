#!/usr/bin/env bash
# The GPU check of `device: cuda`: runs the GPU's tests, then a short benchmark of
# kernel_ridge (n = 4·10⁴) and falkon (n = 10⁶, m = 10⁴, 20 iterations) on the GPU beside
# the same cells on the CPU at a smaller n, compared by their rates, then primal against
# dual ridge on both devices in one run (bench/gpu/primal_dual.yaml, its findings printed),
# a kernel written as a formula against the Gaussian on both devices (bench/gpu/formula.yaml:
# the test RMSE of each kernel the same on both to 1e-9), and prints a summary.
# Each step runs under `timeout`; the whole takes under five minutes on an H100.
#
# From a bundle (scripts/gpu-bundle.sh, which copies this script into it) it needs only
# the bundle and the machine's CUDA 13 libraries; from a checkout it runs build/.
#   gpu-bundle/gpu-check.sh          or          scripts/gpu-check.sh
# Exit: 0 when a GPU ran every test and benchmark and all passed; 4 when there is no GPU
# (the GPU's tests skipped with the reason, the rest passed, and kexp refused
# `device: cuda` as it should); 1 when a step failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ -x $here/bin/kexp ]]; then
  root=$here
  bench=$here/bench/gpu
else
  root=$(cd "$here/../build" && pwd)
  bench=$(cd "$here/../bench/gpu" && pwd)
fi
kexp=$root/bin/kexp
for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [[ -d $dir ]] && LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
export LD_LIBRARY_PATH=$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export KEXP_TEST_PLUGIN_DIR=$root/lib/kexp/plugins KEXP_TEST_BINARY=$kexp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=()
summary=()
step() {  # step NAME SECONDS COMMAND...: runs it under timeout, its output in $work/NAME.log
  local name=$1 seconds=$2
  shift 2
  local start=$SECONDS
  timeout "$seconds" "$@" >"$work/$name.log" 2>&1
  local rc=$?
  local took=$((SECONDS - start))
  if ((rc == 124)); then
    failures+=("$name: timed out after ${seconds}s")
  elif ((rc != 0)); then
    failures+=("$name: exit $rc")
  fi
  summary+=("$(printf '%-28s exit %3d  %4ds' "$name" "$rc" "$took")")
  return $rc
}

echo "== gpu-check: $root"
if command -v nvidia-smi >/dev/null; then
  timeout 20 nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv,noheader
fi

echo "== tests"
for t in framework_sdk_device_form_test framework_device_memory_plan_test framework_device_gpu_test \
  plugins_solvers_device_test plugins_solvers_flops_bound_test e2e_device_test; do
  step "$t" 240 "$root/bin/$t" --gtest_brief=1
  grep -E '^\[  (SKIPPED|FAILED) \]|Failure|no GPU' "$work/$t.log" | sort -u | head -20
  tail -1 "$work/$t.log"
done
gpu=yes
grep -q 'no GPU' "$work/framework_device_gpu_test.log" && gpu=no

# One row of results.csv per line: the columns named, in that order, by header.
columns() {  # columns FILE NAME...
  local file=$1
  shift
  awk -F, -v want="$*" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) at[$i] = i; next }
    { line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? "\t" : "") (w[k] in at ? $(at[w[k]]) : "-"); print line }' "$file"
}

bench() {  # bench NAME SECONDS CONFIG [--set …]: one run, its row in the table
  local name=$1 seconds=$2 config=$3
  shift 3
  step "$name" "$seconds" "$kexp" run "$config" --out "$work/$name" --quiet "$@"
  [[ -f $work/$name/results.csv ]] || { tail -5 "$work/$name.log"; return; }
  columns "$work/$name/results.csv" status solver solver.device n_train iterations gram_seconds \
    fit_seconds predict_seconds transfer_seconds flops test_rmse device_name error |
    awk -F'\t' -v name="$name" '{ t = $6 + $7 + $8; rate = t > 0 ? $10 / t / 1e9 : 0;
      printf "%-22s %-7s %-12s %-5s n=%-8s it=%-3s fit %8.3fs predict %7.3fs transfer %7.3fs  %8.1f GFLOP/s  rmse %.4f  %s %s\n",
        name, $1, $2, $3, $4, $5, $7, $8, $9, rate, $11, $12, $13 }' | tee -a "$work/table"
}

if [[ $gpu == yes ]]; then
  echo "== benchmark (GPU beside the CPU at a smaller n; rate = flops / (gram + fit + predict))"
  bench kernel_ridge_gpu 120 "$bench/kernel_ridge.yaml"
  bench kernel_ridge_cpu 120 "$bench/kernel_ridge.yaml" --set dataset.n=12500 --set 'solvers[0].device=cpu'
  bench falkon_gpu 150 "$bench/falkon.yaml"
  bench falkon_cpu 150 "$bench/falkon.yaml" --set dataset.n=125000 --set 'solvers[0].device=cpu'
  bench primal_dual 180 "$bench/primal_dual.yaml" --threads "$(nproc)"
  # A kernel written as a formula: its GPU cells' test RMSE the CPU's to 1e-9, per kernel.
  bench formula 180 "$bench/formula.yaml" --threads "$(nproc)"
  if [[ -f $work/formula/results.csv ]]; then
    columns "$work/formula/results.csv" kernel solver.device test_rmse |
      awk -F'\t' '{ r[$1, $2] = $3; k[$1] = 1 }
        END { bad = 0; for (n in k) { c = r[n, "cpu"]; g = r[n, "cuda"];
          d = (c == "" || g == "") ? 1 : (c - g) / c; if (d < 0) d = -d;
          printf "formula check: %s test RMSE cpu %s, cuda %s, relative difference %.2g\n", n, c, g, d;
          if (!(d <= 1e-9)) bad = 1 } exit bad }' || failures+=("formula: the GPU's test RMSE is not the CPU's")
  fi
  [[ -f $work/primal_dual/summary.md ]] &&
    sed -n '/^## Findings/,/^## Cells/p' "$work/primal_dual/summary.md" | head -40
else
  echo "== no GPU: kexp must refuse device: cuda before it runs anything"
  timeout 60 "$kexp" run "$bench/kernel_ridge.yaml" --out "$work/refused" --quiet >"$work/refused.log" 2>&1
  rc=$?
  cat "$work/refused.log"
  if ((rc != 2)) || ! grep -q 'cuda needs an NVIDIA GPU' "$work/refused.log"; then
    failures+=("refusal without a GPU: exit $rc, expected 2 and the message")
  fi
  summary+=("$(printf '%-28s exit %3d' "refusal without a GPU" "$rc")")
fi

echo "== summary"
printf '%s\n' "${summary[@]}"
[[ -f $work/table ]] && cat "$work/table"
if ((${#failures[@]} > 0)); then
  printf 'FAILED: %s\n' "${failures[@]}"
  for f in "${failures[@]}"; do
    log=$work/${f%%:*}.log
    [[ -f $log ]] && { echo "--- ${f%%:*}"; tail -30 "$log"; }
  done
  exit 1
fi
if [[ $gpu == no ]]; then
  echo "NO GPU: the GPU's tests skipped (reason above); everything else passed"
  exit 4
fi
echo "PASSED on the GPU"
