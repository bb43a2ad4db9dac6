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
//
// precision: single — Φ (the runner's, float64) rounded to float32, ΦΦᵀ by SSYRK, its
// Cholesky and solve (kexp::linalg::solve_shifted_single_in_place) and the predictions
// Φ*ᵀθ all in float32: 4D² bytes for the system and 4nD for the rounded Φ.
// precision: mixed — ΦΦᵀ in float64, ΦΦᵀ + λI factored in float32 and θ refined in float64
// to float64 accuracy, or factored in float64 when too ill-conditioned for float32
// (kexp::linalg::solve_shifted, precision_fallback = 1).
//
// device: cuda or host — Φ (the runner's, computed on the host: feature maps have no
// device form) is copied to the device, where ΦΦᵀ + λI (syrk) and Φy (gemv) are formed,
// factored (potrf) and solved (potrs) on the building blocks of kexp/device.hpp; θ comes
// back, and the predictions Φ*ᵀθ, 2D flops a point, are made on the host. cuda runs it on
// an NVIDIA GPU, host on the CPU (the host backend). float64 only; the copies are the
// metric transfer_seconds.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include "common/device_path.hpp"

namespace {

constexpr kexp::linalg::ShiftedMatrixNames kNames{"ΦΦᵀ + λI", "λ", "lambda"};

class PrimalRidge final : public kexp::Solver, public kexp::DeviceMemory {
 public:
  explicit PrimalRidge(const kexp::Params& p)
      : lambda_(p.real("lambda")),
        precision_(kexp::ExecutionTarget::of(p).precision),
        device_(p),
        on_device_(device_.on_device()) {
    device_.require_float64("primal_ridge", precision_ == kexp::linalg::Precision::Double);
  }

  /// On the device: Φ, ΦΦᵀ + λI, y and Φy (d is D; potrf's workspace not counted).
  double device_memory_bytes(std::size_t n, std::size_t /*m*/, std::size_t d) const override {
    return on_device_ ? kexp::device::primal_bytes(d, n, 0.0) : 0.0;
  }

  /// ΦΦᵀ, Φy, the Cholesky of ΦΦᵀ + λI and its solve; d is D.
  double fit_flops_bound(std::size_t n, std::size_t d,
                         const kexp::Kernel* /*kernel*/) const override {
    const double x = static_cast<double>(n), D = static_cast<double>(d);
    // mixed: every refinement step, and a float64 Cholesky after them
    return x * D * D + 4.0 * x * D + D * D * D / 3.0 + 2.0 * D * D +
           4.0 * kexp::linalg::kMaxRefinementSteps * D * D + D * D * D / 3.0 + 2.0 * D * D;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& Phi = *data.features;
    const arma::vec& y = *data.targets;
    const double D = static_cast<double>(Phi.n_rows), n = static_cast<double>(Phi.n_cols);
    if (precision_ == kexp::linalg::Precision::Single) {
      fit_in_single(Phi, y, report);
      return;
    }
    if (on_device_) {
      kexp::device::Transfers transfers;
      theta_ = solve_on_device(Phi, y, transfers);
      report.fitted = Phi.t() * theta_;  // the system is on the device: no host bytes
      report.fit_flops += n * D * D + 4.0 * n * D + D * D * D / 3.0 + 2.0 * D * D;
      record({}, report);
      report.metrics.emplace_back("transfer_seconds", transfers.seconds);
      return;
    }
    if (precision_ == kexp::linalg::Precision::Mixed) {
      arma::mat A = Phi * Phi.t();
      arma::mat b = Phi * y;
      const kexp::linalg::ShiftedSolve solved =
          kexp::linalg::solve_shifted(A, lambda_, b, precision_, kNames);
      theta_ = b.col(0);
      report.fitted = Phi.t() * theta_;
      report.matrix_bytes += 8.0 * D * D + solved.bytes;
      report.fit_flops += n * D * D + 4.0 * n * D + D * D * D / 3.0 + 2.0 * D * D +
                          4.0 * D * D * solved.refinement_steps +
                          (solved.fell_back ? D * D * D / 3.0 + 2.0 * D * D : 0.0);
      record(solved, report);
      return;
    }
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
    record({}, report);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    if (precision_ == kexp::linalg::Precision::Single) {
      const arma::fmat Phi = arma::conv_to<arma::fmat>::from(*data.features);
      p.mean = arma::conv_to<arma::vec>::from(arma::fvec(Phi.t() * theta_single_));
      report.predict_flops += 2.0 * static_cast<double>(Phi.n_elem);
      return p;
    }
    p.mean = data.features->t() * theta_;
    report.predict_flops += 2.0 * static_cast<double>(data.features->n_elem);
    return p;
  }

 private:
  /// The metrics of every fit but the GPU's, which adds its copies: no copies on the host.
  void record(const kexp::linalg::ShiftedSolve& solved, kexp::SolverReport& report) const {
    report.metrics.emplace_back("refinement_steps", solved.refinement_steps);
    report.metrics.emplace_back("precision_fallback", solved.fell_back ? 1.0 : 0.0);
    if (!on_device_) report.metrics.emplace_back("transfer_seconds", 0.0);
  }

  /// (ΦΦᵀ + λI)θ = Φy on the device: ΦΦᵀ by syrk, its strict upper triangle cleared and λ
  /// added to its diagonal, Φy by gemv, then potrf and potrs. Refuses, with the figures, a
  /// Φ that does not fit the free device memory.
  arma::vec solve_on_device(const arma::mat& Phi, const arma::vec& y,
                            kexp::device::Transfers& transfers) const {
    namespace dev = kexp::device;
    dev::Backend& backend = device_.backend();
    const std::size_t D = Phi.n_rows, n = Phi.n_cols;
    dev::require_memory(backend, dev::primal_bytes(D, n, backend.potrf_workspace_bytes(D)),
                        fmt::format("Φ of {} × {}, ΦΦᵀ + λI of {} × {} in float64 and potrf's "
                                    "workspace",
                                    D, n, D, D));
    const dev::Buffer dPhi = dev::upload(backend, Phi, transfers);
    const dev::Buffer dy = dev::upload(backend, y, transfers);
    dev::Buffer b(backend, D);
    dev::Cholesky A(backend, D);
    backend.syrk(dev::Op::none, D, n, 1.0, dPhi.data(), D, 0.0, A.matrix(), D);
    backend.lower_only(A.matrix(), D, D, lambda_);
    backend.gemv(dev::Op::none, D, n, 1.0, dPhi.data(), D, dy.data(), 0.0, b.data());
    const int info = A.factor();
    if (info != 0) {
      throw kexp::NumericError(fmt::format(
          "ΦΦᵀ + λI is not positive definite (leading minor {} of {}, λ = {}, on device {}): "
          "use a larger lambda (with λ = 0 the system is singular whenever D > n)",
          info, D, lambda_, device_.name()));
    }
    A.solve(b.data());
    return dev::download(backend, b, D, transfers);
  }

  /// (ΦΦᵀ + λI)θ = Φy all in float32, on Φ rounded.
  void fit_in_single(const arma::mat& Phi64, const arma::vec& y, kexp::SolverReport& report) {
    const arma::fmat Phi = arma::conv_to<arma::fmat>::from(Phi64);
    const double D = static_cast<double>(Phi.n_rows), n = static_cast<double>(Phi.n_cols);
    const arma::fvec y_single = arma::conv_to<arma::fvec>::from(y);
    arma::fmat A = Phi * Phi.t();  // SSYRK
    arma::mat b = arma::conv_to<arma::mat>::from(arma::fvec(Phi * y_single));
    const kexp::linalg::ShiftedSolve solved =
        kexp::linalg::solve_shifted_single_in_place(A, lambda_, b, kNames);
    theta_ = b.col(0);
    theta_single_ = arma::conv_to<arma::fvec>::from(theta_);
    report.fitted = arma::conv_to<arma::vec>::from(arma::fvec(Phi.t() * theta_single_));
    report.matrix_bytes += 4.0 * (D * D + n * D) + solved.bytes;
    report.fit_flops += n * D * D + 4.0 * n * D + D * D * D / 3.0 + 2.0 * D * D;
    record(solved, report);
  }

  double lambda_;
  kexp::linalg::Precision precision_;
  kexp_solvers::DeviceSetting device_;
  bool on_device_;  ///< the device code path (cuda or host)
  arma::vec theta_;
  arma::fvec theta_single_;  ///< single: θ in float32, for the predictions
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge penalty λ in (ΦΦᵀ + λI)θ = Φy")
        .at_least(0)
        .log_scale(),
    kexp::target::precision(
        "double|single|mixed",
        "the system in float64; all in float32 (Φ rounded, ΦΦᵀ, the Cholesky "
        "and the predictions); or ΦΦᵀ + λI factored in float32 and θ refined to "
        "float64 accuracy (float64 when too ill-conditioned)"),
    kexp::target::device("cpu|cuda|host",
                         "the system on the host; or ΦΦᵀ + λI formed, factored and solved on "
                         "the GPU by cuBLAS and cuSOLVER, in float64 (Φ is computed on the "
                         "host and copied)"),
};

constexpr const char* kMetrics[] = {"refinement_steps", "precision_fallback", "transfer_seconds"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"primal_ridge", "1.2.0",
                     "ridge regression on φ: (ΦᵀΦ + λI)θ = Φᵀy, D × D, by Cholesky", kParams,
                     kexp::flags::primal}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(PrimalRidge, kInfo)
