// mixture: the kernel of a Gaussian mixture fitted to the training inputs
//
//   k(x, z) = Σᵢ p(x | i) p(z | i) p(i),   φᵢ(x) = √p(i) · p(x | i),   D = G,
//
// with p(x | i) = N(x; μᵢ, diag vᵢ) and p(i) = wᵢ fitted by EM on the training part
// (common/gaussian_mixture.hpp: maximum likelihood, variances divided by Nᵢ and floored,
// a k-means++ start from the fit's seed). The map is exact and the kernel PSD, an inner
// product of φ. With one component it is the product kernel k(x, z) = p(x) p(z) of the
// Gaussian fitted to the data.
//
// The densities are small in many dimensions (about (2π)^{−d/2} at the mode for unit
// variances), so k is too, and a ridge λ must be scaled with it; `normalize` divides φ by
// its norm instead, k(x, z) / √(k(x, x) k(z, z)), computed in log space.
#include <kexp/kexp.hpp>

#include <cmath>
#include <memory>

#include "common/feature_map_kernel.hpp"
#include "common/gaussian_mixture.hpp"

namespace {

struct MixtureState {
  kexp_kernels::DiagonalMixture model;
  bool fitted = false;
  bool normalize = false;

  /// Φ, G × n.
  void features(const arma::mat& X, arma::mat& Phi) const {
    if (!fitted) {
      throw kexp::InvalidArgument(
          "the mixture kernel learns from the training data: call fit() before using it");
    }
    if (X.n_rows != model.means.n_rows) {
      throw kexp::InvalidArgument("the mixture kernel was fitted in " +
                                  std::to_string(model.means.n_rows) + " dimensions, not " +
                                  std::to_string(X.n_rows));
    }
    // log φᵢ(x) = log wᵢ + log N(x; μᵢ, vᵢ) − ½ log wᵢ
    arma::mat L = model.log_joint(X);
    L.each_col() -= 0.5 * arma::log(model.weights);
    if (normalize) {
      for (arma::uword k = 0; k < L.n_cols; ++k) {
        const double top = L.col(k).max();
        L.col(k) -= top + 0.5 * std::log(arma::accu(arma::exp(2.0 * (L.col(k) - top))));
      }
    }
    Phi = arma::exp(L);
  }
};

class MixtureMap final : public kexp::FeatureMap {
 public:
  MixtureMap(const MixtureState& state, arma::uword components)
      : state_(state), components_(components) {}
  std::size_t dimension(std::size_t /*d*/) const override { return components_; }
  bool exact() const override { return true; }
  double flops(std::size_t n, std::size_t d) const override {
    return static_cast<double>(n) * static_cast<double>(components_) *
           (4.0 * static_cast<double>(d) + 25.0);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    state_.features(X, Phi);
  }

 private:
  const MixtureState& state_;
  arma::uword components_;
};

class MixtureKernel final : public kexp_kernels::FeatureMapKernel {
 public:
  explicit MixtureKernel(const kexp::Params& p)
      : map_(state_, static_cast<arma::uword>(p.integer("components"))) {
    options_.components = static_cast<arma::uword>(p.integer("components"));
    options_.iterations = p.integer("iterations");
    options_.tolerance = p.real("tolerance");
    options_.variance_floor = p.real("variance_floor");
    state_.normalize = p.boolean("normalize");
  }
  MixtureKernel(const MixtureKernel&) = delete;  // the map refers to this object's state
  MixtureKernel& operator=(const MixtureKernel&) = delete;
  bool positive_semidefinite() const override { return true; }
  const kexp::FeatureMap* feature_map() const override { return &map_; }
  /// Φ, G × n.
  void features(const arma::mat& X, arma::mat& Phi) const override { state_.features(X, Phi); }
  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    return map_.flops(n + m, d) + 2.0 * static_cast<double>(n) * static_cast<double>(m) *
                                      static_cast<double>(options_.components);
  }

 protected:
  void compute_fit(const kexp::KernelFitData& data) override {
    options_.seed = data.seed;
    state_.fitted = false;
    state_.model = kexp_kernels::fit_mixture(*data.X, options_).model;
    state_.fitted = true;
  }

 private:
  kexp_kernels::MixtureFitOptions options_;
  MixtureState state_;
  MixtureMap map_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("components", "2",
                         "number G of Gaussian components (1: the product kernel p(x)p(z))")
        .at_least(1),
    kexp::param::integer("iterations", "200", "most EM iterations").at_least(1),
    kexp::param::real("tolerance", "1e-8",
                      "EM stops when the mean log-likelihood rises by less than this, "
                      "relative to its size")
        .greater_than(0),
    kexp::param::real("variance_floor", "1e-3",
                      "smallest variance of a component, as a fraction of the feature's "
                      "variance over the training part")
        .greater_than(0),
    kexp::param::boolean("normalize", "false",
                         "divide φ(x) by its norm: k(x, z) / √(k(x, x) k(z, z))"),
};
constexpr kexp::PluginInfo kInfo{
    "mixture", "1.0.1",
    "k(x, z) = Σᵢ p(x|i) p(z|i) p(i) of a diagonal Gaussian mixture fitted by EM to the "
    "training inputs; exact map φᵢ(x) = √p(i)·p(x|i), D = G; G = 1 is p(x)p(z)",
    kParams, kexp::flags::psd_always | kexp::flags::exact_map | kexp::flags::fitted};

}  // namespace

KEXP_PLUGIN(MixtureKernel, kInfo)
