// cubic: the running example of the theory, a cubic polynomial plus Gaussian noise.
//
//   xᵢ ~ Uniform[−1, 1]^d,   u = (1/√d) Σⱼ xⱼ,   y = f(x) + ε,   ε ~ N(0, noise²),
//   f(x) = u³ − u / 2 + Σⱼ xⱼ² / (2d).
//
// A degree-3 polynomial of x: the cubic and polynomial (degree ≥ 3) kernels represent it
// exactly. In 1-D, f(x) = x³ + x²/2 − x/2.
#include <kexp/kexp.hpp>

#include <cmath>
#include <random>

namespace {

class CubicDataset final : public kexp::Dataset {
 public:
  explicit CubicDataset(const kexp::Params& p)
      : n_(p.integer("n")), d_(p.integer("d")), noise_(p.real("noise")) {}

  std::optional<kexp::DataShape> shape(const kexp::DatasetContext& /*context*/) const override {
    return kexp::DataShape{static_cast<std::size_t>(n_), static_cast<std::size_t>(d_)};
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    std::mt19937_64 rng(context.seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    const auto n = static_cast<arma::uword>(n_), d = static_cast<arma::uword>(d_);
    kexp::Data data;
    data.X.set_size(d, n);
    data.y.set_size(n);
    const double root_d = std::sqrt(static_cast<double>(d));
    for (arma::uword i = 0; i < n; ++i) {
      double sum = 0, squares = 0;
      for (arma::uword j = 0; j < d; ++j) {
        const double x = uniform(rng);
        data.X(j, i) = x;
        sum += x;
        squares += x * x;
      }
      const double u = sum / root_d;
      data.y[i] =
          u * u * u - u / 2.0 + squares / (2.0 * static_cast<double>(d)) + noise_ * normal(rng);
    }
    data.task = kexp::Task::Regression;
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
    kexp::param::integer("d", "1", "input dimension").at_least(1).at_most(1e5),
    kexp::param::real("noise", "0.1", "standard deviation of the Gaussian noise on y").at_least(0),
};

constexpr kexp::PluginInfo kInfo{
    "cubic", "1.0.0", "y = u³ − u/2 + ‖x‖²/(2d) + N(0, noise²), u = Σx/√d, x ~ U[−1,1]^d", kParams,
    kexp::flags::regression};

}  // namespace

KEXP_PLUGIN(CubicDataset, kInfo)
