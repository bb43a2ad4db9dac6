// cubic: the kernel of the cubic map that keeps repeated monomials
//
//   k(x, z) = 1 + xᵀz + (xᵀz)² + (xᵀz)³.
//
// PSD always. Exact feature map φ(x) = (1, x, x⊗x, x⊗x⊗x): every product x_a, x_a·x_b and
// x_a·x_b·x_c over ordered index tuples, repetitions kept, so that
// ⟨x⊗x, z⊗z⟩ = (xᵀz)² and ⟨x⊗x⊗x, z⊗z⊗z⟩ = (xᵀz)³; D = 1 + d + d² + d³.
#include <kexp/kexp.hpp>

#include <string>

#include "common/monomials.hpp"

namespace {

class CubicMap final : public kexp::FeatureMap {
 public:
  std::size_t dimension(std::size_t d) const override {
    const double dd = static_cast<double>(d);
    const double D = 1.0 + dd + dd * dd + dd * dd * dd;
    kexp_kernels::require_sane_dimension(D, "1 + d + d² + d³ for d = " + std::to_string(d));
    return static_cast<std::size_t>(D);
  }

  bool exact() const override { return true; }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    const std::size_t d = X.n_rows;
    kexp::parallel_for(X.n_cols, [&](std::size_t i) {
      const double* x = X.colptr(i);
      double* out = Phi.colptr(i);
      *out++ = 1.0;
      for (std::size_t a = 0; a < d; ++a) *out++ = x[a];
      double* pairs = out;
      for (std::size_t a = 0; a < d; ++a)
        for (std::size_t b = 0; b < d; ++b) *out++ = x[a] * x[b];
      for (std::size_t ab = 0; ab < d * d; ++ab)
        for (std::size_t c = 0; c < d; ++c) *out++ = pairs[ab] * x[c];
    });
  }
};

class CubicKernel final : public kexp::Kernel {
 public:
  explicit CubicKernel(const kexp::Params&) {}

  bool positive_semidefinite() const override { return true; }
  const kexp::FeatureMap* feature_map() const override { return &map_; }

  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    // 2d for the inner product, 6 for 1 + s(1 + s(1 + s))
    return static_cast<double>(n) * static_cast<double>(m) * (2.0 * static_cast<double>(d) + 6.0);
  }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return cubic(arma::dot(x, z));
  }

  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    kexp::gram::from_inner_products(X, Z, K, [](double s) noexcept { return cubic(s); });
  }

  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    kexp::gram::from_inner_products(X, K, [](double s) noexcept { return cubic(s); });
  }

 private:
  static double cubic(double s) { return 1.0 + s * (1.0 + s * (1.0 + s)); }

  CubicMap map_;
};

constexpr kexp::PluginInfo kInfo{
    "cubic", "1.0.0",
    "k(x, z) = 1 + xᵀz + (xᵀz)² + (xᵀz)³; exact feature map (1, x, x⊗x, x⊗x⊗x), "
    "D = 1 + d + d² + d³",
    kexp::flags::psd_always | kexp::flags::exact_map};

}  // namespace

KEXP_PLUGIN(CubicKernel, kInfo)
