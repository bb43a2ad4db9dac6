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
// band reduction costs in Choleskys, the first cell reduces K = QBQᵀ with B banded (and
// carries its time and memory), shares the reduction and Qᵀy with the others, and every
// cell solves β = Q (B + λI)⁻¹ Qᵀy by a banded Cholesky: Qᵀ(K + λI)Q = B + λI for all λ.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <memory>

namespace {

/// A band reduction K = QBQᵀ (bandwidth 64) costs about this many Cholesky factorizations
/// of K + λI: dsytrd_sy2sb against dpotrf took 2.9, 5.2, 5.0 and 5.5 times as long at
/// n = 1000, 2000, 4000 and 8000 with two OpenBLAS threads (bench/kernel_ridge_bench,
/// BandOverCholesky). After it, a cell's banded Cholesky and product by Q cost 7%, 7%, 3%
/// and 2% of a Cholesky. A group with more cells than this is served by one reduction.
constexpr std::size_t kBandCostInCholeskys = 5;

/// What the cells of a λ sweep share: K = QBQᵀ and Qᵀy.
struct BandSystem {
  explicit BandSystem(arma::mat& K) : reduction(K) {}
  kexp::linalg::BandReduction reduction;
  arma::vec Qty;
};

constexpr const char* kSharedKey = "kernel_ridge/band";

class KernelRidge final : public kexp::Solver {
 public:
  explicit KernelRidge(const kexp::Params& p) : lambda_(p.real("lambda")) {}

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    std::shared_ptr<BandSystem> band;
    bool shared = false;
    if (data.shared != nullptr) {
      band = std::static_pointer_cast<BandSystem>(data.shared->get(kSharedKey));
      shared = band != nullptr;
      if (!shared && data.group_size > kBandCostInCholeskys) {
        band = reduce(data, report);
        data.shared->put(kSharedKey, band);
      }
    }
    if (band != nullptr) {
      solve_by_band(*band, report);
    } else {
      solve_by_cholesky(data, report);
    }
    // (K + λI)β = y, so the fitted values are Kβ = y − λβ.
    report.fitted = *data.targets - lambda_ * beta_;
    report.metrics.emplace_back("band_reduction", band != nullptr ? 1.0 : 0.0);
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
    // dpotrf writes only the lower triangle and the diagonal.
    const kexp::linalg::LowerTriangleLoan loan(K, !data.gram_writable);
    report.matrix_bytes += loan.bytes();
    kexp::linalg::cholesky_shifted_in_place(K, lambda_);
    beta_ = *data.targets;
    kexp::linalg::cholesky_solve(K, beta_);
    report.fit_flops += n * n * n / 3.0 + 2.0 * n * n;
  }

  /// K = QBQᵀ and Qᵀy. The reduction works in K's lower triangle, lent as for a Cholesky.
  static std::shared_ptr<BandSystem> reduce(const kexp::TrainingData& data,
                                            kexp::SolverReport& report) {
    arma::mat& K = *data.gram;
    const double n = static_cast<double>(K.n_rows);
    std::shared_ptr<BandSystem> band;
    {
      const kexp::linalg::LowerTriangleLoan loan(K, !data.gram_writable);
      band = std::make_shared<BandSystem>(K);
      report.matrix_bytes += loan.bytes();
    }
    band->Qty = *data.targets;
    band->reduction.apply_qt(band->Qty);
    report.matrix_bytes += band->reduction.bytes() + band->reduction.workspace_bytes();
    // The reduction 4n³/3, then Qᵀy.
    report.fit_flops += 4.0 / 3.0 * n * n * n + 2.0 * n * n;
    return band;
  }

  void solve_by_band(const BandSystem& band, kexp::SolverReport& report) {
    const double n = static_cast<double>(band.reduction.size());
    const double b = static_cast<double>(band.reduction.bandwidth());
    beta_ = band.Qty;
    const int info = band.reduction.solve_band(lambda_, beta_);
    if (info != 0) {
      throw kexp::NumericError(
          fmt::format("K + λI is not positive definite (leading minor {} of {} of its band form "
                      "QᵀKQ + λI, λ = {}): use a larger lambda, or a valid (PSD) kernel",
                      info, band.reduction.size(), lambda_));
    }
    band.reduction.apply_q(beta_);
    report.matrix_bytes += band.reduction.solve_bytes();  // the factor of B + λI
    // The banded Cholesky n·b², its two triangular solves 4n·b, then Q·z.
    report.fit_flops += n * b * b + 4.0 * n * b + 2.0 * n * n;
  }

  double lambda_;
  arma::vec beta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge penalty λ in (K + λI)β = y").at_least(0).log_scale(),
};

constexpr const char* kMetrics[] = {"band_reduction", "decomposition_shared"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"kernel_ridge", "1.2.0",
                     "kernel ridge regression: (K + λI)β = y by Cholesky in place, or by one "
                     "shared band reduction K = QBQᵀ over a λ sweep",
                     kParams,
                     kexp::flags::dual | kexp::flags::needs_psd | kexp::flags::lower_triangle}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(KernelRidge, kInfo)
