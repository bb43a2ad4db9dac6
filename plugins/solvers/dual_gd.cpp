// dual_gd: batch gradient descent on the squared loss in the dual (kernelized) form.
//
//   β ← β + α (y − Kβ),   β = 0 at the start,   prediction f(x) = Σᵢ βᵢ k(xᵢ, x).
//
// With θ = Φβ this is exactly primal_gd's step θ ← θ + α Σᵢ (yᵢ − θᵀφ(xᵢ)) φ(xᵢ) on
// ½ Σᵢ (yᵢ − θᵀφ(xᵢ))², so both give the same predictions after every step (the
// representer theorem; Bishop, Pattern Recognition and Machine Learning, §6.1;
// Schölkopf, Herbrich & Smola, A generalized representer theorem, COLT 2001).
//
// α = 0 (the default) chooses α = 1/λ_max(K), with λ_max by power iteration on K (a
// kexp::NumericError when λ_max ≤ 0: K is then not PSD, and no such step exists); the
// nonzero spectrum of K = ΦᵀΦ is that of ΦΦᵀ, and primal_gd runs the same iteration on
// ΦᵀΦ, so both forms choose the same α. Any α < 2/λ_max converges.
// Stops after `iterations` steps, or earlier when the gradient norm ‖Φ(y − f)‖ =
// √(rᵀKr), r = y − Kβ, falls to `tolerance` times its value at β = 0 (converged).
// The loss curve records the training mean squared error ‖y − Kβ‖²/n after each step.
// Each step costs one product with K, 2n² flops.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kPowerTolerance = 1e-6;
constexpr int kPowerIterations = 100;

class DualGradientDescent final : public kexp::Solver {
 public:
  explicit DualGradientDescent(const kexp::Params& p)
      : alpha_(p.real("alpha")),
        iterations_(p.integer("iterations")),
        tolerance_(p.real("tolerance")) {}

  /// The power iteration for the step, then every step with its check by the true
  /// residual (at most three products by K).
  double fit_flops_bound(std::size_t n, std::size_t /*d*/,
                         const kexp::Kernel* /*kernel*/) const override {
    const double x = static_cast<double>(n);
    const double product = 2.0 * x * x;
    return kPowerIterations * (product + 4.0 * x) + product + 2.0 * x +
           static_cast<double>(iterations_) * (3.0 * product + 14.0 * x);
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& K = *data.gram;
    const arma::vec& y = *data.targets;
    const double n = static_cast<double>(K.n_rows);
    const double product_flops = 2.0 * n * n;

    double alpha = alpha_;
    if (alpha == 0) {
      int products = 0;
      const double lambda_max =
          kexp::linalg::largest_eigenvalue([&K](const arma::vec& v, arma::vec& Kv) { Kv = K * v; },
                                           K.n_rows, kPowerTolerance, kPowerIterations, products);
      report.fit_flops += products * (product_flops + 4.0 * n);
      report.metrics.emplace_back("lambda_max", lambda_max);
      if (!(lambda_max > 0)) {
        // K is not PSD (or is zero): there is no step 1/λ_max, and rᵀKr < 0 would read as
        // a zero gradient norm, "converged" before the first step.
        throw kexp::NumericError(fmt::format(
            "λ_max(K) = {:.3g} ≤ 0, so there is no step size 1/λ_max(K): the kernel is not "
            "PSD with these parameters (or K is zero); choose a valid kernel or give a step "
            "size alpha",
            lambda_max));
      }
      alpha = 1.0 / lambda_max;
    }
    report.metrics.emplace_back("alpha", alpha);

    beta_.zeros(K.n_rows);
    arma::vec f(K.n_rows, arma::fill::zeros);  // Kβ
    arma::vec r = y;                           // y − Kβ
    arma::vec q = K * r;                       // Kr
    const double g0 = std::sqrt(std::max(arma::dot(r, q), 0.0));
    report.fit_flops += product_flops + 2.0 * n;
    bool converged = g0 == 0;
    long steps = 0;
    while (!converged && steps < iterations_) {
      beta_ += alpha * r;
      f += alpha * q;
      r = y - f;
      ++steps;
      const double loss = arma::dot(r, r) / n;
      report.loss_curve.push_back(loss);
      report.fit_flops += 8.0 * n;
      if (!std::isfinite(loss)) break;  // α too large: diverged
      q = K * r;
      report.fit_flops += product_flops + 2.0 * n;
      converged = tolerance_ > 0 && std::sqrt(std::max(arma::dot(r, q), 0.0)) <= tolerance_ * g0;
      if (converged) {
        // f = Kβ was updated step by step and drifts from it: converged is judged by the
        // true residual y − Kβ, from which the steps go on when it is not.
        f = K * beta_;
        r = y - f;
        q = K * r;
        report.fit_flops += 2.0 * product_flops + 4.0 * n;
        converged = std::sqrt(std::max(arma::dot(r, q), 0.0)) <= tolerance_ * g0;
      }
    }
    report.iterations = steps;
    report.converged = converged;
    report.fitted = f;
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    p.mean = data.gram->t() * beta_;
    report.predict_flops += 2.0 * static_cast<double>(data.gram->n_elem);
    return p;
  }

 private:
  double alpha_;
  std::int64_t iterations_;
  double tolerance_;
  arma::vec beta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("alpha", "0", "step size α; 0 chooses 1/λ_max(K) (reported as alpha)")
        .at_least(0),
    kexp::param::integer("iterations", "1000", "maximum number of steps T").at_least(0),
    kexp::param::real("tolerance", "1e-6",
                      "stop when the gradient norm falls to this fraction of its start; 0 "
                      "runs all T steps")
        .at_least(0),
};

constexpr const char* kMetrics[] = {"alpha", "lambda_max"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"dual_gd", "1.0.0",
                     "gradient descent in the dual: β ← β + α(y − Kβ) from β = 0", kParams,
                     kexp::flags::dual | kexp::flags::needs_psd | kexp::flags::iterative}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(DualGradientDescent, kInfo)
