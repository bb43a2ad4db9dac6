// linear: the inner product
//
//   k(x, z) = xᵀz.
//
// PSD always. Its feature map is the identity, φ(x) = x, exact, with D = d.
#include <kexp/kexp.hpp>

#include <memory>
#include <string>
#include <vector>

namespace {

class IdentityMap final : public kexp::FeatureMap {
 public:
  std::size_t dimension(std::size_t d) const override { return d; }
  bool exact() const override { return true; }
  double flops(std::size_t, std::size_t) const override { return 0.0; }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override { Phi = X; }
};

/// k as a formula: the float64 and float32 Gram matrices and k itself are its program's.
std::shared_ptr<const kexp::Formula> linear_formula() {
  static const auto formula =
      std::make_shared<const kexp::Formula>("s", std::vector<std::string>{});
  return formula;
}

class LinearKernel final : public kexp::FormulaKernel, public kexp::DeviceForm {
 public:
  explicit LinearKernel(const kexp::Params&) : FormulaKernel(linear_formula(), {}) {}

  bool positive_semidefinite() const override { return true; }
  kexp::DeviceProgram device_form() const override { return {{kexp::DeviceOp::linear, 0, 0, 0}}; }
  const kexp::FeatureMap* feature_map() const override { return &map_; }

  // No hyperparameter of its own; a scale on it (s·xᵀz) is learned by the composite.
  bool learnable() const override { return true; }

 protected:
  std::unique_ptr<kexp::Kernel> compute_with_hyperparameters(const arma::vec&) const override {
    return std::make_unique<LinearKernel>(kexp::Params());
  }

 private:
  IdentityMap map_;
};

constexpr kexp::PluginInfo kInfo{"linear", "1.0.0",
                                 "k(x, z) = xᵀz; exact feature map φ(x) = x, D = d",
                                 kexp::flags::psd_always | kexp::flags::exact_map};

}  // namespace

KEXP_PLUGIN(LinearKernel, kInfo)
