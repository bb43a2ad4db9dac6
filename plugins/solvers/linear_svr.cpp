// linear_svr: linear ε-support vector regression on the kernel's feature map, by dual
// coordinate descent
//
//   min_θ,b ½(‖θ‖² + b²) + C Σᵢ max(0, |yᵢ − θᵀφ(xᵢ) − b| − ε)   (or its square),
//   f(x) = θᵀφ(x) + b,
//
// solved in its dual over β ∈ [−C, C]ⁿ with θ = Σ βᵢφ(xᵢ) kept up to date, as LIBLINEAR's
// `-s 13` (`-s 12` for the squared loss) solves it (common/dual_coordinate_descent.hpp):
// an epoch costs O(n·D) on Φ. The bias is LIBLINEAR's bias feature of value 1 (`-B 1`),
// regularized: that is the dual svr with `bias: regularized` (the kernel k + 1), with which
// it pairs on the same c, epsilon, loss, bias and tolerance; `bias: none` pairs with svr's
// `bias: none`. `tolerance`: an epoch's largest violation of the optimality conditions
// within it (LIBLINEAR stops on a relative 1-norm instead); after `epochs` epochs,
// converged false.
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include "common/dual_coordinate_descent.hpp"

namespace {

class LinearSvr final : public kexp::Solver {
 public:
  explicit LinearSvr(const kexp::Params& p) {
    settings_ = kexp_solvers::linear_settings(p, "squared_epsilon_insensitive");
  }

  double fit_flops_bound(std::size_t n, std::size_t D, const kexp::Kernel*) const override {
    return kexp_solvers::linear_fit_flops_bound(settings_, n, D);
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& Phi = *data.features;
    const kexp_solvers::LinearModel m =
        kexp_solvers::train_linear_regression(Phi, *data.targets, settings_);
    w_ = m.w;
    b_ = m.b;
    report.iterations = m.epochs;
    report.converged = m.converged;
    report.fitted = Phi.t() * w_ + b_;
    report.fit_flops = m.flops;
    report.matrix_bytes = 8.0 * static_cast<double>(w_.n_elem + 3 * Phi.n_cols);
    report.metrics = {
        {"support_vectors", static_cast<double>(m.support_vectors)},
        {"bounded_support_vectors", static_cast<double>(m.bounded)},
        {"dual_objective", m.objective},
    };
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    const arma::mat& Phi = *data.features;
    kexp::Prediction p;
    p.mean = Phi.t() * w_ + b_;
    report.predict_flops = 2.0 * static_cast<double>(Phi.n_elem);
    return p;
  }

 private:
  kexp_solvers::LinearSettings settings_;
  arma::vec w_;
  double b_ = 0;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("c", "1.0",
                      "the penalty C of the errors beyond ε, as svr's (`C` is read as `c`)")
        .greater_than(0)
        .log_scale(),
    kexp::param::real("epsilon", "0.1",
                      "the half-width ε of the tube with no loss (LIBLINEAR's -p)")
        .at_least(0),
    kexp::param::choice("loss", "epsilon_insensitive",
                        "epsilon_insensitive|squared_epsilon_insensitive",
                        "C Σ max(0, |r| − ε) (LIBLINEAR's -s 13), or its square (-s 12)"),
    kexp::param::choice("bias", "regularized", "regularized|none",
                        "a bias feature of value 1, regularized (LIBLINEAR's -B 1; svr's "
                        "`bias: regularized`, the kernel k + 1), or none"),
    kexp::param::real("tolerance", "1e-3",
                      "stop when an epoch's largest violation of the optimality conditions ≤ "
                      "tolerance (as svr's)")
        .greater_than(0)
        .log_scale(),
    kexp::param::integer("epochs", "1000",
                         "most passes over the data (LIBLINEAR's limit); past them, converged: "
                         "false")
        .at_least(1),
};
constexpr const char* kMetrics[] = {"support_vectors", "bounded_support_vectors", "dual_objective"};
constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo("linear_svr", "1.0.0",
                     "linear ε-SVR on Φ by dual coordinate descent: min ½(‖θ‖² + b²) + C Σ "
                     "max(0, |yᵢ − θᵀφ(xᵢ) − b| − ε)",
                     kParams, kexp::flags::primal | kexp::flags::iterative)
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(LinearSvr, kInfo)
