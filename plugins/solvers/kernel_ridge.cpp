// kernel_ridge: kernel ridge regression, the dual form of ridge regression.
//
//   minimize over f in the RKHS   Σᵢ (yᵢ − f(xᵢ))² + λ‖f‖²,
//
// whose minimizer is f(x) = Σᵢ βᵢ k(xᵢ, x) with (K + λI)β = y (the representer theorem;
// Shawe-Taylor & Cristianini, Kernel Methods for Pattern Analysis, §2.2).
//
// One cell: Cholesky in place on K, never on a copy. When other cells still need K, the
// lower triangle the factorization overwrote is rebuilt from the upper one afterwards.
// Fit n³/3 + 2n² flops, prediction 2n per point given k(X, x*).
//
// A sweep over λ on one K: when this solver entry has more cells on the same K than one
// symmetric eigendecomposition costs in Choleskys, the first cell computes K = QΛQᵀ
// once (and carries its time and memory), shares Q, Λ and Qᵀy with the others, and every
// cell solves β = Q (Λ + λI)⁻¹ Qᵀy in 2n² flops.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <memory>

namespace {

/// A symmetric eigendecomposition with eigenvectors costs about this many Cholesky
/// factorizations of the same matrix: dsyevr against dpotrf at n = 4000 with one OpenBLAS
/// thread took 22.4 (median of 3; bench/kernel_ridge_bench, EigenOverCholesky). A group
/// with more cells than this is served by one eigendecomposition.
constexpr std::size_t kEigenCostInCholeskys = 22;

/// What the cells of a λ sweep share: K = QΛQᵀ and Qᵀy.
struct EigenSystem {
  arma::vec values;  ///< Λ, ascending
  arma::mat Q;
  arma::vec Qty;
};

constexpr const char* kSharedKey = "kernel_ridge/eigen";

class KernelRidge final : public kexp::Solver {
 public:
  explicit KernelRidge(const kexp::Params& p) : lambda_(p.real("lambda")) {}

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    std::shared_ptr<EigenSystem> eigen;
    bool shared = false;
    if (data.shared != nullptr) {
      eigen = std::static_pointer_cast<EigenSystem>(data.shared->get(kSharedKey));
      shared = eigen != nullptr;
      if (!shared && data.group_size > kEigenCostInCholeskys) {
        eigen = decompose(data, report);
        data.shared->put(kSharedKey, eigen);
      }
    }
    if (eigen != nullptr) {
      solve_by_eigen(*eigen, report);
    } else {
      solve_by_cholesky(data, report);
    }
    // (K + λI)β = y, so the fitted values are Kβ = y − λβ.
    report.fitted = *data.targets - lambda_ * beta_;
    report.metrics.emplace_back("eigendecomposition", eigen != nullptr ? 1.0 : 0.0);
    report.metrics.emplace_back("decomposition_shared", shared ? 1.0 : 0.0);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    p.mean = data.gram->t() * beta_;
    report.predict_flops += 2.0 * static_cast<double>(data.gram->n_elem);
    return p;
  }

 private:
  void solve_by_cholesky(const kexp::TrainingData& data, kexp::SolverReport& report) {
    arma::mat& K = *data.gram;
    const double n = static_cast<double>(K.n_rows);
    // dpotrf writes only the lower triangle and the diagonal. When other cells still need
    // K, its diagonal is saved and, after the solve, K is rebuilt from its upper triangle
    // (K(X, X) is exactly symmetric): the same matrix, bit for bit, with no n × n copy.
    const bool restore = !data.gram_writable;
    arma::vec diagonal;
    if (restore) {
      diagonal = K.diag();
      report.matrix_bytes += 8.0 * n;
    }
    const auto put_back = [&] {
      if (!restore) return;
      kexp::linalg::symmetrize_from_upper(K);
      K.diag() = diagonal;
    };
    K.diag() += lambda_;
    const int info = kexp::linalg::cholesky_in_place(K);
    if (info != 0) {
      put_back();
      throw kexp::NumericError(fmt::format(
          "K + λI is not positive definite (leading minor {} of {}, λ = {}): use a larger "
          "lambda, or a valid (PSD) kernel",
          info, K.n_rows, lambda_));
    }
    arma::mat* A = &K;
    beta_ = *data.targets;
    kexp::linalg::cholesky_solve(*A, beta_);
    put_back();
    report.fit_flops += n * n * n / 3.0 + 2.0 * n * n;
  }

  /// K = QΛQᵀ and Qᵀy, on a copy of K unless K may be overwritten.
  static std::shared_ptr<EigenSystem> decompose(const kexp::TrainingData& data,
                                                kexp::SolverReport& report) {
    const double n = static_cast<double>(data.gram->n_rows);
    auto eigen = std::make_shared<EigenSystem>();
    if (data.gram_writable) {
      kexp::linalg::symmetric_eigen(*data.gram, eigen->values, eigen->Q);
    } else {
      arma::mat work(data.gram->n_rows, data.gram->n_cols);
      kexp::advise_huge_pages(work);
      work = *data.gram;
      kexp::linalg::symmetric_eigen(work, eigen->values, eigen->Q);
      report.matrix_bytes += 8.0 * n * n;  // the workspace copy, freed here
    }
    eigen->Qty = eigen->Q.t() * *data.targets;
    report.matrix_bytes += 8.0 * n * n;  // Q
    // Householder tridiagonalization 4n³/3, back-transformation of the eigenvectors 2n³,
    // then Qᵀy.
    report.fit_flops += 10.0 / 3.0 * n * n * n + 2.0 * n * n;
    return eigen;
  }

  void solve_by_eigen(const EigenSystem& eigen, kexp::SolverReport& report) {
    const double n = static_cast<double>(eigen.values.n_elem);
    const arma::vec shifted = eigen.values + lambda_;
    if (shifted.n_elem > 0 && shifted.min() <= 0) {
      throw kexp::NumericError(fmt::format(
          "K + λI is not positive definite (smallest eigenvalue {:.3g} with λ = {}): use a "
          "larger lambda, or a valid (PSD) kernel",
          shifted.min(), lambda_));
    }
    beta_ = eigen.Q * (eigen.Qty / shifted);
    report.fit_flops += 2.0 * n * n + 2.0 * n;
  }

  double lambda_;
  arma::vec beta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge penalty λ in (K + λI)β = y").at_least(0).log_scale(),
};

constexpr const char* kMetrics[] = {"eigendecomposition", "decomposition_shared"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"kernel_ridge", "1.1.0",
                     "kernel ridge regression: (K + λI)β = y by Cholesky in place, or by one "
                     "shared eigendecomposition K = QΛQᵀ over a λ sweep",
                     kParams, kexp::flags::dual | kexp::flags::needs_psd}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(KernelRidge, kInfo)
