// The hot paths of a run, across n, through the plugins as the runner loads them:
//   Gram/<kernel>/n         K(X, X) for every kernel, d = 10; counter `entry`: time per entry
//   FeatureMap/<map>/n      Φ(X) for every finite map, d = 10; counter `entry`: time per
//                           entry of Φ (D × n)
//   KernelRidgeFit/n        kernel_ridge on a built K, factored in place
//   DualGdStep/n            dual_gd, T = 20 steps at a fixed α; counter `step`: the fit's
//                           time over its T + 1 products Kr (2n² flops each)
//   PrimalRidgeFit/D/n      primal_ridge on a D × n feature matrix: ΦΦᵀ (nD² flops), then
//                           a D × D Cholesky
//   Product/n               K(X, X)v for the Gaussian kernel without storing K (cg_ridge's
//                           step, gram::product); counter `entry`: time per kernel value
//   NormalProduct/n/m       K_nmᵀ(K_nm u + v), Gaussian, m centres (a falkon pass,
//                           gram::normal_product); counter `entry`: time per kernel value
//   NystromMap/n/m          Nyström features of the Gaussian kernel with m uniform centres:
//                           the fit (K_mm and its inverse square root) and Φ(X), D = m
//   BandReduction/n         the λ-sweep's reduction K = QBQᵀ of a Gaussian K (bandwidth 64)
//   GpLearn/n               gp_regression learning σ and the noise (optimize: true), 10
//                           evaluations of log p(t) and its gradient; counter
//                           `evaluation`: time per evaluation (a Cholesky and C⁻¹, n³ flops)
//   Cholesky/n              the Cholesky factorization of an n × n positive definite
//                           matrix in place (kexp::linalg::cholesky_in_place, LAPACK's dpotrf);
//                           counter `flops`: its rate at n³/3 flops
//   Dgemm/n                 C = AB with n × n matrices through the BLAS kexp runs with
//                           (2n³ flops); counter `flops`: its rate. The context names the
//                           BLAS kernels and who chose them (bench/blas_cores.py runs it
//                           under each core type side by side)
//
//   build/bin/hot_paths_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only
//   build/bin/hot_paths_bench --benchmark_filter='Gram/gaussian'
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "kernel_algebra/nystrom.hpp"
#include "kexp/kexp.hpp"
#include "run_benchmarks.hpp"
#include "support/plugins.hpp"
#include "util/blas_core.hpp"

namespace {

using kexp::test::TextParams;

constexpr arma::uword kDim = 10;

arma::mat points(arma::uword n) {
  arma::arma_rng::set_seed(42);
  return arma::randn<arma::mat>(kDim, n) / std::sqrt(static_cast<double>(kDim));
}

arma::vec targets(const arma::mat& X) { return arma::sin(arma::sum(X, 0)).t(); }

void per_entry(benchmark::State& state, double entries) {
  state.counters["entry"] = benchmark::Counter(
      entries, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void Gram(benchmark::State& state, const std::string& kernel, const TextParams& params) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = points(n);
  const auto k = kexp::test::make_kernel(kernel, params);
  arma::mat K(n, n);
  for (auto _ : state) {
    k->gram(X, K);
    benchmark::DoNotOptimize(K.memptr());
    benchmark::ClobberMemory();
  }
  per_entry(state, static_cast<double>(n) * static_cast<double>(n));
}

void FeatureMap(benchmark::State& state, const std::string& kernel, const TextParams& params) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = points(n);
  const auto k = kexp::test::make_kernel(kernel, params);
  arma::mat Phi;
  for (auto _ : state) {
    k->feature_map()->features(X, Phi);
    benchmark::DoNotOptimize(Phi.memptr());
    benchmark::ClobberMemory();
  }
  state.counters["D"] = static_cast<double>(Phi.n_rows);
  per_entry(state, static_cast<double>(Phi.n_elem));
}

void KernelRidgeFit(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = points(n);
  const arma::vec y = targets(X);
  arma::mat K0;
  kexp::test::make_kernel("gaussian")->gram(X, K0);
  const auto solver = kexp::test::make_solver("kernel_ridge", {{"lambda", "1e-3"}});
  for (auto _ : state) {
    state.PauseTiming();
    arma::mat K = K0;
    kexp::TrainingData train;
    train.gram = &K;
    train.gram_writable = true;
    train.targets = &y;
    kexp::SolverReport report;
    state.ResumeTiming();
    solver->fit(train, report);
    benchmark::DoNotOptimize(report.fitted.memptr());
  }
}

void DualGdStep(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  constexpr int kSteps = 20;
  const arma::mat X = points(n);
  const arma::vec y = targets(X);
  arma::mat K;
  kexp::test::make_kernel("gaussian")->gram(X, K);
  const auto solver = kexp::test::make_solver(
      "dual_gd", {{"alpha", "1e-3"}, {"iterations", std::to_string(kSteps)}, {"tolerance", "0"}});
  kexp::TrainingData train;
  train.gram = &K;
  train.targets = &y;
  for (auto _ : state) {
    kexp::SolverReport report;
    solver->fit(train, report);
    if (report.iterations != kSteps) state.SkipWithError("dual_gd stopped early");
    benchmark::DoNotOptimize(report.fitted.memptr());
  }
  state.counters["step"] = benchmark::Counter(
      kSteps + 1, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void PrimalRidgeFit(benchmark::State& state) {
  const auto D = static_cast<arma::uword>(state.range(0));
  const auto n = static_cast<arma::uword>(state.range(1));
  arma::arma_rng::set_seed(7);
  const arma::mat Phi = arma::randn<arma::mat>(D, n);
  const arma::vec y = arma::randn<arma::vec>(n);
  const auto solver = kexp::test::make_solver("primal_ridge", {{"lambda", "1e-3"}});
  kexp::TrainingData train;
  train.features = &Phi;
  train.targets = &y;
  for (auto _ : state) {
    kexp::SolverReport report;
    solver->fit(train, report);
    benchmark::DoNotOptimize(report.fitted.memptr());
  }
}

void Product(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = points(n);
  const arma::mat v = targets(X);
  const auto k = kexp::test::make_kernel("gaussian", {});
  arma::mat out;
  for (auto _ : state) {
    kexp::gram::product(*k, X, X, v, out);
    benchmark::DoNotOptimize(out.memptr());
  }
  per_entry(state, static_cast<double>(n) * static_cast<double>(n));
}

void NormalProduct(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto m = static_cast<arma::uword>(state.range(1));
  const arma::mat X = points(n);
  const arma::mat C = X.cols(0, m - 1);
  const arma::vec u = targets(C), v = targets(X);
  const auto k = kexp::test::make_kernel("gaussian", {});
  for (auto _ : state) {
    const arma::vec w = kexp::gram::normal_product(*k, X, C, u, v);
    benchmark::DoNotOptimize(w.memptr());
  }
  per_entry(state, static_cast<double>(n) * static_cast<double>(m));
}

void NystromMap(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto m = static_cast<std::size_t>(state.range(1));
  const arma::mat X = points(n);
  const arma::vec y = targets(X);
  const auto k = kexp::algebra::nystrom(kexp::test::make_kernel("gaussian"), {m, false});
  arma::mat Phi;
  for (auto _ : state) {
    k->fit({&X, &y, 7});
    k->feature_map()->features(X, Phi);
    benchmark::DoNotOptimize(Phi.memptr());
  }
}

void BandReduction(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  arma::mat K0;
  kexp::test::make_kernel("gaussian")->gram(points(n), K0);
  arma::mat A(n, n);
  for (auto _ : state) {
    state.PauseTiming();
    A = K0;
    state.ResumeTiming();
    const kexp::linalg::BandReduction reduction(A);
    benchmark::DoNotOptimize(A.memptr());
  }
}

void GpLearn(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = points(n);
  const arma::vec y = targets(X);
  const auto k = kexp::test::make_kernel("gaussian");
  double evaluations = 0;
  for (auto _ : state) {
    auto gp = kexp::test::make_solver(
        "gp_regression", {{"optimize", "true"}, {"evaluations", "10"}, {"noise", "0.1"}});
    kexp::TrainingData train;
    train.targets = &y;
    train.kernel = k.get();
    train.inputs = &X;
    kexp::SolverReport report;
    gp->fit(train, report);
    evaluations += static_cast<double>(report.iterations);
  }
  state.counters["evaluation"] =
      benchmark::Counter(evaluations, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void Cholesky(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  arma::arma_rng::set_seed(9);
  const arma::mat B = arma::randn<arma::mat>(n, n) / std::sqrt(static_cast<double>(n));
  arma::mat A0 = B.t() * B;
  A0.diag() += 1.0;
  arma::mat A(n, n);
  for (auto _ : state) {
    state.PauseTiming();
    A = A0;
    state.ResumeTiming();
    if (kexp::linalg::cholesky_in_place(A) != 0) state.SkipWithError("not positive definite");
    benchmark::DoNotOptimize(A.memptr());
  }
  const double size = static_cast<double>(n);
  state.counters["flops"] =
      benchmark::Counter(size * size * size / 3.0, benchmark::Counter::kIsIterationInvariantRate);
}

void Dgemm(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  arma::arma_rng::set_seed(8);
  const arma::mat A = arma::randn<arma::mat>(n, n), B = arma::randn<arma::mat>(n, n);
  arma::mat C(n, n);
  for (auto _ : state) {
    C = A * B;
    benchmark::DoNotOptimize(C.memptr());
  }
  const double size = static_cast<double>(n);
  state.counters["flops"] =
      benchmark::Counter(2.0 * size * size * size, benchmark::Counter::kIsIterationInvariantRate);
}

void register_all() {
  const kexp::core::BlasCoreChoice core = kexp::core::blas_core_choice();
  benchmark::AddCustomContext("blas_core", kexp::core::openblas_core());
  benchmark::AddCustomContext("blas_core_chosen_by", kexp::core::to_string(core.by));
  benchmark::AddCustomContext("blas_core_reason", core.why);
  const std::vector<std::pair<std::string, TextParams>> kernels = {
      {"linear", {}},    {"polynomial", {{"degree", "3"}}}, {"cubic", {}},    {"gaussian", {}},
      {"laplacian", {}}, {"sigmoid", {{"a", "0.5"}}},       {"constant", {}},
  };
  for (const auto& [name, params] : kernels) {
    benchmark::RegisterBenchmark(("Gram/" + name).c_str(), Gram, name, params)
        ->Arg(1000)
        ->Arg(2000)
        ->Arg(4000)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  const std::vector<std::tuple<std::string, std::string, TextParams>> maps = {
      {"linear", "linear", {}},
      {"polynomial3", "polynomial", {{"degree", "3"}}},
      {"cubic", "cubic", {}},
      {"gaussian_taylor3", "gaussian", {{"map", "taylor"}, {"order", "3"}}},
      {"gaussian_rff1000", "gaussian", {{"map", "rff"}, {"features", "1000"}}},
  };
  for (const auto& [label, name, params] : maps) {
    benchmark::RegisterBenchmark(("FeatureMap/" + label).c_str(), FeatureMap, name, params)
        ->Arg(1000)
        ->Arg(4000)
        ->Arg(16000)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("KernelRidgeFit", KernelRidgeFit)
      ->Arg(1000)
      ->Arg(2000)
      ->Arg(4000)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("DualGdStep", DualGdStep)
      ->Arg(1000)
      ->Arg(2000)
      ->Arg(4000)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("Product", Product)
      ->Arg(4000)
      ->Arg(16000)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("NormalProduct", NormalProduct)
      ->Args({40000, 1000})
      ->Args({40000, 3000})
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("NystromMap", NystromMap)
      ->Args({16000, 1000})
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BandReduction", BandReduction)
      ->Arg(2000)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("GpLearn", GpLearn)
      ->Arg(2000)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("Cholesky", Cholesky)
      ->Arg(4000)
      ->Arg(8000)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("Dgemm", Dgemm)
      ->Arg(1000)
      ->Arg(4000)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("PrimalRidgeFit", PrimalRidgeFit)
      ->Args({300, 4000})
      ->Args({1000, 4000})
      ->Args({1000, 16000})
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) { return kexp::bench::run_benchmarks(argc, argv, register_all); }
