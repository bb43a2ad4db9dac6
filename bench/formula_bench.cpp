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
//                                gaussian plugin), into fresh memory, against the next ones
//                                into the same matrix: the counter first_over_hot. Run it in
//                                a process of its own (--benchmark_filter=FirstGram), as a
//                                run's first K is. Target ≤ 2.
//
//   OMP_NUM_THREADS=1 build/bin/formula_bench --benchmark_repetitions=3
//   OMP_NUM_THREADS=2 build/bin/formula_bench --benchmark_filter=FirstGram
#include <benchmark/benchmark.h>

#include <time.h>
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

/// The CPU time of the process, every thread's, in seconds.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// Times `a` and `b` alternately in each iteration, after one untimed call of each; the
/// iteration's time is a's wall time.
/// The counter `name` is a's total over b's in wall time, `name`_cpu the same in CPU time
/// (all threads): on a machine shared with other work, the CPU time is the steadier
/// measure of the work done, the wall time includes the waits for a core.
void side_by_side(benchmark::State& state, const std::function<void()>& a,
                  const std::function<void()>& b, const std::string& name) {
  // Once each before timing: the matrices' pages are the operating system's until they are
  // first written (FirstGram measures that), here both are hot.
  a();
  b();
  double a_s = 0, b_s = 0, a_cpu = 0, b_cpu = 0;
  for (auto _ : state) {
    double cpu = cpu_seconds();
    auto start = std::chrono::steady_clock::now();
    a();
    const double t = seconds_since(start);
    a_cpu += cpu_seconds() - cpu;
    a_s += t;
    cpu = cpu_seconds();
    start = std::chrono::steady_clock::now();
    b();
    b_s += seconds_since(start);
    b_cpu += cpu_seconds() - cpu;
    state.SetIterationTime(t);
  }
  state.counters[name] = a_s / b_s;
  state.counters[name + "_cpu"] = a_cpu / b_cpu;
}

// ---- The built-in kernels' Gram matrices as they were computed before the formula engine
// (their plugins' compute_symmetric_gram), copied here as they were, for the comparison:
// the SDK's blocks (each mirrored by a scalar loop over tiles of 16 × 16), its fused Gaussian
// (compiled for AVX-512, AVX2 and SSE2), and the column loops its header had then, compiled
// into the plugin for the baseline x86-64.

namespace before_engine {

/// The symmetric K block by block, the lower blocks mirrored from the upper ones.
template <class Fill>
void for_each_block(std::size_t n, arma::mat& K, Fill fill) {
  const std::size_t B = kexp::detail::kGramBlock;
  const std::size_t blocks = (n + B - 1) / B;
  const std::size_t ld = K.n_rows;
  double* const k = K.memptr();
  kexp::parallel_for(
      blocks * blocks,
      [&](std::size_t t) {
        const std::size_t bj = t / blocks;
        const std::size_t bi = t % blocks;
        if (bi > bj) return;
        const std::size_t i0 = bi * B;
        const std::size_t j0 = bj * B;
        const std::size_t rows = std::min(B, n - i0);
        const std::size_t cols = std::min(B, n - j0);
        double* block = k + i0 + j0 * ld;
        fill(block, i0, j0, rows, cols, ld);
        if (bi == bj) {
          for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t i = j + 1; i < rows; ++i) block[i + j * ld] = block[j + i * ld];
        } else {
          double* mirror = k + j0 + i0 * ld;
          constexpr std::size_t T = 16;
          for (std::size_t it = 0; it < rows; it += T) {
            const std::size_t ie = std::min(rows, it + T);
            for (std::size_t jt = 0; jt < cols; jt += T) {
              const std::size_t je = std::min(cols, jt + T);
              for (std::size_t i = it; i < ie; ++i)
                for (std::size_t j = jt; j < je; ++j) mirror[j + i * ld] = block[i + j * ld];
            }
          }
        }
      },
      kexp::Schedule::Dynamic, 1);
}

template <class Finish>
void blocked_gram(const arma::mat& X, arma::mat& K, Finish finish) {
  const std::size_t d = X.n_rows;
  kexp::detail::SingleThreadedBlas single;
  for_each_block(X.n_cols, K,
                 [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                     std::size_t cols, std::size_t ld) {
                   kexp::detail::gemm_tn(rows, cols, d, X.memptr() + i0 * d, d, X.memptr() + j0 * d,
                                         d, block, ld);
                   finish(block, i0, j0, rows, cols, ld);
                 });
}

/// The SDK's fused Gaussian block.
KEXP_VECTOR_CLONES
void exp_block(double* block, std::size_t ld, std::size_t rows, std::size_t cols, const double* a,
               const double* b, double two_gamma) {
  for (std::size_t j = 0; j < cols; ++j) {
    double* col = block + j * ld;
    const double bj = b[j];
#pragma omp simd
    for (std::size_t i = 0; i < rows; ++i) {
      const double e = a[i] + bj + two_gamma * col[i];
      col[i] = kexp::vexp(e < 0.0 ? e : 0.0);
    }
  }
}

void exp_of_squared_distances(const arma::mat& X, arma::mat& K, double gamma) {
  const arma::rowvec a = -gamma * arma::sum(arma::square(X), 0);
  blocked_gram(X, K,
               [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                   std::size_t cols, std::size_t ld) {
                 exp_block(block, ld, rows, cols, a.memptr() + i0, a.memptr() + j0, 2.0 * gamma);
                 if (i0 == j0) {
                   for (std::size_t j = 0; j < cols; ++j) block[j + j * ld] = 1.0;
                 }
               });
}

template <class F>
void transform_column(double* col, std::size_t rows, const F& f) {
#pragma omp simd
  for (std::size_t i = 0; i < rows; ++i) col[i] = f(col[i]);
}

template <class F>
void transform_distance_column(double* col, const double* xn, double zn, std::size_t rows,
                               const F& f) {
#pragma omp simd
  for (std::size_t i = 0; i < rows; ++i) {
    const double s = xn[i] + zn - 2.0 * col[i];
    col[i] = f(s > 0.0 ? s : 0.0);
  }
}

template <class F>
void from_squared_distances(const arma::mat& X, arma::mat& K, F f) {
  const arma::rowvec xx = arma::sum(arma::square(X), 0);
  const double on_diagonal = f(0.0);
  blocked_gram(X, K,
               [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                   std::size_t cols, std::size_t ld) {
                 for (std::size_t j = 0; j < cols; ++j) {
                   double* col = block + j * ld;
                   transform_distance_column(col, xx.memptr() + i0, xx[j0 + j], rows, f);
                   if (i0 == j0) col[j] = on_diagonal;
                 }
               });
}

template <class F>
void from_inner_products(const arma::mat& X, arma::mat& K, F f) {
  blocked_gram(X, K,
               [&](double* block, std::size_t, std::size_t, std::size_t rows, std::size_t cols,
                   std::size_t ld) {
                 for (std::size_t j = 0; j < cols; ++j) {
                   transform_column(block + j * ld, rows, f);
                 }
               });
}

}  // namespace before_engine

using Before = std::function<void(const arma::mat& X, arma::mat& K)>;

Before before(const std::string& kernel) {
  if (kernel == "gaussian") {
    return [](const arma::mat& X, arma::mat& K) {
      before_engine::exp_of_squared_distances(X, K, 1.0 / (2.0 * 1.5 * 1.5));
    };
  }
  if (kernel == "laplacian") {
    return [](const arma::mat& X, arma::mat& K) {
      const double r = 1.0 / 1.5;
      before_engine::from_squared_distances(
          X, K, [r](double s) noexcept { return std::exp(-r * std::sqrt(s)); });
    };
  }
  if (kernel == "polynomial") {
    return [](const arma::mat& X, arma::mat& K) {
      before_engine::from_inner_products(
          X, K, [](double s) noexcept { return kexp::integer_power(s + 1.0, 3); });
    };
  }
  if (kernel == "sigmoid") {
    return [](const arma::mat& X, arma::mat& K) {
      before_engine::from_inner_products(X, K,
                                         [](double s) noexcept { return ::tanh(0.5 * s - 0.1); });
    };
  }
  if (kernel == "linear") {
    return [](const arma::mat& X, arma::mat& K) {
      before_engine::from_inner_products(X, K, [](double s) noexcept { return s; });
    };
  }
  if (kernel == "constant") {
    return [](const arma::mat&, arma::mat& K) { K.fill(0.5); };
  }
  // gaussian + polynomial, as the sum computed it: each term's K, then added
  return [](const arma::mat& X, arma::mat& K) {
    before_engine::exp_of_squared_distances(X, K, 1.0 / (2.0 * 1.5 * 1.5));
    arma::mat part;  // as Kernel::gram sized the term's K
    part.set_size(K.n_rows, K.n_cols);
    kexp::advise_huge_pages(part);
    before_engine::from_inner_products(
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
  // Sized as Kernel::gram sizes K: allocated, advised to use huge pages, not yet written
  // (Armadillo's Mat(n, m) would write zeros into small pages first).
  arma::mat K, K_old;
  K_old.set_size(kN, kN);
  kexp::advise_huge_pages(K_old);
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
  arma::mat K, G;  // sized by the first call, into huge pages
  K.set_size(kN, kN);
  kexp::advise_huge_pages(K);
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
  arma::mat K, G;  // sized by the first call, into huge pages
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
  arma::mat K;  // both sized by the first call, into huge pages
  arma::fmat Kf;
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

/// The first K of the process, n = 8000, into a matrix allocated and never touched before
/// (the operating system's fresh pages), then K again into the same matrix: the hot path.
void FirstGram(benchmark::State& state) {
  constexpr arma::uword n = 8000;
  const arma::mat X = points(kD, n);
  const auto k = builtin("gaussian");
  arma::mat K;  // sized by the first Gram: allocated, advised to use huge pages, filled
  double first = -1, hot = 0;
  int hot_count = 0;
  for (auto _ : state) {
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
  const double entries = static_cast<double>(n) * static_cast<double>(n);
  state.counters["first_ns_per_entry"] = first / entries * 1e9;
  if (hot_count > 0) {
    state.counters["hot_ns_per_entry"] = hot / hot_count / entries * 1e9;
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
