// sine: a smooth nonlinear regression target, the curve-fitting example of Bishop's
// Pattern Recognition and Machine Learning (§1.1) in 1-D.
//
//   xᵢ ~ Uniform[0, 1]^d,   y = (1/√d) Σⱼ sin(2π · frequency · xⱼ) + ε,   ε ~ N(0, noise²).
//
// In 1-D, y = sin(2π · frequency · x) + ε. No polynomial represents it exactly; its
// smoothness suits the Gaussian kernel.
#include <kexp/kexp.hpp>

#include <cmath>
#include <random>

namespace {

class SineDataset final : public kexp::Dataset {
 public:
  explicit SineDataset(const kexp::Params& p)
      : n_(p.integer("n")),
        d_(p.integer("d")),
        noise_(p.real("noise")),
        frequency_(p.real("frequency")) {}

  std::optional<kexp::DataShape> shape(const kexp::DatasetContext& /*context*/) const override {
    return kexp::DataShape{static_cast<std::size_t>(n_), static_cast<std::size_t>(d_)};
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    std::mt19937_64 rng(context.seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    const auto n = static_cast<arma::uword>(n_), d = static_cast<arma::uword>(d_);
    const double omega = 2.0 * std::acos(-1.0) * frequency_;
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    kexp::Data data;
    data.task = kexp::Task::Regression;
    data.X.set_size(d, n);
    data.y.set_size(n);
    for (arma::uword i = 0; i < n; ++i) {
      double sum = 0;
      for (arma::uword j = 0; j < d; ++j) {
        const double x = uniform(rng);
        data.X(j, i) = x;
        sum += std::sin(omega * x);
      }
      data.y[i] = scale * sum + noise_ * normal(rng);
    }
    return data;
  }

 private:
  std::int64_t n_, d_;
  double noise_, frequency_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("n", "200", "number of samples (training and test together)")
        .at_least(2)
        .at_most(1e8),
    kexp::param::integer("d", "1", "input dimension").at_least(1).at_most(1e5),
    kexp::param::real("noise", "0.1", "standard deviation of the Gaussian noise on y").at_least(0),
    kexp::param::real("frequency", "1.0", "periods of the sine over [0, 1]")
        .greater_than(0)
        .at_most(1e6),
};

constexpr kexp::PluginInfo kInfo{"sine", "1.0.0",
                                 "y = (1/√d) Σⱼ sin(2π f xⱼ) + N(0, noise²), x ~ U[0,1]^d", kParams,
                                 kexp::flags::regression};

}  // namespace

KEXP_PLUGIN(SineDataset, kInfo)
