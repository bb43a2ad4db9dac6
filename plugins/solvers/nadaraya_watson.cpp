// nadaraya_watson: kernel regression by a locally weighted average of the targets
// (Nadaraya, Theory Probab. Appl. 9, 1964; Watson, Sankhyā A 26, 1964; Bishop, Pattern
// Recognition and Machine Learning, §6.3.1):
//
//   ŷ(x) = Σₙ tₙ k(x, xₙ) / Σₙ k(x, xₙ).
//
// Nothing is fitted beyond keeping t. A point whose weights sum to exactly zero (with a
// Gaussian kernel of small σ, a point so far from every training point that all
// k(x, xₙ) underflow) has no weighted average: it is predicted as the mean of t, and the
// number of such points is reported as the metric `zero_weight_points`.
// Prediction 4n flops per point given k(X, x*).
#include <kexp/kexp.hpp>

namespace {

class NadarayaWatson final : public kexp::Solver {
 public:
  explicit NadarayaWatson(const kexp::Params&) {}

  double fit_flops_bound(std::size_t n, std::size_t /*d*/,
                         const kexp::Kernel* /*kernel*/) const override {
    return 4.0 * static_cast<double>(n) * static_cast<double>(n);
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    targets_ = *data.targets;
    mean_ = targets_.n_elem > 0 ? arma::mean(targets_) : 0.0;
    // The fitted values, while K is intact: the same average at the training points.
    std::size_t zero = 0;
    report.fitted = average(*data.gram, zero);
    report.fit_flops += 4.0 * static_cast<double>(data.gram->n_elem);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    std::size_t zero = 0;
    p.mean = average(*data.gram, zero);
    report.predict_flops += 4.0 * static_cast<double>(data.gram->n_elem);
    report.metrics.emplace_back("zero_weight_points", static_cast<double>(zero));
    return p;
  }

 private:
  /// Σₙ tₙ k(xₙ, x) / Σₙ k(xₙ, x) for each column of Kx = K(X, X*); `zero` counts the
  /// columns whose weights sum to zero.
  arma::vec average(const arma::mat& Kx, std::size_t& zero) const {
    const arma::vec numerator = Kx.t() * targets_;
    const arma::vec denominator = arma::sum(Kx, 0).t();
    arma::vec out(Kx.n_cols);
    for (arma::uword j = 0; j < Kx.n_cols; ++j) {
      if (denominator[j] == 0) {
        out[j] = mean_;
        ++zero;
      } else {
        out[j] = numerator[j] / denominator[j];
      }
    }
    return out;
  }

  arma::vec targets_;
  double mean_ = 0;
};

constexpr const char* kMetrics[] = {"zero_weight_points"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"nadaraya_watson", "1.0.0",
                     "kernel-weighted average: ŷ(x) = Σₙ tₙ k(x, xₙ) / Σₙ k(x, xₙ)",
                     kexp::flags::dual}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(NadarayaWatson, kInfo)
