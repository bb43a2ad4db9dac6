#!/usr/bin/env bash
# Installs the Debian 12 packages that kexp needs to build, test and plot,
# skipping those already present. Run as root or with sudo available.
#   scripts/setup.sh          build + test dependencies
#   scripts/setup.sh --bench  also the scikit-learn peer comparison and the pandas recipe
set -euo pipefail

packages=(
  cmake g++ make pkg-config git ccache
  libarmadillo-dev libopenblas-dev libopenblas0-openmp liblapack-dev
  libyaml-cpp-dev libboost-dev libfmt-dev libcli11-dev nlohmann-json3-dev libssl-dev libnlopt-dev
  libsleef-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  gnuplot-nox librsvg2-bin chromium
  clang-format clang-tidy g++-aarch64-linux-gnu
)
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(python3 python3-numpy python3-sklearn python3-pandas)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
