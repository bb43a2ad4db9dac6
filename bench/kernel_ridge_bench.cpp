// kernel_ridge at scale, gaussian kernel, d = 10:
//   FitOverCholesky     the whole fit (Gram already built, factored in place) against
//                       dpotrf alone on the same matrix, in the same iteration: their
//                       ratio is the solver's overhead over the factorization;
//   BandOverCholesky    the cost of one band reduction K = QBQᵀ in Choleskys of the same
//                       matrix, which sets kernel_ridge's threshold for sharing one
//                       reduction over a λ sweep, and of one shifted solve through it;
//   CholeskyOverDpotrf  kexp::linalg::cholesky_in_place (blocked, its trailing updates on
//                       strips of columns, to keep OpenBLAS's buffers small) against
//                       LAPACK's dpotrf called directly on the same K + λI, one after the
//                       other in each iteration: their time ratio;
//   PrecisionOverDouble (K + λI)β = y, λ = 0.1, by kexp::linalg::solve_shifted in float64,
//                       mixed and single precision one after the other on the same K in
//                       each iteration: the time ratios double/mixed and double/single,
//                       the refinement steps, and how far the predictions at 1000 other
//                       points are from float64's (relative, largest);
//   GpMixedOverDouble   gp_regression's fit and its predictions with variances at 2000
//                       other points (noise 0.1), in precision double and mixed one
//                       after the other on the same K: the time ratios of the fit and of
//                       the whole cell, and how far mixed's mean (relative), variances and
//                       log p(t) (absolute) are from float64's, with float64's log p(t);
//   PeakMemory          the process's peak resident memory (VmHWM) of building the Gram
//                       matrix and fitting, as a multiple of 8n² bytes above the
//                       baseline measured just before, and the baseline itself.
//
//   bench/kernel_ridge_bench --benchmark_repetitions=3
// Run with OPENBLAS_NUM_THREADS set to fix the thread count of the factorizations.
#include <benchmark/benchmark.h>

#include <time.h>

#include <chrono>
#include <fstream>
#include <map>
#include <string>

#include "kexp/kexp.hpp"
#include "run_benchmarks.hpp"
#include "support/plugins.hpp"

namespace {

constexpr double kLambda = 1e-3;

arma::mat inputs(arma::uword n) {
  arma::arma_rng::set_seed(42);
  return arma::randn<arma::mat>(10, n);
}

std::shared_ptr<kexp::Kernel> gaussian() {
  return kexp::test::make_kernel("gaussian", {{"sigma", "3"}});
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// CPU seconds used by the process so far: on a shared machine, steadier than wall time
/// for a computation that runs on one thread.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// A field of /proc/self/status in bytes ("VmHWM", "VmRSS").
double status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stod(line.substr(field.size() + 1)) * 1024.0;
  }
  return -1;
}

/// Resets VmHWM to the current resident size.
bool reset_peak() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  return static_cast<bool>(clear.flush());
}

/// One iteration: build K, time dpotrf on K + λI; build K again, time kernel_ridge's whole
/// fit in place. Interleaved so that both see the same load on a shared machine.
void FitOverCholesky(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = inputs(n);
  const arma::vec y = arma::sin(arma::sum(X, 0)).t();
  const auto kernel = gaussian();
  arma::mat K;
  double cholesky = 0, fit = 0, cholesky_cpu = 0, fit_cpu = 0;
  for (auto _ : state) {
    kernel->gram(X, K);
    K.diag() += kLambda;
    auto start = std::chrono::steady_clock::now();
    double cpu_start = cpu_seconds();
    const int info = kexp::linalg::cholesky_in_place(K);
    const double c = seconds_since(start);
    cholesky_cpu += cpu_seconds() - cpu_start;
    if (info != 0) state.SkipWithError("not positive definite");

    kernel->gram(X, K);
    auto solver = kexp::test::make_solver("kernel_ridge", {{"lambda", "1e-3"}});
    kexp::TrainingData train;
    train.gram = &K;
    train.gram_writable = true;
    train.targets = &y;
    kexp::SolverReport report;
    start = std::chrono::steady_clock::now();
    cpu_start = cpu_seconds();
    solver->fit(train, report);
    const double f = seconds_since(start);
    fit_cpu += cpu_seconds() - cpu_start;
    benchmark::DoNotOptimize(report.fitted.memptr());
    state.SetIterationTime(f);
    cholesky += c;
    fit += f;
  }
  state.counters["cholesky_s"] = benchmark::Counter(cholesky, benchmark::Counter::kAvgIterations);
  state.counters["fit_s"] = benchmark::Counter(fit, benchmark::Counter::kAvgIterations);
  state.counters["fit_over_cholesky"] = fit / cholesky;
  state.counters["fit_over_cholesky_cpu"] = fit_cpu / cholesky_cpu;
}

void BandOverCholesky(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = inputs(n);
  const arma::vec y = arma::sin(arma::sum(X, 0)).t();
  arma::mat K0;
  gaussian()->gram(X, K0);
  double cholesky = 0, band = 0, solve = 0;
  for (auto _ : state) {
    arma::mat A = K0;
    A.diag() += kLambda;
    auto start = std::chrono::steady_clock::now();
    (void)kexp::linalg::cholesky_in_place(A);
    const double c = seconds_since(start);
    A = K0;
    start = std::chrono::steady_clock::now();
    const kexp::linalg::BandReduction reduction(A);
    const double b = seconds_since(start);
    arma::vec beta = y;
    start = std::chrono::steady_clock::now();
    if (reduction.solve_shifted(kLambda, beta) != 0) state.SkipWithError("K + λI not PD");
    const double s = seconds_since(start);
    state.SetIterationTime(c + b + s);
    cholesky += c;
    band += b;
    solve += s;
  }
  state.counters["cholesky_s"] = benchmark::Counter(cholesky, benchmark::Counter::kAvgIterations);
  state.counters["band_s"] = benchmark::Counter(band, benchmark::Counter::kAvgIterations);
  state.counters["band_in_choleskys"] = band / cholesky;
  state.counters["solve_in_choleskys"] = solve / cholesky;
}

void CholeskyOverDpotrf(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  arma::mat K0;
  gaussian()->gram(inputs(n), K0);
  K0.diag() += kLambda;
  arma::mat A(n, n);
  double kexp_s = 0, lapack_s = 0;
  for (auto _ : state) {
    A = K0;
    auto start = std::chrono::steady_clock::now();
    int info = kexp::linalg::cholesky_in_place(A);
    const double k = seconds_since(start);
    A = K0;
    char lower = 'L';
    auto order = static_cast<arma::blas_int>(n);
    start = std::chrono::steady_clock::now();
    arma::lapack::potrf(&lower, &order, A.memptr(), &order, &info);
    lapack_s += seconds_since(start);
    if (info != 0) state.SkipWithError("not positive definite");
    kexp_s += k;
    state.SetIterationTime(k);
  }
  state.counters["kexp_over_dpotrf"] = kexp_s / lapack_s;
}

void PrecisionOverDouble(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = inputs(n);
  const arma::vec y = arma::sin(arma::sum(X, 0)).t();
  const auto kernel = gaussian();
  arma::mat K0, K_cross;
  kernel->gram(X, K0);
  kernel->gram(X, arma::mat(inputs(n + 1000).tail_cols(1000)), K_cross);
  using kexp::linalg::Precision;
  std::map<Precision, double> seconds;
  double steps = 0, mixed_diff = 0, single_diff = 0;
  for (auto _ : state) {
    std::map<Precision, arma::vec> predictions;
    for (const Precision p : {Precision::Double, Precision::Mixed, Precision::Single}) {
      arma::mat K = K0, b = y;
      const auto start = std::chrono::steady_clock::now();
      const kexp::linalg::ShiftedSolve s = kexp::linalg::solve_shifted(K, 0.1, b, p);
      const double t = seconds_since(start);
      seconds[p] += t;
      if (p == Precision::Mixed) {
        steps = s.refinement_steps;
        if (s.fell_back) state.SkipWithError("mixed precision fell back to float64");
      }
      if (p == Precision::Double) state.SetIterationTime(t);
      predictions[p] = K_cross.t() * b.col(0);
    }
    const double scale = arma::norm(predictions[Precision::Double], "inf");
    mixed_diff = std::max(
        mixed_diff,
        arma::norm(predictions[Precision::Mixed] - predictions[Precision::Double], "inf") / scale);
    single_diff = std::max(
        single_diff,
        arma::norm(predictions[Precision::Single] - predictions[Precision::Double], "inf") / scale);
  }
  state.counters["double_over_mixed"] = seconds[Precision::Double] / seconds[Precision::Mixed];
  state.counters["double_over_single"] = seconds[Precision::Double] / seconds[Precision::Single];
  state.counters["refinement_steps"] = steps;
  state.counters["mixed_prediction_diff"] = mixed_diff;
  state.counters["single_prediction_diff"] = single_diff;
}

void GpMixedOverDouble(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::uword m = 2000;
  const arma::mat X = inputs(n);
  const arma::vec y = arma::sin(arma::sum(X, 0)).t();
  const auto kernel = gaussian();
  arma::mat K0, K_cross;
  kernel->gram(X, K0);
  kernel->gram(X, arma::mat(inputs(n + m).tail_cols(m)), K_cross);
  const arma::vec diagonal(m, arma::fill::ones);
  std::map<std::string, double> fit, cell;
  double mean_diff = 0, var_diff = 0, lml_diff = 0, steps = 0, lml_double = 0;
  for (auto _ : state) {
    std::map<std::string, kexp::Prediction> predictions;
    std::map<std::string, double> lml;
    for (const std::string precision : {"double", "mixed"}) {
      auto solver =
          kexp::test::make_solver("gp_regression", {{"noise", "0.1"}, {"precision", precision}});
      arma::mat K = K0;
      kexp::TrainingData train;
      train.gram = &K;
      train.gram_writable = true;
      train.targets = &y;
      kexp::TestData test;
      test.gram = &K_cross;
      test.gram_diagonal = &diagonal;
      kexp::SolverReport report;
      const auto start = std::chrono::steady_clock::now();
      solver->fit(train, report);
      const double fitted = seconds_since(start);
      predictions[precision] = solver->predict(test, report);
      const double whole = seconds_since(start);
      fit[precision] += fitted;
      cell[precision] += whole;
      if (precision == "double") state.SetIterationTime(whole);
      for (const auto& [name, value] : report.metrics) {
        if (name == "log_marginal_likelihood") lml[precision] = value;
        if (name == "refinement_steps" && precision == "mixed") steps = value;
        if (name == "precision_fallback" && value != 0.0) {
          state.SkipWithError("mixed precision fell back to float64");
        }
      }
    }
    const kexp::Prediction& d = predictions["double"];
    const kexp::Prediction& x = predictions["mixed"];
    mean_diff = std::max(mean_diff, arma::norm(x.mean - d.mean, "inf") / arma::norm(d.mean, "inf"));
    var_diff = std::max(var_diff, arma::norm(x.var_f - d.var_f, "inf"));
    lml_diff = std::max(lml_diff, std::abs(lml["mixed"] - lml["double"]));
    lml_double = lml["double"];
  }
  state.counters["fit_double_over_mixed"] = fit["double"] / fit["mixed"];
  state.counters["cell_double_over_mixed"] = cell["double"] / cell["mixed"];
  state.counters["refinement_steps"] = steps;
  state.counters["mean_diff"] = mean_diff;
  state.counters["var_f_diff"] = var_diff;
  state.counters["lml_diff"] = lml_diff;
  state.counters["lml_double"] = lml_double;
}

void PeakMemory(benchmark::State& state) {
  const auto n = static_cast<arma::uword>(state.range(0));
  const arma::mat X = inputs(n);
  const arma::vec y = arma::sin(arma::sum(X, 0)).t();
  const auto kernel = gaussian();
  double baseline = 0, peak = 0;
  for (auto _ : state) {
    auto solver = kexp::test::make_solver("kernel_ridge", {{"lambda", "1e-3"}});
    if (!reset_peak()) state.SkipWithError("cannot reset VmHWM (/proc/self/clear_refs)");
    baseline = status_bytes("VmHWM");
    {
      arma::mat K;
      kernel->gram(X, K);
      kexp::TrainingData train;
      train.gram = &K;
      train.gram_writable = true;
      train.targets = &y;
      kexp::SolverReport report;
      solver->fit(train, report);
      peak = status_bytes("VmHWM");
    }
  }
  const double square = 8.0 * static_cast<double>(n) * static_cast<double>(n);
  state.counters["peak_over_8n2"] = (peak - baseline) / square;
  state.counters["baseline_MB"] = baseline / 1e6;
  state.counters["peak_MB"] = peak / 1e6;
}

}  // namespace

BENCHMARK(FitOverCholesky)->Arg(8000)->UseManualTime()->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BandOverCholesky)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(4000)
    ->Arg(8000)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK(CholeskyOverDpotrf)
    ->Arg(2000)
    ->Arg(4000)
    ->Arg(6000)
    ->Arg(8000)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(3);
BENCHMARK(PrecisionOverDouble)->Arg(8000)->UseManualTime()->Unit(benchmark::kSecond)->Iterations(3);
BENCHMARK(GpMixedOverDouble)->Arg(8000)->UseManualTime()->Unit(benchmark::kSecond)->Iterations(3);
BENCHMARK(PeakMemory)->Arg(8000)->Unit(benchmark::kSecond)->Iterations(1);

int main(int argc, char** argv) { return kexp::bench::run_benchmarks(argc, argv); }
