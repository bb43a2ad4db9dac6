// constant: the same value for every pair
//
//   k(x, z) = c,   c ≥ 0.
//
// PSD for every c ≥ 0 (K = c·11ᵀ). Its exact feature map is φ(x) = √c, with D = 1. A
// term of kernel sums: the θ₂ of θ₀·exp(−θ₁/2·‖x − z‖²) + θ₂ + θ₃·xᵀz.
#include <kexp/kexp.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace {

class ConstantMap final : public kexp::FeatureMap {
 public:
  explicit ConstantMap(double c) : root_c_(std::sqrt(c)) {}
  std::size_t dimension(std::size_t) const override { return 1; }
  bool exact() const override { return true; }

 protected:
  void compute_features(const arma::mat&, arma::mat& Phi) const override { Phi.fill(root_c_); }

 private:
  double root_c_;
};

/// k as a formula: the float64 and float32 Gram matrices and k itself are its program's.
std::shared_ptr<const kexp::Formula> constant_formula() {
  static const auto formula =
      std::make_shared<const kexp::Formula>("c", std::vector<std::string>{"c"});
  return formula;
}

class ConstantKernel final : public kexp::FormulaKernel, public kexp::DeviceForm {
 public:
  explicit ConstantKernel(const kexp::Params& p)
      : FormulaKernel(constant_formula(), {p.real("c")}), c_(p.real("c")), map_(c_) {}

  bool positive_semidefinite() const override { return true; }
  kexp::DeviceProgram device_form() const override {
    return {{kexp::DeviceOp::constant, c_, 0, 0}};
  }
  const kexp::FeatureMap* feature_map() const override { return &map_; }

  // c is learned in log space, so only from a positive start; k = 0 has none.
  bool learnable() const override { return true; }
  std::vector<kexp::Hyperparameter> hyperparameters() const override {
    if (c_ > 0) return {{"c", c_}};
    return {};
  }
  double gram_flops(std::size_t n, std::size_t m, std::size_t) const override {
    return static_cast<double>(n) * static_cast<double>(m);
  }

 protected:
  std::unique_ptr<kexp::Kernel> compute_with_hyperparameters(const arma::vec& v) const override {
    kexp::Params p;
    p.set("c", v.is_empty() ? c_ : v[0]);
    return std::make_unique<ConstantKernel>(p);
  }

  // ∂k/∂ log c = c.
  void compute_gram_gradient(const arma::mat&, arma::cube& dK) const override {
    dK.slice(0).fill(c_);
  }

 private:
  double c_;
  ConstantMap map_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("c", "1.0", "the value c of every entry: k = c").at_least(0),
};

constexpr kexp::PluginInfo kInfo{"constant", "1.0.0",
                                 "k(x, z) = c, c ≥ 0; exact feature map φ(x) = √c, D = 1", kParams,
                                 kexp::flags::psd_always | kexp::flags::exact_map};

}  // namespace

KEXP_PLUGIN(ConstantKernel, kInfo)
