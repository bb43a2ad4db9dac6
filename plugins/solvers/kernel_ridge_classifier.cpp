// kernel_ridge_classifier: a binary classifier for ±1 labels by kernel ridge regression
// on the labels (regularized least-squares classification; Rifkin, Yeo & Poggio,
// Regularized least-squares classification, 2003; Suykens & Vandewalle's LS-SVM without
// bias):
//
//   (K + λI)β = y,   y ∈ {−1, +1}ⁿ,   score s(x) = Σᵢ βᵢ k(xᵢ, x),   class sign(s(x)).
//
// Predictions are the scores; the runner takes their sign (0 counts as +1) and reports
// test_accuracy. Solved by Cholesky in place on K; when other cells still need K, it is
// rebuilt from its upper triangle afterwards (kexp::linalg::LowerTriangleLoan), no copy.
// Fit n³/3 + 2n² flops, prediction 2n per point given k(X, x*).
#include <fmt/format.h>
#include <kexp/kexp.hpp>

namespace {

class KernelRidgeClassifier final : public kexp::Solver {
 public:
  explicit KernelRidgeClassifier(const kexp::Params& p) : lambda_(p.real("lambda")) {}

  double fit_flops_bound(std::size_t n, std::size_t /*d*/,
                         const kexp::Kernel* /*kernel*/) const override {
    const double x = static_cast<double>(n);
    return x * x * x / 3.0 + 2.0 * x * x + 2.0 * x;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::vec& y = *data.targets;
    for (arma::uword i = 0; i < y.n_elem; ++i) {
      if (y[i] != 1.0 && y[i] != -1.0) {
        throw kexp::InvalidArgument(fmt::format(
            "kernel_ridge_classifier needs labels −1 and +1, but target {} is {}; use a "
            "classification dataset, or kernel_ridge for regression",
            i, y[i]));
      }
    }
    arma::mat& K = *data.gram;
    const double n = static_cast<double>(K.n_rows);
    const kexp::linalg::LowerTriangleLoan loan(K, !data.gram_writable);
    report.matrix_bytes += loan.bytes();
    kexp::linalg::cholesky_shifted_in_place(K, lambda_);
    beta_ = y;
    kexp::linalg::cholesky_solve(K, beta_);
    report.fitted = y - lambda_ * beta_;  // Kβ = y − λβ: the training scores
    report.fit_flops += n * n * n / 3.0 + 2.0 * n * n + 2.0 * n;
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
    kexp::param::real("lambda", "1e-1", "ridge penalty λ in (K + λI)β = y").at_least(0).log_scale(),
};

constexpr kexp::PluginInfo kInfo{
    "kernel_ridge_classifier", "1.0.0",
    "±1 classification by kernel ridge on the labels: (K + λI)β = y, class sign(kᵀβ)", kParams,
    kexp::flags::dual | kexp::flags::needs_psd | kexp::flags::classifier |
        kexp::flags::lower_triangle};

}  // namespace

KEXP_PLUGIN(KernelRidgeClassifier, kInfo)
