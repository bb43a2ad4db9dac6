// laplacian: the Laplacian (exponential) kernel on the Euclidean norm
//
//   k(x, z) = exp(−‖x − z‖₂ / σ),   σ > 0,   ‖x − z‖₂ = (Σₖ (xₖ − zₖ)²)^½.
//
// PSD for every σ > 0 (exp(−t·r) is completely monotone in r = ‖x − z‖₂, so the kernel is
// a mixture of Gaussians). Its feature space is infinite-dimensional: no finite map.
#include <kexp/kexp.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace {

/// k as a formula: the float64 and float32 Gram matrices and k itself are its program's.
std::shared_ptr<const kexp::Formula> laplacian_formula() {
  static const auto formula =
      std::make_shared<const kexp::Formula>("exp(-r / sigma)", std::vector<std::string>{"sigma"});
  return formula;
}

class LaplacianKernel final : public kexp::FormulaKernel, public kexp::DeviceForm {
 public:
  explicit LaplacianKernel(const kexp::Params& p)
      : FormulaKernel(laplacian_formula(), {p.real("sigma")}),
        params_(p),
        sigma_(p.real("sigma")) {}

  bool positive_semidefinite() const override { return true; }
  kexp::DeviceProgram device_form() const override {
    return {{kexp::DeviceOp::laplacian, sigma_, 0, 0}};
  }

  bool learnable() const override { return true; }
  std::vector<kexp::Hyperparameter> hyperparameters() const override { return {{"sigma", sigma_}}; }

  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    // 2d for the inner product, 3 for the distance, ~20 for sqrt and exp
    return static_cast<double>(n) * static_cast<double>(m) * (2.0 * static_cast<double>(d) + 23.0);
  }

 protected:
  std::unique_ptr<kexp::Kernel> compute_with_hyperparameters(const arma::vec& v) const override {
    kexp::Params p = params_;
    p.set("sigma", v[0]);
    return std::make_unique<LaplacianKernel>(p);
  }

  // ∂k/∂ log σ = σ·∂k/∂σ = k·‖x − z‖/σ.
  void compute_gram_gradient(const arma::mat& X, arma::cube& dK) const override {
    const double r = 1.0 / sigma_;
    kexp::gram::from_squared_distances(X, dK.slice(0), [r](double s) noexcept {
      const double t = r * std::sqrt(s);
      return std::exp(-t) * t;
    });
  }

 private:
  kexp::Params params_;
  double sigma_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("sigma", "1.0", "length scale σ: k = exp(−‖x − z‖₂ / σ)")
        .greater_than(0)
        .log_scale(),
};

constexpr kexp::PluginInfo kInfo{"laplacian", "1.0.0",
                                 "k(x, z) = exp(−‖x − z‖₂ / σ), Euclidean norm ‖·‖₂", kParams,
                                 kexp::flags::psd_always};

}  // namespace

KEXP_PLUGIN(LaplacianKernel, kInfo)
