// device_ridge: kernel ridge regression, (K + λI)β = y and f(x*) = Σᵢ βᵢ k(xᵢ, x*), on a
// device: the points stay in device memory, K + λI is built there from the kernel's
// program and factored, and the predictions are streamed over blocks of the test points,
// all by the building blocks of kexp/device.hpp. `device: cuda` runs it on an NVIDIA GPU,
// `device: host` on the CPU by the host backend (the same code path, for testing it
// without a GPU). kexp hands it the kernel and the points instead of K, as to the
// built-in solvers that run on a device, and refuses a kernel without a program (a
// formula or a device form) before the run starts.
#include <fmt/format.h>
#include <kexp/device.hpp>
#include <kexp/kexp.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

namespace {

class DeviceRidge final : public kexp::Solver, public kexp::DeviceMemory {
 public:
  explicit DeviceRidge(const kexp::Params& p)
      : lambda_(p.real("lambda")), device_(p.string("device")) {}

  /// β and the predictions on the host; on the host backend the device memory is the
  /// host's too.
  double memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    const double host = 8.0 * static_cast<double>(2 * n + m);
    return host + (device_ == "host" ? device_memory_bytes(n, m, d) : 0.0);
  }

  /// K + λI, the points, y and β at the fit; the points, β, the predictions and a block of
  /// K(X*, X) at prediction.
  double device_memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    return std::max(kexp::device::ridge_bytes(n, d, 0.0),
                    kexp::device::product_least_bytes(n, m, d));
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    namespace dev = kexp::device;
    const std::optional<kexp::FormulaProgram> program = kexp::device_formula(*data.kernel);
    if (!program) {
      throw kexp::InvalidArgument(
          "device_ridge: the kernel has neither a formula nor a device form");
    }
    program_ = *program;
    dev::Backend& backend = dev::backend(device_);
    const std::size_t n = data.inputs->n_cols, d = data.inputs->n_rows;
    dev::require_memory(backend, dev::ridge_bytes(n, d, backend.potrf_workspace_bytes(n)),
                        fmt::format("K + λI of {} × {}, X and potrf's workspace", n, n));
    dev::Transfers transfers;
    points_ = std::make_unique<dev::Points>(backend, *data.inputs, transfers);
    dev::Buffer b = dev::upload(backend, *data.targets, transfers);
    {
      dev::Cholesky K(backend, n);  // freed when the solve is done
      const int info = dev::factor_shifted_gram(backend, program_, *points_, lambda_, K);
      if (info != 0) {
        throw kexp::NumericError(fmt::format(
            "K + λI is not positive definite (leading minor {} of {}); use a larger lambda", info,
            n));
      }
      K.solve(b.data());
    }
    beta_ = dev::download(backend, b, n, transfers);
    report.fitted = *data.targets - lambda_ * beta_;  // Kβ = y − λβ
    report.metrics.emplace_back("transfer_seconds", transfers.seconds);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::device::Transfers transfers;
    kexp::Prediction p;
    p.mean = kexp::device::predict(kexp::device::backend(device_), program_, *points_, *data.inputs,
                                   beta_, transfers);
    for (auto& [name, value] : report.metrics) {
      if (name == "transfer_seconds") value += transfers.seconds;
    }
    return p;
  }

 private:
  double lambda_;
  std::string device_;
  kexp::FormulaProgram program_;
  std::unique_ptr<kexp::device::Points> points_;  ///< X, resident from the fit on
  arma::vec beta_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge penalty λ in (K + λI)β = y").greater_than(0),
    kexp::param::choice("device", "host", "cuda|host",
                        "the device backend: cuda (an NVIDIA GPU) or host (the same code path "
                        "on the CPU)"),
};

constexpr const char* kMetrics[] = {"transfer_seconds"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"device_ridge", "1.0.0",
                     "kernel ridge regression on the device building blocks of kexp/device.hpp",
                     kParams, kexp::flags::dual | kexp::flags::needs_psd}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(DeviceRidge, kInfo)
