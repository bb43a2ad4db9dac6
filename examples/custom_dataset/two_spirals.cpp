// two_spirals: two interleaved spirals in the plane, a classification problem that no
// line and no low-degree polynomial separates (Lang & Witbrock, Learning to tell two
// spirals apart, 1988).
//
//   tᵢ ~ Uniform[0, 1],   θᵢ = 2π · turns · tᵢ,
//   xᵢ = yᵢ · tᵢ · (cos θᵢ, sin θᵢ) + εᵢ,   εᵢ ~ N(0, noise² I₂),
//
// with yᵢ = +1 for even i and −1 for odd i: the class −1 spiral is the class +1 spiral
// turned by π. The samples alternate between the classes, so every part of the data holds
// both.
#include <kexp/kexp.hpp>

#include <cmath>
#include <random>
#include <vector>

namespace {

class TwoSpirals final : public kexp::Dataset {
 public:
  explicit TwoSpirals(const kexp::Params& p)
      : n_(p.integer("n")), turns_(p.real("turns")), noise_(p.real("noise")) {}

  kexp::Data load(const kexp::DatasetContext& context) const override {
    const auto n = static_cast<arma::uword>(n_);
    // Every random number is drawn here, on one thread and in a fixed order, so that the
    // data depend on the seed alone and not on the number of threads.
    std::mt19937_64 rng(context.seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> t(n), e1(n), e2(n);
    for (arma::uword i = 0; i < n; ++i) {
      t[i] = uniform(rng);
      e1[i] = normal(rng);
      e2[i] = normal(rng);
    }

    kexp::Data data;
    data.task = kexp::Task::Classification;  // the runner reports test_accuracy
    data.X.set_size(2, n);
    data.y.set_size(n);
    const double omega = 2.0 * std::acos(-1.0) * turns_;
    // The rest is arithmetic on the draws: each column on its own, in parallel.
    kexp::parallel_for(n, [&](std::size_t i) {
      const double label = i % 2 == 0 ? 1.0 : -1.0;
      const double angle = omega * t[i];
      data.X(0, i) = label * t[i] * std::cos(angle) + noise_ * e1[i];
      data.X(1, i) = label * t[i] * std::sin(angle) + noise_ * e2[i];
      data.y[i] = label;
    });
    data.feature_names = {"x1", "x2"};
    return data;
  }

 private:
  std::int64_t n_;
  double turns_, noise_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("n", "200", "number of samples, both classes, training and test")
        .at_least(2)
        .at_most(1e8),
    kexp::param::real("turns", "1.0", "turns of each spiral").greater_than(0).at_most(100),
    kexp::param::real("noise", "0.05", "standard deviation of the Gaussian noise on x").at_least(0),
};

constexpr kexp::PluginInfo kInfo{
    "two_spirals", "0.1.0",
    "two spirals x = ±t(cos 2π·turns·t, sin 2π·turns·t) + N(0, noise²), y = ±1", kParams,
    kexp::flags::classification};

}  // namespace

KEXP_PLUGIN(TwoSpirals, kInfo)
