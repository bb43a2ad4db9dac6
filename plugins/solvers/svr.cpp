// svr: ε-support vector regression in the dual, by SMO on the kernel's columns
//
//   min_{α,α*} ½ (α − α*)ᵀK(α − α*) + ε Σᵢ (αᵢ + αᵢ*) − Σᵢ yᵢ(αᵢ − αᵢ*),
//   0 ≤ αᵢ, αᵢ* ≤ C,  Σᵢ (αᵢ − αᵢ*) = 0,   f(x) = Σᵢ (αᵢ − αᵢ*) k(xᵢ, x) − ρ,
//
// the dual of min ½‖w‖² + C Σ max(0, |yᵢ − wᵀφ(xᵢ) − b| − ε) (Vapnik 1995; Smola &
// Schölkopf, A tutorial on support vector regression, 2004), solved as LIBSVM's `-s 3`:
// the 2n variables α, α* in one SMO problem with second-order working-set selection,
// shrinking, and a least-recently-used cache of whole kernel columns by point
// (common/smo.hpp, common/svm_dual.hpp). The solver reaches the kernel
// (flags::kernel_inputs): no n × n K is built, each column is computed by the kernel's Gram
// path on kexp's threads when first needed and kept while the cache (`cache_bytes`, by
// default half the run's memory budget) has room; fit_flops counts the kernel evaluations
// made. `loss: squared_epsilon_insensitive` squares the loss (K + I/(2C), no upper bound);
// `bias` as svc's: free (LIBSVM's), regularized (the kernel k + 1, as linear_svr's bias
// feature) or none. `tolerance` is LIBSVM's -e; after `iterations` steps the cell ends
// with converged false.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <algorithm>

#include "common/svm_dual.hpp"

namespace {

using kexp_solvers::DecisionFunction;
using kexp_solvers::DualSettings;
using kexp_solvers::DualStats;

class Svr final : public kexp::Solver {
 public:
  explicit Svr(const kexp::Params& p) {
    settings_ = kexp_solvers::dual_settings(p, "squared_epsilon_insensitive");
    cache_bytes_ = p.real("cache_bytes");
  }

  /// The cache, the solver's copy of the points, eight vectors of 2n and two of its
  /// gathered columns, the support vectors kept (at most all n points) and the tiles of
  /// the prediction's product.
  double memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    const double x = static_cast<double>(n), dd = static_cast<double>(d);
    return kexp_solvers::cache_size(cache_bytes_, n) + 8.0 * x * (dd + 20.0) +
           8.0 * x * (dd + 1.0) + kexp::gram::product_block_bytes(m, n) +
           8.0 * static_cast<double>(m);
  }

  /// Every step computing its two columns anew, and updating the gradient of 2n variables.
  double fit_flops_bound(std::size_t n, std::size_t d, const kexp::Kernel* kernel) const override {
    if (kernel == nullptr) return -1;
    const double x = static_cast<double>(n);
    const double step = 2.0 * kernel->gram_flops(n, 1, d) + 8.0 * x;
    return static_cast<double>(settings_.iterations) * step + 2.0 * step;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const kexp::Kernel& kernel = *data.kernel;
    const arma::mat& X = *data.inputs;
    DualSettings s = settings_;
    s.cache_bytes = kexp_solvers::cache_size(cache_bytes_, X.n_cols);
    DualStats stats;
    DecisionFunction f = kexp_solvers::train_regression(kernel, X, *data.targets, s, stats);
    report.fitted = f.training;
    const std::size_t bounded = f.bounded;
    const double offset = settings_.bias == kexp_solvers::Bias::Regularized ? 1.0 : 0.0;
    support_ = kexp_solvers::gather_support(X, {std::move(f)}, offset);
    report.iterations = stats.iterations;
    report.converged = stats.converged;
    report.fit_flops = stats.kernel_flops + stats.update_flops;
    report.matrix_bytes =
        stats.peak_cache_bytes + 8.0 * 20.0 * static_cast<double>(X.n_cols) + support_.bytes();
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
    kexp::Prediction p;
    p.mean = support_.decisions(*data.kernel, *data.inputs).col(0);
    report.predict_flops = support_.decision_flops(*data.kernel, data.inputs->n_cols);
    return p;
  }

 private:
  DualSettings settings_;
  double cache_bytes_ = 0;
  kexp_solvers::SupportVectors support_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("c", "1.0", "the penalty C of the errors beyond ε (`C` is read as `c`)")
        .greater_than(0)
        .log_scale(),
    kexp::param::real("epsilon", "0.1", "the half-width ε of the tube with no loss (LIBSVM's -p)")
        .at_least(0),
    kexp::param::choice("loss", "epsilon_insensitive",
                        "epsilon_insensitive|squared_epsilon_insensitive",
                        "C Σ max(0, |r| − ε) (LIBSVM's), or its square (K + I/(2C), no upper "
                        "bound)"),
    kexp::param::choice("bias", "free", "free|regularized|none",
                        "b free (Σ(αᵢ − αᵢ*) = 0, LIBSVM's); regularized (the kernel k + 1, as "
                        "linear_svr's bias feature); or none"),
    kexp::param::real("tolerance", "1e-3",
                      "stop when the largest KKT violation m(α) − M(α) ≤ tolerance (LIBSVM's -e)")
        .greater_than(0)
        .log_scale(),
    kexp::param::boolean("shrinking", "true", "shrink the active set (LIBSVM's -h)"),
    kexp::param::real("cache_bytes", "0",
                      "bytes of kernel columns kept; 0: half the run's memory budget")
        .at_least(0),
    kexp::param::integer("iterations", "10000000", "most SMO steps; past them, converged: false")
        .at_least(1),
};
constexpr const char* kMetrics[] = {
    "support_vectors", "bounded_support_vectors", "kernel_evaluations", "cache_hit_rate",
    "cache_bytes",     "dual_objective",          "kernel_indefinite",  "nonpositive_curvature"};
constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo("svr", "1.0.0",
                     "ε-SVR by SMO on kernel columns: f(x) = Σ (αᵢ − αᵢ*) k(xᵢ, x) − ρ, "
                     "0 ≤ α, α* ≤ C, Σ(αᵢ − αᵢ*) = 0",
                     kParams,
                     kexp::flags::dual | kexp::flags::kernel_inputs | kexp::flags::iterative)
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(Svr, kInfo)
