// sigmoid: the hyperbolic tangent ("neural network") kernel
//
//   k(x, z) = tanh(a·xᵀz + b).
//
// Not PSD in general: for a = 1, b = −1 the Gram matrix of almost any set of points has
// a negative eigenvalue (k(x, x) < 0 for ‖x‖ < 1 already). It has no feature map.
// Solvers that need a PSD kernel refuse it; the others may still use it.
#include <kexp/kexp.hpp>

#include <cmath>

#if defined(KEXP_HAVE_LIBMVEC)
// glibc's libmvec has vector versions of tanh (within 4 ulp). Declared here, as <math.h>
// declares them under -ffast-math only, they let the SDK's `omp simd` loops over each
// block of K call them.
extern "C" {
#pragma omp declare simd notinbranch
double tanh(double x);
}
#endif

namespace {

class SigmoidKernel final : public kexp::Kernel, public kexp::DeviceForm {
 public:
  explicit SigmoidKernel(const kexp::Params& p) : a_(p.real("a")), b_(p.real("b")) {}

  bool positive_semidefinite() const override { return false; }
  kexp::DeviceProgram device_form() const override {
    return {{kexp::DeviceOp::sigmoid, a_, b_, 0}};
  }

  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    // 2d for the inner product, 2 for a·s + b, ~20 for tanh
    return static_cast<double>(n) * static_cast<double>(m) * (2.0 * static_cast<double>(d) + 22.0);
  }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return std::tanh(a_ * arma::dot(x, z) + b_);
  }

  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    const double a = a_, b = b_;
    kexp::gram::from_inner_products(X, Z, K,
                                    [a, b](double s) noexcept { return ::tanh(a * s + b); });
  }

  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    const double a = a_, b = b_;
    kexp::gram::from_inner_products(X, K, [a, b](double s) noexcept { return ::tanh(a * s + b); });
  }

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
