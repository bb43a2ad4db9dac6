// gaussian: the Gaussian (RBF) kernel
//
//   k(x, z) = exp(−‖x − z‖² / (2σ²)),   σ > 0.
//
// PSD for every σ > 0. Its feature space is infinite-dimensional, so it has no exact
// finite map.
#include <kexp/kexp.hpp>

#include <cmath>

namespace {

class GaussianKernel final : public kexp::Kernel {
 public:
  explicit GaussianKernel(const kexp::Params& p) : sigma_(p.real("sigma")) {}

  bool positive_semidefinite() const override { return true; }

  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    // 2d for the inner product, 3 for the distance, ~20 for exp
    return static_cast<double>(n) * static_cast<double>(m) * (2.0 * static_cast<double>(d) + 23.0);
  }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return std::exp(-arma::accu(arma::square(x - z)) * scale());
  }

  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    const double c = scale();
    kexp::gram::from_squared_distances(X, Z, K, [c](double s) { return std::exp(-c * s); });
  }

  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    const double c = scale();
    kexp::gram::from_squared_distances(X, K, [c](double s) { return std::exp(-c * s); });
  }

  void compute_diagonal(const arma::mat&, arma::vec& diag) const override { diag.ones(); }

 private:
  double scale() const { return 1.0 / (2.0 * sigma_ * sigma_); }

  double sigma_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("sigma", "1.0", "bandwidth σ: k = exp(−‖x − z‖² / (2σ²))")
        .greater_than(0)
        .log_scale(),
};

constexpr kexp::PluginInfo kInfo{"gaussian", "1.0.0", "k(x, z) = exp(−‖x − z‖² / (2σ²))", kParams,
                                 kexp::flags::psd_always};

}  // namespace

KEXP_PLUGIN(GaussianKernel, kInfo)
