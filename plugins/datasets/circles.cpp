// circles: two concentric circles, the example that a feature map makes linearly separable.
//
//   outer circle (y = −1):  x = (cos tᵢ, sin tᵢ) + ε,           tᵢ = 2π i / n_out,
//   inner circle (y = +1):  x = factor · (cos tᵢ, sin tᵢ) + ε,   tᵢ = 2π i / n_in,
//   ε ~ N(0, noise² I₂),   n_out = ⌊n/2⌋,   n_in = n − n_out,
//
// as scikit-learn's make_circles, with the samples in random order. Without noise the
// classes are split by x₁² + x₂² (1 against factor²): no line separates them in the plane,
// but under φ(x) = [x₁, x₂, x₁² + x₂²] the plane θ₃ = (1 + factor²)/2 does.
#include <kexp/kexp.hpp>

#include <cmath>
#include <random>
#include <utility>

namespace {

class CirclesDataset final : public kexp::Dataset {
 public:
  explicit CirclesDataset(const kexp::Params& p)
      : n_(p.integer("n")), noise_(p.real("noise")), factor_(p.real("factor")) {}

  std::optional<kexp::DataShape> shape(const kexp::DatasetContext& /*context*/) const override {
    return kexp::DataShape{static_cast<std::size_t>(n_), 2};
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    std::mt19937_64 rng(context.seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    const auto n = static_cast<arma::uword>(n_);
    const arma::uword n_out = n / 2, n_in = n - n_out;
    kexp::Data data;
    data.task = kexp::Task::Classification;
    data.X.set_size(2, n);
    data.y.set_size(n);
    const double two_pi = 2.0 * std::acos(-1.0);
    auto circle = [&](arma::uword first, arma::uword count, double radius, double label) {
      for (arma::uword i = 0; i < count; ++i) {
        const double t = two_pi * static_cast<double>(i) / static_cast<double>(count);
        data.X(0, first + i) = radius * std::cos(t) + noise_ * normal(rng);
        data.X(1, first + i) = radius * std::sin(t) + noise_ * normal(rng);
        data.y[first + i] = label;
      }
    };
    circle(0, n_out, 1.0, -1.0);
    circle(n_out, n_in, factor_, 1.0);
    // Fisher–Yates, so that no solver sees one class and then the other.
    for (arma::uword i = n - 1; i > 0; --i) {
      const auto j = static_cast<arma::uword>(rng() % (i + 1));
      if (j == i) continue;
      data.X.swap_cols(i, j);
      std::swap(data.y[i], data.y[j]);
    }
    data.feature_names = {"x1", "x2"};
    return data;
  }

 private:
  std::int64_t n_;
  double noise_, factor_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("n", "200", "number of samples (training and test together)")
        .at_least(2)
        .at_most(1e8),
    kexp::param::real("noise", "0.05", "standard deviation of the Gaussian noise on x").at_least(0),
    kexp::param::real("factor", "0.5", "radius of the inner circle over that of the outer")
        .greater_than(0)
        .less_than(1),
};

constexpr kexp::PluginInfo kInfo{
    "circles", "1.0.0",
    "two circles, radii 1 (y = −1) and factor (y = +1), plus N(0, noise²) on x; "
    "separable by x₁² + x₂²",
    kParams, kexp::flags::classification};

}  // namespace

KEXP_PLUGIN(CirclesDataset, kInfo)
