// kernel_ridge: kernel ridge regression, the dual form of ridge regression.
//
//   minimize over f in the RKHS   Σᵢ (yᵢ − f(xᵢ))² + λ‖f‖²,
//
// whose minimizer is f(x) = Σᵢ βᵢ k(xᵢ, x) with (K + λI)β = y (the representer theorem;
// Shawe-Taylor & Cristianini, Kernel Methods for Pattern Analysis, §2.2). Solved by
// Cholesky, in place on K when the runner allows it, so that no copy of K is made.
// Fit O(n³/3), prediction O(n) per point given k(X, x*).
#include <fmt/format.h>
#include <kexp/kexp.hpp>

namespace {

class KernelRidge final : public kexp::Solver {
 public:
  explicit KernelRidge(const kexp::Params& p) : lambda_(p.real("lambda")) {}

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& K = *data.gram;
    const double n = static_cast<double>(K.n_rows);
    arma::mat copy;
    arma::mat* A = data.gram;
    if (!data.gram_writable) {
      copy = K;
      A = &copy;
      report.matrix_bytes += 8.0 * n * n;
    }
    A->diag() += lambda_;
    const int info = kexp::linalg::cholesky_in_place(*A);
    if (info != 0) {
      throw kexp::NumericError(fmt::format(
          "K + λI is not positive definite (leading minor {} of {}, λ = {}): use a larger "
          "lambda, or a valid (PSD) kernel",
          info, K.n_rows, lambda_));
    }
    beta_ = *data.targets;
    kexp::linalg::cholesky_solve(*A, beta_);
    // (K + λI)β = y, so the fitted values are Kβ = y − λβ.
    report.fitted = *data.targets - lambda_ * beta_;
    report.fit_flops = n * n * n / 3.0 + 2.0 * n * n;
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    p.mean = data.gram->t() * beta_;
    report.predict_flops += 2.0 * static_cast<double>(data.gram->n_elem);
    return p;
  }

 private:
  double lambda_;
  arma::vec beta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge penalty λ in (K + λI)β = y").at_least(0).log_scale(),
};

constexpr kexp::PluginInfo kInfo{"kernel_ridge", "1.0.0",
                                 "kernel ridge regression: (K + λI)β = y by Cholesky, in place",
                                 kParams, kexp::flags::dual | kexp::flags::needs_psd};

}  // namespace

KEXP_PLUGIN(KernelRidge, kInfo)
