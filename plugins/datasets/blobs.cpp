// blobs: k Gaussian classes in d dimensions, the data of a classifier's test.
//
//   class j ∈ {0, …, k − 1} with probability 1/k,
//   x = cⱼ + ε,  cⱼ = radius · (cos(2πj/k), sin(2πj/k), 0, …, 0),  ε ~ N(0, noise² I_d),
//
// as scikit-learn's make_blobs with its centres on a circle in the plane of the first two
// features; the other d − 2 features are noise only. The classes overlap where the noise
// reaches across the distance between centres (2·radius·sin(π/k)), so radius against noise
// sets how many points a support vector machine keeps as support vectors. Two classes have
// the labels −1 (class 0) and +1 (Task::Classification); more have the labels 0, …, k − 1
// (Task::Multiclass), for a classifier that trains several classes (svc one against one).
#include <kexp/kexp.hpp>

#include <cmath>
#include <random>

namespace {

class BlobsDataset final : public kexp::Dataset {
 public:
  explicit BlobsDataset(const kexp::Params& p)
      : n_(p.integer("n")),
        d_(p.integer("d")),
        classes_(p.integer("classes")),
        radius_(p.real("radius")),
        noise_(p.real("noise")) {}

  std::optional<kexp::DataShape> shape(const kexp::DatasetContext& /*context*/) const override {
    return kexp::DataShape{static_cast<std::size_t>(n_), static_cast<std::size_t>(d_)};
  }

  kexp::Data load(const kexp::DatasetContext& context) const override {
    std::mt19937_64 rng(context.seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<std::int64_t> pick(0, classes_ - 1);
    const auto n = static_cast<arma::uword>(n_), d = static_cast<arma::uword>(d_);
    kexp::Data data;
    data.task = classes_ == 2 ? kexp::Task::Classification : kexp::Task::Multiclass;
    data.X.set_size(d, n);
    data.y.set_size(n);
    const double two_pi = 2.0 * std::acos(-1.0);
    for (arma::uword i = 0; i < n; ++i) {
      const std::int64_t j = pick(rng);
      const double angle = two_pi * static_cast<double>(j) / static_cast<double>(classes_);
      for (arma::uword r = 0; r < d; ++r) data.X(r, i) = noise_ * normal(rng);
      data.X(0, i) += radius_ * std::cos(angle);
      data.X(1, i) += radius_ * std::sin(angle);
      data.y[i] = classes_ == 2 ? (j == 0 ? -1.0 : 1.0) : static_cast<double>(j);
    }
    for (arma::uword r = 0; r < d; ++r) data.feature_names.push_back("x" + std::to_string(r + 1));
    return data;
  }

 private:
  std::int64_t n_, d_, classes_;
  double radius_, noise_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("n", "300", "number of samples (training and test together)")
        .at_least(2)
        .at_most(1e8),
    kexp::param::integer("d", "2", "number of features (the centres lie in the first two)")
        .at_least(2)
        .at_most(1e5),
    kexp::param::integer("classes", "3",
                         "number of classes k; 2 gives labels ±1, more the labels 0 … k − 1")
        .at_least(2)
        .at_most(1000),
    kexp::param::real("radius", "2.0", "radius of the circle of the class centres").greater_than(0),
    kexp::param::real("noise", "1.0", "standard deviation of the Gaussian noise on every feature")
        .greater_than(0),
};

constexpr kexp::PluginInfo kInfo{
    "blobs", "1.0.0",
    "k Gaussian classes: x = cⱼ + N(0, noise² I), centres cⱼ on a circle of the given radius "
    "in the first two features; labels ±1 for two classes, 0 … k − 1 for more",
    kParams, kexp::flags::classification};

}  // namespace

KEXP_PLUGIN(BlobsDataset, kInfo)
