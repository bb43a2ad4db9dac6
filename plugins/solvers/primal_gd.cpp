// primal_gd: batch gradient descent on the squared loss on an explicit feature map.
//
//   minimize over θ ∈ R^D   ½ Σᵢ (yᵢ − θᵀφ(xᵢ))²   by   θ ← θ + α Σᵢ (yᵢ − θᵀφ(xᵢ)) φ(xᵢ),
//
// from θ = 0 (Bishop, Pattern Recognition and Machine Learning, §3.1.3, in batch form).
// Every iterate lies in the span of the φ(xᵢ), θ = Φβ, and β follows dual_gd's
// β ← β + α(y − Kβ): both forms give the same predictions after every step (the
// representer theorem).
//
// α = 0 (the default) chooses α = 1/λ_max(ΦΦᵀ). λ_max is found by power iteration on the
// n × n operator v ↦ Φᵀ(Φv), i.e. on K = ΦᵀΦ without forming it, from the same start
// vector as dual_gd: the two forms choose the same α to rounding. Any α < 2/λ_max
// converges.
// Stops after `iterations` steps, or earlier when the gradient norm ‖Φ(y − Φᵀθ)‖ falls to
// `tolerance` times its value at θ = 0 (converged). The loss curve records the training
// mean squared error ‖y − Φᵀθ‖²/n after each step. Each step costs 4nD flops.
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kPowerTolerance = 1e-6;
constexpr int kPowerIterations = 100;

class PrimalGradientDescent final : public kexp::Solver {
 public:
  explicit PrimalGradientDescent(const kexp::Params& p)
      : alpha_(p.real("alpha")),
        iterations_(p.integer("iterations")),
        tolerance_(p.real("tolerance")) {}

  /// The power iteration for the step, then every step with its check by the true
  /// gradient (at most three products by Φ or Φᵀ and two by the other); d is D.
  double fit_flops_bound(std::size_t n, std::size_t d,
                         const kexp::Kernel* /*kernel*/) const override {
    const double x = static_cast<double>(n), D = static_cast<double>(d);
    const double product = 2.0 * x * D;
    return kPowerIterations * (2.0 * product + 4.0 * x) + product + 2.0 * D +
           static_cast<double>(iterations_) * (4.0 * product + 6.0 * D + 8.0 * x);
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& Phi = *data.features;
    const arma::vec& y = *data.targets;
    const double n = static_cast<double>(Phi.n_cols), D = static_cast<double>(Phi.n_rows);
    const double product_flops = 2.0 * n * D;  // Φv or Φᵀu

    double alpha = alpha_;
    if (alpha == 0) {
      int products = 0;
      const double lambda_max = kexp::linalg::largest_eigenvalue(
          [&Phi](const arma::vec& v, arma::vec& Kv) { Kv = Phi.t() * (Phi * v); }, Phi.n_cols,
          kPowerTolerance, kPowerIterations, products);
      report.fit_flops += products * (2.0 * product_flops + 4.0 * n);
      report.metrics.emplace_back("lambda_max", lambda_max);
      alpha = lambda_max > 0 ? 1.0 / lambda_max : 1.0;
    }
    report.metrics.emplace_back("alpha", alpha);

    theta_.zeros(Phi.n_rows);
    arma::vec f(Phi.n_cols, arma::fill::zeros);  // Φᵀθ
    arma::vec r = y;                             // y − Φᵀθ
    arma::vec g = Phi * r;                       // the negative gradient Φr
    const double g0 = arma::norm(g);
    report.fit_flops += product_flops + 2.0 * D;
    bool converged = g0 == 0;
    long steps = 0;
    while (!converged && steps < iterations_) {
      theta_ += alpha * g;
      f += alpha * (Phi.t() * g);
      r = y - f;
      ++steps;
      const double loss = arma::dot(r, r) / n;
      report.loss_curve.push_back(loss);
      report.fit_flops += product_flops + 2.0 * D + 6.0 * n;
      if (!std::isfinite(loss)) break;  // α too large: diverged
      g = Phi * r;
      report.fit_flops += product_flops + 2.0 * D;
      converged = tolerance_ > 0 && arma::norm(g) <= tolerance_ * g0;
      if (converged) {
        // f = Φᵀθ was updated step by step and drifts from it: converged is judged by the
        // true gradient Φ(y − Φᵀθ), from which the steps go on when it is not.
        f = Phi.t() * theta_;
        r = y - f;
        g = Phi * r;
        report.fit_flops += 2.0 * product_flops + 2.0 * D + 2.0 * n;
        converged = arma::norm(g) <= tolerance_ * g0;
      }
    }
    report.iterations = steps;
    report.converged = converged;
    report.fitted = f;
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    p.mean = data.features->t() * theta_;
    report.predict_flops += 2.0 * static_cast<double>(data.features->n_elem);
    return p;
  }

 private:
  double alpha_;
  std::int64_t iterations_;
  double tolerance_;
  arma::vec theta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("alpha", "0", "step size α; 0 chooses 1/λ_max(ΦΦᵀ) (reported as alpha)")
        .at_least(0),
    kexp::param::integer("iterations", "1000", "maximum number of steps T").at_least(0),
    kexp::param::real("tolerance", "1e-6",
                      "stop when the gradient norm falls to this fraction of its start; 0 "
                      "runs all T steps")
        .at_least(0),
};

constexpr const char* kMetrics[] = {"alpha", "lambda_max"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"primal_gd", "1.0.0",
                     "gradient descent on φ: θ ← θ + α Σᵢ (yᵢ − θᵀφ(xᵢ)) φ(xᵢ) from θ = 0", kParams,
                     kexp::flags::primal | kexp::flags::iterative}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(PrimalGradientDescent, kInfo)
