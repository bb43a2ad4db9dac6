// The Gram matrix of the Gaussian kernel, K(X, X) for n points in d dimensions: kexp's
// blocked, fused, vectorized path against a plain Armadillo expression, side by side.
// The counter `entry` is the time per entry of K (n² entries), in seconds.
//
//   build/bin/kexp_bench_gram --benchmark_filter=8000 --benchmark_repetitions=5
//   (BM_GaussianGram_kexp/all: all of K; /lower: its lower triangle only)
//
// SingleOverDouble: the same K(X, X) in float64 (the plugin's Gram) and in float32
// (kexp::gram::single, the kernel's device form over SGEMM blocks), one after the other
// in each iteration, for the Gaussian kernel alone (all of K, and its lower triangle as
// kernel_ridge asks for it) and for a sum gaussian + polynomial:
// the counter double_over_single is float64's time over float32's.
//
//   build/bin/kexp_bench_gram --benchmark_filter=SingleOverDouble --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <armadillo>
#include <chrono>
#include <memory>

#include "kernel_algebra/composite_kernel.hpp"
#include "kexp/kexp.hpp"
#include "plugin/registry.hpp"
#include "run_benchmarks.hpp"

namespace {

const kexp::core::PluginRegistry& registry() {
  static const auto r = kexp::core::PluginRegistry::discover({KEXP_BENCH_PLUGIN_DIR});
  return r;
}

std::shared_ptr<kexp::Kernel> gaussian(double sigma) {
  kexp::Params p;
  p.set("sigma", sigma);
  p.set("map", std::string("none"));
  p.set("order", std::int64_t{4});
  p.set("features", std::int64_t{1000});
  p.set("seed", std::int64_t{0});
  return kexp::core::create_kernel(registry().find(kexp::PluginKind::Kernel, "gaussian"), p);
}

arma::mat points(arma::uword d, arma::uword n) {
  arma::arma_rng::set_seed(42);
  return arma::randn<arma::mat>(d, n);
}

void per_entry(benchmark::State& state, double n, double m) {
  state.counters["entry"] = benchmark::Counter(
      n * m, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// kexp: the gaussian plugin's K(X, X), all of it or, as K's only user gets it when it
/// factors that triangle in place, only its lower triangle (per entry of the whole n × n
/// matrix either way).
void BM_GaussianGram_kexp(benchmark::State& state, kexp::Triangle part) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto d = static_cast<arma::uword>(state.range(1));
  const arma::mat X = points(d, n);
  const auto k = gaussian(1.5);
  arma::mat K(n, n);
  for (auto _ : state) {
    k->gram(X, K, part);
    benchmark::DoNotOptimize(K.memptr());
    benchmark::ClobberMemory();
  }
  per_entry(state, static_cast<double>(n), static_cast<double>(n));
}

/// kexp: K(X, Z) with X ≠ Z (no symmetry to use).
void BM_GaussianGramCross_kexp(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto d = static_cast<arma::uword>(state.range(1));
  const arma::mat X = points(d, n);
  const arma::mat Z = X + 0.01;
  const auto k = gaussian(1.5);
  arma::mat K(n, n);
  for (auto _ : state) {
    k->gram(X, Z, K);
    benchmark::DoNotOptimize(K.memptr());
    benchmark::ClobberMemory();
  }
  per_entry(state, static_cast<double>(n), static_cast<double>(n));
}

/// The baseline: the plain Armadillo expression exp(−γ(‖x‖² + ‖z‖² − 2XᵀX)).
void BM_GaussianGram_armadillo(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto d = static_cast<arma::uword>(state.range(1));
  const arma::mat X = points(d, n);
  const double gamma = 1.0 / (2.0 * 1.5 * 1.5);
  arma::mat K(n, n);
  for (auto _ : state) {
    const arma::rowvec xx = arma::sum(arma::square(X), 0);
    K = arma::exp(-gamma * (arma::repmat(xx.t(), 1, n) + arma::repmat(xx, n, 1) - 2.0 * X.t() * X));
    benchmark::DoNotOptimize(K.memptr());
    benchmark::ClobberMemory();
  }
  per_entry(state, static_cast<double>(n), static_cast<double>(n));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// K(X, X) in float64 and in float32, side by side, all of it or its lower triangle (as
/// kernel_ridge asks for it); `composite`: gaussian + polynomial.
void SingleOverDouble(benchmark::State& state, bool composite, kexp::Triangle part) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto d = static_cast<arma::uword>(state.range(1));
  const arma::mat X = points(d, n);
  const arma::fmat Xf = arma::conv_to<arma::fmat>::from(X);
  std::shared_ptr<kexp::Kernel> k = gaussian(1.5);
  if (composite) {
    kexp::Params p;
    p.set("degree", std::int64_t{2});
    p.set("c", 1.0);
    const auto poly =
        kexp::core::create_kernel(registry().find(kexp::PluginKind::Kernel, "polynomial"), p);
    k = kexp::algebra::combined(kexp::algebra::Combination::Sum, {k, poly});
  }
  arma::mat K(n, n);
  arma::fmat Kf(n, n);
  double double_s = 0, single_s = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    k->gram(X, K, part);
    benchmark::DoNotOptimize(K.memptr());
    const double t = seconds_since(start);
    double_s += t;
    start = std::chrono::steady_clock::now();
    if (kexp::gram::single(*k, Xf, Kf, part) != kexp::gram::SinglePath::native) {
      state.SkipWithError("the kernel's float32 Gram did not run natively");
    }
    benchmark::DoNotOptimize(Kf.memptr());
    single_s += seconds_since(start);
    state.SetIterationTime(t);
  }
  state.counters["double_over_single"] = double_s / single_s;
  per_entry(state, static_cast<double>(n), static_cast<double>(n));
}

/// The vectorized exp alone, over a vector in cache.
void BM_vexp(benchmark::State& state) {
  arma::vec v = arma::linspace(-30.0, 0.0, 4096);
  arma::vec out(v.n_elem);
  for (auto _ : state) {
    const double* in = v.memptr();
    double* o = out.memptr();
#pragma omp simd
    for (arma::uword i = 0; i < v.n_elem; ++i) o[i] = kexp::vexp(in[i]);
    benchmark::DoNotOptimize(out.memptr());
  }
  per_entry(state, static_cast<double>(v.n_elem), 1.0);
}

BENCHMARK_CAPTURE(BM_GaussianGram_kexp, all, kexp::Triangle::Both)
    ->Args({8000, 10})
    ->Args({2000, 10})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GaussianGram_kexp, lower, kexp::Triangle::Lower)
    ->Args({8000, 10})
    ->Args({2000, 10})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GaussianGram_armadillo)
    ->Args({8000, 10})
    ->Args({2000, 10})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GaussianGramCross_kexp)
    ->Args({8000, 10})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_vexp)->UseRealTime();
BENCHMARK_CAPTURE(SingleOverDouble, gaussian, false, kexp::Triangle::Both)
    ->Args({8000, 10})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(SingleOverDouble, gaussian_lower, false, kexp::Triangle::Lower)
    ->Args({8000, 10})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(SingleOverDouble, gaussian_plus_polynomial, true, kexp::Triangle::Both)
    ->Args({8000, 10})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) { return kexp::bench::run_benchmarks(argc, argv); }
