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
//
// precision: single — everything in float32: the runner hands the kernel and the points
// instead of K, and the solver builds K in float32 itself (kexp::gram::single: the kernel's
// device form over SGEMM blocks, or its float64 Gram rounded where it has none, recorded
// as gram_converted = 1), factors K + λI in place in float32 (4n² bytes, half of float64's
// K) and predicts by K(X*, X)β streamed over float32 tiles.
// precision: mixed — K (float64, from the runner) + λI is factored in float32 on a rounded
// copy of its lower triangle (4n² bytes more), twice the entries per vector register and
// per byte moved, and β refined in float64 from residuals y − (K + λI)β computed in float64
// until it is as accurate as a float64 solve (as LAPACK dsposv does), or, when K + λI is
// too ill-conditioned for float32 (κ near 10⁷ or more), K + λI is factored in float64
// instead and precision_fallback = 1 recorded (kexp::linalg::solve_shifted). K itself, the
// band reduction and the predictions stay in float64.
//
// device: cuda or host — the runner hands the kernel and the points instead of K; the
// points stay on the device, K + λI is built there from the kernel's program (syrk, then
// the program on each inner product) and factored (potrf, potrs), all on the building
// blocks of kexp/device.hpp, and the predictions K(X*, X)β are streamed there over blocks
// of X* sized to the free device memory. cuda runs it on an NVIDIA GPU, host on the CPU
// with the same blocks (for testing the device path without a GPU). The copies between
// host and device are the metric transfer_seconds (0 on the CPU).
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <algorithm>
#include <memory>
#include <optional>

#include "common/device_path.hpp"

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

/// The metrics every fit records, whichever path it took.
struct FitMetrics {
  bool band_reduction = false;
  bool decomposition_shared = false;
  double transfer_seconds = 0;
  double refinement_steps = 0;
  bool precision_fallback = false;
};

void record(const FitMetrics& m, kexp::SolverReport& report) {
  report.metrics.emplace_back("band_reduction", m.band_reduction ? 1.0 : 0.0);
  report.metrics.emplace_back("decomposition_shared", m.decomposition_shared ? 1.0 : 0.0);
  report.metrics.emplace_back("transfer_seconds", m.transfer_seconds);
  report.metrics.emplace_back("refinement_steps", m.refinement_steps);
  report.metrics.emplace_back("precision_fallback", m.precision_fallback ? 1.0 : 0.0);
}

class KernelRidge final : public kexp::Solver, public kexp::DeviceMemory {
 public:
  explicit KernelRidge(const kexp::Params& p)
      : lambda_(p.real("lambda")),
        device_(p),
        on_device_(device_.on_device()),
        precision_(kexp::ExecutionTarget::of(p).precision) {
    device_.require_float64("kernel_ridge", precision_ == kexp::linalg::Precision::Double);
  }

  /// On the device the host holds only β and the predictions (and, on the host backend,
  /// the device memory too). In single precision the float32
  /// K, the float32 points, a float64 panel of 256 columns of K where the kernel's float32
  /// Gram is converted from its float64 one, the tiles of the predictions, β and the
  /// predictions. Otherwise the runner counts K.
  double memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    const double x = static_cast<double>(n), t = static_cast<double>(m);
    if (on_device_) return device_.host_bytes(8.0 * (2.0 * x + t), device_memory_bytes(n, m, d));
    if (precision_ == kexp::linalg::Precision::Single) {
      return 4.0 * (x * x + (x + t) * static_cast<double>(d)) + 8.0 * 256.0 * x +
             kexp::gram::product_block_bytes(m, n) + 8.0 * (2.0 * x + t);
    }
    return -1.0;
  }

  /// On the device: K + λI, the points, y and β at the fit; the points, β, the predictions
  /// and a block of K(X*, X) at its smallest at prediction (potrf's workspace not counted).
  double device_memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    if (!on_device_) return 0.0;
    return std::max(kexp::device::ridge_bytes(n, d, 0.0),
                    kexp::device::product_least_bytes(n, m, d));
  }

  /// The band reduction (4n³/3) with its banded solve, or a Cholesky (n³/3), in mixed
  /// precision with every refinement step (4n² each) and a float64 Cholesky after them;
  /// on the GPU and in single precision also the Gram matrix it builds itself.
  double fit_flops_bound(std::size_t n, std::size_t d, const kexp::Kernel* kernel) const override {
    const double x = static_cast<double>(n);
    // single builds K twice: to factor it, and streamed for the fitted values Kβ
    const double builds = on_device_                                      ? 1.0
                          : precision_ == kexp::linalg::Precision::Single ? 2.0
                                                                          : 0.0;
    const double on_device = kernel != nullptr ? builds * kernel->gram_flops(n, n, d) : 0.0;
    return on_device + 4.0 / 3.0 * x * x * x + x * x * x + 8.0 * x * x +
           4.0 * kexp::linalg::kMaxRefinementSteps * x * x;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    if (on_device_) {
      fit_on_device(data, report);
      return;
    }
    if (precision_ == kexp::linalg::Precision::Single) {
      fit_in_single(data, report);
      return;
    }
    if (precision_ != kexp::linalg::Precision::Double) {
      const kexp::linalg::ShiftedSolve solved = solve_in_precision(data, report);
      report.fitted = *data.targets - lambda_ * beta_;
      record({false, false, 0.0, static_cast<double>(solved.refinement_steps), solved.fell_back},
             report);
      return;
    }
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
    record({band != nullptr, shared, 0.0, 0.0, false}, report);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    if (on_device_) {
      kexp::device::Transfers transfers;
      p.mean = kexp::device::predict(device_.backend(), program_, *points_, *data.inputs, beta_,
                                     transfers);
      kexp_solvers::add_transfer_seconds(report, transfers.seconds);
      const std::size_t n = points_->count(), m = data.inputs->n_cols;
      report.predict_flops += data.kernel->gram_flops(m, n, points_->dimension()) +
                              2.0 * static_cast<double>(n) * static_cast<double>(m);
      return p;
    }
    if (precision_ == kexp::linalg::Precision::Single) {
      const arma::fmat Xt = arma::conv_to<arma::fmat>::from(*data.inputs);
      kexp::gram::product(*data.kernel, Xt, inputs_single_, beta_, p.mean);
      report.predict_flops += data.kernel->gram_flops(Xt.n_cols, inputs_single_.n_cols, Xt.n_rows) +
                              2.0 * static_cast<double>(Xt.n_cols * inputs_single_.n_cols);
      return p;
    }
    p.mean = data.gram->t() * beta_;
    report.predict_flops += 2.0 * static_cast<double>(data.gram->n_elem);
    return p;
  }

 private:
  /// (K + λI)β = y on the device, from the kernel's program (the runner has checked that
  /// it has one): K + λI built in device memory (its lower triangle), factored by potrf and
  /// solved by potrs. The points stay there for the predictions. Refuses, with the
  /// figures, a K that does not fit the free device memory.
  void fit_on_device(const kexp::TrainingData& data, kexp::SolverReport& report) {
    namespace dev = kexp::device;
    program_ = kexp_solvers::device_program(*data.kernel, "kernel_ridge");
    dev::Backend& backend = device_.backend();
    const std::size_t n = data.inputs->n_cols, d = data.inputs->n_rows;
    dev::require_memory(
        backend, dev::ridge_bytes(n, d, backend.potrf_workspace_bytes(n)),
        fmt::format("K(X, X) of {} × {} in float64, X and potrf's workspace", n, n));
    dev::Transfers transfers;
    points_.reset();  // a fit before this one: its points leave the device first
    points_ = std::make_unique<dev::Points>(backend, *data.inputs, transfers);
    dev::Buffer b = dev::upload(backend, *data.targets, transfers);
    {
      dev::Cholesky K(backend, n);
      const int info = dev::factor_shifted_gram(backend, program_, *points_, lambda_, K);
      if (info != 0) {
        throw kexp::NumericError(
            fmt::format("K + λI is not positive definite (leading minor {} of {}, λ = {}, on "
                        "device {}): use a larger lambda, or a valid (PSD) kernel",
                        info, n, lambda_, device_.name()));
      }
      K.solve(b.data());
    }
    beta_ = dev::download(backend, b, n, transfers);
    report.fitted = *data.targets - lambda_ * beta_;
    const double nn = static_cast<double>(n);
    report.fit_flops += data.kernel->gram_flops(n, n, d) + nn * nn * nn / 3.0 + 2.0 * nn * nn;
    record({false, false, transfers.seconds, 0.0, false}, report);
  }

  /// (K + λI)β = y all in float32: K built here from the kernel (kexp::gram::single), its
  /// lower triangle only, and factored in place.
  void fit_in_single(const kexp::TrainingData& data, kexp::SolverReport& report) {
    inputs_single_ = arma::conv_to<arma::fmat>::from(*data.inputs);
    const std::size_t n = inputs_single_.n_cols;
    const double x = static_cast<double>(n);
    arma::fmat K;
    const kexp::gram::SinglePath path =
        kexp::gram::single(*data.kernel, inputs_single_, K, kexp::Triangle::Lower);
    arma::mat b = *data.targets;
    const kexp::linalg::ShiftedSolve solved =
        kexp::linalg::solve_shifted_single_in_place(K, lambda_, b);
    beta_ = b.col(0);
    // Kβ by the float32 streamed product, not y − λβ: that holds only for an exact solve,
    // and would hide the float32 solve's error from the training error
    kexp::gram::product(*data.kernel, inputs_single_, inputs_single_, beta_, report.fitted);
    report.matrix_bytes +=
        4.0 * static_cast<double>(K.n_elem + inputs_single_.n_elem) + solved.bytes;
    // K, its factorization and solve, and Kβ (K again, streamed)
    report.fit_flops +=
        2.0 * data.kernel->gram_flops(n, n, inputs_single_.n_rows) + x * x * x / 3.0 + 4.0 * x * x;
    record({}, report);
    report.metrics.emplace_back("gram_converted",
                                path == kexp::gram::SinglePath::converted ? 1.0 : 0.0);
  }

  /// (K + λI)β = y in mixed precision (kexp::linalg::solve_shifted): K's lower
  /// triangle lent as for a Cholesky, since a fallback to float64 factors it in place.
  kexp::linalg::ShiftedSolve solve_in_precision(const kexp::TrainingData& data,
                                                kexp::SolverReport& report) {
    arma::mat& K = *data.gram;
    const double n = static_cast<double>(K.n_rows);
    const kexp::linalg::LowerTriangleLoan loan(K, !data.gram_writable);
    report.matrix_bytes += loan.bytes();
    arma::mat b = *data.targets;
    const kexp::linalg::ShiftedSolve solved =
        kexp::linalg::solve_shifted(K, lambda_, b, precision_);
    beta_ = b.col(0);
    report.matrix_bytes += solved.bytes;
    // The float32 Cholesky and its solve, each refinement step's residual and solve, and
    // a float64 Cholesky after a fallback.
    report.fit_flops += n * n * n / 3.0 + 2.0 * n * n + 4.0 * n * n * solved.refinement_steps +
                        (solved.fell_back ? n * n * n / 3.0 + 2.0 * n * n : 0.0);
    return solved;
  }

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
  kexp_solvers::DeviceSetting device_;
  bool on_device_;  ///< the device code path (cuda or host)
  kexp::linalg::Precision precision_;
  arma::vec beta_;
  kexp::FormulaProgram program_;  ///< on the device: the kernel's program (kexp::device_formula)
  std::unique_ptr<kexp::device::Points> points_;  ///< on the device: X, resident
  arma::fmat inputs_single_;                      ///< in single precision: X in float32
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge penalty λ in (K + λI)β = y").at_least(0).log_scale(),
    kexp::target::device("cpu|cuda|host",
                         "where K is built and factored: cpu, or cuda (an NVIDIA GPU, float64); "
                         "host: the device code path on the CPU (the host backend: for testing "
                         "the device path without a GPU)"),
    kexp::target::precision("double|single|mixed",
                            "K built and factored in float64; all in float32 (K from the kernel's "
                            "device form, or its float64 Gram rounded); or K + λI factored in "
                            "float32 and refined to float64 accuracy (float64 when too "
                            "ill-conditioned)"),
};

constexpr const char* kMetrics[] = {"band_reduction",   "decomposition_shared", "transfer_seconds",
                                    "refinement_steps", "precision_fallback",   "gram_converted"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"kernel_ridge", "1.5.0",
                     "kernel ridge regression: (K + λI)β = y by Cholesky in place, or by one "
                     "shared band reduction K = QBQᵀ over a λ sweep",
                     kParams,
                     kexp::flags::dual | kexp::flags::needs_psd | kexp::flags::lower_triangle}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(KernelRidge, kInfo)
