// fisher: the Fisher kernel (Jaakkola and Haussler 1999) of a Gaussian mixture fitted to
// the training inputs
//
//   k(x, z) = g(x)ᵀ F⁻¹ g(z),   g(x) = ∇_θ log p(x | θ̂),   φ(x) = F^{−1/2} g(x),
//
// with p a diagonal Gaussian mixture of G components fitted by EM on the training part
// (common/gaussian_mixture.hpp: maximum likelihood, variances divided by Nᵢ and floored,
// a k-means++ start from the fit's seed); G = 1 is one diagonal Gaussian. θ holds the
// weights' logits a₁ … a_{G−1} (wᵢ = e^{aᵢ} / Σ e^{a}, a_G = 0), every mean μᵢⱼ and every
// variance vᵢⱼ, so D = (G − 1) + 2·G·d:
//   ∂/∂aᵢ = γᵢ(x) − wᵢ,   ∂/∂μᵢⱼ = γᵢ(x)(xⱼ − μᵢⱼ)/vᵢⱼ,
//   ∂/∂vᵢⱼ = γᵢ(x)((xⱼ − μᵢⱼ)²/vᵢⱼ² − 1/vᵢⱼ)/2,
// γᵢ(x) the responsibility of component i.
//
// information: empirical — F = (1/n) Σₖ g(xₖ) g(xₖ)ᵀ over the training part (at the
// maximum-likelihood θ̂ the scores average to zero, so F is their covariance), and
// F^{−1/2} its pseudo-inverse root (common/fisher_information.hpp). The kernel is then
// invariant to reparametrising θ. identity — F = I, k = g(x)ᵀ g(z).
#include <kexp/kexp.hpp>

#include <memory>
#include <string>

#include "common/feature_map_kernel.hpp"
#include "common/fisher_information.hpp"
#include "common/gaussian_mixture.hpp"

namespace {

struct FisherState {
  kexp_kernels::DiagonalMixture model;
  arma::mat whiten;  ///< F^{−1/2}; empty for the identity
  bool fitted = false;

  /// Φ, D × n.
  void features(const arma::mat& X, arma::mat& Phi) const {
    if (!fitted) {
      throw kexp::InvalidArgument(
          "the Fisher kernel learns from the training data: call fit() before using it");
    }
    if (X.n_rows != model.means.n_rows) {
      throw kexp::InvalidArgument("the Fisher kernel was fitted in " +
                                  std::to_string(model.means.n_rows) + " dimensions, not " +
                                  std::to_string(X.n_rows));
    }
    if (whiten.is_empty()) {
      Phi = kexp_kernels::fisher_scores(model, X);
    } else {
      kexp::linalg::multiply_by_columns(whiten, kexp_kernels::fisher_scores(model, X), Phi);
    }
  }
};

class FisherMap final : public kexp::FeatureMap {
 public:
  FisherMap(const FisherState& state, arma::uword components)
      : state_(state), components_(components) {}
  std::size_t dimension(std::size_t d) const override {
    return components_ - 1 + 2 * components_ * d;
  }
  bool exact() const override { return true; }
  double flops(std::size_t n, std::size_t d) const override {
    const double D = static_cast<double>(dimension(d));
    return static_cast<double>(n) *
           (static_cast<double>(components_) * (10.0 * static_cast<double>(d) + 25.0) +
            2.0 * D * D);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    state_.features(X, Phi);
  }

 private:
  const FisherState& state_;
  arma::uword components_;
};

class FisherKernel final : public kexp_kernels::FeatureMapKernel {
 public:
  explicit FisherKernel(const kexp::Params& p)
      : empirical_(p.string("information") == "empirical"),
        map_(state_, static_cast<arma::uword>(p.integer("components"))) {
    options_.components = static_cast<arma::uword>(p.integer("components"));
    options_.iterations = p.integer("iterations");
    options_.tolerance = p.real("tolerance");
    options_.variance_floor = p.real("variance_floor");
  }
  FisherKernel(const FisherKernel&) = delete;  // the map refers to this object's state
  FisherKernel& operator=(const FisherKernel&) = delete;
  bool positive_semidefinite() const override { return true; }
  const kexp::FeatureMap* feature_map() const override { return &map_; }
  /// Φ, D × n.
  void features(const arma::mat& X, arma::mat& Phi) const override { state_.features(X, Phi); }
  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    return map_.flops(n + m, d) + 2.0 * static_cast<double>(n) * static_cast<double>(m) *
                                      static_cast<double>(map_.dimension(d));
  }

 protected:
  void compute_fit(const kexp::KernelFitData& data) override {
    options_.seed = data.seed;
    state_.fitted = false;  // until the model and F^{−1/2} are both new
    state_.model = kexp_kernels::fit_mixture(*data.X, options_).model;
    state_.whiten.reset();
    if (empirical_) {
      state_.whiten = kexp_kernels::inverse_root_information(
          kexp_kernels::fisher_scores(state_.model, *data.X));
    }
    state_.fitted = true;
  }

 private:
  kexp_kernels::MixtureFitOptions options_;
  bool empirical_;
  FisherState state_;
  FisherMap map_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("components", "1",
                         "number G of Gaussian components of the model (1: one diagonal Gaussian)")
        .at_least(1),
    kexp::param::choice("information", "empirical", "empirical|identity",
                        "F: empirical (the mean of g gᵀ over the training part; its "
                        "pseudo-inverse square root) or identity (k = g(x)ᵀg(z))"),
    kexp::param::integer("iterations", "200", "most EM iterations").at_least(1),
    kexp::param::real("tolerance", "1e-8",
                      "EM stops when the mean log-likelihood rises by less than this, "
                      "relative to its size")
        .greater_than(0),
    kexp::param::real("variance_floor", "1e-3",
                      "smallest variance of a component, as a fraction of the feature's "
                      "variance over the training part")
        .greater_than(0),
};
constexpr kexp::PluginInfo kInfo{
    "fisher", "1.0.1",
    "k(x, z) = g(x)ᵀ F⁻¹ g(z), g = ∇_θ log p(x|θ) of a diagonal Gaussian mixture fitted by "
    "EM to the training inputs (θ: weight logits, means, variances), F the empirical Fisher "
    "information or I; exact map φ = F^{−1/2} g, D = G − 1 + 2Gd",
    kParams, kexp::flags::psd_always | kexp::flags::exact_map | kexp::flags::fitted};

}  // namespace

KEXP_PLUGIN(FisherKernel, kInfo)
