#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds kexp and runs the quickstart experiment.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
# The machine's own limits (DGEMM, exp, memory writes), measured once and kept, so that
# the summary states each cost against them.
build/bin/kexp machine
echo
build/bin/kexp run configs/quickstart.yaml --force
echo
cat results/quickstart/summary.md
