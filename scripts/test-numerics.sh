#!/usr/bin/env bash
# The numerical tests again under each of OpenBLAS's x86 kernel families that the CPU can
# execute (Prescott: SSE3; Haswell: AVX2 and FMA; SkylakeX: AVX-512 F, CD, BW, DQ and
# VL), each with one and with two BLAS threads, so that a tolerance that holds for one
# BLAS only fails on the machine of whoever wrote it, whatever its CPU:
#   - the unit tests of the SDK, the kernels, the kernel algebra, the kernel check, the
#     executor and the solvers, and the end-to-end tests that compare numbers;
#   - the scikit-learn checks (ctest's bench.*), with one thread under each core type and
#     with two under the widest.
#   scripts/test-numerics.sh [BUILD_DIR]      (default: build)
# Each program runs whole, as one process; a failure prints its output and the stage
# goes on to the end, then exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bin=$build/bin

if [[ $(uname -m) != x86_64 ]]; then
  echo "numerics: OpenBLAS's core types are x86 ones; skipped on $(uname -m)"
  exit 0
fi

# bench/blas_cores.py holds what each core type needs of the CPU.
runnable=$(/usr/bin/python3 bench/blas_cores.py --runnable Prescott Haswell SkylakeX)
mapfile -t cores <<<"$runnable"
if [[ -z $runnable ]]; then
  echo "numerics: this CPU can execute none of Prescott, Haswell and SkylakeX" >&2
  exit 1
fi
for core in Prescott Haswell SkylakeX; do
  if [[ " ${cores[*]} " != *" $core "* ]]; then
    echo "numerics: $core skipped: this CPU cannot execute its kernels"
  fi
done

programs=()
for pattern in framework_sdk_ framework_kernel_algebra_ framework_check_ framework_exec_ \
  plugins_kernels_ plugins_solvers_; do
  for p in "$bin/$pattern"*_test; do programs+=("$p"); done
done
for name in framework_util_blas_core e2e_blas_core e2e_solvers e2e_matrix_free \
  e2e_kernel_algebra e2e_fitted_kernels e2e_learned_hyperparameters e2e_model_selection \
  e2e_sequence_kernels; do
  programs+=("$bin/${name}_test")
done
for p in "${programs[@]}"; do
  [[ -x $p ]] || { echo "numerics: $p is missing; build first (scripts/build.sh)" >&2; exit 1; }
done

threads_word() { if (($1 == 1)); then echo "1 BLAS thread"; else echo "$1 BLAS threads"; fi; }
failed=0
runs=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for core in "${cores[@]}"; do
  for threads in 1 2; do
    started=$SECONDS
    for p in "${programs[@]}"; do
      runs=$((runs + 1))
      if ! OPENBLAS_CORETYPE=$core KEXP_TEST_BLAS_CORE=$core OPENBLAS_NUM_THREADS=$threads \
        "$p" --gtest_brief=1 >"$log" 2>&1; then
        echo "numerics: FAILED $(basename "$p") with $core kernels, $(threads_word "$threads"):"
        cat "$log"
        failed=$((failed + 1))
      fi
    done
    echo "numerics: ${#programs[@]} programs with $core kernels, $(threads_word "$threads")" \
      "in $((SECONDS - started)) s"
  done
done

# The scikit-learn checks pass OPENBLAS_CORETYPE and OPENBLAS_NUM_THREADS to both sides.
peer() {
  runs=$((runs + 1))
  if ! OPENBLAS_CORETYPE=$1 OPENBLAS_NUM_THREADS=$2 \
    ctest --test-dir "$build" -R '^bench\.' --output-on-failure >"$log" 2>&1; then
    echo "numerics: FAILED the scikit-learn checks with $1 kernels, $(threads_word "$2"):"
    cat "$log"
    failed=$((failed + 1))
  elif grep -q "No tests were found" "$log"; then
    echo "numerics: the scikit-learn checks are not in $build (configure with the bench on)"
  fi
}
widest=${cores[${#cores[@]} - 1]}
for core in "${cores[@]}"; do
  started=$SECONDS
  peer "$core" 1
  echo "numerics: the scikit-learn checks with $core kernels, 1 BLAS thread in" \
    "$((SECONDS - started)) s"
done
started=$SECONDS
peer "$widest" 2
echo "numerics: the scikit-learn checks with $widest kernels, 2 BLAS threads in" \
  "$((SECONDS - started)) s"

# One run is one program (or the scikit-learn checks) under one core type and thread count.
echo "numerics: $((runs - failed)) passed, $failed failed"
((failed == 0))
