// gaussian: the Gaussian (RBF) kernel
//
//   k(x, z) = exp(−‖x − z‖² / (2σ²)),   σ > 0.
//
// PSD for every σ > 0. Its feature space is infinite-dimensional, so it has no exact
// finite map; `map` chooses an approximate one for the primal form (none: no map).
//
// map: taylor, of order m. Write
//   k(x, z) = exp(−‖x‖²/2σ²) · exp(−‖z‖²/2σ²) · exp(xᵀz/σ²)
// and expand the last factor as the product over dimensions Π_k exp(x_k z_k/σ²), each
// factor as its power series Σ_j (x_k z_k)^j / (σ^{2j} j!). Multiplied out, the terms are
// x^α z^α / (σ^{2|α|} α!) for every multi-index α; keeping those of total degree |α| ≤ m,
//   φ_α(x) = exp(−‖x‖²/2σ²) · x^α / (σ^{|α|} · √α!),   |α| ≤ m,   D = C(m + d, d).
// ⟨φ(x), φ(z)⟩ ≤ k(x, z), with the error falling as m grows, fast where ‖x‖·‖z‖ ≲ σ².
//
// map: rff, random Fourier features (Rahimi and Recht, 2007): with w_i ~ N(0, σ⁻²·I) and
// b_i ~ U[0, 2π), i = 1 … D, drawn from `seed`,
//   φ_i(x) = √(2/D) · cos(w_iᵀx + b_i),
// so that E⟨φ(x), φ(z)⟩ = k(x, z), with an error of order 1/√D.
#include <kexp/kexp.hpp>

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "common/monomials.hpp"

#if defined(KEXP_HAVE_LIBMVEC)
// glibc's libmvec has vector versions of cos (2, 4 or 8 lanes, within 4 ulp). Declared
// here, as <math.h> declares them under -ffast-math only, they let the `omp simd` loop
// below call them; the loop is compiled for AVX-512, AVX2 and the x86-64 baseline and
// chosen at load by the CPU.
extern "C" {
#pragma omp declare simd notinbranch
double cos(double x);
}
#define KEXP_COS_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KEXP_COS_CLONES
#endif

namespace {

/// column[i] ← scale · cos(column[i] + phase[i]), i < rows.
KEXP_COS_CLONES
void cos_features(double* column, const double* phase, std::size_t rows, double scale) {
#pragma omp simd
  for (std::size_t i = 0; i < rows; ++i) column[i] = scale * ::cos(column[i] + phase[i]);
}

class TaylorMap final : public kexp::FeatureMap {
 public:
  TaylorMap(double sigma, long order) : sigma_(sigma), m_(order) {}

  std::size_t dimension(std::size_t d) const override {
    const double dd = static_cast<double>(d);
    const double D = kexp_kernels::binomial(static_cast<double>(m_) + dd, dd);
    kexp_kernels::require_sane_dimension(
        D, "C(m + d, d) for d = " + std::to_string(d) + ", order m = " + std::to_string(m_));
    return static_cast<std::size_t>(D);
  }

  bool exact() const override { return false; }

  double flops(std::size_t n, std::size_t d) const override {
    return (2.0 * static_cast<double>(dimension(d)) + 2.0 * static_cast<double>(d) + 20.0) *
           static_cast<double>(n);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    const auto all = kexp_kernels::monomials_up_to(X.n_rows, static_cast<unsigned>(m_));
    std::vector<std::size_t> rows(all.size());
    arma::vec weight(all.size());
    for (std::size_t r = 0; r < all.size(); ++r) {
      rows[r] = r;
      weight[r] = 1.0 / (std::pow(sigma_, static_cast<double>(all[r].degree)) *
                         std::sqrt(all[r].factorial));
    }
    kexp_kernels::evaluate_monomials(all, rows, weight, X, Phi);
    const arma::rowvec damping =
        arma::exp(-arma::sum(arma::square(X), 0) / (2.0 * sigma_ * sigma_));
    Phi.each_row() %= damping;
  }

 private:
  double sigma_;
  long m_;
};

class RandomFourierMap final : public kexp::FeatureMap {
 public:
  RandomFourierMap(double sigma, long features, std::uint64_t seed)
      : sigma_(sigma), D_(static_cast<std::size_t>(features)), seed_(seed) {}

  std::size_t dimension(std::size_t d) const override {
    kexp_kernels::require_sane_dimension(static_cast<double>(D_),
                                         "features = " + std::to_string(D_));
    (void)d;
    return D_;
  }

  bool exact() const override { return false; }

  double flops(std::size_t n, std::size_t d) const override {
    return static_cast<double>(D_) * static_cast<double>(n) * (2.0 * static_cast<double>(d) + 22.0);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    // The frequencies depend only on (seed, σ, d), so training and test points, mapped
    // in separate calls, get the same ones.
    std::mt19937_64 rng(seed_);
    std::normal_distribution<double> normal(0.0, 1.0 / sigma_);
    std::uniform_real_distribution<double> phase(0.0, 2.0 * arma::datum::pi);
    arma::mat W(X.n_rows, D_);
    arma::vec b(D_);
    for (std::size_t i = 0; i < D_; ++i) {
      for (arma::uword k = 0; k < X.n_rows; ++k) W(k, i) = normal(rng);
      b[i] = phase(rng);
    }
    Phi = W.t() * X;  // into Phi's own storage
    // φ(x) = √(2/D) cos(Wᵀx + b), the phase and cosine in one pass over Φ, on all cores
    const double scale = std::sqrt(2.0 / static_cast<double>(D_));
    const arma::uword rows = Phi.n_rows;
    double* const phi = Phi.memptr();
    const double* const phase_of = b.memptr();
    kexp::parallel_for(Phi.n_cols,
                       [&](std::size_t j) { cos_features(phi + j * rows, phase_of, rows, scale); });
  }

 private:
  double sigma_;
  std::size_t D_;
  std::uint64_t seed_;
};

/// k as a formula: the float64 and float32 Gram matrices and k itself are its program's.
std::shared_ptr<const kexp::Formula> gaussian_formula() {
  static const auto formula = std::make_shared<const kexp::Formula>(
      "exp(-r2 / (2 * sigma^2))", std::vector<std::string>{"sigma"});
  return formula;
}

class GaussianKernel final : public kexp::FormulaKernel, public kexp::DeviceForm {
 public:
  explicit GaussianKernel(const kexp::Params& p)
      : FormulaKernel(gaussian_formula(), {p.real("sigma")}), params_(p), sigma_(p.real("sigma")) {
    const std::string& map = p.string("map");
    if (map == "taylor") map_ = std::make_unique<TaylorMap>(sigma_, p.integer("order"));
    if (map == "rff") {
      map_ = std::make_unique<RandomFourierMap>(sigma_, p.integer("features"),
                                                static_cast<std::uint64_t>(p.integer("seed")));
    }
  }

  bool positive_semidefinite() const override { return true; }
  kexp::DeviceProgram device_form() const override {
    return {{kexp::DeviceOp::gaussian, sigma_, 0, 0}};
  }
  const kexp::FeatureMap* feature_map() const override { return map_.get(); }

  bool learnable() const override { return true; }
  std::vector<kexp::Hyperparameter> hyperparameters() const override { return {{"sigma", sigma_}}; }

  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    // 2d for the inner product, 3 for the distance, ~20 for exp
    return static_cast<double>(n) * static_cast<double>(m) * (2.0 * static_cast<double>(d) + 23.0);
  }

 protected:
  std::unique_ptr<kexp::Kernel> compute_with_hyperparameters(const arma::vec& v) const override {
    kexp::Params p = params_;
    p.set("sigma", v[0]);
    return std::make_unique<GaussianKernel>(p);
  }

  // ∂k/∂ log σ = σ·∂k/∂σ = k·‖x − z‖²/σ².
  void compute_gram_gradient(const arma::mat& X, arma::cube& dK) const override {
    const double gamma = scale(), inverse = 1.0 / (sigma_ * sigma_);
    kexp::gram::from_squared_distances(X, dK.slice(0), [gamma, inverse](double s) noexcept {
      return std::exp(-gamma * s) * s * inverse;
    });
  }

 private:
  double scale() const { return 1.0 / (2.0 * sigma_ * sigma_); }

  kexp::Params params_;
  double sigma_;
  std::unique_ptr<kexp::FeatureMap> map_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("sigma", "1.0", "bandwidth σ: k = exp(−‖x − z‖² / (2σ²))")
        .greater_than(0)
        .log_scale(),
    kexp::param::choice("map", "none", "none|taylor|rff",
                        "feature map for primal solvers: none, taylor (truncated Taylor series, "
                        "D = C(order + d, d)) or rff (random Fourier features, D = features)"),
    kexp::param::integer("order", "4", "taylor: highest total degree m of the monomials kept")
        .at_least(0),
    kexp::param::integer("features", "1000", "rff: number of random features D")
        .at_least(1)
        .log_scale(),
    kexp::param::integer("seed", "0", "rff: seed of the random frequencies and phases").at_least(0),
};

constexpr kexp::PluginInfo kInfo{
    "gaussian", "1.1.0",
    "k(x, z) = exp(−‖x − z‖² / (2σ²)); approximate feature maps: truncated Taylor "
    "φ_α(x) = exp(−‖x‖²/2σ²)·x^α/(σ^|α|·√α!), |α| ≤ m, D = C(m + d, d); random Fourier "
    "φ_i(x) = √(2/D)·cos(w_iᵀx + b_i), w_i ~ N(0, σ⁻²I)",
    kParams, kexp::flags::psd_always | kexp::flags::approximate_map};

}  // namespace

KEXP_PLUGIN(GaussianKernel, kInfo)
