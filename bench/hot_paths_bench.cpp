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
//   NormalProductSingleOverDouble/n/m   the same pass from float64 points and from float32
//                           ones (float32 kernel values, float64 products: falkon's
//                           `precision: mixed`), one after the other in each iteration;
//                           counter double_over_single: float64's time over float32's
//   FalkonMixedOverDouble/n/m   whole falkon fits on friedman1 (d = 10, n points, m
//                           centres, λ = 1e-6, 20 iterations), float64 and mixed one after
//                           the other in each iteration; counters double_over_mixed (fit
//                           time) and rmse_change (|test RMSE of mixed / of float64 − 1|);
//                           n = 10⁶, m = 10⁴ takes minutes (about 7 on two cores)
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
//   Dgemv/n                 q = K v with a stored n × n K through the BLAS (DGEMV, 8n² bytes
//                           read): the memory-bound limit of dual_gd's steps and of the
//                           band reduction's level-2 half; counter `bytes`: bytes read per
//                           second
//
//   build/bin/hot_paths_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only
//   build/bin/hot_paths_bench --benchmark_filter='Gram/gaussian'
#include <benchmark/benchmark.h>

#include <chrono>
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

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void NormalProductSingleOverDouble(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto m = static_cast<arma::uword>(state.range(1));
  const arma::mat X = points(n);
  const arma::mat C = X.cols(0, m - 1);
  const arma::fmat Xf = arma::conv_to<arma::fmat>::from(X);
  const arma::fmat Cf = arma::conv_to<arma::fmat>::from(C);
  const arma::vec u = targets(C), v = targets(X);
  const auto k = kexp::test::make_kernel("gaussian", {});
  double double_s = 0, single_s = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    const arma::vec w = kexp::gram::normal_product(*k, X, C, u, v);
    benchmark::DoNotOptimize(w.memptr());
    const double t = seconds_since(start);
    double_s += t;
    start = std::chrono::steady_clock::now();
    const arma::vec wf = kexp::gram::normal_product(*k, Xf, Cf, u, v);
    benchmark::DoNotOptimize(wf.memptr());
    single_s += seconds_since(start);
    state.SetIterationTime(t);
  }
  state.counters["double_over_single"] = double_s / single_s;
  per_entry(state, static_cast<double>(n) * static_cast<double>(m));
}

/// Friedman's first regression problem: x ~ U[0, 1]¹⁰, y = 10 sin(πx₁x₂) + 20(x₃ − ½)² +
/// 10x₄ + 5x₅ (+ N(0, 1) noise on the training targets).
std::pair<arma::mat, arma::vec> friedman1(arma::uword n, bool noise) {
  arma::mat X = arma::randu<arma::mat>(10, n);
  arma::vec y = (10.0 * arma::sin(arma::datum::pi * X.row(0) % X.row(1)) +
                 20.0 * arma::square(X.row(2) - 0.5) + 10.0 * X.row(3) + 5.0 * X.row(4))
                    .t();
  if (noise) y += arma::randn<arma::vec>(n);
  return {X, y};
}

void FalkonMixedOverDouble(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto m = static_cast<arma::uword>(state.range(1));
  arma::arma_rng::set_seed(42);
  const auto [X, y] = friedman1(n, true);
  const auto [Xt, yt] = friedman1(10000, false);
  const auto k = kexp::test::make_kernel("gaussian", {{"sigma", "1"}});
  const auto fit = [&](const char* precision, double& seconds) {
    auto solver = kexp::test::make_solver("falkon", {{"lambda", "1e-6"},
                                                     {"m", std::to_string(m)},
                                                     {"iterations", "20"},
                                                     {"precision", precision}});
    kexp::TrainingData train;
    train.kernel = k.get();
    train.inputs = &X;
    train.targets = &y;
    kexp::SolverReport report;
    const auto start = std::chrono::steady_clock::now();
    solver->fit(train, report);
    seconds = seconds_since(start);
    kexp::TestData test;
    test.kernel = k.get();
    test.inputs = &Xt;
    const kexp::Prediction p = solver->predict(test, report);
    return arma::norm(p.mean - yt) / std::sqrt(static_cast<double>(yt.n_elem));
  };
  double double_s = 0, mixed_s = 0, change = 0;
  for (auto _ : state) {
    double t_double = 0, t_mixed = 0;
    const double rmse_double = fit("double", t_double);
    const double rmse_mixed = fit("mixed", t_mixed);
    double_s += t_double;
    mixed_s += t_mixed;
    change = std::max(change, std::abs(rmse_mixed / rmse_double - 1.0));
    state.SetIterationTime(t_double);
  }
  state.counters["double_over_mixed"] = double_s / mixed_s;
  state.counters["rmse_change"] = change;
}

void NystromMap(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const auto m = static_cast<std::size_t>(state.range(1));
  const arma::mat X = points(n);
  const arma::vec y = targets(X);
  const auto k = kexp::algebra::nystrom(kexp::test::make_kernel("gaussian"), {m, false});
  arma::mat Phi;
  // Φ's memory first touched here, not inside the first (often only) timed iteration
  k->fit({&X, &y, 7});
  k->feature_map()->features(X, Phi);
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

void Dgemv(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  arma::arma_rng::set_seed(8);
  const arma::mat K = arma::randu<arma::mat>(n, n);
  arma::vec v = arma::randu<arma::vec>(n), q;
  for (auto _ : state) {
    q = K * v;
    benchmark::DoNotOptimize(q.memptr());
  }
  const double size = static_cast<double>(n);
  state.counters["bytes"] =
      benchmark::Counter(8.0 * size * size, benchmark::Counter::kIsIterationInvariantRate);
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
      ->Args({40000, 10000})
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("NormalProductSingleOverDouble", NormalProductSingleOverDouble)
      ->Args({40000, 3000})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("FalkonMixedOverDouble", FalkonMixedOverDouble)
      ->Args({100000, 2000})
      ->Args({1000000, 10000})  // about 7 minutes on two cores
      ->Iterations(1)
      ->UseManualTime()
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
  benchmark::RegisterBenchmark("Dgemv", Dgemv)
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
