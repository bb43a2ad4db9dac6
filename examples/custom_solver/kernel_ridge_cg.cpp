// kernel_ridge_cg: kernel ridge regression, (K + λI)β = y, solved by conjugate gradients
// (Hestenes & Stiefel, 1952) on the Gram matrix the runner gives, instead of a Cholesky
// factorization. Prediction f(x*) = Σᵢ βᵢ k(xᵢ, x*), as kernel_ridge's.
//
// For a PSD kernel and λ > 0, K + λI is positive definite and CG minimizes
// q(β) = ½βᵀ(K + λI)β − yᵀβ over a growing Krylov space; it stops when the residual
// r = y − (K + λI)β satisfies ‖r‖ ≤ tolerance·‖y‖ (converged) or after iterations
// steps (not converged: a result, not an error). Each step is one product with K, 2n²
// flops. K is only read, so it is left as it was whatever gram_writable says.
#include <kexp/kexp.hpp>

#include <cmath>
#include <cstddef>
#include <string>

namespace {

class KernelRidgeCG final : public kexp::Solver {
 public:
  explicit KernelRidgeCG(const kexp::Params& p)
      : lambda_(p.real("lambda")),
        tolerance_(p.real("tolerance")),
        iterations_(p.integer("iterations")) {}

  // The most fit() can take: every step, and the product after them. kexp refuses a cell
  // that would pass --max-cell-time even at the machine's DGEMM rate (iterations: 1e12).
  double fit_flops_bound(std::size_t n, std::size_t /*d*/,
                         const kexp::Kernel* /*kernel*/) const override {
    const double x = static_cast<double>(n);
    return static_cast<double>(iterations_) * (2.0 * x * x + 10.0 * x) + 2.0 * x * x;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& K = *data.gram;
    const arma::vec& y = *data.targets;
    const double n = static_cast<double>(K.n_rows);
    const double step_flops = 2.0 * n * n + 10.0 * n;  // (K + λI)p, two dots, three updates

    beta_.zeros(K.n_rows);
    arma::vec r = y;  // y − (K + λI)β
    arma::vec p = r;
    arma::vec q(K.n_rows);
    const double y_norm = arma::norm(y);
    double rr = arma::dot(r, r);
    long steps = 0;
    while (std::sqrt(rr) > tolerance_ * y_norm && steps < iterations_) {
      q = K * p + lambda_ * p;
      const double pq = arma::dot(p, q);
      if (!(pq > 0)) {
        // Only an indefinite K + λI (or a NaN) gets here: no step size α exists.
        throw kexp::NumericError("pᵀ(K + λI)p = " + std::to_string(pq) + " ≤ 0 at step " +
                                 std::to_string(steps + 1) +
                                 ": K + λI is not positive definite; use a PSD kernel or a "
                                 "larger lambda");
      }
      const double alpha = rr / pq;
      beta_ += alpha * p;
      r -= alpha * q;
      const double rr_next = arma::dot(r, r);
      p = r + (rr_next / rr) * p;
      rr = rr_next;
      ++steps;
      // q(β) = ½βᵀ(K + λI)β − yᵀβ = −½βᵀ(y + r): what CG minimizes, falling at every step.
      report.loss_curve.push_back(-0.5 * arma::dot(beta_, y + r));
    }
    report.fit_flops += static_cast<double>(steps) * step_flops;

    // One more product gives the fitted values Kβ (train_rmse) and the true residual,
    // which rounding can set apart from the recurrence's r.
    report.fitted = K * beta_;
    report.fit_flops += 2.0 * n * n;
    const double residual = arma::norm(y - report.fitted - lambda_ * beta_);
    const double relative = y_norm > 0 ? residual / y_norm : 0.0;

    report.iterations = steps;
    report.converged = relative <= tolerance_;
    report.metrics.emplace_back("relative_residual", relative);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction prediction;
    prediction.mean = data.gram->t() * beta_;  // K(X, X*)ᵀβ
    report.predict_flops += 2.0 * static_cast<double>(data.gram->n_elem);
    return prediction;
  }

 private:
  double lambda_;
  double tolerance_;
  std::int64_t iterations_;
  arma::vec beta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-2", "ridge penalty λ in (K + λI)β = y")
        .greater_than(0)
        .log_scale(),
    kexp::param::real("tolerance", "1e-8", "stop when ‖y − (K + λI)β‖ ≤ tolerance·‖y‖")
        .greater_than(0)
        .less_than(1)
        .log_scale(),
    kexp::param::integer("iterations", "1000", "most CG steps; fewer is reported as not converged")
        .at_least(1),
};

constexpr const char* kMetrics[] = {"relative_residual"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"kernel_ridge_cg", "0.1.0",
                     "kernel ridge by conjugate gradients: (K + λI)β = y, f(x*) = K(X, x*)ᵀβ",
                     kParams, kexp::flags::dual | kexp::flags::needs_psd | kexp::flags::iterative}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(KernelRidgeCG, kInfo)
