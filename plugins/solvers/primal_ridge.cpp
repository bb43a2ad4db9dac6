// primal_ridge: ridge regression on an explicit feature map, the primal form.
//
//   minimize over θ ∈ R^D   Σᵢ (yᵢ − θᵀφ(xᵢ))² + λ‖θ‖²,
//
// whose minimizer solves the normal equations (ΦᵀΦ + λI)θ = Φᵀy in docs/design.md's n × D
// notation; kexp stores Φ as D × n, a column per sample, so the system solved here is
// (ΦΦᵀ + λI)θ = Φy, D × D, by Cholesky (Hoerl & Kennard, Technometrics 12, 1970; Bishop,
// Pattern Recognition and Machine Learning, §3.1.4). With an exact map it gives the same
// predictions as kernel_ridge, since Φᵀ(ΦΦᵀ + λI)⁻¹ = (ΦᵀΦ + λI)⁻¹Φᵀ.
// Fit nD² + D³/3 + O(nD) flops and 8D² bytes for the system; prediction 2D per point.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

namespace {

class PrimalRidge final : public kexp::Solver {
 public:
  explicit PrimalRidge(const kexp::Params& p) : lambda_(p.real("lambda")) {}

  /// ΦΦᵀ, Φy, the Cholesky of ΦΦᵀ + λI and its solve; d is D.
  double fit_flops_bound(std::size_t n, std::size_t d,
                         const kexp::Kernel* /*kernel*/) const override {
    const double x = static_cast<double>(n), D = static_cast<double>(d);
    return x * D * D + 4.0 * x * D + D * D * D / 3.0 + 2.0 * D * D;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& Phi = *data.features;
    const arma::vec& y = *data.targets;
    const double D = static_cast<double>(Phi.n_rows), n = static_cast<double>(Phi.n_cols);
    arma::mat A = Phi * Phi.t();  // ΦΦᵀ, D × D (symmetric rank-k update)
    A.diag() += lambda_;
    report.matrix_bytes += 8.0 * D * D;
    const int info = kexp::linalg::cholesky_in_place(A);
    if (info != 0) {
      throw kexp::NumericError(fmt::format(
          "ΦΦᵀ + λI is not positive definite (leading minor {} of {}, λ = {}): use a larger "
          "lambda (with λ = 0 the system is singular whenever D > n)",
          info, Phi.n_rows, lambda_));
    }
    theta_ = Phi * y;
    kexp::linalg::cholesky_solve(A, theta_);
    report.fitted = Phi.t() * theta_;
    // ΦΦᵀ (one triangle) nD², Φy 2nD, Cholesky D³/3, solve 2D², fitted values 2nD.
    report.fit_flops += n * D * D + 4.0 * n * D + D * D * D / 3.0 + 2.0 * D * D;
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    p.mean = data.features->t() * theta_;
    report.predict_flops += 2.0 * static_cast<double>(data.features->n_elem);
    return p;
  }

 private:
  double lambda_;
  arma::vec theta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge penalty λ in (ΦΦᵀ + λI)θ = Φy")
        .at_least(0)
        .log_scale(),
};

constexpr kexp::PluginInfo kInfo{"primal_ridge", "1.0.0",
                                 "ridge regression on φ: (ΦᵀΦ + λI)θ = Φᵀy, D × D, by Cholesky",
                                 kParams, kexp::flags::primal};

}  // namespace

KEXP_PLUGIN(PrimalRidge, kInfo)
