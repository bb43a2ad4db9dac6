#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds kexp and runs the quickstart experiment.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build/bin/kexp run configs/quickstart.yaml --force
echo
cat results/quickstart/summary.md
