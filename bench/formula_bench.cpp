// Kernels as formulas (kexp/formula.hpp), measured side by side in one run, n = 4000 and
// d = 10 unless said otherwise, at the threads of --benchmark_filter's run (OMP_NUM_THREADS):
//
//   BuiltinOverBefore/<kernel>   a built-in kernel's Gram matrix K(X, X) by its plugin (on
//                                the formula engine) against the code path it had before
//                                (kept below, as it was), alternately in each iteration:
//                                the counter new_over_old. Target ≤ 1.05.
//   FormulaOverGaussian/<kernel> a kernel given by its formula alone (kexp::FormulaKernel)
//                                against the gaussian plugin, alternately: the counter
//                                over_gaussian. Target ≤ 1.3 for one transcendental function
//                                per entry (rational quadratic, Matérn 3/2, inverse
//                                multiquadric).
//   DoubleOverSingle/<kernel>    a formula kernel's K(X, X) in float64 and in float32
//                                (kexp::gram::single), alternately: the counter
//                                double_over_single. Target ≥ 1.8.
//   PluginFastPath/<pow>         a rational-quadratic kernel that keeps only compute(), its
//                                fast path (kexp::gram::from_squared_distances) with
//                                std::pow or with kexp::vpow, against the gaussian plugin:
//                                the counter over_gaussian.
//   FirstGram                    the first Gram matrix of the process (n = 8000, the
//                                gaussian plugin) against the next ones into fresh matrices
//                                of the same size: the counter first_over_hot. Run it in a
//                                process of its own (--benchmark_filter=FirstGram), as a
//                                cell's first K is. Target ≤ 2.
//
//   OMP_NUM_THREADS=1 build/bin/formula_bench --benchmark_repetitions=3
//   OMP_NUM_THREADS=2 build/bin/formula_bench --benchmark_filter=FirstGram
#include <benchmark/benchmark.h>

#include <armadillo>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "kernel_algebra/composite_kernel.hpp"
#include "kexp/formula_kernel.hpp"
#include "kexp/integer_power.hpp"
#include "kexp/kexp.hpp"
#include "run_benchmarks.hpp"
#include "support/plugins.hpp"

#if defined(KEXP_HAVE_LIBMVEC)
// As the sigmoid plugin had it: glibc's vector tanh in the `omp simd` loop.
extern "C" {
#pragma omp declare simd notinbranch
double tanh(double x);
}
#endif

namespace {

using kexp::test::TextParams;

constexpr arma::uword kN = 4000;
constexpr arma::uword kD = 10;

arma::mat points(arma::uword d, arma::uword n) {
  arma::arma_rng::set_seed(42);
  return arma::randn<arma::mat>(d, n) / std::sqrt(static_cast<double>(d));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void per_entry(benchmark::State& state, double n, double m) {
  state.counters["entry"] = benchmark::Counter(
      n * m, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// Times `a` and `b` alternately in each iteration; the iteration's time is a's, and the
/// counter `name` is b's total over a's.
void side_by_side(benchmark::State& state, const std::function<void()>& a,
                  const std::function<void()>& b, const char* name) {
  double a_s = 0, b_s = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    a();
    const double t = seconds_since(start);
    a_s += t;
    start = std::chrono::steady_clock::now();
    b();
    b_s += seconds_since(start);
    state.SetIterationTime(t);
  }
  state.counters[name] = a_s / b_s;
}

// ---- The built-in kernels' Gram matrices as they were computed before the formula engine
// (their plugins' compute_symmetric_gram), for the comparison.

using Before = std::function<void(const arma::mat& X, arma::mat& K)>;

Before before(const std::string& kernel) {
  if (kernel == "gaussian") {
    return [](const arma::mat& X, arma::mat& K) {
      kexp::gram::exp_of_squared_distances(X, K, 1.0 / (2.0 * 1.5 * 1.5));
    };
  }
  if (kernel == "laplacian") {
    return [](const arma::mat& X, arma::mat& K) {
      const double r = 1.0 / 1.5;
      kexp::gram::from_squared_distances(
          X, K, [r](double s) noexcept { return std::exp(-r * std::sqrt(s)); });
    };
  }
  if (kernel == "polynomial") {
    return [](const arma::mat& X, arma::mat& K) {
      kexp::gram::from_inner_products(
          X, K, [](double s) noexcept { return kexp::integer_power(s + 1.0, 3); });
    };
  }
  if (kernel == "sigmoid") {
    return [](const arma::mat& X, arma::mat& K) {
      kexp::gram::from_inner_products(X, K,
                                      [](double s) noexcept { return ::tanh(0.5 * s - 0.1); });
    };
  }
  if (kernel == "linear") {
    return [](const arma::mat& X, arma::mat& K) {
      kexp::gram::from_inner_products(X, K, [](double s) noexcept { return s; });
    };
  }
  if (kernel == "constant") {
    return [](const arma::mat&, arma::mat& K) { K.fill(0.5); };
  }
  // gaussian + polynomial, as the sum computed it: each term's K, then added
  return [](const arma::mat& X, arma::mat& K) {
    kexp::gram::exp_of_squared_distances(X, K, 1.0 / (2.0 * 1.5 * 1.5));
    arma::mat part(K.n_rows, K.n_cols);
    kexp::gram::from_inner_products(
        X, part, [](double s) noexcept { return kexp::integer_power(s + 1.0, 3); });
    K += part;
  };
}

std::shared_ptr<kexp::Kernel> plugin(const std::string& name, const TextParams& params) {
  return kexp::test::make_kernel(name, params);
}

std::shared_ptr<kexp::Kernel> builtin(const std::string& kernel) {
  if (kernel == "gaussian") return plugin("gaussian", {{"sigma", "1.5"}});
  if (kernel == "laplacian") return plugin("laplacian", {{"sigma", "1.5"}});
  if (kernel == "polynomial") return plugin("polynomial", {{"degree", "3"}, {"c", "1"}});
  if (kernel == "sigmoid") return plugin("sigmoid", {{"a", "0.5"}, {"b", "-0.1"}});
  if (kernel == "linear") return plugin("linear", {});
  if (kernel == "constant") return plugin("constant", {{"c", "0.5"}});
  return kexp::algebra::combined(kexp::algebra::Combination::Sum,
                                 {builtin("gaussian"), builtin("polynomial")});
}

void BuiltinOverBefore(benchmark::State& state, const std::string& kernel) {
  const arma::mat X = points(kD, kN);
  const auto k = builtin(kernel);
  const Before old = before(kernel);
  arma::mat K(kN, kN), K_old(kN, kN);
  side_by_side(
      state,
      [&] {
        k->gram(X, K);
        benchmark::DoNotOptimize(K.memptr());
      },
      [&] {
        old(X, K_old);
        benchmark::DoNotOptimize(K_old.memptr());
      },
      "new_over_old");
  per_entry(state, kN, kN);
  const double diff = arma::abs(K - K_old).max();
  if (!(diff <= 1e-12 * std::max(1.0, arma::abs(K_old).max()))) {
    state.SkipWithError(("the two paths differ by " + std::to_string(diff)).c_str());
  }
}

// ---- A plugin kernel that keeps only compute(): its fast path with std::pow, with
// kexp::vpow, against the gaussian plugin.

void PluginFastPath(benchmark::State& state, bool vector_maths) {
  const arma::mat X = points(kD, kN);
  const auto gaussian = builtin("gaussian");
  const double a = 0.7, c = 1.0 / (2.0 * 0.7 * 1.5 * 1.5);
  arma::mat K(kN, kN), G(kN, kN);
  side_by_side(
      state,
      [&] {
        if (vector_maths) {
          kexp::gram::from_squared_distances(
              X, K, [a, c](double s) noexcept { return kexp::vpow(1.0 + c * s, -a); });
        } else {
          kexp::gram::from_squared_distances(
              X, K, [a, c](double s) noexcept { return std::pow(1.0 + c * s, -a); });
        }
        benchmark::DoNotOptimize(K.memptr());
      },
      [&] {
        gaussian->gram(X, G);
        benchmark::DoNotOptimize(G.memptr());
      },
      "over_gaussian");
  per_entry(state, kN, kN);
}

// ---- Kernels given by a formula alone, against the gaussian plugin.

struct FormulaCase {
  const char* text;
  std::vector<std::string> names;
  std::vector<double> values;
};

FormulaCase formula_case(const std::string& name) {
  if (name == "rational_quadratic") {
    return {"(1 + r2 / (2 * alpha * l^2))^(-alpha)", {"alpha", "l"}, {0.7, 1.5}};
  }
  if (name == "matern32") {
    return {"(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l)", {"l"}, {1.5}};
  }
  if (name == "matern52") {
    return {"(1 + sqrt(5) * r / l + 5 * r2 / (3 * l^2)) * exp(-sqrt(5) * r / l)", {"l"}, {1.5}};
  }
  if (name == "inverse_multiquadric") return {"(1 + r2 / c^2)^(-0.5)", {"c"}, {1.5}};
  if (name == "periodic") return {"exp(-2 * sin(pi * r / p)^2 / l^2)", {"p", "l"}, {2.0, 1.5}};
  return {"exp(-r2 / (2 * sigma^2))", {"sigma"}, {1.5}};  // gaussian
}

std::shared_ptr<kexp::Kernel> formula_kernel(const std::string& name) {
  const FormulaCase c = formula_case(name);
  return std::make_shared<kexp::FormulaKernel>(std::make_shared<kexp::Formula>(c.text, c.names),
                                               c.values);
}

void FormulaOverGaussian(benchmark::State& state, const std::string& name) {
  const arma::mat X = points(kD, kN);
  const auto k = formula_kernel(name);
  const auto gaussian = builtin("gaussian");
  arma::mat K(kN, kN), G(kN, kN);
  side_by_side(
      state,
      [&] {
        k->gram(X, K);
        benchmark::DoNotOptimize(K.memptr());
      },
      [&] {
        gaussian->gram(X, G);
        benchmark::DoNotOptimize(G.memptr());
      },
      "over_gaussian");
  per_entry(state, kN, kN);
}

void DoubleOverSingle(benchmark::State& state, const std::string& name) {
  const arma::mat X = points(kD, kN);
  const arma::fmat Xf = arma::conv_to<arma::fmat>::from(X);
  const auto k = name == "gaussian_plugin" ? builtin("gaussian") : formula_kernel(name);
  arma::mat K(kN, kN);
  arma::fmat Kf(kN, kN);
  side_by_side(
      state,
      [&] {
        k->gram(X, K);
        benchmark::DoNotOptimize(K.memptr());
      },
      [&] {
        if (kexp::gram::single(*k, Xf, Kf) != kexp::gram::SinglePath::native) {
          state.SkipWithError("the kernel's float32 Gram did not run natively");
        }
        benchmark::DoNotOptimize(Kf.memptr());
      },
      "double_over_single");
  per_entry(state, kN, kN);
}

/// The first K of the process, n = 8000, then K again into fresh matrices: each iteration
/// allocates its own, as each cell does.
void FirstGram(benchmark::State& state) {
  constexpr arma::uword n = 8000;
  const arma::mat X = points(kD, n);
  const auto k = builtin("gaussian");
  double first = -1, hot = 0;
  int hot_count = 0;
  for (auto _ : state) {
    arma::mat K;
    const auto start = std::chrono::steady_clock::now();
    k->gram(X, K);
    benchmark::DoNotOptimize(K.memptr());
    const double t = seconds_since(start);
    if (first < 0) {
      first = t;
    } else {
      hot += t;
      ++hot_count;
    }
    state.SetIterationTime(t);
  }
  state.counters["first_ns_per_entry"] = first / (static_cast<double>(n) * n) * 1e9;
  if (hot_count > 0) {
    state.counters["hot_ns_per_entry"] = hot / hot_count / (static_cast<double>(n) * n) * 1e9;
    state.counters["first_over_hot"] = first / (hot / hot_count);
  }
}

void register_all() {
  for (const char* k : {"gaussian", "laplacian", "polynomial", "sigmoid", "linear", "constant",
                        "gaussian_plus_polynomial"}) {
    benchmark::RegisterBenchmark((std::string("BuiltinOverBefore/") + k).c_str(), BuiltinOverBefore,
                                 std::string(k))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (const char* k : {"gaussian", "rational_quadratic", "matern32", "inverse_multiquadric",
                        "matern52", "periodic"}) {
    benchmark::RegisterBenchmark((std::string("FormulaOverGaussian/") + k).c_str(),
                                 FormulaOverGaussian, std::string(k))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("PluginFastPath/std_pow", PluginFastPath, false)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("PluginFastPath/vpow", PluginFastPath, true)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  for (const char* k : {"gaussian_plugin", "rational_quadratic", "matern32", "inverse_multiquadric",
                        "matern52", "periodic"}) {
    benchmark::RegisterBenchmark((std::string("DoubleOverSingle/") + k).c_str(), DoubleOverSingle,
                                 std::string(k))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("FirstGram", FirstGram)
      ->Iterations(4)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) { return kexp::bench::run_benchmarks(argc, argv, register_all); }
