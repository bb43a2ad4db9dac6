#!/usr/bin/env bash
# Configures and builds kexp (Release) in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${KEXP_JOBS:-$(nproc)}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
