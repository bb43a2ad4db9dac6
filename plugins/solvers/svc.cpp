// svc: C-support vector classification in the dual, by SMO on the kernel's columns
//
//   min_α ½ αᵀQα − eᵀα,  0 ≤ αᵢ ≤ C,  yᵀα = 0,  Q_ij = y_i y_j k(x_i, x_j),
//   f(x) = Σᵢ yᵢαᵢ k(xᵢ, x) − ρ,  class sign(f(x)),
//
// the dual of min ½‖w‖² + C Σ max(0, 1 − yᵢ(wᵀφ(xᵢ) + b)) (Cortes & Vapnik 1995), solved as
// LIBSVM solves it (Chang & Lin, LIBSVM: a library for support vector machines, ACM TIST 2,
// 2011): SMO with second-order working-set selection, shrinking, and a least-recently-used
// cache of kernel columns (common/smo.hpp, common/kernel_columns.hpp). The solver reaches
// the kernel (flags::kernel_inputs): no n × n K is built; each column it needs is computed
// by the kernel's Gram path on the block of points it lacks, on kexp's threads, and kept
// while the cache (`cache_bytes`, by default half the run's memory budget) has room. Its
// cost therefore follows the support vectors and the iterations, not n²: fit_flops counts
// the kernel evaluations it made (the metric kernel_evaluations) and the gradient updates.
//
// `loss: squared_hinge` is C Σ ξᵢ² (Q + I/(2C), no upper bound); `bias: regularized` adds
// b² to ‖w‖² (the kernel k + 1, no equality constraint: the bias of LIBLINEAR and of
// linear_svc, with which such a cell pairs); `bias: none` has no b. More than two classes
// (flags::multiclass): one against one, k(k − 1)/2 problems, voted as LIBSVM votes; the
// prediction is then the class label, and for two classes the decision value f(x).
// `tolerance` is LIBSVM's -e; after `iterations` steps the cell ends with converged false. A
// kernel that is not PSD still ends (the τ rule); kernel_indefinite says it was one.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>

#include "common/one_against_one.hpp"
#include "common/svm_dual.hpp"

namespace {

using kexp_solvers::DecisionFunction;
using kexp_solvers::DualSettings;
using kexp_solvers::DualStats;

class Svc final : public kexp::Solver {
 public:
  explicit Svc(const kexp::Params& p) {
    settings_ = kexp_solvers::dual_settings(p, "squared_hinge");
    cache_bytes_ = p.real("cache_bytes");
  }

  /// The cache, the solver's copy of one problem's points, eight vectors of n, the support
  /// vectors kept (at most all n points) and the tiles of the prediction's product.
  double memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    const double x = static_cast<double>(n), dd = static_cast<double>(d);
    return kexp_solvers::cache_size(cache_bytes_, n) + 8.0 * x * (dd + 8.0) + 8.0 * x * (dd + 1.0) +
           kexp::gram::product_block_bytes(m, n) + 8.0 * static_cast<double>(m);
  }

  /// Every step computing its two columns anew, and updating the gradient with them.
  double fit_flops_bound(std::size_t n, std::size_t d, const kexp::Kernel* kernel) const override {
    if (kernel == nullptr) return -1;
    const double x = static_cast<double>(n);
    const double step = 2.0 * kernel->gram_flops(n, 1, d) + 4.0 * x;
    return static_cast<double>(settings_.iterations) * step + 2.0 * step;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const kexp::Kernel& kernel = *data.kernel;
    const arma::mat& X = *data.inputs;
    classes_ = kexp_solvers::classes_for(*data.targets, data.task, "svc");
    binary_ = data.task == kexp::Task::Classification;
    DualStats stats;
    std::vector<DecisionFunction> functions;
    arma::vec fitted;
    for (const auto& [a, b] : kexp_solvers::class_pairs(classes_.labels.size())) {
      const kexp_solvers::PairSamples pair = kexp_solvers::pair_samples(classes_, a, b);
      DualSettings s = settings_;
      s.cache_bytes = kexp_solvers::cache_size(cache_bytes_, pair.index.size());
      const arma::uvec index(pair.index);
      DecisionFunction f = kexp_solvers::train_classifier(kernel, X.cols(index), pair.y, s, stats);
      if (binary_) {
        fitted.set_size(X.n_cols);
        fitted.elem(index) = f.training;
      }
      for (arma::uword& i : f.support) i = index[i];  // the pair's points → the training set's
      functions.push_back(std::move(f));
    }
    const double offset = settings_.bias == kexp_solvers::Bias::Regularized ? 1.0 : 0.0;
    support_ = kexp_solvers::gather_support(X, functions, offset);

    std::size_t bounded = 0;
    for (const DecisionFunction& f : functions) bounded += f.bounded;
    report.iterations = stats.iterations;
    report.converged = stats.converged;
    report.fitted = std::move(fitted);  // empty for more than two classes: the runner predicts
    report.fit_flops = stats.kernel_flops + stats.update_flops;
    report.matrix_bytes = stats.peak_cache_bytes + 8.0 * static_cast<double>(X.n_elem) +
                          64.0 * static_cast<double>(X.n_cols) + support_.bytes();
    report.metrics = {
        {"support_vectors", static_cast<double>(support_.X.n_cols)},
        {"bounded_support_vectors", static_cast<double>(bounded)},
        {"kernel_evaluations", stats.kernel_evaluations},
        {"cache_hit_rate", stats.entries_requested > 0
                               ? 1.0 - stats.kernel_evaluations / stats.entries_requested
                               : 0.0},
        {"cache_bytes", stats.peak_cache_bytes},
        {"dual_objective", stats.objective},
        {"kernel_indefinite", kernel.positive_semidefinite() ? 0.0 : 1.0},
        {"nonpositive_curvature", static_cast<double>(stats.nonpositive_curvature)},
    };
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    const arma::mat decisions = support_.decisions(*data.kernel, *data.inputs);
    report.predict_flops = support_.decision_flops(*data.kernel, data.inputs->n_cols);
    kexp::Prediction p;
    if (binary_) {
      p.mean = decisions.col(0);  // f(x); its sign is the class
    } else {
      p.mean = kexp_solvers::vote(decisions.t(), classes_);
    }
    return p;
  }

 private:
  DualSettings settings_;
  double cache_bytes_ = 0;
  kexp_solvers::Classes classes_;
  bool binary_ = true;
  kexp_solvers::SupportVectors support_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("c", "1.0", "the penalty C of the slacks (`C` is read as `c`)")
        .greater_than(0)
        .log_scale(),
    kexp::param::choice("loss", "hinge", "hinge|squared_hinge",
                        "C Σ ξᵢ (LIBSVM's), or C Σ ξᵢ² (Q + I/(2C), no upper bound)"),
    kexp::param::choice("bias", "free", "free|regularized|none",
                        "b free (yᵀα = 0, LIBSVM's); regularized (the kernel k + 1, as "
                        "linear_svc's bias feature); or none"),
    kexp::param::real("tolerance", "1e-3",
                      "stop when the largest KKT violation m(α) − M(α) ≤ tolerance (LIBSVM's -e)")
        .greater_than(0)
        .log_scale(),
    kexp::param::boolean("shrinking", "true", "shrink the active set (LIBSVM's -h)"),
    kexp::param::real("cache_bytes", "0",
                      "bytes of kernel columns kept; 0: half the run's memory budget")
        .at_least(0),
    kexp::param::integer("iterations", "10000000",
                         "most SMO steps per problem; past them, converged: false")
        .at_least(1),
};
constexpr const char* kMetrics[] = {
    "support_vectors", "bounded_support_vectors", "kernel_evaluations", "cache_hit_rate",
    "cache_bytes",     "dual_objective",          "kernel_indefinite",  "nonpositive_curvature"};
constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo("svc", "1.0.0",
                     "C-SVC by SMO on kernel columns: min ½αᵀQα − eᵀα, 0 ≤ α ≤ C, yᵀα = 0; "
                     "f(x) = Σ yᵢαᵢ k(xᵢ, x) − ρ; one against one for more classes",
                     kParams,
                     kexp::flags::dual | kexp::flags::kernel_inputs | kexp::flags::iterative |
                         kexp::flags::classifier | kexp::flags::multiclass)
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(Svc, kInfo)
