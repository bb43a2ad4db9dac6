// sigmoid: the hyperbolic tangent ("neural network") kernel
//
//   k(x, z) = tanh(a·xᵀz + b).
//
// Not PSD in general: for a = 1, b = −1 the Gram matrix of almost any set of points has
// a negative eigenvalue (k(x, x) < 0 for ‖x‖ < 1 already). It has no feature map.
// Solvers that need a PSD kernel refuse it; the others may still use it.
#include <kexp/kexp.hpp>

#include <memory>
#include <string>
#include <vector>

namespace {

/// k as a formula: the float64 and float32 Gram matrices and k itself are its program's.
std::shared_ptr<const kexp::Formula> sigmoid_formula() {
  static const auto formula =
      std::make_shared<const kexp::Formula>("tanh(a * s + b)", std::vector<std::string>{"a", "b"});
  return formula;
}

class SigmoidKernel final : public kexp::FormulaKernel, public kexp::DeviceForm {
 public:
  explicit SigmoidKernel(const kexp::Params& p)
      : FormulaKernel(sigmoid_formula(), {p.real("a"), p.real("b")}),
        a_(p.real("a")),
        b_(p.real("b")) {}

  bool positive_semidefinite() const override { return false; }
  kexp::DeviceProgram device_form() const override {
    return {{kexp::DeviceOp::sigmoid, a_, b_, 0}};
  }

  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    // 2d for the inner product, 2 for a·s + b, ~20 for tanh
    return static_cast<double>(n) * static_cast<double>(m) * (2.0 * static_cast<double>(d) + 22.0);
  }

 protected:
 private:
  double a_, b_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("a", "1.0", "slope a: k = tanh(a·xᵀz + b)"),
    kexp::param::real("b", "0.0", "offset b: k = tanh(a·xᵀz + b)"),
};

constexpr kexp::PluginInfo kInfo{"sigmoid", "1.0.0",
                                 "k(x, z) = tanh(a·xᵀz + b); not PSD in general", kParams,
                                 kexp::flags::psd_never};

}  // namespace

KEXP_PLUGIN(SigmoidKernel, kInfo)
