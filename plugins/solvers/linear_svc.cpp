// linear_svc: a linear support vector classifier on the kernel's feature map, by dual
// coordinate descent
//
//   min_θ,b ½(‖θ‖² + b²) + C Σᵢ max(0, 1 − yᵢ(θᵀφ(xᵢ) + b))   (or the squared hinge),
//   f(x) = θᵀφ(x) + b,  class sign(f(x)),
//
// solved in its dual over α ∈ [0, C]ⁿ with θ = Σ αᵢyᵢφ(xᵢ) kept up to date, as LIBLINEAR's
// `-s 3` (`-s 1` for the squared hinge) solves it (common/dual_coordinate_descent.hpp): an
// epoch costs O(n·D) on Φ, never an n × n matrix. The bias is regularized, LIBLINEAR's
// bias feature of value 1 (`-B 1`): that is the dual svc with `bias: regularized`, whose
// kernel is k + 1, so on an exact map the two are one model and pair (same c, loss, bias
// and tolerance); `bias: none` pairs with svc's `bias: none`. On an approximate map
// (random Fourier or Nyström features) the pair shows what the approximation costs.
// More than two classes: one against one, as svc (LIBLINEAR itself trains one against the
// rest). `tolerance`: every projected gradient of an epoch within it of 0 (svc's rule
// without a free bias); after `epochs` epochs, converged false.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <algorithm>

#include "common/dual_coordinate_descent.hpp"
#include "common/one_against_one.hpp"

namespace {

using kexp_solvers::LinearModel;
using kexp_solvers::LinearSettings;

class LinearSvc final : public kexp::Solver {
 public:
  explicit LinearSvc(const kexp::Params& p) {
    settings_ = kexp_solvers::linear_settings(p, "squared_hinge");
  }

  double fit_flops_bound(std::size_t n, std::size_t D, const kexp::Kernel*) const override {
    return kexp_solvers::linear_fit_flops_bound(settings_, n, D);
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& Phi = *data.features;
    classes_ = kexp_solvers::classes_for(*data.targets, data.task, "linear_svc");
    binary_ = data.task == kexp::Task::Classification;
    const auto pairs = kexp_solvers::class_pairs(classes_.labels.size());
    W_.set_size(Phi.n_rows, pairs.size());
    b_.set_size(pairs.size());
    std::vector<bool> support(Phi.n_cols, false);
    std::size_t bounded = 0;
    double objective = 0, flops = 0;
    report.iterations = 0;
    report.converged = true;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const auto samples = kexp_solvers::pair_samples(classes_, pairs[p].first, pairs[p].second);
      const LinearModel m =
          kexp_solvers::train_linear_classifier(Phi, samples.index, samples.y, settings_);
      W_.col(p) = m.w;
      b_[p] = m.b;
      for (std::size_t i = 0; i < samples.index.size(); ++i) {
        if (m.support[i]) support[samples.index[i]] = true;
      }
      bounded += m.bounded;
      objective += m.objective;
      flops += m.flops;
      report.iterations += m.epochs;
      report.converged = report.converged && m.converged;
    }
    if (binary_) report.fitted = Phi.t() * W_.col(0) + b_[0];
    report.fit_flops = flops;
    report.matrix_bytes = 8.0 * static_cast<double>(W_.n_elem + 3 * Phi.n_cols);
    report.metrics = {
        {"support_vectors", static_cast<double>(std::count(support.begin(), support.end(), true))},
        {"bounded_support_vectors", static_cast<double>(bounded)},
        {"dual_objective", objective},
    };
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    const arma::mat& Phi = *data.features;
    arma::mat decisions = W_.t() * Phi;  // pairs × m
    decisions.each_col() += b_;
    report.predict_flops = 2.0 * static_cast<double>(W_.n_elem) * static_cast<double>(Phi.n_cols);
    kexp::Prediction p;
    p.mean = binary_ ? arma::vec(decisions.row(0).t()) : kexp_solvers::vote(decisions, classes_);
    return p;
  }

 private:
  LinearSettings settings_;
  kexp_solvers::Classes classes_;
  bool binary_ = true;
  arma::mat W_;  ///< θ of each pair, D × pairs
  arma::vec b_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("c", "1.0", "the penalty C of the slacks, as svc's (`C` is read as `c`)")
        .greater_than(0)
        .log_scale(),
    kexp::param::choice("loss", "hinge", "hinge|squared_hinge",
                        "C Σ ξᵢ (LIBLINEAR's -s 3), or C Σ ξᵢ² (-s 1)"),
    kexp::param::choice("bias", "regularized", "regularized|none",
                        "a bias feature of value 1, regularized (LIBLINEAR's -B 1; svc's "
                        "`bias: regularized`, the kernel k + 1), or none"),
    kexp::param::real("tolerance", "1e-3",
                      "stop when an epoch's projected gradients lie within it of 0 (as svc's)")
        .greater_than(0)
        .log_scale(),
    kexp::param::integer("epochs", "1000",
                         "most passes over the data (LIBLINEAR's limit); past them, converged: "
                         "false")
        .at_least(1),
};
constexpr const char* kMetrics[] = {"support_vectors", "bounded_support_vectors", "dual_objective"};
constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo("linear_svc", "1.0.0",
                     "linear SVM on Φ by dual coordinate descent: min ½(‖θ‖² + b²) + C Σ "
                     "max(0, 1 − yᵢ(θᵀφ(xᵢ) + b)); one against one for more classes",
                     kParams,
                     kexp::flags::primal | kexp::flags::iterative | kexp::flags::classifier |
                         kexp::flags::multiclass)
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(LinearSvc, kInfo)
