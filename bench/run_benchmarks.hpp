// The main() of kexp's benchmark programs: with the BLAS kernels kexp itself runs with
// (util/blas_core), then Google Benchmark's own steps.
#pragma once

#include <benchmark/benchmark.h>

#include "util/blas_core.hpp"

namespace kexp::bench {

/// Runs the registered benchmarks; `register_all` first registers those made at run time.
inline int run_benchmarks(int argc, char** argv, void (*register_all)() = nullptr) {
  core::select_blas_core(argv);
  if (register_all != nullptr) register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace kexp::bench
