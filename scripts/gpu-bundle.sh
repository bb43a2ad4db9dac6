#!/usr/bin/env bash
# Gathers into gpu-bundle/ (git-ignored) what scripts/gpu-check.sh needs on a GPU machine
# that has the CUDA 13 runtime but none of this machine's Debian libraries: bin/kexp and
# the test programs of the GPU, lib/ (libkexp, libkexp_device and the plugins, no static
# libraries), the benchmark experiments, gpu-check.sh itself, and in lib/ the shared
# libraries that ldd lists for them apart from the C library's own and CUDA's (OpenBLAS,
# fmt, yaml-cpp, NLopt, gfortran, quadmath, libstdc++, OpenSSL's crypto …). Binaries are
# stripped. Run after scripts/build.sh; prints the bundle's size.
#   scripts/gpu-bundle.sh [BUILD_DIR]        (default build/)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=gpu-bundle
tests=(framework_device_gpu_test framework_device_memory_plan_test framework_sdk_device_form_test
  plugins_solvers_device_test plugins_solvers_flops_bound_test e2e_device_test)

for t in kexp "${tests[@]}"; do
  [[ -x $build/bin/$t ]] || { echo "gpu-bundle: $build/bin/$t is missing: run scripts/build.sh" >&2; exit 1; }
done
grep -q 'KEXP_WITH_CUDA:INTERNAL=ON\|KEXP_CUDA:STRING=ON' "$build/CMakeCache.txt" ||
  grep -q 'cuda_backend.cu' "$build/compile_commands.json" ||
  { echo "gpu-bundle: $build was configured without CUDA: the bundle could only refuse" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/bench"
cp "$build/bin/kexp" "$out/bin/"
for t in "${tests[@]}"; do cp "$build/bin/$t" "$out/bin/"; done
# lib/: the shared libraries and the plugins, never the static libraries
(cd "$build/lib" && find . \( -name '*.so' -o -name '*.so.*' \) -print0 |
  xargs -0 -I{} cp -P --parents {} "../../$out/lib/")
cp -r bench/gpu "$out/bench/"
cp scripts/gpu-check.sh "$out/"

# What ldd lists beside them, except the C library's own, the loader's and CUDA's (the GPU
# machine has CUDA 13), copied through their links.
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libmvec|libpthread|libdl\.so|librt\.so|libcuda|libcudart|libcublas|libcusolver|libcusparse|libnvJitLink|libnvrtc)'
mapfile -t objects < <(find "$out/bin" "$out/lib" -type f)
declare -A wanted=()
for object in "${objects[@]}"; do
  while read -r name _ path _; do
    [[ $path == /* && ! $name =~ $skip ]] || continue
    [[ $path == "$PWD/$build"* || $path == "$(realpath "$build")"* ]] && continue
    wanted[$name]=$path
  done < <(ldd "$object" 2>/dev/null | grep '=> /')
done
for name in "${!wanted[@]}"; do
  [[ -e $out/lib/$name ]] || cp -L "${wanted[$name]}" "$out/lib/$name"
done
find "$out" -type f \( -perm -u+x -o -name '*.so*' \) -exec strip --strip-unneeded {} + 2>/dev/null || true
echo "gpu-bundle: $(du -sh "$out" | cut -f1) in $out/ ($(ls "$out/lib" | grep -c '\.so') shared libraries besides the plugins)"
