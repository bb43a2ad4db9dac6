// friedman1: the regression benchmark of Friedman (1991), "Multivariate Adaptive Regression
// Splines", Annals of Statistics 19(1), 1–67:
//
//   xᵢ ~ Uniform[0, 1]^d,  d ≥ 5,
//   y = 10 sin(π x₁ x₂) + 20 (x₃ − 1/2)² + 10 x₄ + 5 x₅ + ε,   ε ~ N(0, noise²).
//
// Only the first five inputs matter; the other d − 5 are noise features. Friedman used
// d = 10 and noise 1, the defaults here (as in scikit-learn's make_friedman1).
#include <kexp/kexp.hpp>

#include <cmath>
#include <random>

namespace {

class Friedman1Dataset final : public kexp::Dataset {
 public:
  explicit Friedman1Dataset(const kexp::Params& p)
      : n_(p.integer("n")), d_(p.integer("d")), noise_(p.real("noise")) {}

  std::optional<kexp::DataShape> shape(const kexp::DatasetContext& /*context*/) const override {
    return kexp::DataShape{static_cast<std::size_t>(n_), static_cast<std::size_t>(d_)};
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    std::mt19937_64 rng(context.seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    const auto n = static_cast<arma::uword>(n_), d = static_cast<arma::uword>(d_);
    const double pi = std::acos(-1.0);
    kexp::Data data;
    data.task = kexp::Task::Regression;
    data.X.set_size(d, n);
    data.y.set_size(n);
    for (arma::uword i = 0; i < n; ++i) {
      for (arma::uword j = 0; j < d; ++j) data.X(j, i) = uniform(rng);
      const double* x = data.X.colptr(i);
      data.y[i] = 10.0 * std::sin(pi * x[0] * x[1]) + 20.0 * (x[2] - 0.5) * (x[2] - 0.5) +
                  10.0 * x[3] + 5.0 * x[4] + noise_ * normal(rng);
    }
    return data;
  }

 private:
  std::int64_t n_, d_;
  double noise_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("n", "200", "number of samples (training and test together)")
        .at_least(2)
        .at_most(1e8),
    kexp::param::integer("d", "10", "input dimension; the first 5 inputs carry the signal")
        .at_least(5)
        .at_most(1e5),
    kexp::param::real("noise", "1.0", "standard deviation of the Gaussian noise on y").at_least(0),
};

constexpr kexp::PluginInfo kInfo{
    "friedman1", "1.0.0",
    "y = 10 sin(π x₁x₂) + 20(x₃ − ½)² + 10x₄ + 5x₅ + N(0, noise²), x ~ U[0,1]^d, d ≥ 5", kParams,
    kexp::flags::regression};

}  // namespace

KEXP_PLUGIN(Friedman1Dataset, kInfo)
