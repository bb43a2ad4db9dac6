// median_gaussian: the Gaussian kernel k(x, z) = exp(−‖x − z‖² / (2σ²)) whose bandwidth
// is learned from the training inputs by the median heuristic:
//   σ = factor · median ‖xᵢ − xⱼ‖ over the pairs i < j of (up to `sample`) training points
// drawn from the fit's seed. A kernel that learns declares kexp::flags::fitted and
// overrides compute_fit(); kexp fits it on the training part of each dataset variant,
// repeat and validation split before computing anything with it.
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace {

class MedianGaussian final : public kexp::Kernel {
 public:
  explicit MedianGaussian(const kexp::Params& p)
      : factor_(p.real("factor")), sample_(static_cast<std::size_t>(p.integer("sample"))) {}

  bool positive_semidefinite() const override { return true; }

 protected:
  void compute_fit(const kexp::KernelFitData& data) override {
    const arma::mat& X = *data.X;
    // up to `sample` training points, chosen at random from the fit's seed
    std::vector<arma::uword> order(X.n_cols);
    for (arma::uword i = 0; i < X.n_cols; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(data.seed));
    order.resize(std::min(order.size(), sample_));
    std::vector<double> distances;
    for (std::size_t a = 0; a < order.size(); ++a) {
      for (std::size_t b = a + 1; b < order.size(); ++b) {
        distances.push_back(arma::norm(X.col(order[a]) - X.col(order[b])));
      }
    }
    if (distances.empty()) throw kexp::InvalidArgument("the median heuristic needs two points");
    auto middle = distances.begin() + static_cast<std::ptrdiff_t>(distances.size() / 2);
    std::nth_element(distances.begin(), middle, distances.end());
    const double sigma = factor_ * *middle;
    if (!(sigma > 0)) throw kexp::InvalidArgument("the training points are all equal: σ = 0");
    inverse_ = 1.0 / (2.0 * sigma * sigma);
  }

  double compute(const arma::vec& x, const arma::vec& z) const override {
    return std::exp(-arma::accu(arma::square(x - z)) * inverse_);
  }

  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    kexp::gram::exp_of_squared_distances(X, K, inverse_);
  }

 private:
  double factor_;
  std::size_t sample_;
  double inverse_ = 0;  // 1 / (2σ²), learned
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("factor", "1.0", "σ as a multiple of the median distance")
        .greater_than(0)
        .log_scale(),
    kexp::param::integer("sample", "500", "most training points the median is taken over")
        .at_least(2),
};

constexpr kexp::PluginInfo kInfo{
    "median_gaussian", "0.1.0",
    "k(x, z) = exp(−‖x − z‖² / (2σ²)), σ = factor · median pairwise distance of the training "
    "inputs",
    kParams, kexp::flags::psd_always | kexp::flags::fitted};

}  // namespace

KEXP_PLUGIN(MedianGaussian, kInfo)
