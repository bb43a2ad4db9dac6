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
//
// precision: mixed — each product K p over float32 tiles of K's values from a float32 copy
// of the points (kexp/single.hpp), each tile's product and sums in float64; the
// conjugate-gradient state in float64. The products then carry float32's rounding
// (about 10⁻⁷ relative), so a tolerance much below that may not be reached.
//
// device: cuda or host — the points stay on the device and each product K p streams
// blocks of K's rows there, sized to the free device memory (kexp/device.hpp's
// StreamedGram: gemm and the kernel's program, then gemv); the conjugate-gradient state
// stays on the host in float64, and the predictions K(X*, X)β are streamed on the device
// too. cuda runs it on an NVIDIA GPU, host on the CPU (the host backend). float64 only;
// the copies are the metric transfer_seconds.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "common/conjugate_gradients.hpp"
#include "common/device_path.hpp"

namespace {

class CgRidge final : public kexp::Solver, public kexp::DeviceMemory {
 public:
  explicit CgRidge(const kexp::Params& p)
      : lambda_(p.real("lambda")),
        tolerance_(p.real("tolerance")),
        iterations_(p.integer("iterations")),
        mixed_(kexp::ExecutionTarget::of(p).precision == kexp::Precision::Mixed),
        device_(p),
        on_device_(device_.on_device()) {
    device_.require_float64("cg_ridge", !mixed_);
  }

  /// On the device: the points, their norms, two n-vectors and a block of K(X, X) at its
  /// smallest while fitting; the points, the test points and a block of K(X*, X) at
  /// prediction.
  double device_memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    if (!on_device_) return 0.0;
    return std::max(kexp::device::product_least_bytes(n, n, d),
                    kexp::device::product_least_bytes(n, m, d));
  }

  double memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    // on the device the host holds the vectors only (and, on the host backend, the device
    // memory too)
    if (on_device_) {
      return device_.host_bytes(8.0 * (7.0 * static_cast<double>(n) + static_cast<double>(m)),
                                device_memory_bytes(n, m, d));
    }
    // β, r, p, K p, the fitted values and the best β and fitted values so far; the tiles of K(X, X)
    // or of K(X*, X) of each thread; the test predictions
    const double tiles =
        std::max(kexp::gram::product_block_bytes(n, n), kexp::gram::product_block_bytes(m, n));
    // in mixed precision float32 copies of the points (float32 tiles have float64's bytes)
    const double copies = mixed_ ? 4.0 * static_cast<double>(n + m) * static_cast<double>(d) : 0.0;
    return 8.0 * (7.0 * static_cast<double>(n) + static_cast<double>(m)) + copies + tiles;
  }

  /// Every iteration's product by K, each recomputing its entries, and as many checks of
  /// the true residual, each another product.
  double fit_flops_bound(std::size_t n, std::size_t d, const kexp::Kernel* kernel) const override {
    if (kernel == nullptr) return -1;
    const double x = static_cast<double>(n);
    const double per_product = kernel->gram_flops(n, n, d) + 2.0 * x * x;
    const double it = static_cast<double>(iterations_);
    return (2.0 * it + 1.0) * per_product + 10.0 * x * it;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& X = *data.inputs;
    const arma::vec& y = *data.targets;
    const kexp::Kernel& k = *data.kernel;
    const std::size_t n = X.n_cols, d = X.n_rows;
    X_ = &X;
    if (mixed_) X_single_ = arma::conv_to<arma::fmat>::from(X);
    bool converted = false;
    kexp::device::Transfers transfers;
    std::optional<DeviceGram> on_gpu;
    if (on_device_) {
      program_ = kexp_solvers::device_program(k, "cg_ridge");
      points_.reset();  // a fit before this one: its points leave the device first
      kexp::device::Backend& backend = device_.backend();
      kexp::device::require_memory(backend, kexp::device::product_least_bytes(n, n, d),
                                   "X, three n-vectors and a block of 256 rows of K(X, X)");
      points_ = std::make_unique<kexp::device::Points>(backend, X, transfers);
      on_gpu.emplace(backend, program_, *points_, transfers);
    }
    // (K + λI) β = y, by conjugate gradients judged by the true residual
    const auto apply = [&](const arma::vec& v) {
      arma::vec Kv;
      if (on_gpu) {
        Kv = on_gpu->product(v);
      } else if (mixed_) {
        converted = kexp::gram::product(k, X_single_, X_single_, v, Kv) ==
                    kexp::gram::SinglePath::converted;
      } else {
        kexp::gram::product(k, X, X, v, Kv);
      }
      Kv += lambda_ * v;
      return Kv;
    };
    kexp_solvers::ConjugateGradients cg =
        kexp_solvers::conjugate_gradients(apply, y, tolerance_, iterations_);
    beta_ = std::move(cg.x);
    report.fitted = cg.Ax - lambda_ * beta_;  // Kβ
    report.iterations = cg.iterations;
    report.converged = cg.converged;
    report.metrics.emplace_back("relative_residual", cg.residual);
    if (mixed_) report.metrics.emplace_back("gram_converted", converted ? 1.0 : 0.0);
    report.metrics.emplace_back("transfer_seconds", transfers.seconds);
    const long it = cg.iterations, checks = cg.checks;
    const double per_product = k.gram_flops(n, n, d) + 2.0 * static_cast<double>(n * n);
    report.fit_flops =
        static_cast<double>(it + checks) * per_product + 10.0 * static_cast<double>(n * it);
    report.matrix_bytes = memory_bytes(n, 0, d);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    // f(X*) = K(X*, X) β
    if (on_device_) {
      kexp::device::Transfers transfers;
      p.mean = kexp::device::predict(device_.backend(), program_, *points_, *data.inputs, beta_,
                                     transfers);
      kexp_solvers::add_transfer_seconds(report, transfers.seconds);
    } else if (mixed_) {
      kexp::gram::product(*data.kernel, arma::conv_to<arma::fmat>::from(*data.inputs), X_single_,
                          beta_, p.mean);
    } else {
      kexp::gram::product(*data.kernel, *data.inputs, *X_, beta_, p.mean);
    }
    report.predict_flops = data.kernel->gram_flops(data.inputs->n_cols, X_->n_cols, X_->n_rows) +
                           2.0 * static_cast<double>(data.inputs->n_cols * X_->n_cols);
    return p;
  }

 private:
  /// K(X, X) as an operator on the device: X resident, each product K v streamed over
  /// blocks of K's rows (kexp::device::StreamedGram), K never stored. Refuses, with the
  /// figures, when not even a block of 256 rows fits beside the points.
  struct DeviceGram {
    DeviceGram(kexp::device::Backend& b, const kexp::FormulaProgram& program,
               const kexp::device::Points& X, kexp::device::Transfers& t)
        : backend(b),
          transfers(t),
          v(b, X.count()),
          out(b, X.count()),
          gram(b, program, X, X, "a block of 256 rows of K(X, X)") {}
    /// K(X, X) w.
    arma::vec product(const arma::vec& w) {
      kexp::device::upload(backend, v.data(), w.memptr(), w.n_elem, transfers);
      gram.product(v.data(), out.data());
      return kexp::device::download(backend, out, w.n_elem, transfers);
    }
    kexp::device::Backend& backend;
    kexp::device::Transfers& transfers;
    kexp::device::Buffer v, out;
    kexp::device::StreamedGram gram;
  };

  double lambda_, tolerance_;
  long iterations_;
  bool mixed_;
  kexp_solvers::DeviceSetting device_;
  bool on_device_;                ///< the device code path (cuda or host)
  kexp::FormulaProgram program_;  ///< on the device: the kernel's program (kexp::device_formula)
  std::unique_ptr<kexp::device::Points> points_;  ///< on the device: X, resident
  const arma::mat* X_ = nullptr;
  arma::fmat X_single_;  ///< mixed: the points in float32
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
    kexp::target::precision(
        "double|mixed",
        "the products K p in float64; or in float32 tiles added in float64, with "
        "conjugate gradients in float64"),
    kexp::target::device("cpu|cuda|host",
                         "the products K p on the host; or streamed on the GPU from the kernel's "
                         "device form (cuBLAS), in float64, with conjugate gradients on the host; "
                         "host: the device code path on the CPU (the host backend: for testing "
                         "the device path without a GPU)"),
};
constexpr const char* kMetrics[] = {"relative_residual", "gram_converted", "transfer_seconds"};
constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo(
        "cg_ridge", "1.2.0",
        "(K + λI)β = y by conjugate gradients on products K p streamed from the kernel in "
        "blocks (memory O(n), never K); f(x) = Σ βᵢ k(xᵢ, x)",
        kParams,
        kexp::flags::dual | kexp::flags::kernel_inputs | kexp::flags::needs_psd |
            kexp::flags::iterative)
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(CgRidge, kInfo)
