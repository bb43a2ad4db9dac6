// gp_regression: Gaussian process regression with Gaussian noise.
//
// Prior f ~ GP(0, k), targets tᵢ = f(xᵢ) + εᵢ with εᵢ ~ N(0, β⁻¹), β⁻¹ = `noise`. With
// C = K + β⁻¹I the predictive distribution at x* has (Bishop, Pattern Recognition and
// Machine Learning, §6.4.2; Rasmussen & Williams, Gaussian Processes for Machine
// Learning, Algorithm 2.1)
//
//   mean    m(x*) = kᵀC⁻¹t,               k = k(X, x*),
//   var f   σ²_f(x*) = k(x*, x*) − kᵀC⁻¹k,
//   var t   σ²_t(x*) = σ²_f(x*) + β⁻¹,
//
// and the data the log marginal likelihood
//
//   log p(t) = −½ tᵀC⁻¹t − ½ log det C − (n/2) log 2π,
//
// reported as the metric `log_marginal_likelihood`. The mean is kernel_ridge's predictor
// with λ = β⁻¹. C = LLᵀ by Cholesky, in place on K when the runner allows it.
// Fit n³/3 + O(n²) flops; prediction 2n per point for the mean and n² more for the
// variance (one triangular solve L⁻¹k per point, on an n × m copy of K(X, X*)).
//
// precision: mixed — C is factored in float32 (kexp::linalg::ShiftedFactor, on a rounded
// copy of K's lower triangle, 4n² bytes more), and C⁻¹t is refined in float64 from
// residuals t − Cα computed in float64 until it is as accurate as a float64 solve (as
// LAPACK dsposv does): the mean is float64's. When C is too ill-conditioned for float32,
// it is factored in float64 instead (precision_fallback = 1). The variances (‖L⁻¹k‖² by
// the float32 factor, STRSM) and log det C (from the float32 factor) are float32's, not
// refined: refining C⁻¹K(X, X*) would take a float64 product C·V, 2n² flops per test point,
// at every step, several times what the variances cost in float64. Learning
// (optimize: true) runs in float64 only.
//
// optimize: true learns the kernel's hyperparameters θ (Kernel::hyperparameters: σ, c,
// the scales of a sum's terms) and the noise by maximising log p(t) over log θ and
// log noise, within `bounds`, by L-BFGS (NLopt's LD_LBFGS) with the analytic gradient
// of solvers/gp_likelihood.hpp.
// The first start is the values written in the experiment; `restarts` more are drawn
// log-uniformly within the bounds from `seed`, as scikit-learn's n_restarts_optimizer
// does. The best log p(t) over the starts wins; the cell predicts with it, variances
// included. The runner then gives the kernel and the points, not K and K(X, X*), which
// would be at the written values: the solver makes K wherever it evaluates log p(t). Each
// evaluation costs the kernel's K and gradient, a Cholesky factorization (n³/3) and
// C⁻¹ from it ((2/3)n³): for n up to a few thousand.
//
// device: cuda or host — the runner gives the kernel and the points; C is built from the
// kernel's program, factored and solved on the device, where X and the factor stay for
// the predictions: the mean and ‖L⁻¹k‖² per test point (trsm), streamed over blocks
// (solvers/gp_device.hpp, on kexp/device.hpp). k(x*, x*) is the kernel's own diagonal, on
// the host. cuda runs it on an NVIDIA GPU, host on the CPU (the host backend). float64
// only, without optimize; the copies are the metric transfer_seconds.
#include <nlopt.h>

#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/device_path.hpp"
#include "solvers/gp_device.hpp"
#include "solvers/gp_likelihood.hpp"
#include "solvers/gp_search.hpp"

namespace {

constexpr kexp::linalg::ShiftedMatrixNames kNames{"C = K + noise·I", "noise", "noise"};

class GaussianProcessRegression final : public kexp::Solver, public kexp::DeviceMemory {
 public:
  explicit GaussianProcessRegression(const kexp::Params& p)
      : start_noise_(p.real("noise")),
        noise_(start_noise_),
        optimize_(p.boolean("optimize")),
        restarts_(p.integer("restarts")),
        evaluations_(p.integer("evaluations")),
        seed_(static_cast<std::uint64_t>(p.integer("seed"))),
        bounds_(kexp_solvers::parse_bounds(p.string("bounds"))),
        mixed_(kexp::ExecutionTarget::of(p).precision == kexp::Precision::Mixed),
        device_(p),
        on_device_(device_.on_device()) {
    if (optimize_ && mixed_) {
      throw kexp::InvalidArgument(
          "gp_regression: optimize: true learns in float64 only (the gradients of log p(t) "
          "need C⁻¹ to float64's accuracy); use precision: double with optimize: true");
    }
    device_.require_float64("gp_regression", !mixed_);
    if (on_device_ && optimize_) {
      throw kexp::InvalidArgument(
          "gp_regression: optimize: true learns on the host only; use device: cpu with it");
    }
  }

  /// On the GPU the host holds t, α, the fitted values and the predictions with their
  /// variances and the kernel's diagonal at the test points; otherwise the runner counts
  /// K.
  double memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    if (!on_device_) return kexp::Solver::memory_bytes(n, m, d);
    return device_.host_bytes(8.0 * (3.0 * static_cast<double>(n) + 5.0 * static_cast<double>(m)),
                              device_memory_bytes(n, m, d));
  }

  /// On the GPU: C, the points and their norms, α and n more at the fit; besides C, the
  /// points and α, the test points with three m-vectors and a block of K(X, X*) at its
  /// smallest at prediction.
  double device_memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    return on_device_ ? kexp::device::gp_least_bytes(n, m, d) : 0.0;
  }

  /// Without optimize, a Cholesky of C, and on the GPU K built there first. With it, every
  /// evaluation of every restart builds K and its p slices of ∂K/∂ log θ and factors and inverts C;
  /// then the fit at the learned values.
  double fit_flops_bound(std::size_t n, std::size_t d, const kexp::Kernel* kernel) const override {
    const double x = static_cast<double>(n);
    // mixed: every refinement step, and a float64 Cholesky after them
    const double fit =
        x * x * x / 3.0 + 2.0 * x * x + 4.0 * x * static_cast<double>(d) +
        (mixed_ ? 4.0 * kexp::linalg::kMaxRefinementSteps * x * x + x * x * x / 3.0 + 2.0 * x * x
                : 0.0);
    if (!optimize_)
      return fit + (on_device_ && kernel != nullptr ? kernel->gram_flops(n, n, d) : 0.0);
    if (kernel == nullptr) return -1;
    const double p = static_cast<double>(kernel->hyperparameters().size());
    const double gram = kernel->gram_flops(n, n, d);
    const double per_evaluation = (p + 1.0) * gram + x * x * x + 2.0 * p * x * x;
    return (static_cast<double>(restarts_) + 1.0) * static_cast<double>(evaluations_) *
               per_evaluation +
           gram + fit;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    if (optimize_) {
      learn(data, report);
      return;
    }
    if (on_device_) {
      fit_on_device(data, report);
      return;
    }
    if (data.gram == nullptr) {
      throw kexp::Error(
          "gp_regression needs the Gram matrix K(X, X), which the runner gives "
          "to a dual solver unless it learns the kernel (optimize: true)");
    }
    const arma::vec& t = *data.targets;
    const double n = static_cast<double>(data.gram->n_rows);
    // Factor K in place where the runner allows it: the factor lives in the runner's
    // matrix, which stays valid until this cell's predictions are made.
    arma::mat* C = data.gram;
    if (!data.gram_writable) {
      own_factor_.set_size(data.gram->n_rows, data.gram->n_cols);
      kexp::advise_huge_pages(own_factor_);
      own_factor_ = *data.gram;
      C = &own_factor_;
      report.matrix_bytes += 8.0 * n * n;
    }
    // In float64 in place on K; in mixed precision a float32 copy, K kept for residuals.
    solve_ = std::make_unique<kexp::linalg::ShiftedFactor>(
        *C, noise_, mixed_ ? kexp::linalg::Precision::Mixed : kexp::linalg::Precision::Double,
        kNames);
    arma::mat weights = t;
    const int steps = solve_->solve(weights);  // C⁻¹t
    weights_ = weights.col(0);
    const double log_det = solve_->log_det();
    const double lml =
        -0.5 * arma::dot(t, weights_) - 0.5 * log_det - 0.5 * n * std::log(2.0 * arma::datum::pi);
    report.metrics.emplace_back("log_marginal_likelihood", lml);
    report.metrics.emplace_back("refinement_steps", steps);
    report.metrics.emplace_back("precision_fallback", solve_->fell_back() ? 1.0 : 0.0);
    report.metrics.emplace_back("transfer_seconds", 0.0);
    // the float32 copy of C, held at the peak even where it was let go for float64's
    if (mixed_) report.matrix_bytes += 4.0 * n * n;
    // Kα = (C − noise·I)α = t − noise·α.
    report.fitted = t - noise_ * weights_;
    // The Cholesky, its solve, each refinement step's residual and solve, and a float64
    // Cholesky and solve after a fallback.
    report.fit_flops += n * n * n / 3.0 + 2.0 * n * n + 4.0 * n + 4.0 * n * n * steps +
                        (mixed_ && solve_->fell_back() ? n * n * n / 3.0 + 2.0 * n * n : 0.0);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    if (on_device_) return predict_on_device(data, report);
    if (learned_) {
      // The runner gives no K(X, X*) to a solver that learns: the learned kernel's.
      if (data.inputs == nullptr) {
        throw kexp::Error(
            "optimize: true needs the test points to predict, which the runner "
            "gives to a solver with flags::learns_kernel");
      }
      arma::mat Ks;
      learned_->gram(*inputs_, *data.inputs, Ks);
      const arma::vec diagonal = learned_->diagonal(*data.inputs);
      report.predict_flops += learned_->gram_flops(inputs_->n_cols, Ks.n_cols, inputs_->n_rows);
      report.matrix_bytes += 8.0 * static_cast<double>(Ks.n_elem);
      return predict_from(Ks, &diagonal, report);
    }
    return predict_from(*data.gram, data.gram_diagonal, report);
  }

 private:
  kexp::Prediction predict_from(const arma::mat& Ks, const arma::vec* k_diagonal,
                                kexp::SolverReport& report) const {
    const double n = static_cast<double>(Ks.n_rows), m = static_cast<double>(Ks.n_cols);
    kexp::Prediction p;
    p.mean = Ks.t() * weights_;
    report.predict_flops += 2.0 * n * m;
    if (k_diagonal == nullptr) return p;
    // V = L⁻¹K(X, X*); kᵀC⁻¹k = ‖L⁻¹k‖², column by column, by C's factor in use (in
    // mixed precision the float32 one, unrefined).
    arma::mat V = Ks;
    solve_->lower_solve(V);
    // V, and its float32 copy where the factor is float32
    const bool in_float32 = mixed_ && !solve_->fell_back();
    report.matrix_bytes += (in_float32 ? 12.0 : 8.0) * n * m;
    p.var_f = *k_diagonal - arma::sum(arma::square(V), 0).t();
    p.var_f.transform([](double v) { return v > 0 ? v : 0.0; });  // rounding below zero
    report.predict_flops += n * n * m + 2.0 * n * m;
    p.var_y = p.var_f + noise_;
    return p;
  }

  /// C = K + noise·I factored and solved on the GPU from the kernel's device form (the
  /// runner has checked that it has one).
  void fit_on_device(const kexp::TrainingData& data, kexp::SolverReport& report) {
    const kexp::FormulaProgram program =
        kexp_solvers::device_program(*data.kernel, "gp_regression");
    const arma::vec& t = *data.targets;
    const double n = static_cast<double>(t.n_elem);
    gpu_.reset();  // a fit before this one: its C leaves the device first
    transfers_ = {};
    gpu_ = std::make_unique<kexp_solvers::DeviceGaussianProcess>(
        device_.backend(), program, *data.inputs, t, noise_, transfers_);
    weights_ = gpu_->weights();
    const double lml = -0.5 * arma::dot(t, weights_) - 0.5 * gpu_->log_det() -
                       0.5 * n * std::log(2.0 * arma::datum::pi);
    report.metrics.emplace_back("log_marginal_likelihood", lml);
    report.metrics.emplace_back("refinement_steps", 0.0);
    report.metrics.emplace_back("precision_fallback", 0.0);
    report.metrics.emplace_back("transfer_seconds", transfers_.seconds);
    report.fitted = t - noise_ * weights_;
    report.fit_flops += data.kernel->gram_flops(t.n_elem, t.n_elem, data.inputs->n_rows) +
                        n * n * n / 3.0 + 2.0 * n * n + 4.0 * n;
  }

  /// The mean and the variances on the GPU, k(x*, x*) from the kernel on the host.
  kexp::Prediction predict_on_device(const kexp::TestData& data, kexp::SolverReport& report) const {
    const double before = transfers_.seconds;
    const arma::mat& Z = *data.inputs;
    const double n = static_cast<double>(weights_.n_elem), m = static_cast<double>(Z.n_cols);
    kexp::Prediction p;
    arma::vec explained;
    p.mean = gpu_->predict(Z, &explained);
    p.var_f = data.kernel->diagonal(Z) - explained;
    p.var_f.transform([](double v) { return v > 0 ? v : 0.0; });  // rounding below zero
    p.var_y = p.var_f + noise_;
    report.predict_flops +=
        data.kernel->gram_flops(weights_.n_elem, Z.n_cols, Z.n_rows) + n * n * m + 4.0 * n * m;
    kexp_solvers::add_transfer_seconds(report, transfers_.seconds - before);
    return p;
  }

  void learn(const kexp::TrainingData& data, kexp::SolverReport& report) {
    if (data.kernel == nullptr || data.inputs == nullptr) {
      throw kexp::Error(
          "optimize: true needs the kernel and the training points, which the "
          "runner gives to a solver with flags::learns_kernel");
    }
    const kexp::Kernel& kernel = *data.kernel;
    if (!kernel.learnable()) {
      throw kexp::InvalidArgument(
          "optimize: true learns the kernel's hyperparameters by their gradients, and this "
          "kernel does not declare them (Kernel::learnable); the built-in gaussian, "
          "laplacian, polynomial, constant and linear kernels and their sums, products and "
          "scalings do. Set optimize: false and sweep the parameters instead");
    }
    std::vector<kexp::Hyperparameter> hyper = kernel.hyperparameters();
    // From the configured noise, not the one a previous fit learned: a fit repeated (to
    // time it) gives the same answer.
    hyper.push_back({"noise", start_noise_});
    const std::size_t p = hyper.size();
    const kexp_solvers::SearchResult search = kexp_solvers::search_hyperparameters(
        kernel, *data.inputs, *data.targets, hyper, bounds_, restarts_, evaluations_, seed_);
    const bool converged = search.converged;
    const arma::vec theta = arma::exp(search.best_x);
    learned_ = kernel.with_hyperparameters(theta.head(p - 1));
    noise_ = theta[p - 1];
    inputs_ = data.inputs;
    for (std::size_t j = 0; j + 1 < p; ++j)
      report.learned.emplace_back("kernel." + hyper[j].name, theta[j]);
    report.learned.emplace_back("solver.noise", noise_);
    report.iterations = search.evaluations;
    report.converged = converged;

    // The fit at the learned values, as without optimize, on a matrix of its own.
    const arma::vec& t = *data.targets;
    const double n = static_cast<double>(t.n_elem), d = static_cast<double>(data.inputs->n_rows);
    learned_->gram(*data.inputs, own_factor_);
    solve_ = std::make_unique<kexp::linalg::ShiftedFactor>(own_factor_, noise_,
                                                           kexp::linalg::Precision::Double, kNames);
    arma::mat weights = t;
    solve_->solve(weights);
    weights_ = weights.col(0);
    report.metrics.emplace_back("log_marginal_likelihood", search.best);
    report.metrics.emplace_back("refinement_steps", 0.0);
    report.metrics.emplace_back("precision_fallback", 0.0);
    report.metrics.emplace_back("transfer_seconds", 0.0);
    report.fitted = t - noise_ * weights_;
    const double per_evaluation =
        learned_->gram_flops(t.n_elem, t.n_elem, data.inputs->n_rows) * static_cast<double>(p) +
        n * n * n + 2.0 * static_cast<double>(p) * n * n;
    report.fit_flops += static_cast<double>(search.evaluations) * per_evaluation + n * n * n / 3.0 +
                        2.0 * n * n + 4.0 * n * d;
    report.matrix_bytes += 8.0 * n * n * (2.0 + static_cast<double>(p));
  }

  double start_noise_;  ///< the `noise` parameter: the search starts there
  double noise_;        ///< the noise of the fit: the parameter, or the one learned
  bool optimize_;
  long restarts_, evaluations_;
  std::uint64_t seed_;
  std::vector<kexp_solvers::Bound> bounds_;
  bool mixed_;  ///< precision: mixed
  kexp_solvers::DeviceSetting device_;
  bool on_device_;                                      ///< the device code path (cuda or host)
  std::unique_ptr<kexp::linalg::ShiftedFactor> solve_;  ///< C's factor
  /// device: cuda: the copies so far, and C's factor and the points on the GPU (which
  /// holds a pointer to the copies: declared after them, destroyed before them)
  mutable kexp::device::Transfers transfers_;
  std::unique_ptr<kexp_solvers::DeviceGaussianProcess> gpu_;
  std::unique_ptr<kexp::Kernel> learned_;  ///< optimize: the kernel at the learned values
  const arma::mat* inputs_ = nullptr;      ///< optimize: the training points
  arma::mat own_factor_;                   ///< C when the runner's K may not be written, or learned
  arma::vec weights_;                      ///< C⁻¹t
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("noise", "1e-2", "noise variance β⁻¹ on the targets: C = K + β⁻¹I")
        .greater_than(0)
        .log_scale(),
    kexp::param::boolean("optimize", "false",
                         "learn the kernel's hyperparameters and the noise by maximising the log "
                         "marginal likelihood (L-BFGS in log space, analytic gradients); the "
                         "written values are the first start"),
    kexp::param::integer("restarts", "0",
                         "optimize: more starts, drawn log-uniformly within the bounds")
        .at_least(0),
    kexp::param::integer("evaluations", "200",
                         "optimize: the most evaluations of the likelihood per start")
        .at_least(1),
    kexp::param::integer("seed", "0", "optimize: seed of the restarts' starting points")
        .at_least(0),
    kexp::param::string("bounds", "",
                        "optimize: \"name=lower:upper, …\" for the kernel's hyperparameters "
                        "(sigma, c, sum[0].scale, …) and noise; unnamed ones search [1e-5, 1e5]"),
    kexp::target::precision("double|mixed",
                            "C factored in float64; or in float32 with the mean refined to float64 "
                            "accuracy (float64 when C is too ill-conditioned); the variances and "
                            "log det C from the float32 factor, float32's accuracy"),
    kexp::target::device("cpu|cuda|host",
                         "C factored on the host; or built, factored and solved on the GPU from "
                         "the kernel's device form (cuSOLVER), with the mean and variances "
                         "there, in float64 and without optimize; host: the device code path on "
                         "the CPU (the host backend: for testing the device path without a GPU)"),
};

constexpr const char* kMetrics[] = {"log_marginal_likelihood", "refinement_steps",
                                    "precision_fallback", "transfer_seconds"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"gp_regression", "1.3.1",
                     "GP regression: mean kᵀC⁻¹t, variance k(x,x) − kᵀC⁻¹k (+ noise), "
                     "C = K + noise·I",
                     kParams,
                     kexp::flags::dual | kexp::flags::needs_psd | kexp::flags::predictive_variance |
                         kexp::flags::keeps_gram | kexp::flags::lower_triangle |
                         kexp::flags::learns_kernel}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(GaussianProcessRegression, kInfo)
