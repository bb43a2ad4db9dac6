#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds kexp and runs every test:
#   1. the Release build's unit, end-to-end and SDK tests, the cluster guide's Slurm job array
#      on a local Slurm (tests/slurm), and the check that kexp's predictions agree with
#      scikit-learn's (bench/peer/compare.py --check) (ctest);
#   2. the curated experiments that take under about two minutes, each regenerated into a
#      scratch folder and compared with its committed report, its README's claims checked
#      (scripts/test-experiments.sh);
#   3. the numerical tests again under OpenBLAS's Prescott, Haswell and SkylakeX kernels
#      (those the CPU can execute), with one and two BLAS threads (scripts/test-numerics.sh);
#   4. the unit and end-to-end tests again in a Debug build with AddressSanitizer and
#      UndefinedBehaviorSanitizer;
#   5. the fuzz targets of the experiment file and the two data readers, 20 s each, at
#      once, from their seed corpora with a fixed seed (scripts/fuzz.sh: clang's libFuzzer
#      with the sanitizers);
#   6. the static checks: clang-format on every C++ file, the include layering of the
#      runner core and the plugins, no source file over 450 lines but the justified
#      exceptions, and the SDK, runner core and command line compiled for arm64 (syntax
#      only, Debian's cross compiler) (scripts/check-format.sh, scripts/check-layers.sh,
#      scripts/check-lines.sh, scripts/check-arm64.sh).
# clang-tidy over the runner core (scripts/check-tidy.sh build) is not part of it: on two
# cores it alone takes 14.5 to 17 minutes, and the whole command must stay well inside the
# time a CI run is given. Run it before committing a change to framework/src or
# framework/cli.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${KEXP_JOBS:-$(nproc)}
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
# How long each stage took, on stderr as it ends.
started=$SECONDS
stage() { echo "test: $1 done at $((SECONDS - started)) s" >&2; }

scripts/setup.sh --bench
stage setup
scripts/build.sh
stage "Release build"
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 600
stage "Release tests"
scripts/test-experiments.sh
stage "curated experiments against their committed reports"
scripts/test-numerics.sh build
stage "numerical tests under three BLAS cores"

# Line tables only (-g1): the sanitizers' stack traces keep their files and lines, and
# the build is faster than with full debug information. Without the CUDA code: nvcc's
# objects carry no sanitizer, and the Release build has compiled them already.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  -DKEXP_SANITIZE=ON -DKEXP_BUILD_BENCH=OFF -DKEXP_CUDA=OFF
cmake --build build-asan -j"$jobs"
stage "sanitizer build"
ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" --timeout 600 -E '^(sdk|slurm)\.'
stage "sanitizer tests"

KEXP_FUZZ_SEED=1 scripts/fuzz.sh 20
stage fuzz

scripts/check-format.sh
scripts/check-layers.sh
scripts/check-lines.sh
scripts/check-arm64.sh build
stage "static checks"
