#!/usr/bin/env bash
# Fuzzes the experiment file (config: parsed and planned against the plugins) and the
# data readers (csv, libsvm) with libFuzzer: installs clang when it is missing, configures
# and builds build-fuzz with it (every source instrumented for coverage), and runs the
# three targets at once, each for SECONDS (default 30) on a copy of its seed corpus
# (tests/fuzz/corpus/<target>/) in a temporary folder, so the repository is not modified.
# Exits non-zero when a target crashes, leaks, hangs on one input (-timeout=5) or takes
# more than 2 GB (-rss_limit_mb=2048); the input that did it is kept and its path printed.
# KEXP_FUZZ_SEED fixes libFuzzer's seed (the test command uses 1, so that it repeats the
# same inputs run after run); unset, each run draws its own.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: scripts/fuzz.sh [SECONDS]  (seconds per target, default 30)" >&2
  exit 2
fi

# The build dependencies, then clang with its sanitizer and OpenMP runtimes.
scripts/setup.sh
packages=(clang-14 libclang-rt-14-dev libomp-14-dev)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} > 0)); then
  echo "fuzz: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# -O1 without debug information: the build takes a few minutes, not a quarter of an hour.
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE= \
  "-DCMAKE_CXX_FLAGS=-O1 -fsanitize=fuzzer-no-link" -DKEXP_BUILD_FUZZ=ON -DKEXP_SANITIZE=ON \
  -DKEXP_BUILD_TESTS=OFF -DKEXP_BUILD_BENCH=OFF -DKEXP_CUDA=OFF --log-level=WARNING
cmake --build build-fuzz -j"${KEXP_JOBS:-2}" --target fuzz_config fuzz_csv fuzz_libsvm
# The config target plans against plugins: those of the Release build (scripts/build.sh)
# when there is one (only their descriptors are read), else this build's own.
if [[ -d build/lib/kexp/plugins ]]; then
  export KEXP_FUZZ_PLUGIN_DIR=$PWD/build/lib/kexp/plugins
else
  cmake --build build-fuzz -j"${KEXP_JOBS:-2}"
  export KEXP_FUZZ_PLUGIN_DIR=$PWD/build-fuzz/lib/kexp/plugins
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/kexp-fuzz.XXXXXX")
targets=(config csv libsvm)
# The three targets run at once, each for SECONDS and on one thread (the readers' parallel
# loops too: with more threads than cores, OpenMP's waiting threads would take the time),
# so that the stage takes SECONDS, not three times that. The unit tests run the readers
# on several threads.
export OMP_NUM_THREADS=1
for target in "${targets[@]}"; do
  mkdir -p "$work/$target"
  cp tests/fuzz/corpus/"$target"/* "$work/$target"/
done
pids=()
# a fuzzer still running when this script ends (an error, a signal) is stopped with it
trap 'kill "${pids[@]}" 2> /dev/null || true' EXIT
for target in "${targets[@]}"; do
  build-fuzz/bin/fuzz_"$target" "$work/$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=5 -max_len=8192 -seed="${KEXP_FUZZ_SEED:-0}" -print_final_stats=1 \
    -artifact_prefix="$work/$target-" > "$work/$target.log" 2>&1 &
  pids+=("$!")
done
failed=0
for i in "${!targets[@]}"; do
  target=${targets[i]}
  log="$work/$target.log"
  status=0
  wait "${pids[i]}" || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  if ((status == 0)); then
    echo "fuzz: $target: ${runs:-?} inputs in ${time:-$seconds} s, no failure"
  else
    failed=1
    echo "fuzz: $target: FAILED (exit $status) after ${runs:-?} inputs; log $log" >&2
    grep -E "^==[0-9]+==ERROR|^SUMMARY|broken invariant|uncaught|Test unit written|gave something else" "$log" >&2 || \
      tail -20 "$log" >&2
  fi
done
if ((failed)); then
  echo "fuzz: the failing inputs and the logs are in $work" >&2
  exit 1
fi
rm -rf "$work"
