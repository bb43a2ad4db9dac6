// polynomial: the polynomial kernel of integer degree p
//
//   k(x, z) = (xᵀz + c)^p,   p ≥ 1 an integer,   c ≥ 0   (c = 0: the homogeneous kernel).
//
// PSD for every such p and c. Exact feature map, by the multinomial theorem
//
//   (xᵀz + c)^p = Σ_{|α| ≤ p} p! / ((p − |α|)! · α!) · c^{p−|α|} · x^α z^α,
//
// so φ_α(x) = (p! / ((p − |α|)! · α!) · c^{p−|α|})^½ · x^α, one feature for every monomial
// x^α = Π_k x_k^{α_k} of degree |α| ≤ p: D = C(p + d, d). With c = 0 only the monomials of
// degree exactly p remain, D = C(p + d − 1, d − 1).
#include <kexp/integer_power.hpp>
#include <kexp/kexp.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "common/monomials.hpp"

namespace {

using kexp::integer_power;
using kexp_kernels::Monomial;

class PolynomialMap final : public kexp::FeatureMap {
 public:
  PolynomialMap(long degree, double c) : p_(degree), c_(c) {}

  std::size_t dimension(std::size_t d) const override {
    const double D = count(d);
    kexp_kernels::require_sane_dimension(D, (c_ > 0 ? "C(p + d, d)" : "C(p + d − 1, d − 1)") +
                                                std::string(" for d = ") + std::to_string(d) +
                                                ", degree p = " + std::to_string(p_));
    return static_cast<std::size_t>(D);
  }

  bool exact() const override { return true; }

  double flops(std::size_t n, std::size_t d) const override {
    return 2.0 * static_cast<double>(dimension(d)) * static_cast<double>(n);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    const std::size_t d = X.n_rows;
    const auto all = kexp_kernels::monomials_up_to(d, static_cast<unsigned>(p_));
    std::vector<std::size_t> rows;
    std::vector<double> weights;
    for (std::size_t m = 0; m < all.size(); ++m) {
      const Monomial& a = all[m];
      if (c_ == 0.0 && a.degree != static_cast<unsigned>(p_)) continue;
      // p! / (p − |α|)!, exact in double for every degree a sane D allows
      double falling = 1.0;
      for (long i = p_; i > p_ - static_cast<long>(a.degree); --i)
        falling *= static_cast<double>(i);
      const double c_power = integer_power(c_, p_ - static_cast<long>(a.degree));
      rows.push_back(m);
      weights.push_back(std::sqrt(falling / a.factorial * c_power));
    }
    kexp_kernels::evaluate_monomials(all, rows, arma::vec(weights), X, Phi);
  }

 private:
  double count(std::size_t d) const {
    const double dd = static_cast<double>(d), p = static_cast<double>(p_);
    if (c_ > 0) return kexp_kernels::binomial(p + dd, dd);
    return d == 0 ? 0.0 : kexp_kernels::binomial(p + dd - 1, dd - 1);
  }

  long p_;
  double c_;
};

/// k as a formula: the float64 and float32 Gram matrices and k itself are its program's.
std::shared_ptr<const kexp::Formula> polynomial_formula() {
  static const auto formula = std::make_shared<const kexp::Formula>(
      "(s + c)^degree", std::vector<std::string>{"c", "degree"});
  return formula;
}

class PolynomialKernel final : public kexp::FormulaKernel, public kexp::DeviceForm {
 public:
  explicit PolynomialKernel(const kexp::Params& p)
      : FormulaKernel(polynomial_formula(), {p.real("c"), p.real("degree")}),
        params_(p),
        degree_(static_cast<long>(p.integer("degree"))),
        c_(p.real("c")),
        map_(degree_, c_) {}

  bool positive_semidefinite() const override { return true; }
  kexp::DeviceProgram device_form() const override {
    return {{kexp::DeviceOp::polynomial, c_, 0, degree_}};
  }
  const kexp::FeatureMap* feature_map() const override { return &map_; }

  // c is learned in log space, so only from a positive start; the degree is an integer.
  bool learnable() const override { return true; }
  std::vector<kexp::Hyperparameter> hyperparameters() const override {
    if (c_ > 0) return {{"c", c_}};
    return {};
  }

  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    // 2d for the inner product, 1 for + c, about 2·log₂ p for the power
    const double power = 1.0 + 2.0 * std::ceil(std::log2(static_cast<double>(degree_) + 1.0));
    return static_cast<double>(n) * static_cast<double>(m) * (2.0 * static_cast<double>(d) + power);
  }

 protected:
  std::unique_ptr<kexp::Kernel> compute_with_hyperparameters(const arma::vec& v) const override {
    kexp::Params p = params_;
    if (!v.is_empty()) p.set("c", v[0]);
    return std::make_unique<PolynomialKernel>(p);
  }

  // ∂k/∂ log c = c·p·(xᵀz + c)^(p−1).
  void compute_gram_gradient(const arma::mat& X, arma::cube& dK) const override {
    const long p = degree_;
    const double c = c_;
    kexp::gram::from_inner_products(X, dK.slice(0), [p, c](double s) noexcept {
      return c * static_cast<double>(p) * integer_power(s + c, p - 1);
    });
  }

 private:
  kexp::Params params_;
  long degree_;
  double c_;
  PolynomialMap map_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("degree", "2", "degree p, an integer: k = (xᵀz + c)^p").at_least(1),
    kexp::param::real("c", "1.0", "offset c ≥ 0 (0: homogeneous): k = (xᵀz + c)^p").at_least(0),
};

constexpr kexp::PluginInfo kInfo{
    "polynomial", "1.0.0",
    "k(x, z) = (xᵀz + c)^p, integer p ≥ 1, c ≥ 0; exact feature map of the monomials x^α, "
    "|α| ≤ p, weighted by √(p!/((p−|α|)!·α!)·c^(p−|α|)), D = C(p + d, d) (c = 0: |α| = p only, "
    "D = C(p + d − 1, d − 1))",
    kParams, kexp::flags::psd_always | kexp::flags::exact_map};

}  // namespace

KEXP_PLUGIN(PolynomialKernel, kInfo)
