// inverse_multiquadric: k(x, z) = 1/√(‖x − z‖² + c²), c > 0. PSD for every c > 0
// (it is a completely monotone function of ‖x − z‖²).
#include <kexp/kexp.hpp>

#include <cmath>

namespace {

class InverseMultiquadric final : public kexp::Kernel {
 public:
  explicit InverseMultiquadric(const kexp::Params& p) : c2_(p.real("c") * p.real("c")) {}

  bool positive_semidefinite() const override { return true; }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return 1.0 / std::sqrt(arma::accu(arma::square(x - z)) + c2_);
  }

  // Both forms of K go the fast way: K(X, X) for the Gram matrix of the training points,
  // K(X, Z) for the test block and for every tile a matrix-free solver (cg_ridge, falkon)
  // or the Nyström map computes. Without the second, those fall back to compute() pair by
  // pair, several times slower.
  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    const double c2 = c2_;
    kexp::gram::from_squared_distances(X, K,
                                       [c2](double s) noexcept { return 1.0 / std::sqrt(s + c2); });
  }

  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    const double c2 = c2_;
    kexp::gram::from_squared_distances(X, Z, K,
                                       [c2](double s) noexcept { return 1.0 / std::sqrt(s + c2); });
  }

 private:
  double c2_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("c", "1.0", "offset c").greater_than(0).log_scale(),
};

constexpr kexp::PluginInfo kInfo{"inverse_multiquadric", "0.1.0", "k(x, z) = 1/√(‖x − z‖² + c²)",
                                 kParams, kexp::flags::psd_always};

}  // namespace

KEXP_PLUGIN(InverseMultiquadric, kInfo)
