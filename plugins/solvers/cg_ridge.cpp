// cg_ridge: kernel ridge regression by conjugate gradients on the kernel, without K
//
//   (K + λI) β = y,   f(x*) = Σᵢ βᵢ k(xᵢ, x*),
//
// the system of kernel_ridge, solved by conjugate gradients from β = 0 (Hestenes and
// Stiefel 1952; K + λI is symmetric positive definite for a PSD kernel and λ > 0). The
// solver reaches the kernel (flags::kernel_inputs): every product K p is computed block
// by block from the kernel and the training points (kexp::gram::product), so memory is
// O(n·block), never n², and each iteration costs one pass of kernel evaluations over
// all n² pairs. It stops when ‖y − (K + λI)β‖ ≤ tolerance·‖y‖, or after `iterations`;
// `converged` says which, judged by the true residual, not the recurrence's (which drifts
// below it on an ill-conditioned K), and `relative_residual` is that true ‖r‖/‖y‖. The iterations
// needed grow with the condition number (λmax + λ)/λ: a small λ needs many.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <cmath>

namespace {

class CgRidge final : public kexp::Solver {
 public:
  explicit CgRidge(const kexp::Params& p)
      : lambda_(p.real("lambda")),
        tolerance_(p.real("tolerance")),
        iterations_(p.integer("iterations")) {}

  double memory_bytes(std::size_t n, std::size_t m, std::size_t /*d*/) const override {
    // β, r, p, K p, the fitted values and the best β and fitted values so far; the tiles of K(X, X)
    // or of K(X*, X) of each thread; the test predictions
    return 8.0 * (7.0 * static_cast<double>(n) + static_cast<double>(m)) +
           std::max(kexp::gram::product_block_bytes(n, n), kexp::gram::product_block_bytes(m, n));
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& X = *data.inputs;
    const arma::vec& y = *data.targets;
    const kexp::Kernel& k = *data.kernel;
    const std::size_t n = X.n_cols, d = X.n_rows;
    X_ = &X;
    beta_.zeros(n);
    arma::vec r = y, p = y, Kp, Kb;
    arma::vec best_beta = beta_, best_Kb(n, arma::fill::zeros);  // the best so far: β = 0
    const double y_norm = arma::norm(y);
    double rr = arma::dot(r, r);
    long it = 0, checks = 0;
    bool converged = y_norm == 0;
    double residual = y_norm == 0 ? 0.0 : 1.0;  // ‖y − (K + λI)·0‖ / ‖y‖
    while (!converged) {
      bool small = false;  // the recurrence's residual is within the tolerance
      while (!small && it < iterations_) {
        kexp::gram::product(k, X, X, p, Kp);
        Kp += lambda_ * p;
        const double alpha = rr / arma::dot(p, Kp);
        beta_ += alpha * p;
        r -= alpha * Kp;
        const double rr_next = arma::dot(r, r);
        ++it;
        small = std::sqrt(rr_next) <= tolerance_ * y_norm;
        p = r + (rr_next / rr) * p;
        rr = rr_next;
      }
      // The recurrence's residual drifts from the true one over many iterations, and on
      // an ill-conditioned K ends far below it: converged is judged by the true
      // ‖y − (K + λI)β‖ / ‖y‖, which also gives the fitted values. When the recurrence
      // stopped too early, conjugate gradients start again from the true residual, as
      // long as each start lowers it; the best β is kept.
      kexp::gram::product(k, X, X, beta_, Kb);
      ++checks;
      r = y - Kb - lambda_ * beta_;
      rr = arma::dot(r, r);
      const double true_residual = std::sqrt(rr) / y_norm;
      const bool better = true_residual < residual;
      if (better || std::isnan(true_residual)) {  // a NaN is reported, never hidden
        residual = true_residual;
        best_beta = beta_;
        best_Kb = Kb;
      }
      if (!better) break;  // this start did not lower it
      converged = residual <= tolerance_;
      if (it >= iterations_) break;
      p = r;
    }
    beta_ = std::move(best_beta);
    report.fitted = best_Kb;
    report.iterations = it;
    report.converged = converged;
    report.metrics.emplace_back("relative_residual", residual);
    const double per_product = k.gram_flops(n, n, d) + 2.0 * static_cast<double>(n * n);
    report.fit_flops =
        static_cast<double>(it + checks) * per_product + 10.0 * static_cast<double>(n * it);
    report.matrix_bytes = memory_bytes(n, 0, d);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    // f(X*) = K(X*, X) β
    kexp::gram::product(*data.kernel, *data.inputs, *X_, beta_, p.mean);
    report.predict_flops = data.kernel->gram_flops(data.inputs->n_cols, X_->n_cols, X_->n_rows) +
                           2.0 * static_cast<double>(data.inputs->n_cols * X_->n_cols);
    return p;
  }

 private:
  double lambda_, tolerance_;
  long iterations_;
  const arma::mat* X_ = nullptr;
  arma::vec beta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge λ: (K + λI)β = y, as kernel_ridge")
        .greater_than(0)
        .log_scale(),
    kexp::param::real("tolerance", "1e-8", "stop when ‖y − (K + λI)β‖ ≤ tolerance·‖y‖")
        .greater_than(0)
        .log_scale(),
    kexp::param::integer("iterations", "1000", "most conjugate-gradient iterations").at_least(1),
};
constexpr const char* kMetrics[] = {"relative_residual"};
constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo(
        "cg_ridge", "1.0.0",
        "(K + λI)β = y by conjugate gradients on products K p streamed from the kernel in "
        "blocks (memory O(n), never K); f(x) = Σ βᵢ k(xᵢ, x)",
        kParams,
        kexp::flags::dual | kexp::flags::kernel_inputs | kexp::flags::needs_psd |
            kexp::flags::iterative)
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(CgRidge, kInfo)
